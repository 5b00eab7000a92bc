"""Wrong answers of the second held-out set, the way real models get them wrong: each runs a sensible query and
then misreads it, or answers a slightly different question. Every draft is checked against the truth here
(pandas/sqlite3) so that it really is wrong.

- labels: swapped in many sentence shapes (分别, label after the number, parentheses, a markdown row, a
  follow-up that repeats an earlier turn's number under another label);
- measure: the right number of another measure, a ratio computed in the head, a rounding that no rounding
  gives, a figure taken from the schema's statistics;
- period and filter: another year's value, a yearly total for a monthly question, month-over-month called
  year-over-year, a condition of the question dropped;
- claims: a rise called a fall, the wrong superlative, a false premise confirmed.
"""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust.formats import differs, num, pct, scaled
from benchmarks.trust.heldout2_facts import Facts2, change, order, ratio
from benchmarks.trust.heldout2_specs import (
    MK_DAY_2025_TOTAL,
    MK_MONTHS_2025,
    SB_PLAN_SHARE_2025,
    SQL_ALL_AMOUNT,
    SQL_CITY_USERS,
    SQL_REFUND_BY_CHANNEL,
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
from benchmarks.trust.heldout2_write import count, file_run, file_steps, mk_history, shop_run, usd, wan, yi
from benchmarks.trust.script import Scenario, answer
from tests.agent.loopback import Turn

Y25 = year("日期", 2025)
S25 = year("month", 2025)


def _wrong(
    sid: str, player: str, source: str, question: str, turns: list[Turn], why: str, history: list | None = None
) -> Scenario:
    return Scenario(sid, player, "wrong", source, question, turns, why=why, history=history or [])


def labels(f: Facts2) -> list[Scenario]:
    ch25 = f.mk_channel[2025]
    tm, xhs, dy, bd = ch25["天猫"], ch25["小红书"], ch25["抖音"], ch25["百度"]
    by_ctr = order(ch25, "点击率")
    assert by_ctr[:2] == ["天猫", "小红书"]
    by_cost = order(ch25, "成本")
    a, b = by_cost[1], by_cost[2]  # two neighbouring rows whose costs the table swaps
    cost = {ch: ch25[ch]["成本"] for ch in by_cost}
    cost[a], cost[b] = cost[b], cost[a]
    cost_table = "\n".join(f"| {ch} | {num(cost[ch])} |" for ch in by_cost)
    de, jp = f.sb_country[2025]["Germany"]["new"], f.sb_country[2025]["Japan"]["new"]
    dec_plan = {p: f.sb_plan_month[p, "2025-12"]["mrr"] for p in f.sb_plan[2025]}
    first, second = sorted(dec_plan, key=dec_plan.__getitem__, reverse=True)[:2]
    plan25 = f.sb_plan[2025]
    shown_new = {p: plan25[p]["new"] for p in plan25}
    shown_new["Pro"], shown_new["Team"] = shown_new["Team"], shown_new["Pro"]
    plan_table = "\n".join(
        f"| {p} | {count(shown_new[p])} | {count(plan25[p]['churned'])} |" for p in ("Basic", "Pro", "Team")
    )
    online, store = f.sh_channel_status["线上", "退款"][1], f.sh_channel_status["门店", "退款"][1]
    return [
        _wrong(
            "h2-w01",
            "h2_label",
            "mkt",
            "2025 年天猫和小红书的成交额分别是多少？",
            file_run(
                "mkt",
                mk_channels(Y25, channels=["天猫", "小红书"]),
                f"2025 年天猫成交额 {wan(xhs['成交额'])}，小红书成交额 {wan(tm['成交额'])}。",
            ),
            "天猫 and 小红书 swapped (分别)",
        ),
        _wrong(
            "h2-w02",
            "h2_label",
            "mkt",
            "2025 年抖音和百度的点击量各是多少？",
            file_run(
                "mkt",
                mk_channels(Y25, channels=["抖音", "百度"], sort="点击量"),
                f"{count(dy['点击量'])} 次点击来自百度，抖音则是 {count(bd['点击量'])} 次。",
            ),
            "labels after the numbers, swapped",
        ),
        _wrong(
            "h2-w03",
            "h2_label",
            "mkt",
            "2025 年哪个渠道的点击率最高？",
            file_run(
                "mkt",
                mk_channels(Y25, sort="点击率"),
                f"点击率最高的是小红书（{pct(tm['点击率'], 2)}），其次是天猫（{pct(xhs['点击率'], 2)}）。",
            ),
            "the top two channels swapped, values in parentheses",
        ),
        _wrong(
            "h2-w14",
            "h2_label",
            "mkt",
            "列出 2025 年各渠道的推广成本",
            file_run(
                "mkt",
                mk_channels(Y25, sort="成本"),
                "2025 年各渠道推广成本：\n\n| 渠道 | 成本（元） |\n|---|---:|\n" + cost_table,
            ),
            f"markdown table: the costs of {a} and {b} swapped",
        ),
        _wrong(
            "h2-w16",
            "h2_label",
            "subs",
            "How many new subscribers did Germany and Japan get in 2025?",
            file_run(
                "subs",
                sb_by("country", S25, isin("country", ["Germany", "Japan"])),
                f"In 2025 Germany added {count(jp)} new subscribers and Japan {count(de)}.",
            ),
            "Germany and Japan swapped",
        ),
        _wrong(
            "h2-w17",
            "h2_label",
            "subs",
            "Which plan brought in the most MRR in December 2025?",
            file_run(
                "subs",
                sb_by("plan", month("month", "2025-12"), sort="mrr"),
                f"{second} brought in the most MRR in December 2025 ({usd(dec_plan[first])}), ahead of {first} "
                f"({usd(dec_plan[second])}).",
            ),
            f"{first} and {second} swapped, values in parentheses",
        ),
        _wrong(
            "h2-w28",
            "h2_label",
            "subs",
            "Show new subscribers and churn by plan for 2025.",
            file_run(
                "subs",
                sb_by("plan", S25),
                "2025 by plan:\n\n| Plan | New subscribers | Churned |\n|---|---:|---:|\n" + plan_table,
            ),
            "markdown table: new subscribers of Pro and Team swapped",
        ),
        _wrong(
            "h2-w29",
            "h2_label",
            "shop",
            "线上和门店的退款金额分别是多少？",
            shop_run(SQL_REFUND_BY_CHANNEL, f"线上退款金额 {wan(store)}，门店退款金额 {wan(online)}。"),
            "线上 and 门店 swapped",
        ),
        _wrong(
            "h2-w32",
            "h2_label",
            "mkt",
            "天猫的成本呢？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "天猫"), measures=[total("成本", "成本")]),
                f"天猫 2025 年成交额为 {wan(xhs['成交额'])}（见上一轮），对应的推广成本为 {wan(tm['成本'])}。",
            ),
            "repeats 小红书's sales from the earlier turn's table as 天猫's",
            history=mk_history(f),
        ),
    ]


