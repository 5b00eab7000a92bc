"""The queries the held-out scripted models send: QuerySpecs over the shipments and the roster, SQL and
QuerySpecs over shop.db. Careful queries apply every condition of their question; the wrong players reuse
them under other questions, or send the broken variants built here (a dropped filter, a stale one)."""

from __future__ import annotations

from typing import Any

from benchmarks.trust.script import Spec

# --- stock (English shipments, 2024-2025) -----------------------------------------------------------------


def year(column: str, value: int) -> Spec:
    return {"column": column, "op": "=", "value": value, "grain": "year"}


def eq(column: str, value: Any) -> Spec:
    return {"column": column, "op": "=", "value": value}


S24, S25 = year("ship_date", 2024), year("ship_date", 2025)
BOTH_YEARS: Spec = {"column": "ship_date", "op": "between", "value": ["2024-01-01", "2025-12-31"]}
VALUE = [{"name": "value", "func": "sum", "column": "value"}]
UNITS = [{"name": "units", "func": "sum", "column": "units"}]


def by_warehouse(*filters: Spec, aggregations: list[Spec] | None = None, desc: bool = True) -> Spec:
    aggs = aggregations or VALUE
    return {
        "filters": list(filters),
        "group_by": ["warehouse"],
        "aggregations": aggs,
        "sort": [{"by": aggs[0]["name"], "desc": desc}],
    }


def total(*filters: Spec, aggregations: list[Spec] | None = None) -> Spec:
    return {"filters": list(filters), "aggregations": aggregations or VALUE}


def warehouse_yoy(warehouse: str) -> Spec:
    return {
        "filters": [eq("warehouse", warehouse)],
        "group_by": [{"column": "ship_date", "grain": "year", "alias": "year"}],
        "aggregations": VALUE,
        "windows": [{"name": "yoy", "func": "pct_change", "of": "value", "order_by": "year"}],
        "sort": [{"by": "year"}],
    }


ST_UNITS_2025 = by_warehouse(S25, aggregations=UNITS)
ST_VALUE_2025 = by_warehouse(S25)
ST_VALUE_2024 = by_warehouse(S24)
ST_CATEGORY_BOTH: Spec = {
    "filters": [BOTH_YEARS],
    "group_by": ["category"],
    "aggregations": VALUE,
    "sort": [{"by": "value", "desc": True}],
}
ST_CATEGORY_LOW_2024: Spec = {
    "filters": [S24],
    "group_by": ["category"],
    "aggregations": VALUE,
    "sort": [{"by": "value"}],
    "limit": 2,
}
ST_MONTHS_2025: Spec = {
    "filters": [S25],
    "group_by": [{"column": "ship_date", "grain": "month", "alias": "month"}],
    "aggregations": VALUE,
    "windows": [{"name": "mom", "func": "pct_change", "of": "value", "order_by": "month"}],
    "sort": [{"by": "month"}],
}
ST_SHARE_2025: Spec = {
    **ST_VALUE_2025,
    "windows": [{"name": "share", "func": "share_of_total", "of": "value"}],
}
ST_TOTAL_2025 = total(S25, aggregations=[{"name": "total_value", "func": "sum", "column": "value"}])
ST_YOY_ALL: Spec = {
    "group_by": ["warehouse", {"column": "ship_date", "grain": "year", "alias": "year"}],
    "aggregations": VALUE,
    "windows": [
        {"name": "yoy", "func": "pct_change", "of": "value", "partition_by": ["warehouse"], "order_by": "year"}
    ],
    "sort": [{"by": "warehouse"}, {"by": "year"}],
}
ST_QUARTERS_2025: Spec = {
    "filters": [S25],
    "group_by": [{"column": "ship_date", "grain": "quarter", "alias": "quarter"}],
    "aggregations": VALUE,
    "sort": [{"by": "value", "desc": True}],
}
ST_DAMAGED_2025 = by_warehouse(S25, aggregations=[{"name": "damaged_units", "func": "sum", "column": "damaged"}])
ST_DAMAGED_SHIPMENTS_2025 = total(
    S25, {"column": "damaged", "op": ">", "value": 0}, aggregations=[{"name": "shipments", "func": "count"}]
)
ST_SKUS: Spec = {
    "aggregations": [{"name": "skus", "func": "nunique", "column": "sku"}, {"name": "shipments", "func": "count"}]
}
ST_SKUS_2025 = {**ST_SKUS, "filters": [S25]}
ST_CATEGORY_SHARE: Spec = {
    "group_by": ["category"],
    "aggregations": VALUE,
    "windows": [{"name": "share", "func": "share_of_total", "of": "value"}],
    "sort": [{"by": "value", "desc": True}],
}

# --- 员工 (Chinese roster, hires 2024-2025) -------------------------------------------------------------

H24, H25 = year("入职日期", 2024), year("入职日期", 2025)
ACTIVE = eq("状态", "在职")
HEADS = [{"name": "人数", "func": "count"}]
AVG_PAY = [{"name": "平均月薪", "func": "avg", "column": "月薪"}]


def by_dept(*filters: Spec, aggregations: list[Spec] | None = None, desc: bool = True) -> Spec:
    aggs = aggregations or HEADS
    return {
        "filters": list(filters),
        "group_by": ["部门"],
        "aggregations": aggs,
        "sort": [{"by": aggs[0]["name"], "desc": desc}],
    }


