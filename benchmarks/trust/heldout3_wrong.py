"""Wrong answers over 物流运单 and the English retail sheet: every number in them exists in a result, but the
answer is wrong (swapped labels, wrong period, wrong measure, dropped filter, fabricated rounding, wrong
direction, wrong superlative or comparison, a confirmed false premise, MoM called YoY, a yearly total for a
monthly question). Each `why` says what pandas shows instead."""

from __future__ import annotations

import calendar
from decimal import Decimal

from benchmarks.trust import heldout3_specs as s
from benchmarks.trust.formats import differs, num, pct, rounded
from benchmarks.trust.heldout3_facts import Facts3
from benchmarks.trust.script import Scenario, honest

P = "h3_wrong"


def _w(id: str, source: str, question: str, spec: s.Spec, draft: str, why: str) -> Scenario:
    return Scenario(id, P, "wrong", source, question, honest(source, spec, draft), why=why)


def wrong(f: Facts3) -> list[Scenario]:
    (w1, v1), (w2, v2), (w3, v3), (w4, v4) = f.wh_2025
    sh, gz = f.wh("上海仓"), f.wh("广州仓")
    true_late = f.route_late["跨境"][2]
    fake_late = rounded(true_late * 100, 1) + Decimal("0.6")
    assert differs(fake_late, true_late * 100, 1)
    en = f.en_region_2025
    piece_months = f.top_piece_months
    en_months = sorted(f.en_months_2025.items(), key=lambda kv: kv[1], reverse=True)
    days = f.wh_days_2025
    return [
        _w(
            "h3w01",
            "logi",
            "2025年各仓库的运费分别是多少？",
            s.by_warehouse(2025),
            f"2025年{w2}运费最高，为 {num(v1)} 元；{w1}次之，{num(v2)} 元；{w3} {num(v3)} 元，{w4} {num(v4)} 元。",
            f"labels of the first two swapped: {w1} is {num(v1)}",
        ),
        _w(
            "h3w02",
            "logi",
            "2025年各仓库的运费分别是多少？",
            s.by_warehouse(2024),
            "2025年各仓库运费："
            + "，".join(f"{k} {num(f.wh_2024[k])} 元" for k in ("上海仓", "广州仓", "武汉仓", "成都仓"))
            + "。",
            "the 2024 values, called 2025",
        ),
        _w(
            "h3w03",
            "logi",
            "2025年各线路的运费是多少？",
            {**s.route_share("件数"), "windows": []},
            "2025年各线路运费：" + "，".join(f"{k} {num(v, 0)} 元" for k, v in f.route_pieces_2025) + "。",
            "件数 sums written as 运费",
        ),
        _w(
            "h3w04",
            "logi",
            "上海仓2025年的运费是多少？",
            {**s.TOTAL_2025, "aggregations": s.TOTAL_2025["aggregations"][:1]},
            f"上海仓2025年运费合计 {num(f.freight_2025)} 元。",
            f"the 上海仓 filter dropped: the all-warehouse total; 上海仓 is {num(sh)}",
        ),
        _w(
            "h3w05",
            "logi",
            "跨境线路的延误率是多少？",
            s.late_rate("线路"),
            f"跨境线路的延误率为 {num(fake_late, 1)}%，是三条线路中最高的。",
            f"fabricated rounding: the rate is {pct(true_late, 2)}",
        ),
        _w(
            "h3w06",
            "logi",
            "成都仓2025年运费同比变化了多少？",
            {**s.WH_YOY, "filters": [*s.WH_YOY["filters"], {"column": "仓库", "op": "=", "value": "成都仓"}]},
            f"成都仓2025年运费同比增长 {pct(f.wh_yoy['成都仓'], sign=False)}，达到 {num(f.wh('成都仓'))} 元。",
            "wrong direction: 成都仓 fell",
        ),
        _w(
            "h3w07",
            "logi",
            "2025年哪个仓库的平均时效最长？",
            s.AVG_DAYS_2025,
            f"平均时效最长的是{days[1][0]}，{num(days[1][1], 2)} 天。",
            f"wrong superlative: {days[0][0]} is longest ({num(days[0][1], 2)})",
        ),
        _w(
            "h3w08",
            "logi",
            "2025年上海仓和广州仓哪个运费更高？",
            {
                **s.by_warehouse(2025),
                "filters": [s.year(2025), {"column": "仓库", "op": "in", "value": ["上海仓", "广州仓"]}],
            },
            f"广州仓更高：广州仓 {num(gz)} 元，上海仓 {num(sh)} 元。",
            "wrong comparison: 上海仓 is higher",
        ),
        _w(
            "h3w09",
            "logi",
            "听说2025年跨境线路的延误率超过了30%，是真的吗？",
            s.late_rate("线路", s.year(2025), {"column": "线路", "op": "=", "value": "跨境"}),
            "是的，2025年跨境线路的延误率确实超过了30%，需要重点关注。",
            f"a false premise confirmed: the rate is {pct(f.cross_late_2025)}",
        ),
        _w(
            "h3w10",
            "logi",
            "2025年12月运费同比增长多少？",
            s.MONTHS_2025,
            f"2025年12月运费 {num(f.months_2025[12])} 元，同比下降 {pct(f.mom_2025[12], 2, sign=False)}。",
            "the month-over-month change called year over year",
        ),
        _w(
            "h3w11",
            "logi",
            "2025年6月上海仓的运费是多少？",
            s.SH_2025,
            f"2025年6月上海仓运费为 {num(f.sh_2025)} 元。",
            f"the 2025 total for a June question; June is {num(f.sh_june_2025)}",
        ),
        _w(
            "h3w12",
            "logi",
            "2025年各线路运费占比是多少？",
            s.route_share("件数"),
            "2025年各线路运费占比："
            + "，".join(f"{k} {pct(f.route_piece_share_2025[k])}" for k in ("同城", "干线", "跨境"))
            + "。",
            "件数 shares written as 运费 shares",
        ),
        _w(
            "h3w13",
            "retail",
            "What was revenue by region in 2025?",
            s.EN_REGION_2025,
            f"In 2025, {en[1][0]} brought in ${num(en[0][1])} and {en[0][0]} ${num(en[1][1])}; "
            f"{en[2][0]} had ${num(en[2][1])} and {en[3][0]} ${num(en[3][1])}.",
            "North and South swapped",
        ),
        _w(
            "h3w14",
            "retail",
            "What was revenue by region in 2024?",
            s.EN_REGION_2025,
            "Revenue by region in 2024: " + ", ".join(f"{k} ${num(v)}" for k, v in en) + ".",
            "the 2025 values, called 2024",
        ),
        _w(
            "h3w15",
            "retail",
            "What share of 2025 revenue came from the Online channel?",
            s.EN_CHANNEL_SHARE,
            f"Online made up {pct(f.en_channel_share['Online'])} of 2025 revenue.",
            f"the 2025 filter dropped: all years; 2025 is {pct(f.en_channel_share_2025['Online'])}",
        ),
        _w(
            "h3w16",
            "retail",
            "What were the top 2 months by revenue in 2025?",
            {**s.EN_TOP2_MONTHS, "limit": 3},
            f"The top two months were {calendar.month_name[en_months[0][0]]} (${num(en_months[0][1])}) and "
            f"{calendar.month_name[en_months[2][0]]} (${num(en_months[2][1])}).",
            f"the second month is {calendar.month_name[en_months[1][0]]}",
        ),
        _w(
            "h3w17",
            "retail",
            "What was the average revenue per order by region in 2025?",
            s.EN_REGION_2025,
            "Average revenue per order in 2025: " + ", ".join(f"{k} ${num(v)}" for k, v in en) + ".",
            "regional sums called averages",
        ),
        _w(
            "h3w18",
            "logi",
            "2025年件数最多的月份是几月？",
            s.TOP3_PIECE_MONTHS,
            f"2025年件数最多的是{piece_months[1][0]}月，共 {num(piece_months[0][1], 0)} 件。",
            f"the month next to the top value is wrong: {piece_months[0][0]}月",
        ),
    ]
