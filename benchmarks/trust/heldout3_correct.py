"""Correct answers over 物流运单 and the English retail sheet, written the way models write them: by reference
and literal, in Chinese and English, rates with their formula, YoY/MoM, top-N, shares naming the whole,
superlatives, comparisons, a follow-up over an earlier turn's table, a disclosure. Truth: heldout3_facts.py."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust import heldout3_specs as s
from benchmarks.trust.formats import num, pct, scaled
from benchmarks.trust.heldout3_facts import Facts3
from benchmarks.trust.script import Scenario, honest

P = "h3_correct"


def _c(id: str, source: str, question: str, spec: s.Spec, draft: str, **kw: object) -> Scenario:
    return Scenario(id, P, "correct", source, question, honest(source, spec, draft), **kw)  # type: ignore[arg-type]


def correct(f: Facts3) -> list[Scenario]:
    wh = f.wh_2025
    (w1, v1), (w2, v2), (w3, v3), (w4, v4) = wh
    late = f.late_route_rank
    share = f.route_piece_share_2025
    top = f.top_piece_months
    days = f.wh_days_2025
    sh, gz = f.wh("上海仓"), f.wh("广州仓")
    history = [
        {
            "question": "2025年各仓库运费是多少？",
            "answer": "；".join(f"{k} {num(v)} 元" for k, v in wh),
            "tables": [{"columns": ["仓库", "运费"], "rows": [[k, float(v)] for k, v in wh]}],
        }
    ]
    en = f.en_region_2025
    feb, mar = f.en_months_2025[2], f.en_months_2025[3]
    en_mom = (mar - feb) / feb
    return [
        _c(
            "h3c01",
            "logi",
            "2025年各仓库的运费分别是多少？",
            s.by_warehouse(2025),
            f"2025年运费最高的是{w1}，合计 {num(v1)} 元；其次是{w2}（{num(v2)} 元）和{w3}（{num(v3)} 元），"
            f"{w4}最低，为 {num(v4)} 元。",
        ),
        _c(
            "h3c02",
            "logi",
            "帮我按运费从高到低排一下2025年的仓库",
            s.by_warehouse(2025),
            "2025年各仓库运费排名：\n1. {{q1.仓库[0]}}：{{q1.运费[0]}} 元\n2. {{q1.仓库[1]}}：{{q1.运费[1]}} 元\n"
            "3. {{q1.仓库[2]}}：{{q1.运费[2]}} 元\n4. {{q1.仓库[3]}}：{{q1.运费[3]}} 元",
            shows=(v1, v2, v3, v4),
        ),
        _c(
            "h3c03",
            "logi",
            "各仓库2025年运费同比增长了多少？",
            s.WH_YOY,
            "同比 =（2025年运费 − 2024年运费）÷ 2024年运费。\n"
            + "\n".join(
                f"- {k}：{num(f.wh_2024[k])} 元 → {num(f.wh(k))} 元，"
                + (f"同比增长 {pct(f.wh_yoy[k])}" if f.wh_yoy[k] > 0 else f"同比下降 {pct(f.wh_yoy[k], sign=False)}")
                for k in ("上海仓", "广州仓", "武汉仓", "成都仓")
            ),
        ),
        _c(
            "h3c04",
            "logi",
            "2025年12月的运费环比变化是多少？",
            s.MONTHS_2025,
            f"2025年12月运费为 {num(f.months_2025[12])} 元，11月为 {num(f.months_2025[11])} 元，"
            f"环比下降 {pct(f.mom_2025[12], 2, sign=False)}。",
        ),
        _c(
            "h3c05",
            "logi",
            "各线路的延误率是多少？",
            s.late_rate("线路"),
            "延误率 = 延误单数 ÷ 总单数（按记录条数计）。\n"
            + "\n".join(
                f"- {k}：{f.route_late[k][0]}/{f.route_late[k][1]} = {pct(f.route_late[k][2])}" for k, _ in late
            ),
        ),
        _c(
            "h3c06",
            "logi",
            "2025年各线路的件数占比是多少？",
            s.route_share("件数"),
            f"2025年全部 {num(Decimal(f.pieces_2025), 0)} 件中，同城占 {pct(share['同城'])}，"
            f"干线占 {pct(share['干线'])}，跨境占 {pct(share['跨境'])}。",
        ),
        _c(
            "h3c07",
            "logi",
            "2025年哪个仓库的平均时效最长？",
            s.AVG_DAYS_2025,
            f"{days[0][0]}的平均时效最长，为 {num(days[0][1], 2)} 天；"
            f"最短的是{days[-1][0]}，{num(days[-1][1], 2)} 天。",
        ),
        _c(
            "h3c08",
            "logi",
            "2025年件数最多的三个月是哪几个月？",
            s.TOP3_PIECE_MONTHS,
            f"件数最多的三个月依次是 {top[0][0]}月（{num(top[0][1], 0)} 件）、{top[1][0]}月（{num(top[1][1], 0)} 件）"
            f"和 {top[2][0]}月（{num(top[2][1], 0)} 件），都在四季度旺季。",
        ),
        _c(
            "h3c09",
            "logi",
            "2025年上海仓和广州仓哪个运费更高？",
            {
                **s.by_warehouse(2025),
                "filters": [s.year(2025), {"column": "仓库", "op": "in", "value": ["上海仓", "广州仓"]}],
            },
            f"上海仓更高：2025年运费 {num(sh)} 元，广州仓为 {num(gz)} 元。",
        ),
        _c(
            "h3c10",
            "logi",
            "2025年总运费和总件数是多少？",
            s.TOTAL_2025,
            f"2025年总运费约 {scaled(f.freight_2025, '万')}元，共发出 {num(Decimal(f.pieces_2025), 0)} 件。",
        ),
        Scenario(
            "h3c11",
            P,
            "correct",
            "logi",
            "那2024年呢？",
            honest(
                "logi",
                s.by_warehouse(2024),
                "2024年各仓库运费："
                + "，".join(f"{k} {num(f.wh_2024[k])} 元" for k in ("上海仓", "广州仓", "武汉仓", "成都仓"))
                + f"。成都仓是唯一2025年低于2024年的仓库（{num(f.wh('成都仓'))} 元）。",
            ),
            history=history,
        ),
        _c(
            "h3c12",
            "logi",
            "2025年各仓库的客户满意度和运费分别是多少？",
            s.by_warehouse(2025),
            "数据中没有客户满意度字段，这一项无法计算。2025年运费："
            + "；".join(f"{k} {num(v)} 元" for k, v in wh)
            + "。",
        ),
        _c(
            "h3c13",
            "logi",
            "2025年有多少条记录是延误的？占多少？",
            s.LATE_2025,
            f"2025年共 {f.rows_2025} 条运单记录，其中 {f.late_rows_2025} 条标记为延误，"
            f"占 {pct(Decimal(f.late_rows_2025) / f.rows_2025)}。",
        ),
        _c(
            "h3c14",
            "logi",
            "成都仓2025年运费比2024年下降了多少？",
            {**s.WH_YOY, "filters": [*s.WH_YOY["filters"], {"column": "仓库", "op": "=", "value": "成都仓"}]},
            "成都仓运费从2024年的 {{q1.运费[0]}} 元降到2025年的 {{q1.运费[1]}} 元，同比下降 "
            f"{pct(f.wh_yoy['成都仓'], sign=False)}。",
            shows=(f.wh_2024["成都仓"], f.wh("成都仓")),
        ),
        _c(
            "h3c15",
            "logi",
            "哪个仓库的延误率最低？",
            s.late_rate("仓库"),
            "延误率最低的是{{q1.仓库[3]}}，为 {{q1.延误率[3]|pct}}；最高的是{{q1.仓库[0]}}（{{q1.延误率[0]|pct}}）。",
            shows=(),
        ),
        _c(
            "h3c16",
            "retail",
            "What was revenue by region in 2025, and which region led?",
            s.EN_REGION_2025,
            f"{en[0][0]} led 2025 with ${num(en[0][1])} in revenue, followed by {en[1][0]} (${num(en[1][1])}), "
            f"{en[2][0]} (${num(en[2][1])}) and {en[3][0]} (${num(en[3][1])}).",
        ),
        _c(
            "h3c17",
            "retail",
            "How did each region's revenue change year over year in 2025?",
            s.EN_YOY,
            "Year over year (2025 vs 2024):\n"
            + "\n".join(
                f"- {k}: {'up' if f.en_yoy[k] > 0 else 'down'} {pct(f.en_yoy[k], sign=False)}, "
                f"from {scaled(f.en_region_2024[k], 'million', space=' ')} to "
                f"{scaled(dict(en)[k], 'million', space=' ')}"
                for k in ("North", "South", "East", "West")
            ),
        ),
        _c(
            "h3c18",
            "retail",
            "What share of total revenue does each channel account for?",
            s.EN_CHANNEL_SHARE,
            f"Of total revenue across 2024-2025, Online accounts for {pct(f.en_channel_share['Online'])}, "
            f"Retail for {pct(f.en_channel_share['Retail'])} and Wholesale for {pct(f.en_channel_share['Wholesale'])}.",
        ),
        _c(
            "h3c19",
            "retail",
            "What was total revenue in 2025?",
            s.EN_TOTAL_2025,
            f"Total revenue in 2025 was ${scaled(f.en_total_2025, 'million', space=' ')} "
            f"from {f.en_orders_2025} orders.",
        ),
        _c(
            "h3c20",
            "retail",
            "How did March 2025 revenue compare with February?",
            s.EN_MONTHS_2025,
            f"March 2025 revenue came to ${num(mar)}, down {pct(en_mom, sign=False)} month over month "
            f"from February's ${num(feb)}.",
        ),
        _c(
            "h3c21",
            "retail",
            "Which channel has the highest average units per order?",
            s.EN_AVG_UNITS,
            "{{q1.channel[0]}} has the highest average at {{q1.avg_units[0]|d1}} units per order; "
            "{{q1.channel[2]}} has the lowest at {{q1.avg_units[2]|d1}}.",
        ),
    ]
