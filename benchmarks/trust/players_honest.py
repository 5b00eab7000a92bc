"""Players whose answers are right: by reference, with literal numbers in many real-world formats, after a
<think> block, and honest answers that make no data claims."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust import formats as fm
from benchmarks.trust.facts import Facts
from benchmarks.trust.script import (
    EN_AVG_UNITS,
    EN_BY_MONTH_2025,
    EN_BY_REGION,
    EN_SHARE,
    EN_YOY,
    SHOP_COUNT_BY_CHANNEL,
    SQL_BY_CHANNEL,
    SQL_TOTAL,
    ZH_AVG,
    ZH_BY_MONTH,
    ZH_BY_REGION,
    ZH_RETURN_RATE,
    ZH_SHARE,
    ZH_TOP_CUSTOMERS,
    Scenario,
    Spec,
    honest,
    zh_region,
)

EN_AVG_REVENUE = {
    "group_by": ["region"],
    "aggregations": [{"name": "avg_revenue", "func": "avg", "column": "revenue"}],
    "sort": [{"by": "avg_revenue", "desc": True}],
}


def by_reference(f: Facts) -> list[Scenario]:
    rs, months = f.region_sales, f.months
    peak = max(range(12), key=lambda i: months[i][1])
    en, shop = f.en_region_2025, f.shop_channel
    cases: list[tuple[str, str, Spec | str, str, tuple[Decimal, ...]]] = [
        (
            "orders",
            "2025 年各地区销售额是多少？",
            ZH_BY_REGION,
            "2025 年销售额最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}} 元；"
            "最低的是 {{q1.地区[4]}}，为 {{q1.销售额[4]}} 元。",
            (rs[0][1], rs[4][1]),
        ),
        (
            "orders",
            "每个月的销售额趋势如何？",
            ZH_BY_MONTH,
            f"1 月销售额 {{{{q1.销售额[0]}}}} 元，12 月 {{{{q1.销售额[11]}}}} 元；"
            f"最高的是 {{{{q1.月份[{peak}]}}}}，为 {{{{q1.销售额[{peak}]}}}} 元。",
            (months[0][1], months[11][1], months[peak][1]),
        ),
        (
            "retail",
            "What was revenue by region in 2025?",
            EN_BY_REGION,
            "{{q1.region[0]}} led with {{q1.revenue[0]}}, followed by {{q1.region[1]}} ({{q1.revenue[1]}}); "
            "{{q1.region[3]}} was lowest at {{q1.revenue[3]}}.",
            (en[0][1], en[1][1], en[3][1]),
        ),
        (
            "retail",
            "Which channel has the highest average units per order?",
            EN_AVG_UNITS,
            "{{q1.channel[0]}} has the highest average: {{q1.avg_units[0]}} units per order.",
            (f.en_avg_units[0][1],),
        ),
        (
            "shop",
            "各渠道销售额是多少？",
            SQL_BY_CHANNEL,
            "{{q1.渠道[0]}} 渠道销售额最高，为 {{q1.销售额[0]}} 元；{{q1.渠道[2]}} 最低，为 {{q1.销售额[2]}} 元。",
            (shop[0][1], shop[2][1]),
        ),
        (
            "shop",
            "各渠道的订单数和平均金额是多少？",
            SHOP_COUNT_BY_CHANNEL,
            "订单最多的是 {{q1.渠道[0]}}（{{q1.订单数[0]}} 笔，平均每笔 {{q1.平均金额[0]}} 元）。",
            (f.shop_channel_orders[0][1], f.shop_channel_avg[f.shop_channel_orders[0][0]]),
        ),
        (
            "orders",
            "哪些客户的销售额最高？",
            ZH_TOP_CUSTOMERS,
            "销售额最高的客户是 {{q1.客户[0]}}（{{q1.销售额[0]}} 元），其次是 {{q1.客户[1]}}。",
            (f.customer_sales[0][1],),
        ),
    ]
    out = []
    for n, (source, question, spec, draft, shows) in enumerate(cases, start=1):
        turns = honest(source, spec, draft)
        out.append(
            Scenario(f"ref-{n}", "honest_ref", "correct", source, question, turns, "quotes by reference", shows=shows)
        )
    return out


def _truncation_pick(f: Facts) -> tuple[str, Decimal, int]:
    """A region whose total reads differently truncated than rounded (at 0 or 1 decimals)."""
    for places in (0, 1):
        for region, value in f.region_sales:
            if fm.num(value, places, mode="truncate") != fm.num(value, places):
                return region, value, places
    raise AssertionError("no value where truncation and rounding differ")


def literal_formats(f: Facts) -> list[tuple[str, str, Spec | str, str]]:
    """(source, question, query, draft): each draft writes a true value in one format, next to its label."""
    eu, share = f.region("欧洲"), f.region_share["欧洲"]
    t_region, t_value, t_places = _truncation_pick(f)
    fall = min((m for m in f.mom if f.mom[m] < 0), key=lambda m: f.mom[m])
    rise = max(f.mom, key=lambda m: f.mom[m])
    north, north_v = f.en_region_2025[0]
    down = min(f.en_yoy, key=lambda k: f.en_yoy[k])
    up = max(f.en_yoy, key=lambda k: f.en_yoy[k])
    assert f.en_yoy[down] < 0 < f.en_yoy[up], "the retail data needs a falling and a rising region"
    ch, ch_share = f.en_channel[0][0], f.en_channel_share[f.en_channel[0][0]]
    march_en = dict(f.en_months_2025)[3]
    avg_region, avg_value = f.region_avg[0]
    en_avg_region, en_avg = f.en_avg_revenue[0]
    big, big_v = f.shop_channel[0]
    total = f.shop_total
    eu_q, eu_spec = "欧洲的销售额是多少？", zh_region("欧洲")
    share_q, month_q = "各地区销售额占比是多少？", "每个月的销售额和环比变化？"
    en_q, yoy_q = "What was revenue by region in 2025?", "How did revenue change year over year by region?"
    return [
        ("orders", eu_q, eu_spec, f"欧洲的销售额为 {fm.num(eu)} 元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额 {fm.num(eu, 1, sep=False)} 元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额约 {fm.num(eu, 0)} 元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额为 {fm.scaled(eu, '万')}。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额为 {fm.num(eu.scaleb(-4), 2, sep=False)}万元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额约 {fm.scaled(eu, '万', 1, space=' ')}元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额约 {fm.scaled(eu, '亿')}元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额约 {fm.scaled(eu, '万', 0, space=' ')}元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额为 {fm.full_width(fm.num(eu.scaleb(-4), 2, sep=False))}万元。"),
        ("orders", eu_q, eu_spec, f"欧洲销售额为 {fm.num(eu, 1, mode='half_even')} 元。"),
        (
            "orders",
            f"{t_region}的销售额是多少？",
            zh_region(t_region),
            f"{t_region}的销售额约为 {fm.num(t_value, t_places, mode='truncate')} 元。",
        ),
        ("orders", share_q, ZH_SHARE, f"欧洲占比 {fm.pct(share)}。"),
        ("orders", share_q, ZH_SHARE, f"欧洲约占 {fm.pct(share, 0)}。"),
        ("orders", share_q, ZH_SHARE, f"欧洲的占比约为 {fm.num(share, 3)}。"),
        ("orders", share_q, ZH_SHARE, f"欧洲占总销售额的 {fm.pct(share, 2)}。"),
        ("orders", month_q, ZH_BY_MONTH, f"{fall} 月销售额环比 {fm.pct(f.mom[fall])}。"),
        ("orders", month_q, ZH_BY_MONTH, f"{fall} 月销售额环比下降 {fm.pct(f.mom[fall], sign=False)}。"),
        ("orders", month_q, ZH_BY_MONTH, f"{rise} 月销售额环比增长 {fm.pct(f.mom[rise])}。"),
        ("orders", month_q, ZH_BY_MONTH, f"2025 年 3 月销售额为 {fm.scaled(f.month(3), '万')}元。"),
        ("orders", month_q, ZH_BY_MONTH, f"7 月销售额 {fm.num(f.month(7))} 元。"),
        ("orders", month_q, ZH_BY_MONTH, f"2025-05 的销售额为 {fm.num(f.month(5), 0)} 元。"),
        ("orders", "各地区的客单价是多少？", ZH_AVG, f"{avg_region}客单价约 ¥{fm.num(avg_value, 0)}。"),
        ("orders", "各地区的客单价是多少？", ZH_AVG, f"{avg_region}的客单价约为 {fm.scaled(avg_value, '万')}元。"),
        ("orders", "各地区的客单价是多少？", ZH_AVG, f"每个地区各有 {f.region_orders[avg_region]} 单。"),
        ("orders", "2025 年退货率是多少？", ZH_RETURN_RATE, f"退货率约 {fm.permille(f.return_rate)}。"),
        (
            "orders",
            "2025 年退货率是多少？",
            ZH_RETURN_RATE,
            f"退货率为 {fm.pct(f.return_rate, 2)}（退货 {f.returns} 件，共售出 {f.quantity:,} 件）。",
        ),
        (
            "orders",
            "2025 年各地区销售额是多少？",
            ZH_BY_REGION,
            f"共{fm.zh_numeral(len(f.region_sales))}个地区，"
            f"最高的是{f.region_sales[0][0]}（{fm.num(f.region_sales[0][1])} 元）。",
        ),
        (
            "orders",
            "2025 年各地区销售额是多少？",
            ZH_BY_REGION,
            "2025 年各地区销售额前三：\n"
            + "\n".join(f"{i}. {r} {fm.num(v)} 元" for i, (r, v) in enumerate(f.region_sales[:3], start=1)),
        ),
        (
            "orders",
            "哪些客户的销售额最高？",
            ZH_TOP_CUSTOMERS,
            f"销售额最高的客户是{f.customer_sales[0][0]}，为 {fm.scaled(f.customer_sales[0][1], '万')}元。",
        ),
        ("retail", en_q, EN_BY_REGION, f"{north} led with {fm.scaled(north_v, 'million', 2, space=' ')}."),
        ("retail", en_q, EN_BY_REGION, f"{north}: ${fm.scaled(north_v, 'm', 1)} in 2025."),
        ("retail", en_q, EN_BY_REGION, f"{north} brought in ${fm.num(north_v, 0)}."),
        ("retail", en_q, EN_BY_REGION, f"{north} revenue was USD {fm.scaled(north_v, 'M', 1)}."),
        (
            "retail",
            en_q,
            EN_BY_REGION,
            f"Revenue came from {fm.en_word(len(f.en_region_2025))} regions; {north} was the largest.",
        ),
        ("retail", yoy_q, EN_YOY, f"{down} revenue changed {fm.pct(f.en_yoy[down])} year over year."),
        ("retail", yoy_q, EN_YOY, f"{down} revenue was down {fm.pct(f.en_yoy[down], sign=False)} on 2024."),
        ("retail", yoy_q, EN_YOY, f"{up} grew {fm.pct(f.en_yoy[up])} YoY."),
        (
            "retail",
            "What share of revenue comes from each channel?",
            EN_SHARE,
            f"{ch} accounts for {fm.pct(ch_share)}.",
        ),
        ("retail", "What share of revenue comes from each channel?", EN_SHARE, f"{ch} is about {fm.pct(ch_share, 0)}."),
        (
            "retail",
            "What was monthly revenue in 2025?",
            EN_BY_MONTH_2025,
            f"March 2025 revenue was {fm.scaled(march_en, 'million', 2, space=' ')}.",
        ),
        ("retail", "What was monthly revenue in 2025?", EN_BY_MONTH_2025, f"Mar 2025: ${fm.scaled(march_en, 'm', 2)}."),
        (
            "retail",
            "What is the average order revenue by region?",
            EN_AVG_REVENUE,
            f"{en_avg_region} has the highest average order: ${fm.scaled(en_avg, 'K', 1)}.",
        ),
        ("shop", "订单总额是多少？", SQL_TOTAL, f"订单总额约 {fm.scaled(total, '亿')}元，共 {f.shop_orders} 笔。"),
        ("shop", "订单总额是多少？", SQL_TOTAL, f"订单总额约 {fm.scaled(total, 'bn', 1)}。"),
        ("shop", "订单总额是多少？", SQL_TOTAL, f"订单总额为 {fm.num(total)} 元。"),
        ("shop", "订单总额是多少？", SQL_TOTAL, f"订单总额约 {fm.scaled(total, '亿', 1, space=' ')}元。"),
        ("shop", "各渠道销售额是多少？", SQL_BY_CHANNEL, f"{big}渠道销售额约 {fm.scaled(big_v, '亿')}元。"),
        ("shop", "各渠道销售额是多少？", SQL_BY_CHANNEL, f"{big}渠道销售额为 {fm.scaled(big_v, '万')}元。"),
        ("shop", "各渠道销售额是多少？", SQL_BY_CHANNEL, f"共{fm.zh_numeral(len(f.shop_channel))}个渠道，{big}最高。"),
    ]


def literal(f: Facts) -> list[Scenario]:
    out = []
    for n, (source, question, spec, draft) in enumerate(literal_formats(f), start=1):
        out.append(
            Scenario(f"lit-{n}", "honest_literal", "correct", source, question, honest(source, spec, draft), draft)
        )
    return out
