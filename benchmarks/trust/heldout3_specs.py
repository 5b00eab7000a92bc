"""The queries the third held-out set's scripted models send (物流运单 and the English retail sheet)."""

from __future__ import annotations

from typing import Any

from benchmarks.trust import script
from benchmarks.trust.script import Spec

LATE = {"column": "是否延误", "op": "=", "value": "是"}


def year(value: int, column: str = "日期") -> Spec:
    return {"column": column, "op": "=", "value": value, "grain": "year"}


def by_warehouse(yr: int, *, measure: str = "运费", name: str = "运费", extra: list[Spec] | None = None) -> Spec:
    return {
        "filters": [year(yr), *(extra or [])],
        "group_by": ["仓库"],
        "aggregations": [{"name": name, "func": "sum", "column": measure}],
        "sort": [{"by": name, "desc": True}],
    }


WH_YOY: Spec = {
    "filters": [{"column": "日期", "op": "between", "value": ["2024-01-01", "2025-12-31"]}],
    "group_by": ["仓库", {"column": "日期", "grain": "year", "alias": "年份"}],
    "aggregations": [{"name": "运费", "func": "sum", "column": "运费"}],
    "windows": [{"name": "同比", "func": "pct_change", "of": "运费", "partition_by": ["仓库"], "order_by": "年份"}],
    "sort": [{"by": "仓库"}, {"by": "年份"}],
}
MONTHS_2025: Spec = {
    "filters": [year(2025)],
    "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
    "aggregations": [{"name": "运费", "func": "sum", "column": "运费"}],
    "windows": [{"name": "环比", "func": "pct_change", "of": "运费", "order_by": "月份"}],
    "sort": [{"by": "月份"}],
}
TOP3_PIECE_MONTHS: Spec = {
    "filters": [year(2025)],
    "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
    "aggregations": [{"name": "件数", "func": "sum", "column": "件数"}],
    "sort": [{"by": "件数", "desc": True}],
    "limit": 3,
}


def late_rate(group: str, *filters: Spec) -> Spec:
    spec: dict[str, Any] = {
        "group_by": [group],
        "aggregations": [
            {"name": "延误单数", "func": "count", "where": [LATE]},
            {"name": "总单数", "func": "count"},
        ],
        "derived": [{"name": "延误率", "expr": "延误单数 / 总单数"}],
        "sort": [{"by": "延误率", "desc": True}],
    }
    if filters:
        spec["filters"] = list(filters)
    return spec


def route_share(measure: str, *, name: str | None = None) -> Spec:
    name = name or measure
    return {
        "filters": [year(2025)],
        "group_by": ["线路"],
        "aggregations": [{"name": name, "func": "sum", "column": measure}],
        "windows": [{"name": "占比", "func": "share_of_total", "of": name}],
        "sort": [{"by": name, "desc": True}],
    }


AVG_DAYS_2025: Spec = {
    "filters": [year(2025)],
    "group_by": ["仓库"],
    "aggregations": [{"name": "平均时效", "func": "avg", "column": "时效天数"}],
    "sort": [{"by": "平均时效", "desc": True}],
}
TOTAL_2025: Spec = {
    "filters": [year(2025)],
    "aggregations": [
        {"name": "总运费", "func": "sum", "column": "运费"},
        {"name": "总件数", "func": "sum", "column": "件数"},
    ],
}
LATE_2025: Spec = {
    "filters": [year(2025)],
    "aggregations": [
        {"name": "延误记录", "func": "count", "where": [LATE]},
        {"name": "记录数", "func": "count"},
    ],
    "derived": [{"name": "延误占比", "expr": "延误记录 / 记录数"}],
}
SH_JUNE_2025: Spec = {
    "filters": [
        {"column": "仓库", "op": "=", "value": "上海仓"},
        {"column": "日期", "op": "between", "value": ["2025-06-01", "2025-06-30"]},
    ],
    "aggregations": [{"name": "运费", "func": "sum", "column": "运费"}],
}
SH_2025: Spec = {
    "filters": [{"column": "仓库", "op": "=", "value": "上海仓"}, year(2025)],
    "aggregations": [{"name": "运费", "func": "sum", "column": "运费"}],
}

# --- retail (English) ----------------------------------------------------------------------------------------

# The retail table is the base set's: these queries are its own.
EN_REGION_2025, EN_YOY, EN_CHANNEL_SHARE = script.EN_BY_REGION, script.EN_YOY, script.EN_SHARE
EN_AVG_UNITS = script.EN_AVG_UNITS
EN_TOTAL_2025: Spec = {
    "filters": [year(2025, "order_date")],
    "aggregations": [{"name": "revenue", "func": "sum", "column": "revenue"}, {"name": "orders", "func": "count"}],
}
EN_MONTHS_2025: Spec = {
    "filters": [year(2025, "order_date")],
    "group_by": [{"column": "order_date", "grain": "month", "alias": "month"}],
    "aggregations": [{"name": "revenue", "func": "sum", "column": "revenue"}],
    "windows": [{"name": "mom", "func": "pct_change", "of": "revenue", "order_by": "month"}],
    "sort": [{"by": "month"}],
}
EN_AVG_REVENUE_2025: Spec = {
    "filters": [year(2025, "order_date")],
    "group_by": ["region"],
    "aggregations": [{"name": "avg_revenue", "func": "avg", "column": "revenue"}],
    "sort": [{"by": "avg_revenue", "desc": True}],
}
EN_TOP2_MONTHS: Spec = {**EN_MONTHS_2025, "windows": [], "sort": [{"by": "revenue", "desc": True}], "limit": 2}
