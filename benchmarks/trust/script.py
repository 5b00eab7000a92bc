"""A scenario: one question, the scripted model's turns, and the truth about its final answer.

The truth label is decided when the scenario is written, from values computed with pandas/sqlite3
(data.py), never from what the product says: `correct` (may be shown as verified), `wrong` (must not
be), `no_data` (an honest answer with no data claims: must be shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from tests.agent.loopback import ScriptedCall, Turn, text_turn, tool_turn

Label = Literal["correct", "wrong", "no_data"]
Spec = dict[str, Any]  # a QuerySpec as the model sends it
Case = tuple[str, str, list[Turn], str]  # source, question, turns, what is wrong with it
SQL_TABLE = "订单"


@dataclass
class Scenario:
    id: str
    player: str
    truth: Label
    source: str  # "orders" | "retail" | "shop"
    question: str
    turns: list[Turn]
    why: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)
    shows: tuple[Decimal, ...] = ()  # values a correct answer must carry (checked when it is shown)
    leaks: tuple[str, ...] = ()  # text that must never reach the user (plan events or answer)
    offline: bool = False  # the SQL source is unreachable during the run


def schema(source: str, *, content: str | None = None, table: str = SQL_TABLE) -> list[Turn]:
    """get_schema (list_tables first on the SQL source)."""
    if source == "shop":
        return [tool_turn(("list_tables", {}), content=content), tool_turn(("get_schema", {"table": table}))]
    return [tool_turn(("get_schema", {}), content=content)]


def query(spec: dict[str, Any], *, source: str = "orders", content: str | None = None, table: str = SQL_TABLE) -> Turn:
    args: dict[str, Any] = {"table": table, "spec": spec} if source == "shop" else {"spec": spec}
    return tool_turn(("run_query", args), content=content)


def sql(text: str, *, content: str | None = None) -> Turn:
    return tool_turn(("execute_sql_safe", {"sql": text}), content=content)


def call(name: str, args: dict[str, Any], *, content: str | None = None) -> Turn:
    return tool_turn(ScriptedCall(name, args), content=content)


def answer(draft: str, *, finish_reason: str | None = None) -> list[Turn]:
    """The final draft, and the same draft again if the model is asked to correct it (models repeat themselves;
    a retry that fixed the answer would change the truth label)."""
    return [text_turn(draft, finish_reason=finish_reason), text_turn(draft, finish_reason=finish_reason)]


def honest(source: str, spec_or_sql: dict[str, Any] | str, draft: str, *, content: str | None = None) -> list[Turn]:
    """Schema, one query, the draft."""
    step = sql(spec_or_sql) if isinstance(spec_or_sql, str) else query(spec_or_sql, source=source)
    return [*schema(source, content=content), step, *answer(draft)]


# --- the queries the scripted models send -----------------------------------------------------------------

YEAR_2025: Spec = {"column": "日期", "op": "=", "value": 2025, "grain": "year"}
ZH_BY_REGION: Spec = {
    "filters": [YEAR_2025],
    "group_by": ["地区"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "sort": [{"by": "销售额", "desc": True}],
}
ZH_SHARE: Spec = {
    "group_by": ["地区"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "windows": [{"name": "占比", "func": "share_of_total", "of": "销售额"}],
    "sort": [{"by": "销售额", "desc": True}],
}
ZH_BY_MONTH: Spec = {
    "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "windows": [{"name": "环比", "func": "pct_change", "of": "销售额", "order_by": "月份"}],
    "sort": [{"by": "月份"}],
}
ZH_AVG: Spec = {
    "group_by": ["地区"],
    "aggregations": [
        {"name": "客单价", "func": "avg", "column": "金额"},
        {"name": "订单数", "func": "count"},
    ],
    "sort": [{"by": "客单价", "desc": True}],
}
ZH_RETURN_RATE: Spec = {
    "aggregations": [
        {"name": "退货数量", "func": "sum", "column": "退货数量"},
        {"name": "销售数量", "func": "sum", "column": "数量"},
    ],
    "derived": [{"name": "退货率", "expr": "退货数量 / 销售数量"}],
}

ZH_TOP_CUSTOMERS: Spec = {
    "group_by": ["客户"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "sort": [{"by": "销售额", "desc": True}],
    "limit": 3,
}


def zh_region(*regions: str) -> Spec:
    return {
        "filters": [{"column": "地区", "op": "in", "value": list(regions)}],
        "group_by": ["地区"],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
        "sort": [{"by": "销售额", "desc": True}],
    }


EN_2025: Spec = {"column": "order_date", "op": "=", "value": 2025, "grain": "year"}
EN_BY_REGION: Spec = {
    "filters": [EN_2025],
    "group_by": ["region"],
    "aggregations": [{"name": "revenue", "func": "sum", "column": "revenue"}],
    "sort": [{"by": "revenue", "desc": True}],
}
EN_YOY: Spec = {
    "group_by": ["region", {"column": "order_date", "grain": "year", "alias": "year"}],
    "aggregations": [{"name": "revenue", "func": "sum", "column": "revenue"}],
    "windows": [{"name": "yoy", "func": "pct_change", "of": "revenue", "partition_by": ["region"], "order_by": "year"}],
    "sort": [{"by": "region"}, {"by": "year"}],
}
EN_SHARE: Spec = {
    "group_by": ["channel"],
    "aggregations": [{"name": "revenue", "func": "sum", "column": "revenue"}],
    "windows": [{"name": "share", "func": "share_of_total", "of": "revenue"}],
    "sort": [{"by": "revenue", "desc": True}],
}
EN_BY_MONTH_2025: Spec = {
    "filters": [EN_2025],
    "group_by": [{"column": "order_date", "grain": "month", "alias": "month"}],
    "aggregations": [{"name": "revenue", "func": "sum", "column": "revenue"}],
    "sort": [{"by": "month"}],
}
EN_AVG_UNITS: Spec = {
    "group_by": ["channel"],
    "aggregations": [{"name": "avg_units", "func": "avg", "column": "units"}],
    "sort": [{"by": "avg_units", "desc": True}],
}

SQL_BY_CHANNEL = 'SELECT "渠道", SUM("金额") AS "销售额" FROM "订单" GROUP BY "渠道" ORDER BY "销售额" DESC'
SQL_TOTAL = 'SELECT SUM("金额") AS "销售额", COUNT(*) AS "订单数" FROM "订单"'
SHOP_COUNT_BY_CHANNEL: Spec = {
    "group_by": ["渠道"],
    "aggregations": [{"name": "订单数", "func": "count"}, {"name": "平均金额", "func": "avg", "column": "金额"}],
    "sort": [{"by": "订单数", "desc": True}],
}