def measures(f: Facts2) -> list[Scenario]:
    ch25 = f.mk_channel[2025]
    bd, wx, tm = ch25["百度"], ch25["微信"], ch25["天猫"]
    head_ctr = Decimal("1.85")
    assert differs(head_ctr, wx["点击率"] * 100, 2)
    roi_written = Decimal("7.3")
    assert differs(roi_written, tm["ROI"], 1)
    assert f.mk_top_day[1] != f.mk_row_max_clicks
    uk = f.sb_country[2025]["UK"]
    team_share = ratio(f.sb_plan[2025]["Team"]["new"], f.sb_year[2025]["new"])
    share_written = Decimal("8.3")
    assert differs(share_written, team_share * 100, 1)
    highest = max(v["mrr"] for v in f.sb_month.values())
    assert highest != f.sb_row_max_mrr
    beijing_orders = f.sh_city["北京"][0]
    assert beijing_orders != f.sh_city_users["北京"]
    return [
        _wrong(
            "h2-w05",
            "h2_measure",
            "mkt",
            "2025 年百度花了多少推广成本？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "百度"), measures=[total("成交额", "成交额"), total("成本", "成本")]),
                f"2025 年百度的推广成本为 {num(bd['成交额'])} 元。",
            ),
            "成交额 given as 成本",
        ),
        _wrong(
            "h2-w06",
            "h2_measure",
            "mkt",
            "2025 年微信的点击率是多少？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "微信"), measures=[total("曝光量", "曝光量"), total("点击量", "点击量")]),
                f"2025 年微信曝光量 {count(wx['曝光量'])}、点击量 {count(wx['点击量'])}，点击率约为 {head_ctr}%。",
            ),
            f"CTR computed in the head: {head_ctr}% (truth {pct(wx['点击率'], 2)})",
        ),
        _wrong(
            "h2-w10",
            "h2_measure",
            "mkt",
            "2025 年天猫的 ROI 是多少？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "天猫"), derived=[{"name": "ROI", "expr": "成交额 / 成本"}]),
                f"2025 年天猫的 ROI（成交额 ÷ 成本）约为 {roi_written}。",
            ),
            f"rounding fabrication: {roi_written} (truth {num(tm['ROI'])})",
        ),
        _wrong(
            "h2-w15",
            "h2_measure",
            "mkt",
            "2025 年单日点击量最高是多少？",
            [
                *file_steps("mkt", MK_DAY_2025_TOTAL),
                *answer(
                    f"2025 年全年点击量 {count(f.mk_year[2025]['点击量'])} 次，其中单日最高点击量为 "
                    f"{count(f.mk_row_max_clicks)} 次。"
                ),
            ],
            f"the single-day peak is the schema's max of one row (truth {f.mk_top_day[0]}: {f.mk_top_day[1]})",
        ),
        _wrong(
            "h2-w21",
            "h2_measure",
            "subs",
            "How many UK subscribers churned in 2025?",
            file_run("subs", sb_one(S25, eq("country", "UK")), f"{count(uk['new'])} UK subscribers churned in 2025."),
            "new_subscribers given as churned",
        ),
        _wrong(
            "h2-w26",
            "h2_measure",
            "subs",
            "What share of 2025 new subscribers were on the Team plan?",
            file_run("subs", SB_PLAN_SHARE_2025, f"Team accounted for {share_written}% of new subscribers in 2025."),
            f"rounding fabrication: {share_written}% (truth {pct(team_share, 2)})",
        ),
        _wrong(
            "h2-w27",
            "h2_measure",
            "subs",
            "What was the highest monthly MRR in the data?",
            file_run(
                "subs",
                sb_yoy(of="mrr"),
                f"The highest monthly MRR in the data is {usd(f.sb_row_max_mrr)}.",
            ),
            f"the schema's max of one plan-country row (truth {usd(highest)})",
        ),
        _wrong(
            "h2-w31",
            "h2_measure",
            "shop",
            "北京有多少位用户？",
            shop_run(SQL_CITY_USERS, f"北京共有 {beijing_orders} 位用户。", tables=("用户", "订单")),
            "the order count given as the user count",
        ),
    ]


