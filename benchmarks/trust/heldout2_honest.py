"""Honest answers of the second held-out set to questions the data cannot answer: no data claims, what could
and could not be computed. They must be shown (an honest answer is not an interception)."""

from __future__ import annotations

from benchmarks.trust.heldout2_specs import SQL_2026, eq, mk_channels, sb_by, year
from benchmarks.trust.heldout2_write import file_run, shop_run
from benchmarks.trust.script import Scenario, answer, schema


def no_data() -> list[Scenario]:
    def nd(sid: str, source: str, question: str, turns: list) -> Scenario:
        return Scenario(sid, "h2_no_data", "no_data", source, question, turns)

    return [
        nd(
            "h2-n01",
            "mkt",
            "2025 年各渠道的退货率是多少？",
            [
                *schema("mkt"),
                *answer(
                    "这份数据没有退货或退款相关的字段（只有日期、渠道、活动、曝光量、点击量、成交额和成本），"
                    "无法计算各渠道的退货率。可以改看各渠道的点击率或投入产出比。"
                ),
            ],
        ),
        nd(
            "h2-n02",
            "mkt",
            "抖音直播间的观看人数是多少？",
            [
                *schema("mkt"),
                *answer(
                    "数据中没有直播或观看人数相关的字段；曝光量是广告展示次数，不等同于直播间观看人数，"
                    "所以这个问题无法用这份数据回答。"
                ),
            ],
        ),
        nd(
            "h2-n03",
            "mkt",
            "2023 年各渠道的成本是多少？",
            file_run(
                "mkt",
                mk_channels(year("日期", 2023), sort="成本"),
                "按 2023 年筛选后没有任何投放记录，这份数据里没有 2023 年的成本可以汇总。",
            ),
        ),
        nd(
            "h2-n04",
            "subs",
            "What is the average customer lifetime value by plan?",
            [
                *schema("subs"),
                *answer(
                    "This table has monthly new subscribers, churned subscribers and MRR per plan and country, but "
                    "no per-customer revenue or tenure, so customer lifetime value can't be computed from it."
                ),
            ],
        ),
        nd(
            "h2-n05",
            "subs",
            "How many subscribers do we have in Canada?",
            file_run(
                "subs",
                sb_by("country", eq("country", "Canada")),
                "There are no rows for Canada in this data, so I can't give a subscriber count there; the countries "
                "covered are US, UK, Germany, Japan and Brazil.",
            ),
        ),
        nd(
            "h2-n06",
            "shop",
            "各城市用户的年龄分布如何？",
            [
                *schema("shop", table="用户"),
                *answer("用户表只有用户ID、姓名、城市和注册日期，没有年龄字段，无法统计各城市用户的年龄分布。"),
            ],
        ),
        nd(
            "h2-n07",
            "shop",
            "2026 年的订单金额是多少？",
            shop_run(
                SQL_2026, "订单表里没有 2026 年的订单（按日期筛选 2026 年返回 0 笔），所以无法给出 2026 年的订单金额。"
            ),
        ),
    ]
