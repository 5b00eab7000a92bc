"""Right answers of the second held-out set, as a careful model writes them: by reference or with literal
numbers in the formats people use (万元, 亿元, $, K, %, Chinese numerals, full-width digits), ratios with
their formula, period changes done right, top-N lists and markdown tables, trends with start, end, peak and
trough, shares that name their whole, yes/no answers to leading questions with the data's figure,
disclosures of a condition the data cannot apply, and follow-ups that lean on an earlier turn's table.

Every literal number is written from heldout2_facts (pandas/sqlite3), never from the product."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust.formats import full_width, num, pct, scaled, zh_numeral
from benchmarks.trust.heldout2_facts import Facts2, change, order, ratio
from benchmarks.trust.heldout2_specs import (
    MK_ALL_YEARS,
    MK_CAMPAIGN_SHARE_2025,
    MK_JUNE_BOTH_YEARS,
    MK_MONTHS_2025,
    MK_TOTAL_2025,
    SB_PLAN_SHARE_2025,
    SQL_CITY,
    SQL_DONE_AVG,
    SQL_ONLINE_REFUND_RATE,
    SQL_Q4,
    SQL_REFUNDS,
    SQL_TOP_USERS,
    eq,
    isin,
    mk_channels,
    mk_one,
    mk_yoy,
    month,
    sb_by,
    sb_months,
    sb_one,
    sb_yoy,
    total,
    year,
)
from benchmarks.trust.heldout2_write import (
    count,
    file_run,
    file_steps,
    mk_history,
    month_name,
    month_zh,
    sb_history,
    shop_run,
    usd,
    wan,
    yi,
)
from benchmarks.trust.script import Scenario, answer

Y25 = year("日期", 2025)
S25 = year("month", 2025)


def by_reference(f: Facts2) -> list[Scenario]:
    """Drafts that quote result cells by reference; `shows` holds the true values the answer must carry."""
    ch25 = f.mk_channel[2025]
    by_ctr = order(ch25, "点击率")
    lines = "\n".join(f"- {{{{q1.渠道[{i}]}}}}：{{{{q1.点击率[{i}]|pct2}}}}" for i in range(len(by_ctr)))
    months = f.mk_month
    by_roi = order(f.mk_channel_all, "ROI")
    best = f.mk_channel_all[by_roi[0]]
    countries = order(f.sb_country[2025], "new")
    plans = sorted(f.sb_plan[2025], key=lambda p: f.sb_plan[2025][p]["churned"])
    city = sorted(f.sh_city, key=lambda c: f.sh_city[c][1], reverse=True)
    return [
        Scenario(
            "h2-c01",
            "h2_reference",
            "correct",
            "mkt",
            "2025 年各渠道的点击率分别是多少？",
            file_run(
                "mkt",
                mk_channels(Y25, sort="点击率"),
                f"2025 年各渠道点击率（点击率 = 点击量 ÷ 曝光量），从高到低：\n{lines}",
            ),
            shows=tuple(ch25[ch]["点击率"] for ch in by_ctr),
        ),
        Scenario(
            "h2-c04",
            "h2_reference",
            "correct",
            "mkt",
            "2025 年 10 月的成交额环比增长了多少？",
            file_run(
                "mkt",
                MK_MONTHS_2025,
                "2025 年 10 月成交额为 {{q1.成交额[9]}} 元，比 9 月的 {{q1.成交额[8]}} 元环比增长 {{q1.环比[9]|pct}}。",
            ),
            shows=(
                months["2025-10"]["成交额"],
                months["2025-09"]["成交额"],
                change(months["2025-10"]["成交额"], months["2025-09"]["成交额"]),
            ),
        ),
        Scenario(
            "h2-c11",
            "h2_reference",
            "correct",
            "mkt",
            "哪个渠道的投入产出比最高？",
            file_run(
                "mkt",
                mk_channels(sort="ROI"),
                "按 2024—2025 年全部数据，投入产出比最高的是 {{q1.渠道[0]}}：成交额 {{q1.成交额[0]|wan}}元、"
                "成本 {{q1.成本[0]|wan}}元，ROI（成交额 ÷ 成本）为 {{q1.ROI[0]|d2}}。",
            ),
            shows=(best["ROI"], best["成交额"], best["成本"]),
        ),
        Scenario(
            "h2-c19",
            "h2_reference",
            "correct",
            "subs",
            "Which country added the most new subscribers in 2025?",
            file_run(
                "subs",
                sb_by("country", S25),
                "{{q1.country[0]}} added the most new subscribers in 2025: {{q1.new_subscribers[0]|int}}, ahead of "
                "{{q1.country[1]}} with {{q1.new_subscribers[1]|int}}.",
            ),
            shows=(f.sb_country[2025][countries[0]]["new"], f.sb_country[2025][countries[1]]["new"]),
        ),
        Scenario(
            "h2-c21",
            "h2_reference",
            "correct",
            "subs",
            "How much did MRR grow month over month in November 2025?",
            file_run(
                "subs",
                sb_months(S25, window="mrr_mom"),
                "MRR rose from ${{q1.mrr[9]}} in October to ${{q1.mrr[10]}} in November 2025, "
                "up {{q1.mrr_mom[10]|pct2}} month over month.",
            ),
            shows=(
                f.sb_month["2025-10"]["mrr"],
                f.sb_month["2025-11"]["mrr"],
                change(f.sb_month["2025-11"]["mrr"], f.sb_month["2025-10"]["mrr"]),
            ),
        ),
        Scenario(
            "h2-c27",
            "h2_reference",
            "correct",
            "subs",
            "Which plan had the fewest churned subscribers in 2025?",
            file_run(
                "subs",
                sb_by("plan", S25, sort="churned", desc=False),
                "{{q1.plan[0]}} had the fewest churned subscribers in 2025 ({{q1.churned[0]|int}}), compared with "
                "{{q1.churned[1]|int}} for {{q1.plan[1]}} and {{q1.churned[2]|int}} for {{q1.plan[2]}}.",
            ),
            shows=tuple(f.sb_plan[2025][p]["churned"] for p in plans),
        ),
        Scenario(
            "h2-c34",
            "h2_reference",
            "correct",
            "shop",
            "哪个城市的用户下单金额最高？",
            shop_run(
                SQL_CITY,
                "{{q1.城市[0]}}用户的下单金额最高，合计 {{q1.下单金额[0]|yi}}元（{{q1.订单数[0]|int}} 笔订单）；"
                "其次是{{q1.城市[1]}}，{{q1.下单金额[1]|yi}}元。",
                tables=("订单", "用户"),
                content="先把订单表和用户表按用户ID关联，再按城市汇总下单金额。我估计杭州大概 3 亿左右。",
            ),
            shows=(f.sh_city[city[0]][1], Decimal(f.sh_city[city[0]][0]), f.sh_city[city[1]][1]),
            leaks=("3 亿左右",),
        ),
    ]


def literal_marketing(f: Facts2) -> list[Scenario]:
    ch25, ch24 = f.mk_channel[2025], f.mk_channel[2024]
    xhs = ch25["小红书"]
    dy25, dy24 = ch25["抖音"]["成交额"], ch24["抖音"]["成交额"]
    top3 = order(ch25, "成交额")[:3]
    m25 = {k: v["成交额"] for k, v in f.mk_month.items() if k.startswith("2025")}
    peak, low = max(m25, key=m25.__getitem__), min(m25, key=m25.__getitem__)
    camp = f.mk_campaign[2025]
    d11_share = ratio(camp["双十一"]["成交额"], f.mk_year[2025]["成交额"])
    c618 = camp["618"]
    douyin_sh = ch25["抖音"]["成交额"]
    by_shown = order(ch25, "曝光量")
    table = "\n".join(
        f"| {ch} | {count(ch25[ch]['曝光量'])} | {count(ch25[ch]['点击量'])} | {pct(ch25[ch]['点击率'], 2)} |"
        for ch in by_shown
    )
    tm = ch25["天猫"]
    jun25, jun24 = f.mk_month["2025-06"]["成交额"], f.mk_month["2024-06"]["成交额"]
    everything = f.mk_all["成交额"]
    return [
        Scenario(
            "h2-c02",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年小红书的 ROI 是多少？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "小红书"), derived=[{"name": "ROI", "expr": "成交额 / 成本"}]),
                f"2025 年小红书的 ROI 为 {num(xhs['ROI'])}（ROI = 成交额 ÷ 成本 = {num(xhs['成交额'])} 元 ÷ "
                f"{num(xhs['成本'])} 元）。",
            ),
        ),
        Scenario(
            "h2-c03",
            "h2_literal",
            "correct",
            "mkt",
            "抖音 2025 年的成交额同比增长了多少？",
            file_run(
                "mkt",
                mk_yoy("抖音"),
                f"抖音 2025 年成交额 {wan(dy25)}，2024 年为 {wan(dy24)}，同比增长 {pct(change(dy25, dy24), 2)}。",
            ),
        ),
        Scenario(
            "h2-c05",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年成交额排名前三的渠道是哪些？",
            file_run(
                "mkt",
                mk_channels(Y25, limit=3),
                "2025 年成交额前三的渠道：\n"
                + "\n".join(f"{i}. {ch} — {wan(ch25[ch]['成交额'])}" for i, ch in enumerate(top3, start=1)),
                content="先看表结构，再按渠道汇总 2025 年的成交额，取前三名。",
            ),
        ),
        Scenario(
            "h2-c06",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年每个月的成交额走势如何？",
            file_run(
                "mkt",
                MK_MONTHS_2025,
                f"2025 年月度成交额从 1 月的 {wan(m25['2025-01'])} 起步，{month_zh(peak)}达到全年最高 "
                f"{wan(m25[peak])}，{month_zh(low)}是全年最低点 {wan(m25[low])}，12 月收于 {wan(m25['2025-12'])}。"
                "整体是大促月份冲高、其余月份回落的波动走势。",
            ),
        ),
        Scenario(
            "h2-c07",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年双十一活动的成交额占全年成交额的比例是多少？",
            [
                *file_steps("mkt", MK_CAMPAIGN_SHARE_2025, MK_TOTAL_2025),
                *answer(
                    f"2025 年双十一活动成交额为 {wan(camp['双十一']['成交额'])}，占 2025 年全年成交额"
                    f"（{wan(f.mk_year[2025]['成交额'])}，含所有活动和日常投放）的 {pct(d11_share, 1)}。"
                ),
            ],
        ),
        Scenario(
            "h2-c08",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年 618 活动的投入产出比是多少？",
            file_run(
                "mkt",
                mk_one(Y25, eq("活动", "618"), derived=[{"name": "投入产出比", "expr": "成交额 / 成本"}]),
                f"2025 年 618 活动期间成交额 {num(c618['成交额'])} 元、成本 {num(c618['成本'])} 元，"
                f"投入产出比（成交额 ÷ 成本）为 {num(c618['ROI'])}。",
            ),
        ),
        Scenario(
            "h2-c09",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年上海地区抖音渠道的成交额是多少？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "抖音"), measures=[total("成交额", "成交额")]),
                "数据里没有地区或城市字段，无法按“上海”筛选，以下结果未按地区筛选："
                f"2025 年抖音渠道成交额为 {num(douyin_sh)} 元。",
            ),
        ),
        Scenario(
            "h2-c10",
            "h2_literal",
            "correct",
            "mkt",
            "小红书 2025 年的点击率是不是超过 5% 了？",
            file_run(
                "mkt",
                mk_one(
                    Y25,
                    eq("渠道", "小红书"),
                    measures=[total("曝光量", "曝光量"), total("点击量", "点击量")],
                    derived=[{"name": "点击率", "expr": "点击量 / 曝光量"}],
                ),
                f"没有。2025 年小红书的点击率为 {pct(xhs['点击率'], 2)}（点击量 {count(xhs['点击量'])} ÷ "
                f"曝光量 {count(xhs['曝光量'])}），低于 5%。",
            ),
        ),
        Scenario(
            "h2-c12",
            "h2_literal",
            "correct",
            "mkt",
            "对比一下 2025 年各渠道的曝光量和点击量",
            file_run(
                "mkt",
                mk_channels(Y25, sort="曝光量"),
                "2025 年各渠道的曝光与点击（点击率 = 点击量 ÷ 曝光量）：\n\n"
                "| 渠道 | 曝光量 | 点击量 | 点击率 |\n|---|---:|---:|---:|\n" + table,
            ),
        ),
        Scenario(
            "h2-c13",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年百度和微信的成本各是多少？",
            file_run(
                "mkt",
                mk_channels(Y25, sort="成本", channels=["百度", "微信"]),
                f"{num(ch25['百度']['成本'])} 元是百度 2025 年的推广成本；"
                f"微信低得多，只有 {num(ch25['微信']['成本'])} 元。",
            ),
        ),
        Scenario(
            "h2-c16",
            "h2_literal",
            "correct",
            "mkt",
            "What was 天猫's click-through rate in 2025?",
            file_run(
                "mkt",
                mk_one(
                    Y25,
                    eq("渠道", "天猫"),
                    measures=[total("曝光量", "曝光量"), total("点击量", "点击量")],
                    derived=[{"name": "点击率", "expr": "点击量 / 曝光量"}],
                ),
                f"天猫's click-through rate in 2025 was {pct(tm['点击率'], 2)} (clicks ÷ impressions: "
                f"{count(tm['点击量'])} ÷ {count(tm['曝光量'])}).",
                content="I'll check the schema, then divide clicks by impressions for 天猫 in 2025 — I expect "
                "roughly 6%.",
            ),
            leaks=("roughly 6%",),
        ),
        Scenario(
            "h2-c17",
            "h2_literal",
            "correct",
            "mkt",
            "两年一共成交了多少钱？",
            file_run(
                "mkt",
                MK_ALL_YEARS,
                f"2024—2025 两年合计成交额约 {yi(everything)}（精确为 {full_width(num(everything))} 元）。",
            ),
        ),
        Scenario(
            "h2-c39",
            "h2_literal",
            "correct",
            "mkt",
            "2025 年 6 月成交额同比增长了多少？",
            file_run(
                "mkt",
                MK_JUNE_BOTH_YEARS,
                f"2025 年 6 月成交额 {wan(jun25)}，去年同月（2024 年 6 月）为 {wan(jun24)}，"
                f"同比增长 {pct(change(jun25, jun24), 1)}。",
            ),
        ),
    ]


def literal_subscriptions(f: Facts2) -> list[Scenario]:
    plan25 = f.sb_plan[2025]
    pro_share = ratio(plan25["Pro"]["new"], f.sb_year[2025]["new"])
    uk25, uk24 = f.sb_country[2025]["UK"]["new"], f.sb_country[2024]["UK"]["new"]
    basic = plan25["Basic"]
    m24 = {k: v["new"] for k, v in f.sb_month.items() if k.startswith("2024")}
    peak, low = max(m24, key=m24.__getitem__), min(m24, key=m24.__getitem__)
    dec = {c: f.sb_country_month[c, "2025-12"]["mrr"] for c in f.sb_country[2025]}
    top3 = sorted(dec, key=dec.__getitem__, reverse=True)[:3]
    table = "\n".join(f"| {i} | {c} | {usd(dec[c])} |" for i, c in enumerate(top3, start=1))
    net = {p: plan25[p]["new"] - plan25[p]["churned"] for p in plan25}
    germany = f.sb_country[2025]["Germany"]["mrr"]
    months = f.sb_months_per_year
    jan, dec_total = f.sb_month["2025-01"]["mrr"], f.sb_month["2025-12"]["mrr"]
    return [
        Scenario(
            "h2-c18",
            "h2_literal",
            "correct",
            "subs",
            "What was total MRR in December 2025?",
            file_run(
                "subs",
                sb_one(month("month", "2025-12"), measures=[total("mrr", "mrr")]),
                f"Total MRR in December 2025 was {usd(f.sb_month['2025-12']['mrr'])}, summed across all plans "
                "and countries.",
            ),
        ),
        Scenario(
            "h2-c20",
            "h2_literal",
            "correct",
            "subs",
            "What share of 2025 new subscribers were on the Pro plan?",
            [
                *file_steps(
                    "subs", SB_PLAN_SHARE_2025, sb_one(S25, measures=[total("new_subscribers", "new_subscribers")])
                ),
                *answer(
                    f"Pro made up {pct(pro_share, 1)} of all new subscribers in 2025 "
                    f"({count(plan25['Pro']['new'])} of {count(f.sb_year[2025]['new'])} across every plan)."
                ),
            ],
        ),
        Scenario(
            "h2-c22",
            "h2_literal",
            "correct",
            "subs",
            "Did UK new subscribers grow year over year in 2025?",
            file_run(
                "subs",
                sb_yoy(eq("country", "UK")),
                f"No. UK new subscribers fell {pct(change(uk25, uk24), 1, sign=False)} year over year — "
                f"{count(uk25)} in 2025 versus {count(uk24)} in 2024.",
            ),
        ),
        Scenario(
            "h2-c23",
            "h2_literal",
            "correct",
            "subs",
            "What was the churn-to-new ratio for the Basic plan in 2025?",
            file_run(
                "subs",
                sb_one(
                    S25,
                    eq("plan", "Basic"),
                    measures=[total("new_subscribers", "new_subscribers"), total("churned", "churned")],
                    derived=[{"name": "churn_to_new", "expr": "churned / new_subscribers"}],
                ),
                f"Basic's churn-to-new ratio in 2025 was {num(ratio(basic['churned'], basic['new']))}: "
                f"{count(basic['churned'])} churned ÷ {count(basic['new'])} new subscribers.",
            ),
        ),
        Scenario(
            "h2-c24",
            "h2_literal",
            "correct",
            "subs",
            "Describe the trend in monthly new subscribers during 2024.",
            file_run(
                "subs",
                sb_months(year("month", 2024)),
                f"New subscribers opened 2024 at {count(m24['2024-01'])} in January, peaked at {count(m24[peak])} "
                f"in {month_name(peak)}, fell to the year's low of {count(m24[low])} in {month_name(low)} and "
                f"closed at {count(m24['2024-12'])} in December.",
            ),
        ),
        Scenario(
            "h2-c25",
            "h2_literal",
            "correct",
            "subs",
            "Top 3 countries by MRR in December 2025?",
            file_run(
                "subs",
                sb_by("country", month("month", "2025-12"), sort="mrr", limit=3),
                "Top 3 countries by MRR in December 2025:\n\n| # | Country | MRR |\n|---|---|---:|\n" + table,
            ),
        ),
        Scenario(
            "h2-c26",
            "h2_literal",
            "correct",
            "subs",
            "How many new subscribers did Japan get from paid ads in 2025?",
            file_run(
                "subs",
                sb_one(S25, eq("country", "Japan"), measures=[total("new_subscribers", "new_subscribers")]),
                "The data has no acquisition-channel field, so I could not limit this to paid ads. Across all "
                f"sources, Japan gained {count(f.sb_country[2025]['Japan']['new'])} new subscribers in 2025.",
            ),
        ),
        Scenario(
            "h2-c28",
            "h2_literal",
            "correct",
            "subs",
            "What were net adds by plan in 2025?",
            file_run(
                "subs",
                {
                    "filters": [S25],
                    "group_by": ["plan"],
                    "aggregations": [total("new_subscribers", "new_subscribers"), total("churned", "churned")],
                    "derived": [{"name": "net_adds", "expr": "new_subscribers - churned"}],
                    "sort": [{"by": "net_adds", "desc": True}],
                },
                "Net adds in 2025 (new_subscribers − churned):\n"
                + "\n".join(f"- {p}: {count(net[p])}" for p in sorted(net, key=net.__getitem__, reverse=True)),
            ),
        ),
        Scenario(
            "h2-c29",
            "h2_literal",
            "correct",
            "subs",
            "What was Germany's average monthly MRR in 2025?",
            file_run(
                "subs",
                sb_one(
                    S25,
                    eq("country", "Germany"),
                    measures=[total("total_mrr", "mrr"), {"name": "months", "func": "nunique", "column": "month"}],
                    derived=[{"name": "avg_monthly_mrr", "expr": "total_mrr / months"}],
                ),
                f"Germany averaged {usd(germany / months)} of MRR per month in 2025 (total MRR of {usd(germany)} "
                f"over {months} months).",
            ),
        ),
        Scenario(
            "h2-c31",
            "h2_literal",
            "correct",
            "subs",
            "2025 年美国新增了多少订阅用户？",
            file_run(
                "subs",
                sb_one(S25, eq("country", "US"), measures=[total("new_subscribers", "new_subscribers")]),
                f"2025 年美国（US）新增订阅用户 {count(f.sb_country[2025]['US']['new'])} 人。",
            ),
        ),
        Scenario(
            "h2-c32",
            "h2_literal",
            "correct",
            "subs",
            "How did MRR change from January to December 2025?",
            file_run(
                "subs",
                sb_months(isin("month", ["2025-01-01", "2025-12-01"]), window="mrr_change"),
                f"MRR grew from ${scaled(jan, 'K', 1)} in January 2025 to ${scaled(dec_total, 'K', 1)} in December "
                f"2025, an increase of {pct(change(dec_total, jan), 1)}.",
            ),
        ),
    ]


def literal_shop(f: Facts2) -> list[Scenario]:
    refunds, amount = f.sh_status["退款"]
    users = f.sh_user_top[:3]
    table = "\n".join(f"| {i} | {name} | {num(value)} |" for i, (name, value) in enumerate(users, start=1))
    q4 = sorted(f.sh_q4_channel, key=f.sh_q4_channel.__getitem__, reverse=True)
    done = f.sh_status["完成"][0]
    online = f.sh_channel_status["线上", "完成"][0] + f.sh_channel_status["线上", "退款"][0]
    online_refunds = f.sh_channel_status["线上", "退款"][0]
    return [
        Scenario(
            "h2-c33",
            "h2_literal",
            "correct",
            "shop",
            "退款订单一共有多少笔？金额合计多少？",
            shop_run(SQL_REFUNDS, f"退款订单共{zh_numeral(refunds)}笔，退款金额合计 {wan(amount)}。"),
        ),
        Scenario(
            "h2-c35",
            "h2_literal",
            "correct",
            "shop",
            "下单金额最高的三位用户是谁？",
            shop_run(
                SQL_TOP_USERS,
                "下单金额最高的三位用户：\n\n| 排名 | 用户 | 下单金额（元） |\n|---|---|---:|\n" + table,
                tables=("订单", "用户"),
                content="关联用户表和订单表，按用户汇总下单金额取前三（例如张三、李四这样的用户）。",
            ),
            leaks=("张三",),
        ),
        Scenario(
            "h2-c36",
            "h2_literal",
            "correct",
            "shop",
            "2025 年第四季度各渠道的销售额分别是多少？",
            shop_run(
                SQL_Q4,
                "2025 年第四季度（10—12 月）各渠道销售额："
                + "，".join(f"{ch} {yi(f.sh_q4_channel[ch])}" for ch in q4)
                + "。",
            ),
        ),
        Scenario(
            "h2-c37",
            "h2_literal",
            "correct",
            "shop",
            "已完成订单的平均金额是多少？",
            shop_run(SQL_DONE_AVG, f"状态为“完成”的订单共 {done} 笔，平均每笔 {num(f.sh_done_avg)} 元。"),
        ),
        Scenario(
            "h2-c38",
            "h2_literal",
            "correct",
            "shop",
            "线上渠道的退款率是多少？",
            shop_run(
                SQL_ONLINE_REFUND_RATE,
                f"线上渠道共 {online} 笔订单，其中退款 {online_refunds} 笔；按订单数计算，退款率为 "
                f"{pct(ratio(Decimal(online_refunds), Decimal(online)), 2)}（退款订单数 ÷ 订单数，不按金额）。",
            ),
        ),
    ]


def follow_ups(f: Facts2) -> list[Scenario]:
    """Follow-ups: the earlier turn is passed with its result table."""
    ch25, ch24 = f.mk_channel[2025], f.mk_channel[2024]
    bd25, bd24 = ch25["百度"]["成交额"], ch24["百度"]["成交额"]
    top = order(f.sb_country[2025], "new")[0]
    return [
        Scenario(
            "h2-c14",
            "h2_context",
            "correct",
            "mkt",
            "那百度和 2024 年比呢？",
            file_run(
                "mkt",
                mk_yoy("百度"),
                f"百度 2025 年成交额 {wan(bd25)}，比 2024 年的 {wan(bd24)} 下降了 "
                f"{pct(change(bd25, bd24), 2, sign=False)}。",
            ),
            history=mk_history(f),
        ),
        Scenario(
            "h2-c15",
            "h2_context",
            "correct",
            "mkt",
            "天猫的成本呢？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "天猫"), measures=[total("成本", "成本")]),
                f"天猫 2025 年成交额为 {wan(ch25['天猫']['成交额'])}（见上一轮），对应的推广成本为 "
                f"{wan(ch25['天猫']['成本'])}。",
            ),
            history=mk_history(f),
        ),
        Scenario(
            "h2-c30",
            "h2_context",
            "correct",
            "subs",
            "And how many churned in the top country?",
            file_run(
                "subs",
                sb_one(S25, eq("country", top), measures=[total("churned", "churned")]),
                f"The {top}, which led with {count(f.sb_country[2025][top]['new'])} new subscribers, had "
                f"{count(f.sb_country[2025][top]['churned'])} churned subscribers in 2025.",
            ),
            history=sb_history(f),
        ),
    ]


def literal(f: Facts2) -> list[Scenario]:
    return [*literal_marketing(f), *literal_subscriptions(f), *literal_shop(f)]