def by_city(*, desc: bool) -> Spec:
    return {"group_by": ["城市"], "aggregations": AVG_PAY, "sort": [{"by": "平均月薪", "desc": desc}]}


def hires_by_year(*filters: Spec) -> Spec:
    return {
        "filters": list(filters),
        "group_by": [{"column": "入职日期", "grain": "year", "alias": "年份"}],
        "aggregations": [{"name": "入职人数", "func": "count"}],
        "windows": [{"name": "同比", "func": "pct_change", "of": "入职人数", "order_by": "年份"}],
        "sort": [{"by": "年份"}],
    }


H_ACTIVE_BY_DEPT = by_dept(ACTIVE)
H_PAY_BY_DEPT = by_dept(aggregations=AVG_PAY)
H_HIRES_2025_MONTHLY: Spec = {
    "filters": [H25],
    "group_by": [{"column": "入职日期", "grain": "month", "alias": "月份"}],
    "aggregations": [{"name": "入职人数", "func": "count"}],
    "windows": [{"name": "环比", "func": "pct_change", "of": "入职人数", "order_by": "月份"}],
    "sort": [{"by": "月份"}],
}
H_SHARE_BY_DEPT: Spec = {
    **by_dept(),
    "windows": [{"name": "占比", "func": "share_of_total", "of": "人数"}],
}
H_HEADCOUNT: Spec = {"aggregations": [{"name": "员工数", "func": "count"}]}
H_TURNOVER: Spec = {
    "aggregations": [
        {"name": "离职人数", "func": "count", "where": [eq("状态", "离职")]},
        {"name": "员工数", "func": "count"},
    ],
    "derived": [{"name": "离职率", "expr": "离职人数 / 员工数"}],
}
H_QUARTERS_2024: Spec = {
    "filters": [H24],
    "group_by": [{"column": "入职日期", "grain": "quarter", "alias": "季度"}],
    "aggregations": [{"name": "入职人数", "func": "count"}],
    "sort": [{"by": "入职人数", "desc": True}],
}


def dept_pay(dept: str, *more: Spec) -> Spec:
    return {"filters": [eq("部门", dept), *more], "aggregations": AVG_PAY}


def count_where(*filters: Spec, name: str = "人数") -> Spec:
    return {"filters": list(filters), "aggregations": [{"name": name, "func": "count"}]}


# --- shop.db (SQL source of the first set, new questions) ---------------------------------------------------

P_CITY = (
    'SELECT u."城市", SUM(o."金额") AS "下单金额" FROM "订单" AS o JOIN "用户" AS u ON o."用户ID" = u."用户ID" '
    'GROUP BY u."城市" ORDER BY "下单金额" DESC'
)
P_TOP_USERS = (
    'SELECT u."姓名", COUNT(*) AS "订单数" FROM "订单" AS o JOIN "用户" AS u ON o."用户ID" = u."用户ID" '
    'GROUP BY u."用户ID", u."姓名" ORDER BY "订单数" DESC LIMIT 2'
)
P_QUARTERS_2025 = (
    'SELECT substr("日期", 1, 4) || \'-Q\' || ((CAST(substr("日期", 6, 2) AS INTEGER) + 2) / 3) AS "季度", '
    'SUM("金额") AS "订单金额" FROM "订单" WHERE "日期" BETWEEN \'2025-01-01\' AND \'2025-12-31\' '
    'GROUP BY "季度" ORDER BY "季度"'
)
P_REFUNDS = (
    'SELECT SUM(CASE WHEN "状态" = \'退款\' THEN 1 ELSE 0 END) AS "退款订单数", COUNT(*) AS "订单数", '
    '1.0 * SUM(CASE WHEN "状态" = \'退款\' THEN 1 ELSE 0 END) / COUNT(*) AS "退款占比" FROM "订单"'
)
P_CHANNEL_AVG = 'SELECT "渠道", AVG("金额") AS "平均金额" FROM "订单" GROUP BY "渠道" ORDER BY "平均金额" DESC'
P_CHANNEL_ALL = (
    'SELECT "渠道", COUNT(*) AS "订单数", AVG("金额") AS "平均金额", SUM("金额") AS "销售额" FROM "订单" '
    'GROUP BY "渠道" ORDER BY "销售额" DESC'
)
P_MONTHS = (
    'SELECT substr("日期", 1, 7) AS "月份", SUM("金额") AS "订单金额", '
    '(SUM("金额") - LAG(SUM("金额")) OVER (ORDER BY substr("日期", 1, 7))) '
    '/ LAG(SUM("金额")) OVER (ORDER BY substr("日期", 1, 7)) AS "环比" '
    'FROM "订单" WHERE "日期" BETWEEN \'2025-01-01\' AND \'2025-12-31\' GROUP BY "月份" ORDER BY "月份"'
)
P_MONTHS_PLAIN = (
    'SELECT substr("日期", 1, 7) AS "月份", SUM("金额") AS "订单金额" FROM "订单" '
    'WHERE "日期" BETWEEN \'2025-01-01\' AND \'2025-12-31\' GROUP BY "月份" ORDER BY "月份"'
)
