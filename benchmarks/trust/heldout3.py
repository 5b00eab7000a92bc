"""The third held-out set: a new Chinese logistics table (物流运单) and new questions on the English retail sheet,
written apart from the verify node's rules. Correct answers (heldout3_correct.py), wrong ones
(heldout3_wrong.py) and honest no-data answers (below); every truth comes from pandas (heldout3_facts.py)."""

from __future__ import annotations

from benchmarks.trust import heldout3_specs as s
from benchmarks.trust.heldout3_correct import correct
from benchmarks.trust.heldout3_facts import Facts3
from benchmarks.trust.heldout3_wrong import wrong
from benchmarks.trust.script import Scenario, answer, honest, schema

PLAYERS = {
    "h3_correct": "correct answers, varied phrasing, Chinese and English",
    "h3_wrong": "wrong answers built from real result values",
    "h3_honest": "questions the data cannot answer, answered honestly",
}


def no_data() -> list[Scenario]:
    p = "h3_honest"
    return [
        Scenario(
            "h3n01",
            p,
            "no_data",
            "logi",
            "各仓库有多少名司机？",
            [
                *schema("logi"),
                *answer(
                    "数据里没有司机相关的字段（只有日期、仓库、线路、件数、运费、时效天数和是否延误），无法统计司机人数。"
                ),
            ],
        ),
        Scenario(
            "h3n02",
            p,
            "no_data",
            "logi",
            "2023年的运费是多少？",
            honest(
                "logi",
                {**s.TOTAL_2025, "filters": [s.year(2023)]},
                "按2023年筛选后没有任何记录：这份数据里没有2023年的运单，所以无法给出2023年的运费。",
            ),
        ),
        Scenario(
            "h3n03",
            p,
            "no_data",
            "retail",
            "What is the profit margin by channel?",
            [
                *schema("retail"),
                *answer(
                    "The data has no cost or profit column (only order_date, region, channel, units and revenue), "
                    "so the profit margin by channel cannot be computed from it."
                ),
            ],
        ),
        Scenario(
            "h3n04",
            p,
            "no_data",
            "logi",
            "什么是环比？",
            answer("环比是本期与上一期相比的变化率，即（本期 − 上期）÷ 上期。"),
        ),
    ]


def scenarios(facts: Facts3, only: set[str] | None = None) -> list[Scenario]:
    chosen = [*correct(facts), *wrong(facts), *no_data()]
    return [sc for sc in chosen if not only or sc.player in only]
