"""Runs the golden questions through the real graph (`answer_question` with the offline planner, real
tools on ingested datasets) and compares each final query result, and the numbers the filled answer
shows, with the pandas reference."""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from apps.agent.events import RunEvent
from apps.agent.offline import OfflinePlanner
from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding
from apps.agent.verification.check import ToolCallRecord, VerifyInput, verify
from apps.datasets import services
from apps.tenants.models import Tenant
from tests.agent.golden.cases_base import Case
from tests.agent.golden.cases_hr import HR
from tests.agent.golden.cases_inventory import INVENTORY
from tests.agent.golden.cases_orders import ORDERS
from tests.agent.golden.cases_traffic import TRAFFIC
from tests.agent.golden.cases_variants import VARIANTS
from tests.agent.golden.datasets import GENERATORS, csv_bytes, frame

CASES: list[Case] = [*ORDERS, *INVENTORY, *HR, *TRAFFIC, *VARIANTS]
REL_TOL = 1e-6


@dataclass
class Result:
    case: Case
    passed: bool
    reason: str = ""
    status: str = ""
    answer: str = ""
    specs: list[dict[str, Any]] = field(default_factory=list)


def ingest_all(tenant: Tenant) -> dict[str, DataBinding]:
    """Each golden dataset uploaded and ingested through the real services."""
    bindings = {}
    for name in GENERATORS:
        content = csv_bytes(name)
        upload = services.upload_receive(
            tenant=tenant, chunks=[content], original_name=f"{name}.csv", size=len(content)
        )
        version = services.dataset_create(tenant=tenant, upload=upload, name=f"golden-{name}", wait=True)
        bindings[name] = DataBinding.for_dataset(tenant=tenant, dataset=version.dataset)
    return bindings


# --- values as comparable things ------------------------------------------------------------------
def plain(value: Any) -> Any:
    """A pandas/numpy cell as the JSON value a tool would return."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return None if math.isnan(float(value)) else float(value)
    if isinstance(value, pd.Timestamp | dt.date):
        return value.strftime("%Y-%m-%d")
    return value


def label(value: Any) -> str:
    value = plain(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def number(value: Any) -> float | None:
    value = plain(value)
    if isinstance(value, bool) or value is None:
        return None if value is None else float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def close(actual: Any, wanted: Any) -> bool:
    a, b = number(actual), number(wanted)
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-9)


# --- comparing tables -----------------------------------------------------------------------------
def _key_columns(case: Case, expected: pd.DataFrame, columns: list[str], rows: list[list[Any]]) -> dict[str, int]:
    mapping: dict[str, int] = {}
    for key in case.keys:
        wanted = Counter(label(v) for v in expected[key])
        for index, _name in enumerate(columns):
            if index not in mapping.values() and Counter(label(r[index]) for r in rows) == wanted:
                mapping[key] = index
                break
        else:
            raise AssertionError(f"no result column holds the labels of {key!r} ({sorted(wanted)[:5]})")
    return mapping


def compare(case: Case, expected: pd.DataFrame, columns: list[str], rows: list[list[Any]]) -> set[int]:
    """Raises AssertionError saying what differs; returns the result columns that matched."""
    if len(rows) != len(expected):
        raise AssertionError(f"expected {len(expected)} rows, got {len(rows)}")
    keys = _key_columns(case, expected, columns, rows)
    exp_rows = [list(r) for r in expected.itertuples(index=False)]
    names = list(expected.columns)
    if not case.ordered and keys:
        exp_rows.sort(key=lambda r: tuple(label(r[names.index(k)]) for k in case.keys))
        rows = sorted(rows, key=lambda r: tuple(label(r[keys[k]]) for k in case.keys))
    elif case.ordered:
        for k, index in keys.items():
            got = [label(r[index]) for r in rows]
            if got != [label(r[names.index(k)]) for r in exp_rows]:
                raise AssertionError(f"order of {k!r} differs: got {got}")
    matched = set(keys.values())
    for name in names:
        if name in case.keys:
            continue
        wanted = [r[names.index(name)] for r in exp_rows]
        found = next(
            (
                i
                for i in range(len(columns))
                if i not in matched and all(close(r[i], w) for r, w in zip(rows, wanted, strict=True))
            ),
            None,
        )
        if found is None:
            raise AssertionError(f"no result column equals {name!r}: expected {[plain(w) for w in wanted[:4]]}")
        matched.add(found)
    return matched


def check_answer(
    case: Case,
    expected: pd.DataFrame,
    answer: str,
    columns: list[str],
    rows: list[list[Any]],
    matched: set[int],
    spec: dict[str, Any] | None = None,
    others: Sequence[tuple[list[str], list[list[Any]]]] = (),
) -> None:
    """Every number the filled answer shows must be one of the reference values (or of the extra
    result columns the reference does not cover), and at least one reference value must be shown."""
    exp_rows = [[plain(v) for v in r] for r in expected.itertuples(index=False)]
    records = [
        ToolCallRecord(1, "get_schema", "ok", columns=["column"], rows=[[c] for c in columns], row_count=len(columns)),
        ToolCallRecord(
            2,
            "run_query",
            "ok",
            # the parameters the run used (the question's thresholds, its limit); not its sort: the reference rows
            # stand in pandas' order, not the query's
            arguments={"spec": {k: v for k, v in (spec or {}).items() if k != "sort"}},
            columns=list(expected.columns),
            rows=exp_rows,
            row_count=len(exp_rows),
        ),
    ]
    extra = [i for i in range(len(columns)) if i not in matched]
    if extra:
        extra_rows = [[r[i] for i in extra] for r in rows]
        records.append(
            ToolCallRecord(
                3, "run_query", "ok", columns=[columns[i] for i in extra], rows=extra_rows, row_count=len(rows)
            )
        )
    for step, (other_columns, other_rows) in enumerate(others, start=4):  # the run's further queries (a trend's
        # overall change): their numbers were grounded by the run's own verify
        records.append(
            ToolCallRecord(step, "run_query", "ok", columns=other_columns, rows=other_rows, row_count=len(other_rows))
        )
    verdict = verify(VerifyInput(question=case.question, draft=answer, tool_calls=records))
    # Coverage was judged by the run itself (over the queries it executed); here only the numbers are compared.
    wrong = [r for r in verdict.reasons if r.code != "question_not_covered"]
    if wrong:
        raise AssertionError("answer: " + "; ".join(r.message for r in wrong))
    values = [c for c in expected.columns if c not in case.keys]
    if values and not any(g.step == 2 and g.column in values for g in verdict.grounding):
        raise AssertionError("the answer shows none of the reference values")


def judge_tables(
    case: Case, expected: pd.DataFrame, answer: str, tables: Sequence[Any], specs: Sequence[dict[str, Any]]
) -> None:
    """The run's main result (its first successful query) against the reference, and the answer's numbers
    against it and the run's further results. `specs`: every run_query spec of the run, in order."""
    main = tables[0]
    spec = specs[-len(tables)] if len(specs) >= len(tables) else None  # the successful queries are the last ones
    matched = compare(case, expected, main.columns, main.rows)
    others = [(list(t.columns), [list(r) for r in t.rows]) for t in tables[1:]]
    check_answer(case, expected, answer, main.columns, main.rows, matched, spec, others)


