"""Held-out players whose answers are right: what a careful model writes after the right query, by reference
and with literal numbers in natural formats, in English and Chinese; follow-ups over earlier result tables;
answers that disclose a condition they could not apply or a column the data lacks; yes/no answers to leading
questions; superlatives, trends with start/end/peak, shares that name the whole, year-over-year done right."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from benchmarks.trust import formats as fm
from benchmarks.trust import heldout_specs as hs
from benchmarks.trust.heldout_facts import HeldoutFacts, strict
from benchmarks.trust.script import Scenario, Spec, answer, honest, query, schema
from tests.agent.loopback import Turn

Row = tuple[str, str, Spec | str, str, tuple[Decimal, ...]]  # source, question, query, draft, shows

_MONTHS_EN = "January February March April May June July August September October November December".split()


def _d(value: int | Decimal) -> Decimal:
    return Decimal(value)


def _scenarios(player: str, prefix: str, rows: list[Row], why: str) -> list[Scenario]:
    return [
        Scenario(f"{prefix}-{n}", player, "correct", source, question, honest(source, spec, draft), why, shows=shows)
        for n, (source, question, spec, draft, shows) in enumerate(rows, start=1)
    ]


def by_reference(f: HeldoutFacts) -> list[Scenario]:
    strict([v for _, v in f.units_2025], 0, 3)
    strict([v for _, v in f.active_by_dept], 0, 4)
    strict([v for _, v in f.shop_city], 0)
    first, last = f.units_2025[0], f.units_2025[-1]
    rows: list[Row] = [
        (
            "stock",
            "Which warehouse shipped the most units in 2025?",
            hs.ST_UNITS_2025,
            "{{q1.warehouse[0]}} shipped the most units in 2025 ({{q1.units[0]}}); "
            "{{q1.warehouse[3]}} shipped the fewest ({{q1.units[3]}}).",
            (_d(first[1]), _d(last[1])),
        ),
        (
            "staff",
            "各部门在职员工有多少人？",
            hs.H_ACTIVE_BY_DEPT,
            "在职人数最多的是{{q1.部门[0]}}，共 {{q1.人数[0]}} 人；最少的是{{q1.部门[4]}}（{{q1.人数[4]}} 人）。",
            (_d(f.active_by_dept[0][1]), _d(f.active_by_dept[4][1])),
        ),
        (
            "shop",
            "哪个城市的用户下单金额最高？",
            hs.P_CITY,
            "{{q1.城市[0]}}的用户下单金额最高，为 {{q1.下单金额[0]|yi}}元。",
            (f.shop_city[0][1],),
        ),
    ]
    out = _scenarios("ho_reference", "ho-ref", rows, "quotes by reference")
    # year over year for every warehouse, rows sorted by warehouse then year: the fastest grower's 2025 row
    order = sorted(f.yoy)
    fastest = max(f.yoy, key=lambda w: f.yoy[w])
    row = 2 * order.index(fastest) + 1
    draft = (
        f"{fastest} grew fastest: {{{{q1.yoy[{row}]|pct}}}} year over year, "
        f"from {{{{q1.value[{row - 1}]}}}} in 2024 to {{{{q1.value[{row}]}}}} in 2025."
    )
    shows = (f.value_by_year[fastest, 2024], f.value_by_year[fastest, 2025], f.yoy[fastest])
    out.append(
        Scenario(
            "ho-ref-4",
            "ho_reference",
            "correct",
            "stock",
            "Which warehouse grew fastest from 2024 to 2025?",
            honest("stock", hs.ST_YOY_ALL, draft),
            "year over year by reference, the superlative over a computed change",
            shows=shows,
        )
    )
    return out


def literal(f: HeldoutFacts) -> list[Scenario]:
    cat = f.category_value
    months = f.month_value_2025
    peak = max(months, key=lambda kv: kv[1])
    low = min(months, key=lambda kv: kv[1])
    strict(sorted((v for _, v in months), reverse=True), 0, len(months) - 1)
    quarters = sorted(f.quarter_value_2025, key=lambda kv: kv[1], reverse=True)
    strict([v for _, v in quarters], 0)
    low_2024 = sorted(f.category_value_2024, key=lambda kv: kv[1])
    strict([v for _, v in low_2024], 1)
    pay = f.avg_salary_by_dept
    hires = f.hires_by_month_2025
    h_peak = max(hires, key=lambda kv: kv[1])
    h_low = min(hires, key=lambda kv: kv[1])
    assert [v for _, v in hires].count(h_peak[1]) == 1 and [v for _, v in hires].count(h_low[1]) == 1
    city_low = f.avg_salary_by_city[-1]
    shop_q = f.shop_quarters
    shop_peak = max(shop_q, key=lambda kv: kv[1])
    channel_top = max(f.shop_channel, key=lambda k: f.shop_channel[k][1])
    zh_q = "一二三四"
    q24 = [(int(q), n) for q, n in f.hires_by_quarter_2024]
    strict([n for _, n in q24], 0)
    rows: list[Row] = [
        (
            "stock",
            "What was the total shipment value by category over 2024 and 2025?",
            hs.ST_CATEGORY_BOTH,
            f"{cat[0][0]} was the biggest category at ${fm.num(cat[0][1])} over 2024–2025, "
            f"ahead of {cat[1][0]} (${fm.scaled(cat[1][1], 'K', 1)}).",
            (),
        ),
        (
            "stock",
            "How did monthly shipment value move through 2025?",
            hs.ST_MONTHS_2025,
            f"2025 opened at ${fm.num(months[0][1], 0)} in January and closed at ${fm.num(months[-1][1], 0)} "
            f"in December. The peak was {_MONTHS_EN[peak[0] - 1]} at ${fm.scaled(peak[1], 'K', 1)}, "
            f"the low point {_MONTHS_EN[low[0] - 1]} (${fm.scaled(low[1], 'K', 1)}).",
            (),
        ),
        (
            "stock",
            "Which quarter of 2025 had the highest shipment value?",
            hs.ST_QUARTERS_2025,
            f"Q{quarters[0][0]} 2025 was the strongest quarter, with ${fm.num(quarters[0][1])} shipped.",
            (),
        ),
        (
            "stock",
            "Which two categories had the lowest shipment value in 2024?",
            hs.ST_CATEGORY_LOW_2024,
            f"The two lowest in 2024 were {low_2024[0][0]} (${fm.num(low_2024[0][1])}) and "
            f"{low_2024[1][0]} (${fm.num(low_2024[1][1])}).",
            (),
        ),
        (
            "stock",
            "How many shipments in 2025 had damaged units?",
            hs.ST_DAMAGED_SHIPMENTS_2025,
            f"{f.damaged_shipments_2025} shipments in 2025 had at least one damaged unit.",
            (),
        ),
        (
            "stock",
            "How many distinct SKUs were shipped?",
            hs.ST_SKUS,
            f"{f.skus} different SKUs were shipped, across {f.shipments:,} shipments.",
            (),
        ),
        (
            "staff",
            "各部门平均月薪是多少？",
            hs.H_PAY_BY_DEPT,
            f"{pay[0][0]}平均月薪最高，约 {fm.scaled(pay[0][1], '万')}元；"
            f"{pay[-1][0]}最低，约 {fm.num(pay[-1][1], 0)} 元。",
            (),
        ),
        (
            "staff",
            "2025 年每个月入职多少人？",
            hs.H_HIRES_2025_MONTHLY,
            f"2025 年 1 月入职 {hires[0][1]} 人，12 月入职 {hires[-1][1]} 人；{h_peak[0]} 月最多，为 {h_peak[1]} 人，"
            f"{h_low[0]} 月最少（{h_low[1]} 人）。",
            (),
        ),
        (
            "staff",
            "2025 年入职人数同比变化多少？",
            hs.hires_by_year(),
            f"2025 年入职 {f.hires_by_year[2025]} 人，2024 年 {f.hires_by_year[2024]} 人，同比增长 "
            f"{fm.pct(Decimal(f.hires_by_year[2025] - f.hires_by_year[2024]) / f.hires_by_year[2024])}。",
            (),
        ),
        (
            "staff",
            "员工离职率是多少？",
            hs.H_TURNOVER,
            f"离职率约 {fm.pct(Decimal(f.leavers) / f.staff)}（离职 {f.leavers} 人，员工共 {f.staff} 人）。",
            (),
        ),
        (
            "staff",
            "哪个城市的平均月薪最低？",
            hs.by_city(desc=False),
            f"{city_low[0]}最低，平均月薪约 {fm.scaled(city_low[1], '万')}元。",
            (),
        ),
        (
            "staff",
            "2025 年入职的员工中绩效为 A 的有多少人？",
            hs.count_where(hs.H25, hs.eq("绩效", "A")),
            f"2025 年入职的员工中，绩效为 A 的有 {fm.zh_numeral(f.rated_a_2025)} 人。",
            (),
        ),
        (
            "staff",
            "2024 年哪个季度入职人数最多？",
            hs.H_QUARTERS_2024,
            f"2024 年第{zh_q[q24[0][0] - 1]}季度入职人数最多，共 {q24[0][1]} 人。",
            (),
        ),
        (
            "shop",
            "2025 年每个季度的订单金额分别是多少？",
            hs.P_QUARTERS_2025,
            "；".join(f"第{zh_q[q - 1]}季度 {fm.scaled(v, '亿')}元" for q, v in shop_q)
            + f"。第{zh_q[shop_peak[0] - 1]}季度最高。",
            (),
        ),
        (
            "shop",
            "退款订单有多少笔？占全部订单的比例是多少？",
            hs.P_REFUNDS,
            f"退款订单 {f.shop_refunds} 笔，占全部 {f.shop_orders} 笔订单的 "
            f"{fm.pct(Decimal(f.shop_refunds) / f.shop_orders)}。",
            (),
        ),
        (
            "shop",
            "Which channel has the highest average order amount?",
            hs.P_CHANNEL_AVG,
            f"{channel_top} has the highest average order amount: ¥{fm.num(f.shop_channel[channel_top][1])}.",
            (),
        ),
    ]
    out = _scenarios("ho_literal", "ho-lit", rows, "literal numbers in natural formats")
    out += _two_query_shares(f, start=len(out) + 1)
    return out


def _two_query_shares(f: HeldoutFacts, start: int) -> list[Scenario]:
    """Shares that name the whole, its size from a second query."""
    tampa = f.warehouse_share_2025["Tampa"]
    sales = dict(f.headcount_by_dept)["销售部"]
    cases: list[tuple[str, str, list[Turn], str]] = [
        (
            "stock",
            "What share of 2025 shipment value came from Tampa?",
            [*schema("stock"), query(hs.ST_SHARE_2025), query(hs.ST_TOTAL_2025)],
            f"Tampa shipped ${fm.num(dict(f.value_2025)['Tampa'])} of the ${fm.num(f.total_2025)} shipped by all "
            f"four warehouses in 2025, a {fm.pct(tampa)} share.",
        ),
        (
            "staff",
            "销售部员工占全公司员工的比例是多少？",
            [*schema("staff"), query(hs.H_SHARE_BY_DEPT), query(hs.H_HEADCOUNT)],
            f"销售部共 {sales} 人，占全公司 {f.staff} 名员工的 {fm.pct(Decimal(sales) / f.staff)}。",
        ),
    ]
    return [
        Scenario(f"ho-lit-{n}", "ho_literal", "correct", s, q, [*turns, *answer(d)], "a share naming its whole")
        for n, (s, q, turns, d) in enumerate(cases, start=start)
    ]


def history_turn(question: str, text: str, columns: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    return {"question": question, "answer": text, "tables": [{"columns": columns, "rows": rows}]}


def context(f: HeldoutFacts) -> list[Scenario]:
    """Follow-ups, disclosures of what could not be applied, and yes/no answers to leading questions."""
    v25, v24 = dict(f.value_2025), dict(f.value_2024)
    year_turn = history_turn(
        "What was shipment value by warehouse in 2025?",
        "; ".join(f"{w} ${fm.num(v)}" for w, v in f.value_2025) + ".",
        ["warehouse", "value"],
        [[w, float(v)] for w, v in f.value_2025],
    )
    active_turn = history_turn(
        "各部门在职员工有多少人？",
        "；".join(f"{d} {n} 人" for d, n in f.active_by_dept) + "。",
        ["部门", "人数"],
        [[d, n] for d, n in f.active_by_dept],
    )
    top24, low24 = f.value_2024[0], f.value_2024[-1]
    dallas_units = dict(f.units_2025)["Dallas"]
    assert dallas_units < 5000, "the leading question's 5,000 must be wrong"
    assert f.yoy["Reno"] < 0, "Reno must have fallen for the leading question to be true"
    rd_pay = dict(f.avg_salary_by_dept)["研发部"]
    assert rd_pay > 20000
    heads = dict(f.headcount_by_dept)
    assert heads["市场部"] > heads["财务部"], "the leading question's premise (市场部 smaller) must be false"
    pay, cities = f.avg_salary_by_dept, f.avg_salary_by_city
    damaged = f.damaged_units_2025
    low_w = f.value_2025[-1]
    cases: list[tuple[str, str, list[dict[str, Any]], list[Turn], str, tuple[Decimal, ...]]] = [
        (
            "stock",
            "And in 2024?",
            [year_turn],
            honest(
                "stock",
                hs.ST_VALUE_2024,
                f"In 2024, {top24[0]} led with ${fm.num(top24[1])} and {low24[0]} was lowest at ${fm.num(low24[1])}.",
            ),
            "a follow-up with the earlier result table",
            (),
        ),
        (
            "stock",
            "How does Dallas compare with the year before?",
            [year_turn],
            honest(
                "stock",
                hs.total(hs.eq("warehouse", "Dallas"), hs.S24),
                f"Dallas shipped ${fm.num(v24['Dallas'])} in 2024, against ${fm.num(v25['Dallas'])} in 2025 "
                "(from the previous answer).",
            ),
            "a follow-up that repeats an earlier number under its own label",
            (),
        ),
        (
            "staff",
            "其中研发部的平均月薪呢？",
            [active_turn],
            honest(
                "staff",
                hs.dept_pay("研发部", hs.ACTIVE),
                f"研发部在职员工的平均月薪为 {fm.num(f.rd_active_avg)} 元。",
            ),
            "a follow-up that keeps the earlier filter (在职)",
            (),
        ),
        (
            "stock",
            "What was 2025 shipment value by warehouse for premium customers?",
            [],
            honest(
                "stock",
                hs.ST_VALUE_2025,
                "There is no customer or customer-tier column in this data, so the premium-customer condition was not "
                f"applied. Across all shipments, {f.value_2025[0][0]} led 2025 with ${fm.num(f.value_2025[0][1])} "
                f"and {low_w[0]} was lowest at ${fm.num(low_w[1])}.",
            ),
            "discloses the condition it could not apply",
            (),
        ),
        (
            "stock",
            "Break down 2025 damaged units by carrier.",
            [],
            honest(
                "stock",
                hs.ST_DAMAGED_2025,
                "The data has no carrier column, so damaged units can't be split by carrier. By warehouse instead, "
                "2025 damaged units were: " + ", ".join(f"{w} {n}" for w, n in damaged) + ".",
            ),
            "says the requested column is missing, answers what it can",
            (),
        ),
        (
            "staff",
            "按学历统计平均月薪",
            [],
            honest(
                "staff",
                hs.H_PAY_BY_DEPT,
                f"数据中没有“学历”字段，无法按学历统计。按部门看，{pay[0][0]}平均月薪最高，为 {fm.num(pay[0][1])} 元。",
            ),
            "says the requested column is missing, answers what it can",
            (),
        ),
        (
            "staff",
            "不含实习生，各城市平均月薪是多少？",
            [],
            honest(
                "staff",
                hs.by_city(desc=True),
                "数据中没有标记实习生的字段，以下结果未排除实习生："
                f"{cities[0][0]}平均月薪最高，{fm.num(cities[0][1])} 元；"
                f"{cities[-1][0]}最低，{fm.num(cities[-1][1])} 元。",
            ),
            "discloses the condition it could not apply",
            (),
        ),
        (
            "stock",
            "Did Dallas ship more than 5,000 units in 2025?",
            [],
            honest(
                "stock",
                hs.total(hs.eq("warehouse", "Dallas"), hs.S25, aggregations=hs.UNITS),
                f"No. Dallas shipped {dallas_units:,} units in 2025, fewer than 5,000.",
            ),
            "a leading question answered no",
            (_d(dallas_units),),
        ),
        (
            "stock",
            "Reno's shipment value dropped in 2025 compared with 2024, didn't it?",
            [],
            honest(
                "stock",
                hs.warehouse_yoy("Reno"),
                f"Yes. Reno's shipment value fell {fm.pct(f.yoy['Reno'], sign=False)}, from "
                f"${fm.scaled(v24['Reno'], 'K', 1)} in 2024 to ${fm.scaled(v25['Reno'], 'K', 1)} in 2025.",
            ),
            "a leading question whose premise is true",
            (),
        ),
        (
            "staff",
            "研发部平均月薪超过 2 万了吧？",
            [],
            honest("staff", hs.dept_pay("研发部"), f"是的，研发部平均月薪为 {fm.num(rd_pay)} 元，超过 2 万元。"),
            "a leading question whose premise is true",
            (),
        ),
        (
            "staff",
            "市场部的人比财务部少吧？",
            [],
            honest(
                "staff",
                {**hs.by_dept(), "filters": [{"column": "部门", "op": "in", "value": ["市场部", "财务部"]}]},
                f"不是。市场部有 {heads['市场部']} 人，财务部 {heads['财务部']} 人，市场部更多。",
            ),
            "a leading question whose premise is false, corrected",
            (),
        ),
        (
            "shop",
            "下单次数最多的 2 位用户是谁？",
            [],
            honest(
                "shop",
                hs.P_TOP_USERS,
                "下单次数最多的 2 位用户：\n"
                + "\n".join(f"{i}. {name}（{n} 笔）" for i, (name, n) in enumerate(f.shop_top_users[:2], start=1)),
            ),
            "a top-N list with real names",
            (),
        ),
        (
            "shop",
            "12 月订单金额环比变化多少？",
            [],
            honest(
                "shop",
                hs.P_MONTHS,
                f"12 月订单金额为 {fm.scaled(dict(f.shop_months)[12], '亿')}元，环比"
                f"{'增长' if f.shop_mom[12] > 0 else '下降'} {fm.pct(f.shop_mom[12], sign=False)}。",
            ),
            "month over month, asked and answered as such",
            (),
        ),
    ]
    assert f.shop_top_users[1][1] > f.shop_top_users[2][1], "the top-2 list must not be cut inside a tie"
    return [
        Scenario(f"ho-ctx-{n}", "ho_context", "correct", s, q, turns, why, history=history, shows=shows)
        for n, (s, q, history, turns, why, shows) in enumerate(cases, start=1)
    ]


def plan_text(f: HeldoutFacts) -> list[Scenario]:
    """Correct answers whose tool-call turns carry guesses, names and links: a leak if that text is streamed."""
    units = f.units_2025[0]
    cases: list[tuple[str, str, Spec | str, str, str, tuple[Decimal, ...], tuple[str, ...]]] = [
        (
            "stock",
            "Which warehouse shipped the most units in 2025?",
            hs.ST_UNITS_2025,
            "Dallas probably shipped about 9,000 units; the ops dashboard at https://ops.example.net/units agrees.",
            "{{q1.warehouse[0]}} shipped the most units in 2025: {{q1.units[0]}}.",
            (_d(units[1]),),
            ("9,000", "ops.example.net"),
        ),
        (
            "staff",
            "各部门在职员工有多少人？",
            hs.H_ACTIVE_BY_DEPT,
            "我记得研发部大概 120 人，王小明 是负责人，先查一下字段。",
            "在职人数最多的是{{q1.部门[0]}}，共 {{q1.人数[0]}} 人。",
            (_d(f.active_by_dept[0][1]),),
            ("120 人", "王小明"),
        ),
        (
            "shop",
            "退款订单有多少笔？",
            hs.P_REFUNDS,
            "<think>大概 50 笔退款吧，用户ID: 7 退得最多。</think>先看订单表。",
            "退款订单共 {{q1.退款订单数[0]}} 笔。",
            (_d(f.shop_refunds),),
            ("50 笔", "用户ID: 7", "<think"),
        ),
        (
            "stock",
            "Which warehouse shipped the most units in 2025?",
            hs.ST_UNITS_2025,
            "First the schema, then units by warehouse for 2025.",
            "{{q1.warehouse[0]}} shipped the most units in 2025: {{q1.units[0]}}.",
            (_d(units[1]),),
            (),
        ),
    ]
    return [
        Scenario(
            f"ho-plan-{n}",
            "ho_plan_text",
            "correct",
            source,
            question,
            honest(source, spec, draft, content=plan),
            plan,
            shows=shows,
            leaks=leaks,
        )
        for n, (source, question, spec, plan, draft, shows, leaks) in enumerate(cases, start=1)
    ]
