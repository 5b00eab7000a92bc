"""The verify node on a long draft over a 1,000-cell result (target: under 5 ms; docs/DESIGN.md section 8).

The reference point is the cost of merely scanning the draft with one regex (a floor, not a rival).

    .venv/bin/python -m benchmarks.bench_verify [--cells 1000] [--repeat 50]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by path (python benchmarks/bench_verify.py): the repository is the import root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import median_seconds, report, setup_django  # noqa: E402


def build(cells: int):  # type: ignore[no-untyped-def]
    from apps.agent.verification.check import ToolCallRecord, VerifyInput
    from apps.agent.verification.vocabulary import Vocabulary

    columns = ["地区", "月份", "销售额", "订单数", "占比"]
    rows = []
    n_rows = cells // len(columns)
    for i in range(n_rows):
        rows.append([f"地区{i % 7}", f"2025-{i % 12 + 1:02d}", 1000.0 + i * 37.25, 10 + i, (i % 100) / 250])
    calls = [
        ToolCallRecord(
            step=1,
            name="get_schema",
            status="ok",
            columns=["name"],
            rows=[[c] for c in columns],
            row_count=len(columns),
        ),
        ToolCallRecord(
            step=2,
            name="run_query",
            status="ok",
            arguments={"spec": SPEC},
            columns=columns,
            rows=rows,
            row_count=n_rows,
        ),
    ]
    vocabulary = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "地区", "kind": "text", "role": "dimension", "values": [f"地区{i}" for i in range(7)]},
                    {"name": "月份", "kind": "text", "role": "dimension", "examples": ["2025-01", "2025-02"]},
                    {"name": "金额", "kind": "number", "role": "measure"},
                ]
            }
        ]
    )
    lines = [f"{r[0]} {r[1]} 销售额 {r[2]:,.2f}，订单 {r[3]} 单，占比 {r[4] * 100:.1f}%" for r in rows[:40]]
    draft = "2025 年各地区销售额如下：\n" + "\n".join(f"{i + 1}. {line}" for i, line in enumerate(lines))
    return VerifyInput(question="2025 年各地区每月销售额和占比", draft=draft, tool_calls=calls, vocabulary=vocabulary)


SPEC = {
    "group_by": ["地区", "月份"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}, {"name": "订单数", "func": "count"}],
    "windows": [{"name": "占比", "func": "share_of_total", "of": "销售额"}],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    setup_django()
    from apps.agent.verification.check import verify

    inp = build(args.cells)
    verdict = verify(inp)
    if not verdict.passed:
        raise SystemExit(f"the benchmark draft should pass: {verdict.reasons}")
    scan = re.compile(r"\d+(?:\.\d+)?")
    t_verify = median_seconds(lambda: verify(inp), repeat=args.repeat)
    t_scan = median_seconds(lambda: scan.findall(inp.draft), repeat=args.repeat)
    print(
        report(
            [
                {
                    "cells": args.cells,
                    "numbers checked": len(verdict.grounding),
                    "verify ms": t_verify * 1000,
                    "regex scan ms": t_scan * 1000,
                    "ratio": t_verify / t_scan,
                    "target ms": 5.0,
                }
            ]
        )
    )


if __name__ == "__main__":
    main()
