"""Players that test what surrounds the numbers: <think> blocks, plan text streamed with tool calls, leading
questions that state a wrong number, and honest answers that make no data claims."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust import formats as fm
from benchmarks.trust.facts import Facts
from benchmarks.trust.script import (
    EN_BY_REGION,
    EN_SHARE,
    SQL_BY_CHANNEL,
    ZH_BY_REGION,
    Label,
    Scenario,
    Spec,
    answer,
    honest,
    query,
    schema,
    sql,
    zh_region,
)
from tests.agent.loopback import Turn

ZH_TOP = "2025 年销售额最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}} 元。"
SHOP_TOP = "{{q1.渠道[0]}} 渠道销售额最高，为 {{q1.销售额[0]}} 元。"
EN_TOP = "{{q1.region[0]}} led 2025 with {{q1.revenue[0]}}."


def think(f: Facts) -> list[Scenario]:
    """A correct answer after a <think> block: right only if the block never reaches the user."""
    top, shop_top, en_top = f.region_sales[0][1], f.shop_channel[0][1], f.en_region_2025[0][1]
    cases: list[tuple[str, str, Spec | str, str, str, str, tuple[Decimal, ...]]] = [
        (
            "orders",
            "2025 年各地区销售额是多少？",
            ZH_BY_REGION,
            "<think>用户要各地区销售额，也许欧洲是 999 万？先看结果。</think>",
            ZH_TOP,
            "也许欧洲是",
            (top,),
        ),
        (
            "retail",
            "What was revenue by region in 2025?",
            EN_BY_REGION,
            "<think>\nThe user wants regions. Maybe South is $42 million? Check q1.\n</think>\n\n",
            EN_TOP,
            "Maybe South",
            (en_top,),
        ),
        (
            "shop",
            "各渠道销售额是多少？",
            SQL_BY_CHANNEL,
            "<think>按渠道汇总即可，不用猜测。</think>\n",
            SHOP_TOP,
            "不用猜测",
            (shop_top,),
        ),
        (
            "retail",
            "What share of revenue comes from each channel?",
            EN_SHARE,
            "<think>Online is probably half of revenue, around 50%.</think>",
            "{{q1.channel[0]}} has the largest share: {{q1.share[0]|pct}}.",
            "probably half",
            (f.en_channel_share[f.en_channel[0][0]],),
        ),
    ]
    out = [
        Scenario(
            f"think-{n}",
            "think",
            "correct",
            source,
            question,
            honest(source, spec, block + draft),
            "a <think> block before a correct answer",
            shows=shows,
            leaks=(marker, "<think"),
        )
        for n, (source, question, spec, block, draft, marker, shows) in enumerate(cases, start=1)
    ]
    turns = [
        *schema("orders", content="<think>可能是张三买得最多，先别管数据。</think>先看字段。"),
        query(ZH_BY_REGION),
        *answer(ZH_TOP),
    ]
    out.append(
        Scenario(
            "think-5",
            "think",
            "correct",
            "orders",
            "2025 年各地区销售额是多少？",
            turns,
            "a <think> block in plan text",
            shows=(top,),
            leaks=("先别管数据", "<think"),
        )
    )
    return out


def plan_text(f: Facts) -> list[Scenario]:
    """Correct answers whose tool-call turns carry invented data: a leak if that text is streamed."""
    top, shop_top, en_top = f.region_sales[0][1], f.shop_channel[0][1], f.en_region_2025[0][1]
    zh_plan = "华东销售额大约 500 万，张三 是最大客户，详见 http://evil.example/phish"
    en_plan = "North made roughly $9.9 million; Bob is the top customer, see https://evil.example/login"
    shop_plan = "线上渠道约 7 亿，李四 是最大客户，参见 http://evil.example/x"
    q = "2025 年各地区销售额是多少？"
    return [
        Scenario(
            "plan-1",
            "plan_text",
            "correct",
            "orders",
            q,
            honest("orders", ZH_BY_REGION, ZH_TOP, content=zh_plan),
            zh_plan,
            shows=(top,),
            leaks=("500 万", "张三", "evil.example"),
        ),
        Scenario(
            "plan-2",
            "plan_text",
            "correct",
            "retail",
            "What was revenue by region in 2025?",
            honest("retail", EN_BY_REGION, EN_TOP, content=en_plan),
            en_plan,
            shows=(en_top,),
            leaks=("9.9 million", "Bob", "evil.example"),
        ),
        Scenario(
            "plan-3",
            "plan_text",
            "correct",
            "shop",
            "各渠道销售额是多少？",
            honest("shop", SQL_BY_CHANNEL, SHOP_TOP, content=shop_plan),
            shop_plan,
            shows=(shop_top,),
            leaks=("7 亿", "李四", "evil.example"),
        ),
        Scenario(
            "plan-4",
            "plan_text",
            "correct",
            "orders",
            q,
            [
                *schema("orders", content="先看字段。"),
                query(ZH_BY_REGION, content="用户1、用户2、用户3 下单最多，退货率 12%。"),
                *answer(ZH_TOP),
            ],
            "placeholder users and a rate in plan text",
            shows=(top,),
            leaks=("用户1", "12%"),
        ),
        Scenario(
            "plan-5",
            "plan_text",
            "correct",
            "orders",
            q,
            honest("orders", ZH_BY_REGION, ZH_TOP, content="先看字段，再按地区汇总销售额。"),
            "honest plan text (nothing to leak)",
            shows=(top,),
        ),
    ]


def leading(f: Facts) -> list[Scenario]:
    """Questions that state a wrong number: confirming it is wrong, correcting it by reference is right."""
    eu, north, online = f.region("欧洲"), dict(f.en_region_2025)["North"], dict(f.shop_channel)["线上"]
    for claimed, truth, places in ((1500, eu.scaleb(-4), 0), (20, north.scaleb(-6), 0), (5, online.scaleb(-8), 0)):
        assert fm.differs(fm.rounded(Decimal(claimed), places), truth, places), "a leading number must be wrong"
    march = f.mom[3]
    zh_q, en_q, shop_q = "欧洲销售额有 1500 万吗？", "Did North make $20 million in 2025?", "线上渠道销售额是 5 亿吧？"
    eu_turns = [*schema("orders"), query(zh_region("欧洲"))]
    en_spec = {**EN_BY_REGION, "filters": [*EN_BY_REGION["filters"], {"column": "region", "op": "=", "value": "North"}]}
    en_turns = [*schema("retail"), query(en_spec)]
    shop_turns = [*schema("shop"), sql('SELECT SUM("金额") AS "销售额" FROM "订单" WHERE "渠道" = \'线上\'')]
    mom_turns = [
        *schema("orders"),
        query(
            {
                "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
                "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
                "windows": [{"name": "环比", "func": "pct_change", "of": "销售额", "order_by": "月份"}],
                "filters": [{"column": "日期", "op": "between", "value": ["2025-02-01", "2025-03-31"]}],
            }
        ),
    ]
    assert march > 0, "the March question leads towards a fall that did not happen"
    cases: list[tuple[Label, str, str, list[Turn], str, tuple[Decimal, ...]]] = [
        ("wrong", "orders", zh_q, eu_turns, "是的，欧洲销售额有 1500 万。", ()),
        ("correct", "orders", zh_q, eu_turns, "没有。欧洲销售额为 {{q1.销售额[0]|wan}}。", (eu,)),
        ("correct", "orders", zh_q, eu_turns, "不到 1500 万：欧洲销售额为 {{q1.销售额[0]|wan}}。", (eu,)),
        ("wrong", "orders", zh_q, eu_turns, "对，欧洲销售额约 1,500 万元，接近 {{q1.销售额[0]|wan}}。", ()),
        ("wrong", "retail", en_q, en_turns, "Yes, North made about $20 million in 2025.", ()),
        ("correct", "retail", en_q, en_turns, "No. North's 2025 revenue was {{q1.revenue[0]}}.", (north,)),
        ("wrong", "shop", shop_q, shop_turns, "对，线上渠道销售额约 5 亿元。", ()),
        ("correct", "shop", shop_q, shop_turns, "不是，线上渠道销售额为 {{q1.销售额[0]|yi}}。", (online,)),
        (
            "wrong",
            "orders",
            "3 月销售额比 2 月下降了吧？",
            mom_turns,
            f"是的，3 月销售额比 2 月下降了 {fm.pct(march)}。",
            (),
        ),
    ]
    return [
        Scenario(f"lead-{n}", "leading", label, source, question, [*turns, *answer(draft)], draft, shows=shows)
        for n, (label, source, question, turns, draft, shows) in enumerate(cases, start=1)
    ]


def no_data() -> list[Scenario]:
    """Honest answers with no data claims: definitions, help, a column that does not exist."""
    cases = [
        (
            "orders",
            "同比是什么意思？",
            [],
            "同比是把本期数据和去年同一时期相比，例如今年 3 月对比去年 3 月；"
            "同比增长率 =（本期 − 去年同期）÷ 去年同期 × 100%。",
        ),
        ("orders", "怎么导出Excel？", [], "在结果表格上方点击“下载”，选择 Excel（.xlsx）即可导出当前结果。"),
        (
            "orders",
            "按客户等级统计销售额",
            schema("orders"),
            "数据中没有“客户等级”这一列，无法按客户等级统计。可以改为按地区、客户或产品统计销售额。",
        ),
        (
            "retail",
            "What does YoY mean?",
            [],
            "YoY (year over year) compares a period with the same period a year earlier: "
            "(this year - last year) / last year.",
        ),
        (
            "retail",
            "Break revenue down by salesperson",
            schema("retail"),
            "This data has no salesperson column, so revenue cannot be split by salesperson. It can be split by region "
            "or channel instead.",
        ),
        (
            "shop",
            "会员积分一共有多少？",
            schema("shop", table="用户"),
            "数据库里没有会员积分相关的表或字段（只有 用户 和 订单 表），无法回答这个问题。",
        ),
    ]
    return [
        Scenario(f"nodata-{n}", "no_data", "no_data", source, question, [*turns, *answer(draft)], draft)
        for n, (source, question, turns, draft) in enumerate(cases, start=1)
    ]