def periods(f: Facts2) -> list[Scenario]:
    ch25, ch24 = f.mk_channel[2025], f.mk_channel[2024]
    jun = f.mk_month["2025-06"]["成交额"]
    mom = change(jun, f.mk_month["2025-05"]["成交额"])
    yoy = change(jun, f.mk_month["2024-06"]["成交额"])
    assert differs(Decimal(num(mom * 100, 1)), yoy * 100, 1)
    dy_d11 = f.mk_channel_campaign[2025, "抖音", "双十一"]["成交额"]
    xhs_march = f.mk_channel_month["小红书", "2025-03"]["成交额"]
    dec25, dec24, nov25 = (f.sb_month[k]["mrr"] for k in ("2025-12", "2024-12", "2025-11"))
    br_pro = f.sb_country_plan[2025, "Brazil", "Pro"]["new"]
    br_all = f.sb_country[2025]["Brazil"]["new"]
    refunds = f.sh_status["退款"][1]
    return [
        _wrong(
            "h2-w04",
            "h2_period",
            "mkt",
            "2025 年抖音的成交额是多少？",
            file_run("mkt", mk_yoy("抖音"), f"2025 年抖音成交额为 {wan(ch24['抖音']['成交额'])}。"),
            "2024's value labelled 2025",
        ),
        _wrong(
            "h2-w08",
            "h2_period",
            "mkt",
            "2025 年 6 月成交额同比增长了多少？",
            file_run("mkt", MK_MONTHS_2025, f"2025 年 6 月成交额 {wan(jun)}，同比增长 {pct(mom, 1)}。"),
            f"month-over-month change called 同比 (truth {pct(yoy, 1)})",
        ),
        _wrong(
            "h2-w09",
            "h2_period",
            "mkt",
            "2025 年 3 月小红书的成交额是多少？",
            file_run("mkt", mk_channels(Y25), f"2025 年 3 月小红书的成交额为 {wan(ch25['小红书']['成交额'])}。"),
            f"the 2025 total for a March question (truth {wan(xhs_march)})",
        ),
        _wrong(
            "h2-w07",
            "h2_period",
            "mkt",
            "2025 年双十一期间抖音的成交额是多少？",
            file_run(
                "mkt",
                mk_one(Y25, eq("渠道", "抖音"), measures=[total("成交额", "成交额")]),
                f"2025 年双十一期间，抖音成交额为 {wan(ch25['抖音']['成交额'])}。",
            ),
            f"the 双十一 filter dropped (truth {wan(dy_d11)})",
        ),
        _wrong(
            "h2-w18",
            "h2_period",
            "subs",
            "What was total MRR in December 2025?",
            file_run("subs", sb_months(), f"Total MRR in December 2025 was {usd(dec24)}."),
            f"December 2024's MRR (truth {usd(dec25)})",
        ),
        _wrong(
            "h2-w19",
            "h2_period",
            "subs",
            "What was MRR in December 2025?",
            file_run(
                "subs",
                sb_yoy(of="mrr"),
                f"MRR in December 2025 was ${scaled(f.sb_year[2025]['mrr'], 'million', 2, space=' ')}.",
            ),
            f"the 2025 sum of monthly MRR for a December question (truth {usd(dec25)})",
        ),
        _wrong(
            "h2-w20",
            "h2_period",
            "subs",
            "What was the year-over-year growth of MRR in December 2025?",
            file_run(
                "subs",
                sb_months(S25, window="mrr_change"),
                f"MRR grew {pct(change(dec25, nov25), 1)} year over year in December 2025, reaching {usd(dec25)}.",
            ),
            f"month-over-month called year-over-year (truth {pct(change(dec25, dec24), 1)})",
        ),
        _wrong(
            "h2-w22",
            "h2_period",
            "subs",
            "How many new Pro subscribers did Brazil get in 2025?",
            file_run(
                "subs",
                sb_one(S25, eq("country", "Brazil"), measures=[total("new_subscribers", "new_subscribers")]),
                f"Brazil gained {count(br_all)} new Pro subscribers in 2025.",
            ),
            f"the Pro filter dropped (truth {count(br_pro)})",
        ),
        _wrong(
            "h2-w30",
            "h2_period",
            "shop",
            "退款订单的金额合计是多少？",
            shop_run(SQL_ALL_AMOUNT, f"退款订单金额合计约 {yi(f.sh_total)}。"),
            f"the 退款 filter dropped (truth {yi(refunds)})",
        ),
    ]


