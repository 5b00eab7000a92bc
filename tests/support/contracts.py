"""The requirement documents' JSON examples, verbatim, and a small table they fit: shared by the API and tool tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

# Verbatim from the analysis back-end design (section 4.4) and its PlotSpec (section 4.5).
DOCUMENTED_SPEC: dict[str, Any] = {
    "filters": [{"col": "年份", "op": "=", "value": 2025}],
    "group_by": ["账号", "月份"],
    "aggregations": [
        {"as": "return_qty", "agg": "sum", "col": "退货数量"},
        {"as": "quality_cnt", "agg": "sum", "col": "产品质量"},
    ],
    "derived": [{"as": "quality_rate", "expr": "quality_cnt / nullif(return_qty, 0)"}],
    "sort": [{"col": "月份", "dir": "asc"}],
    "limit": 5000,
}
EXPLICIT_SPEC: dict[str, Any] = {
    "filters": [{"column": "年份", "op": "=", "value": 2025}],
    "group_by": [{"column": "账号"}, {"column": "月份"}],
    "aggregations": [
        {"name": "return_qty", "func": "sum", "column": "退货数量"},
        {"name": "quality_cnt", "func": "sum", "column": "产品质量"},
    ],
    "derived": [{"name": "quality_rate", "expr": "quality_cnt / nullif(return_qty, 0)"}],
    "sort": [{"by": "月份", "desc": False}],
    "limit": 5000,
}
MIXED_SPEC: dict[str, Any] = {
    "filters": [{"col": "年份", "op": "=", "value": 2025}],
    "group_by": ["账号", {"col": "月份"}],
    "aggregations": [
        {"name": "return_qty", "agg": "sum", "col": "退货数量"},
        {"as": "quality_cnt", "func": "sum", "column": "产品质量"},
    ],
    "derived": [{"as": "quality_rate", "expr": "quality_cnt / nullif(return_qty, 0)"}],
    "sort": [{"by": "月份", "dir": "asc"}],
    "limit": 5000,
}
DOCUMENTED_PLOT: dict[str, Any] = {
    "chart_type": "line",
    "title": "2025 各账号产品质量占比趋势",
    "x": "月份",
    "y": "quality_rate",
    "series": "账号",
    "y_format": "percent",
}
RETURNS = [
    ("年份", "账号", "月份", "退货数量", "产品质量"),
    (2025, "Amazon_A", "2025-01", 10, 4),
    (2025, "Amazon_A", "2025-02", 20, 5),
    (2025, "Amazon_B", "2025-01", 0, 0),
    (2025, "Amazon_B", "2025-02", 8, 2),
    (2024, "Amazon_A", "2024-12", 50, 50),
]
EXPECTED_COLUMNS = ["账号", "月份", "return_qty", "quality_cnt", "quality_rate"]
EXPECTED_ROWS = [
    ["Amazon_A", "2025-01", 10, 4, 0.4],
    ["Amazon_A", "2025-02", 20, 5, 0.25],
    ["Amazon_B", "2025-01", 0, 0, None],
    ["Amazon_B", "2025-02", 8, 2, 0.25],
]


def returns_text() -> str:
    """RETURNS as CSV text."""
    return "\n".join(",".join(str(v) for v in row) for row in RETURNS) + "\n"


def by_account_and_month(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows in a fixed order (the spec sorts by month only, so accounts within a month may come either way)."""
    return sorted(([r[0], r[1], int(r[2]), int(r[3]), r[4]] for r in rows), key=lambda r: (r[0], r[1]))


def write_returns_sqlite(path: Path) -> None:
    """RETURNS as table 退货 of a new SQLite file (a SQL source's database)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE 退货 (年份 INTEGER, 账号 TEXT, 月份 TEXT, 退货数量 INTEGER, 产品质量 INTEGER)")
        db.executemany("INSERT INTO 退货 VALUES (?, ?, ?, ?, ?)", RETURNS[1:])
