"""The bilingual golden set (tests/agent/golden): each final query result and the numbers of the filled
answer compared with the pandas reference, with the golden scorer's own comparisons."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pandas as pd

from apps.agent.events import RunEvent
from apps.agent.response import AskResponse
from apps.tenants.models import Tenant
from benchmarks.accuracy.outcome import Item, judged
from benchmarks.accuracy.timing import PlanTimes, ask
from tests.agent.golden.cases_base import Case
from tests.agent.golden.datasets import frame
from tests.agent.golden.scorer import CASES, ingest_all, judge_tables, label


def _expected_text(expected: pd.DataFrame) -> str:
    rows = [" ".join(label(v) for v in row) for row in expected.head(4).itertuples(index=False)]
    more = f" (+{len(expected) - 4} rows)" if len(expected) > 4 else ""
    return "; ".join(rows) + more


def _judge(case: Case, expected: pd.DataFrame, specs: list[dict[str, Any]]) -> Callable[[AskResponse], str]:
    def judge(response: AskResponse) -> str:
        tables = [t for t in response.tables if "run_query" in t.name]
        if not tables:
            return "no query result"
        try:
            judge_tables(case, expected, response.answer, tables, specs)
        except AssertionError as exc:
            return str(exc)
        return ""

    return judge


def run(tenant: Tenant, times: PlanTimes, *, only: set[str], limit: int | None) -> Iterator[Item]:
    bindings = ingest_all(tenant)
    cases: Sequence[Case] = [c for c in CASES if not only or c.id in only][:limit]
    for case in cases:
        events: list[RunEvent] = []
        response, seconds, plan_ms = ask(bindings[case.dataset], case.question, times, events.append)
        specs = [
            e.data["args"].get("spec", {})
            for e in events
            if e.type == "tool.started" and e.data.get("tool") == "run_query"
        ]
        expected = case.expected(frame(case.dataset))
        yield judged(
            response,
            _judge(case, expected, specs),
            set_name="golden",
            case_id=case.id,
            question=case.question,
            expected=_expected_text(expected),
            group=case.lang,
            seconds=seconds,
            plan_ms=plan_ms,
        )
