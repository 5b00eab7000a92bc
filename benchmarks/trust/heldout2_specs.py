"""The queries the second held-out set's scripted models send (QuerySpecs and read-only SQL), shared by the
right and the wrong answers: a wrong answer usually runs the right query and then misreads it."""

from __future__ import annotations

from typing import Any

from benchmarks.trust.script import Spec


def year(column: str, value: int) -> Spec:
    return {"column": column, "op": "=", "value": value, "grain": "year"}


def month(column: str, value: str) -> Spec:
    return {"column": column, "op": "=", "value": value, "grain": "month"}


def eq(column: str, value: Any) -> Spec:
    return {"column": column, "op": "=", "value": value}


def isin(column: str, values: list[Any]) -> Spec:
    return {"column": column, "op": "in", "value": values}


def total(name: str, column: str) -> Spec:
    return {"name": name, "func": "sum", "column": column}


# --- 营销投放 -----------------------------------------------------------------------------------------------

MK_SUMS = [total("曝光量", "曝光量"), total("点击量", "点击量"), total("成交额", "成交额"), total("成本", "成本")]
MK_CTR = {"name": "点击率", "expr": "点击量 / 曝光量"}
MK_ROI = {"name": "ROI", "expr": "成交额 / 成本"}


def mk_channels(
    *filters: Spec, sort: str = "成交额", limit: int | None = None, channels: list[str] | None = None
) -> Spec:
    """Per channel: the four sums, CTR and ROI, largest `sort` first."""
    where = list(filters) + ([isin("渠道", channels)] if channels else [])
    spec: Spec = {
        "filters": where,
        "group_by": ["渠道"],
        "aggregations": MK_SUMS,
        "derived": [MK_CTR, MK_ROI],
        "sort": [{"by": sort, "desc": True}],
    }
    if limit:
        spec["limit"] = limit
    return spec


def mk_one(*filters: Spec, measures: list[Spec] | None = None, derived: list[Spec] | None = None) -> Spec:
    """One row: sums over the filtered rows."""
    spec: Spec = {"filters": list(filters), "aggregations": measures or MK_SUMS}
    if derived:
        spec["derived"] = derived
    return spec


def mk_yoy(channel: str) -> Spec:
    return {
        "filters": [eq("渠道", channel)],
        "group_by": [{"column": "日期", "grain": "year", "alias": "年份"}],
        "aggregations": [total("成交额", "成交额")],
        "windows": [{"name": "同比", "func": "pct_change", "of": "成交额", "order_by": "年份"}],
        "sort": [{"by": "年份"}],
    }


MK_MONTHS_2025: Spec = {
    "filters": [year("日期", 2025)],
    "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
    "aggregations": [total("成交额", "成交额")],
    "windows": [{"name": "环比", "func": "pct_change", "of": "成交额", "order_by": "月份"}],
    "sort": [{"by": "月份"}],
}
MK_JUNE_BOTH_YEARS: Spec = {
    "filters": [{"column": "日期", "op": "in", "value": ["2024-06", "2025-06"], "grain": "month"}],
    "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
    "aggregations": [total("成交额", "成交额")],
    "windows": [{"name": "同比", "func": "pct_change", "of": "成交额", "order_by": "月份"}],
    "sort": [{"by": "月份"}],
}
MK_CAMPAIGN_SHARE_2025: Spec = {
    "filters": [year("日期", 2025)],
    "group_by": ["活动"],
    "aggregations": [total("成交额", "成交额")],
    "windows": [{"name": "占比", "func": "share_of_total", "of": "成交额"}],
    "sort": [{"by": "成交额", "desc": True}],
}
MK_TOTAL_2025 = mk_one(year("日期", 2025), measures=[total("成交额", "成交额")])
MK_ALL_YEARS = mk_one(measures=[total("成交额", "成交额")])
MK_DAY_2025_TOTAL = mk_one(year("日期", 2025), measures=[total("点击量", "点击量")])


# --- subscriptions ----------------------------------------------------------------------------------------

SB_SUMS = [total("new_subscribers", "new_subscribers"), total("churned", "churned"), total("mrr", "mrr")]


def sb_by(
    column: str, *filters: Spec, sort: str = "new_subscribers", desc: bool = True, limit: int | None = None
) -> Spec:
    spec: Spec = {
        "filters": list(filters),
        "group_by": [column],
        "aggregations": SB_SUMS,
        "sort": [{"by": sort, "desc": desc}],
    }
    if limit:
        spec["limit"] = limit
    return spec


