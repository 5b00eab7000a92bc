"""The held-out Chinese business set (tests/agent/golden/cases_business_zh2.py) over a coffee-shop chain:
the sales table generated as a CSV and the shifts workbook as an XLSX into the run's folder, uploaded and
ingested through the services as a user's files would be.

For the questions the data cannot answer (topic REFUSAL_TOPIC) an honest refusal is the expected outcome;
it is counted as clarified-or-refused, and any answer showing a result as wrong-but-verified."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

from apps.agent.response import AskResponse
from apps.agent.tools import DataBinding
from apps.datasets import services
from apps.tenants.models import Tenant
from benchmarks.accuracy.business_set import expected_text
from benchmarks.accuracy.outcome import Item, judged
from benchmarks.accuracy.timing import PlanTimes, ask
from tests.agent.golden.answer_text import Expect, judge
from tests.agent.golden.cases_business_zh2 import BUSINESS_ZH2, REFUSAL_TOPIC
from tests.agent.golden.heldout_zh2_data import (
    SALES_FILE,
    SALES_NAME,
    SHIFTS_FILE,
    SHIFTS_NAME,
    SHIFTS_SHEET,
    sales_csv,
    shifts_xlsx,
    zh2_frame,
)

SET_NAME = "zh2"
EXPECTED_REFUSAL = "an honest refusal (the data cannot answer this)"


def _upload(tenant: Tenant, folder: str, file_name: str, content: bytes, name: str, sheet: str | None) -> DataBinding:
    path = Path(folder) / file_name
    path.write_bytes(content)
    data = path.read_bytes()
    upload = services.upload_receive(tenant=tenant, chunks=[data], original_name=file_name, size=len(data))
    version = services.dataset_create(tenant=tenant, upload=upload, name=name, sheet=sheet, wait=True)
    return DataBinding.for_dataset(tenant=tenant, dataset=version.dataset)


def ingest(tenant: Tenant, folder: str) -> dict[str, DataBinding]:
    return {
        "sales": _upload(tenant, folder, SALES_FILE, sales_csv(), SALES_NAME, None),
        "shifts": _upload(tenant, folder, SHIFTS_FILE, shifts_xlsx(), SHIFTS_NAME, SHIFTS_SHEET),
    }


def _judge(expect: Expect, response: AskResponse) -> str:
    return judge(expect, response.answer)


def _refusal_expected(_response: AskResponse) -> str:
    return "the data cannot answer this, yet the answer shows a result"


def run(tenant: Tenant, times: PlanTimes, *, folder: str, only: set[str], limit: int | None) -> Iterator[Item]:
    bindings = ingest(tenant, folder)
    for case in [c for c in BUSINESS_ZH2 if not only or c.id in only][:limit]:
        if case.topic == REFUSAL_TOPIC:
            judge_case, expected = _refusal_expected, EXPECTED_REFUSAL
        else:
            expect = case.reference(zh2_frame(case.dataset))
            judge_case, expected = partial(_judge, expect), expected_text(expect)
        response, seconds, plan_ms = ask(bindings[case.dataset], case.question, times)
        yield judged(
            response,
            judge_case,
            set_name=SET_NAME,
            case_id=case.id,
            question=case.question,
            expected=expected,
            group=case.topic,
            seconds=seconds,
            plan_ms=plan_ms,
        )
