"""Graph overhead per step: a whole run with an instant scripted model, minus the time spent in tools.

What remains is the graph itself: state updates, routing, message building, reference filling,
verification and narration. Target (docs/DESIGN.md section 8): under 20 ms per step.

    .venv/bin/python -m benchmarks.bench_graph [--runs 30]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.common import report, setup_django

SPEC = {
    "group_by": ["地区", {"column": "日期", "grain": "month", "alias": "月份"}],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}, {"name": "单数", "func": "count"}],
    "windows": [{"name": "占比", "func": "share_of_total", "of": "销售额", "partition_by": ["月份"]}],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    setup_django()
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    from apps.agent.runner import answer_question
    from apps.agent.tools import DataBinding
    from apps.datasets import services
    from apps.tenants.services import tenant_create
    from tests.fakes import ScriptedChatModel, call, final, tools

    setup_test_environment()
    with tempfile.TemporaryDirectory() as tmp:
        settings.TENANT_DATA_ROOT = Path(tmp) / "tenants"
        settings.DATABASES["default"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        call_command("migrate", verbosity=0)
        tenant = tenant_create(name="Bench", slug="bench")
        lines = ["地区,日期,金额"] + [
            f"{r},2025-{m:02d}-{d:02d},{(m * d) % 97 + 0.5}"
            for r in "ABCDE"
            for m in range(1, 13)
            for d in range(1, 28)
        ]
        content = ("\n".join(lines) + "\n").encode()
        upload = services.upload_receive(tenant=tenant, chunks=[content], original_name="b.csv", size=len(content))
        dataset = services.dataset_create(tenant=tenant, upload=upload, name="b", wait=True).dataset
        binding = DataBinding.for_dataset(tenant=tenant, dataset=dataset)
        samples, per_step = [], []
        for i in range(args.runs):
            spec = {**SPEC, "limit": 1000 - i}  # a new spec each run: no result cache
            model = ScriptedChatModel(
                turns=[
                    tools(call("get_schema")),
                    tools(call("run_query", spec=spec)),
                    final("{{q1.地区[0]}} {{q1.月份[0]}}：{{q1.销售额[0]}}，占 {{q1.占比[0]|pct}}"),
                ]
            )
            started = time.perf_counter()
            response = answer_question(
                binding=binding, question="各地区每月销售额和占比？", model=model, model_name="scripted"
            )
            total = (time.perf_counter() - started) * 1000
            assert response.status == "answered", response.error
            tool_ms = sum(step.latency_ms for step in response.audit.steps)
            samples.append(total - tool_ms)
            per_step.append((total - tool_ms) / 3)  # three model turns: two tool steps and the final answer
        cells = len(response.tables[0].rows) * len(response.tables[0].columns)
    print(
        report(
            [
                {
                    "runs": args.runs,
                    "result cells": cells,
                    "graph ms / run (median)": statistics.median(samples),
                    "graph ms / step (median)": statistics.median(per_step),
                    "p95 ms / step": sorted(per_step)[int(0.95 * (len(per_step) - 1))],
                    "target ms / step": 20.0,
                }
            ]
        )
    )


if __name__ == "__main__":
    main()