def claims(f: Facts2) -> list[Scenario]:
    ch25, ch24 = f.mk_channel[2025], f.mk_channel[2024]
    bd_change = change(ch25["百度"]["成交额"], ch24["百度"]["成交额"])
    assert bd_change < 0
    lowest_ctr = order(ch25, "点击率")[-1]
    assert lowest_ctr != "抖音"
    assert ch25["天猫"]["成交额"] < ch25["小红书"]["成交额"]
    uk25, uk24 = f.sb_country[2025]["UK"]["new"], f.sb_country[2024]["UK"]["new"]
    assert uk25 < uk24
    fewest = order(f.sb_country[2025], "new")[-1]
    assert fewest != "Japan"
    c25, c24 = f.sb_year[2025]["churned"], f.sb_year[2024]["churned"]
    assert c25 > c24
    return [
        _wrong(
            "h2-w11",
            "h2_claim",
            "mkt",
            "百度 2025 年的成交额同比变化如何？",
            file_run(
                "mkt",
                mk_yoy("百度"),
                f"百度 2025 年成交额同比增长 {pct(bd_change, 2, sign=False)}，达到 {wan(ch25['百度']['成交额'])}。",
            ),
            "a fall called a rise",
        ),
        _wrong(
            "h2-w12",
            "h2_claim",
            "mkt",
            "2025 年哪个渠道的点击率最低？",
            file_run(
                "mkt",
                mk_channels(Y25, sort="点击率"),
                f"2025 年点击率最低的是抖音，只有 {pct(ch25['抖音']['点击率'], 2)}。",
            ),
            f"wrong superlative (truth {lowest_ctr})",
        ),
        _wrong(
            "h2-w13",
            "h2_claim",
            "mkt",
            "天猫 2025 年的成交额是不是比小红书高？",
            file_run(
                "mkt",
                mk_channels(Y25, channels=["天猫", "小红书"]),
                f"是的，天猫 2025 年成交额为 {wan(ch25['天猫']['成交额'])}，高于小红书。",
            ),
            "confirms a false premise (小红书 is higher)",
        ),
        _wrong(
            "h2-w23",
            "h2_claim",
            "subs",
            "How did UK new subscribers change year over year in 2025?",
            file_run(
                "subs",
                sb_yoy(eq("country", "UK")),
                f"UK new subscribers rose {pct(change(uk25, uk24), 1, sign=False)} year over year, reaching "
                f"{count(uk25)} in 2025.",
            ),
            "a fall called a rise",
        ),
        _wrong(
            "h2-w24",
            "h2_claim",
            "subs",
            "Which country had the fewest new subscribers in 2025?",
            file_run(
                "subs",
                sb_by("country", S25, sort="new_subscribers", desc=False),
                f"Japan had the fewest new subscribers in 2025, with {count(f.sb_country[2025]['Japan']['new'])}.",
            ),
            f"wrong superlative (truth {fewest})",
        ),
        _wrong(
            "h2-w25",
            "h2_claim",
            "subs",
            "Churn went down in 2025 compared with 2024, right?",
            file_run(
                "subs",
                sb_yoy(of="churned"),
                f"Yes — churn came down in 2025: {count(c25)} subscribers churned over the year.",
            ),
            f"confirms a false premise (churned rose from {count(c24)} to {count(c25)})",
        ),
    ]