# --- running ----------------------------------------------------------------------------------------
def run_case(case: Case, binding: DataBinding) -> Result:
    events: list[RunEvent] = []
    response = answer_question(binding=binding, question=case.question, model=OfflinePlanner(), emit=events.append)
    specs = [
        e.data["args"].get("spec", {}) for e in events if e.type == "tool.started" and e.data.get("tool") == "run_query"
    ]
    result = Result(case, passed=False, status=response.status, answer=response.answer, specs=specs)
    if response.status != "answered":
        result.reason = f"status {response.status}: {response.error.message if response.error else ''}"
        return result
    tables = [t for t in response.tables if "run_query" in t.name]
    if not tables:
        result.reason = "no query result"
        return result
    expected = case.expected(frame(case.dataset))
    try:
        judge_tables(case, expected, response.answer, tables, specs)
    except AssertionError as exc:
        result.reason = str(exc)
        return result
    result.passed = True
    return result


def run_all(bindings: dict[str, DataBinding], cases: Sequence[Case] = CASES) -> list[Result]:
    return [run_case(case, bindings[case.dataset]) for case in cases]


def accuracy(results: Sequence[Result]) -> float:
    return sum(r.passed for r in results) / len(results) if results else 0.0


def breakdown(results: Sequence[Result]) -> dict[str, dict[str, tuple[int, int]]]:
    """(passed, total) per language and per dataset."""
    out: dict[str, dict[str, tuple[int, int]]] = {"language": {}, "dataset": {}}
    for result in results:
        for group, key in (("language", result.case.lang), ("dataset", result.case.dataset)):
            passed, total = out[group].get(key, (0, 0))
            out[group][key] = (passed + result.passed, total + 1)
    return out


def report(results: Sequence[Result], *, verbose: bool = True) -> str:
    lines = []
    if verbose:
        for r in results:
            mark = "PASS" if r.passed else "FAIL"
            lines.append(
                f"{mark} {r.case.id} [{r.case.lang}/{r.case.dataset}] {r.case.question}"
                + (f"  -- {r.reason}" if r.reason else "")
            )
    lines.append(f"overall: {sum(r.passed for r in results)}/{len(results)} = {accuracy(results):.1%}")
    for group, counts in breakdown(results).items():
        parts = [f"{key} {p}/{t} ({p / t:.0%})" for key, (p, t) in sorted(counts.items())]
        lines.append(f"by {group}: " + ", ".join(parts))
    return "\n".join(lines)
