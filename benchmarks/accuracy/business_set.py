"""The Chinese business set (tests/agent/golden/cases_business_zh.py) over the demo datasets, seeded as the
demo seeds them, and the returns workbook, generated into the run's folder and uploaded as an XLSX."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

from apps.agent.response import AskResponse
from apps.agent.tools import DataBinding
from apps.datasets import services
from apps.datasets.demo import demo_datasets_seed
from apps.tenants.models import Tenant
from benchmarks.accuracy.outcome import Item, judged
from benchmarks.accuracy.timing import PlanTimes, ask
from tests.agent.golden.answer_text import Expect, judge
from tests.agent.golden.business_base import business_frame
from tests.agent.golden.cases_business_zh import BUSINESS_ZH
from tests.agent.golden.returns_data import FILE_NAME, SHEET, returns_xlsx


def ingest(tenant: Tenant, folder: str) -> dict[str, DataBinding]:
    orders, targets = demo_datasets_seed(tenant=tenant)
    path = Path(folder) / FILE_NAME
    path.write_bytes(returns_xlsx())
    content = path.read_bytes()
    upload = services.upload_receive(tenant=tenant, chunks=[content], original_name=FILE_NAME, size=len(content))
    returns = services.dataset_create(tenant=tenant, upload=upload, name="退货明细", sheet=SHEET, wait=True)
    return {
        name: DataBinding.for_dataset(tenant=tenant, dataset=version.dataset)
        for name, version in (("orders", orders), ("targets", targets), ("returns", returns))
    }


def expected_text(expect: Expect) -> str:
    numbers = [f"{n.value:.4%}" if n.ratio else f"{n.value:,.2f}" for n in expect.numbers[:6]]
    more = f" (+{len(expect.numbers) - 6})" if len(expect.numbers) > 6 else ""
    labels = ("、".join(expect.labels) + " ") if expect.labels else ""
    return labels + " ".join(numbers) + more + (" [in order]" if expect.ordered else "")


def _judge(expect: Expect, response: AskResponse) -> str:
    return judge(expect, response.answer)


def run(tenant: Tenant, times: PlanTimes, *, folder: str, only: set[str], limit: int | None) -> Iterator[Item]:
    bindings = ingest(tenant, folder)
    for case in [c for c in BUSINESS_ZH if not only or c.id in only][:limit]:
        expect = case.reference(business_frame(case.dataset))
        response, seconds, plan_ms = ask(bindings[case.dataset], case.question, times)
        yield judged(
            response,
            partial(_judge, expect),
            set_name="zh",
            case_id=case.id,
            question=case.question,
            expected=expected_text(expect),
            group=case.topic,
            seconds=seconds,
            plan_ms=plan_ms,
        )