def sb_one(*filters: Spec, measures: list[Spec] | None = None, derived: list[Spec] | None = None) -> Spec:
    spec: Spec = {"filters": list(filters), "aggregations": measures or SB_SUMS}
    if derived:
        spec["derived"] = derived
    return spec


def sb_months(*filters: Spec, window: str | None = None) -> Spec:
    spec: Spec = {
        "filters": list(filters),
        "group_by": [{"column": "month", "grain": "month", "alias": "month"}],
        "aggregations": SB_SUMS,
        "sort": [{"by": "month"}],
    }
    if window:
        spec["windows"] = [{"name": window, "func": "pct_change", "of": "mrr", "order_by": "month"}]
    return spec


def sb_yoy(*filters: Spec, of: str = "new_subscribers") -> Spec:
    return {
        "filters": list(filters),
        "group_by": [{"column": "month", "grain": "year", "alias": "year"}],
        "aggregations": SB_SUMS,
        "windows": [{"name": "yoy_change", "func": "pct_change", "of": of, "order_by": "year"}],
        "sort": [{"by": "year"}],
    }


SB_PLAN_SHARE_2025: Spec = {
    "filters": [year("month", 2025)],
    "group_by": ["plan"],
    "aggregations": [total("new_subscribers", "new_subscribers")],
    "windows": [{"name": "share", "func": "share_of_total", "of": "new_subscribers"}],
    "sort": [{"by": "new_subscribers", "desc": True}],
}


# --- shop.db (SQL) ----------------------------------------------------------------------------------------

SQL_REFUNDS = 'SELECT COUNT(*) AS "订单数", SUM("金额") AS "退款金额" FROM "订单" WHERE "状态" = \'退款\''
SQL_ALL_AMOUNT = 'SELECT COUNT(*) AS "订单数", SUM("金额") AS "金额合计" FROM "订单"'
_JOIN = 'FROM "订单" o JOIN "用户" u ON o."用户ID" = u."用户ID"'
SQL_CITY = (
    f'SELECT u."城市" AS "城市", COUNT(*) AS "订单数", SUM(o."金额") AS "下单金额" {_JOIN} '
    'GROUP BY u."城市" ORDER BY "下单金额" DESC'
)
SQL_TOP_USERS = (
    f'SELECT u."姓名" AS "用户", SUM(o."金额") AS "下单金额" {_JOIN} '
    'GROUP BY u."用户ID", u."姓名" ORDER BY "下单金额" DESC LIMIT 3'
)
SQL_Q4 = (
    'SELECT "渠道", SUM("金额") AS "销售额" FROM "订单" '
    'WHERE "日期" >= \'2025-10-01\' AND "日期" <= \'2025-12-31\' GROUP BY "渠道" ORDER BY "销售额" DESC'
)
SQL_DONE_AVG = 'SELECT COUNT(*) AS "订单数", AVG("金额") AS "平均金额" FROM "订单" WHERE "状态" = \'完成\''
SQL_ONLINE_REFUND_RATE = (
    'SELECT COUNT(*) AS "订单数", SUM(CASE WHEN "状态" = \'退款\' THEN 1 ELSE 0 END) AS "退款订单数", '
    'ROUND(1.0 * SUM(CASE WHEN "状态" = \'退款\' THEN 1 ELSE 0 END) / COUNT(*), 4) AS "退款率" '
    'FROM "订单" WHERE "渠道" = \'线上\''
)
SQL_REFUND_BY_CHANNEL = (
    'SELECT "渠道", COUNT(*) AS "退款订单数", SUM("金额") AS "退款金额" FROM "订单" '
    'WHERE "状态" = \'退款\' AND "渠道" IN (\'线上\', \'门店\') GROUP BY "渠道" ORDER BY "退款金额" DESC'
)
SQL_CITY_USERS = (
    'SELECT u."城市" AS "城市", COUNT(DISTINCT u."用户ID") AS "用户数", COUNT(o."订单ID") AS "订单数" '
    'FROM "用户" u LEFT JOIN "订单" o ON o."用户ID" = u."用户ID" WHERE u."城市" = \'北京\' GROUP BY u."城市"'
)
SQL_2026 = 'SELECT COUNT(*) AS "订单数", SUM("金额") AS "金额合计" FROM "订单" WHERE "日期" LIKE \'2026%\''
