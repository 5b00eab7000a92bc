"""Wrong answers seen in real use (and their right counterparts): a follow-up answered with another measure
under a stale filter, a trend answered with one total, a list answered with a sum of ids, schema statistics
read as data, a follow-up that repeats earlier numbers under the wrong labels."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from benchmarks.trust import formats as fm
from benchmarks.trust.facts import Facts
from benchmarks.trust.script import ZH_BY_REGION, Label, Scenario, answer, honest, query, schema, sql
from tests.agent.loopback import Turn

SUM = [{"name": "销售额", "func": "sum", "column": "金额"}]
PAIR = {"column": "地区", "op": "in", "value": ["华东", "华南"]}


def _turn(question: str, answer_text: str, columns: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    return {"question": question, "answer": answer_text, "tables": [{"columns": columns, "rows": rows}]}


def real_life(f: Facts) -> list[Scenario]:
    march = dict(f.march)
    march_turn = _turn(
        "3 月华东和华南的销售额是多少？",
        f"3 月华东销售额 {fm.num(march['华东'])} 元，华南 {fm.num(march['华南'])} 元。",
        ["地区", "销售额"],
        [[r, float(v)] for r, v in f.march if r in ("华东", "华南")],
    )
    rs = dict(f.region_sales)
    year_turn = _turn(
        "2025 年各地区销售额是多少？",
        "；".join(f"{r} {fm.num(v)} 元" for r, v in f.region_sales) + "。",
        ["地区", "销售额"],
        [[r, float(v)] for r, v in f.region_sales],
    )
    stale = {
        "filters": [{"column": "日期", "op": "between", "value": ["2025-03-01", "2025-03-31"]}, PAIR],
        "group_by": ["地区"],
        "aggregations": SUM,
        "sort": [{"by": "销售额", "desc": True}],
    }
    avg = {
        "filters": [PAIR],
        "group_by": ["地区"],
        "aggregations": [{"name": "客单价", "func": "avg", "column": "金额"}],
        "sort": [{"by": "客单价", "desc": True}],
    }
    counts = {"filters": [PAIR], "group_by": ["地区"], "aggregations": [{"name": "订单数", "func": "count"}]}
    avg_pair = tuple(v for r, v in f.region_avg if r in ("华东", "华南"))
    returns = {"aggregations": [{"name": "退货数量", "func": "sum", "column": "退货数量"}]}
    cases: list[tuple[Label, str, str, list[dict[str, Any]], list[Turn], str, tuple[Decimal, ...]]] = [
        (
            "wrong",
            "orders",
            "华东和华南的客单价对比",
            [march_turn],
            honest(
                "orders",
                stale,
                "{{q1.地区[0]}} 客单价 {{q1.销售额[0]}} 元，{{q1.地区[1]}} 客单价 {{q1.销售额[1]}} 元。",
            ),
            "a follow-up answered with March sales (stale filter, another measure)",
            (),
        ),
        (
            "correct",
            "orders",
            "华东和华南的客单价对比",
            [march_turn],
            honest(
                "orders", avg, "{{q1.地区[0]}} 的客单价为 {{q1.客单价[0]}} 元，{{q1.地区[1]}} 为 {{q1.客单价[1]}} 元。"
            ),
            "the follow-up answered with the average order value, all year",
            avg_pair,
        ),
        (
            "wrong",
            "orders",
            "2025 年哪个地区销售额最高？",
            [],
            honest("orders", ZH_BY_REGION, "销售额最高的是 {{q1.地区[4]}}（{{q1.销售额[4]}} 元）。"),
            "the ranking read from the wrong end (the value is the lowest)",
            (),
        ),
        (
            "wrong",
            "orders",
            "每个月的退货数量趋势",
            [],
            honest("orders", returns, "每个月的退货数量趋势：全年退货 {{q1.退货数量[0]}} 件，整体平稳。"),
            "a monthly trend answered with one yearly total",
            (),
        ),
        (
            "wrong",
            "shop",
            "列出所有的用户",
            [],
            [
                *schema("shop", table="用户"),
                sql('SELECT SUM("用户ID") AS "用户" FROM "用户"'),
                *answer("所有用户：{{q1.用户[0]}}。"),
            ],
            "a list of users answered with the sum of their ids",
            (),
        ),
        (
            "wrong",
            "orders",
            "2025 年各地区的销售额和退货情况？",
            [],
            honest("orders", ZH_BY_REGION, "所有账号退货为0；销售额最高的是 {{q1.地区[0]}}（{{q1.销售额[0]}} 元）。"),
            f"the schema's null ratio 0.0 read as no returns (there were {f.returns})",
            (),
        ),
        (
            "wrong",
            "orders",
            "2025 年一共有多少笔订单？",
            [],
            honest("orders", ZH_BY_REGION, f"2025 年共有 {f.order_days} 笔订单。"),
            f"a distinct count of dates from the schema written as the order total ({f.orders})",
            (),
        ),
        (
            "wrong",
            "orders",
            "华东和华南分别是多少？",
            [year_turn],
            [
                *schema("orders"),
                query(counts),
                *answer(f"华东 {fm.num(rs['华南'])} 元，华南 {fm.num(rs['华东'])} 元。"),
            ],
            "earlier numbers repeated under each other's label",
            (),
        ),
        (
            "correct",
            "orders",
            "华东和华南分别是多少？",
            [year_turn],
            [
                *schema("orders"),
                query(counts),
                *answer(
                    f"华东 {fm.num(rs['华东'])} 元，华南 {fm.num(rs['华南'])} 元（上一轮结果）；两地区订单数均为 "
                    "{{q1.订单数[0]}} 单。"
                ),
            ],
            "earlier numbers repeated under their own labels",
            (),
        ),
    ]
    return [
        Scenario(f"real-{n}", "real_life", label, source, question, turns, why, history=history, shows=shows)
        for n, (label, source, question, history, turns, why, shows) in enumerate(cases, start=1)
    ]
