"""The fourth held-out set (`--set heldout4`): a new domain, a clinic's outpatient visits, as a Chinese
spreadsheet (门诊就诊) and an English SQLite source (clinic.db), written apart from the verify node's rules and
from the earlier sets. Correct answers (heldout4_correct.py), wrong ones (heldout4_wrong.py) and honest
no-data answers (below); every truth comes from pandas and sqlite3 (heldout4_facts.py)."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.trust import heldout4_specs as s
from benchmarks.trust.heldout4_correct import correct
from benchmarks.trust.heldout4_facts import Facts4
from benchmarks.trust.heldout4_wrong import wrong
from benchmarks.trust.script import Scenario, answer, call, schema

PLAYERS: dict[str, str] = {
    "h4_correct": "correct answers, varied number formats, Chinese and English",
    "h4_wrong": "wrong answers built from values a query really returned",
    "h4_honest": "definitions, help, and questions the data cannot answer, answered honestly",
}


def no_data() -> list[Scenario]:
    p = "h4_honest"
    return [
        Scenario(
            "h4n01",
            p,
            "no_data",
            "clinic",
            "各科室的药品收入分别是多少？",
            [
                *schema("clinic"),
                *answer(
                    "这份数据只有“费用”和“医保支付”两个金额字段，没有按药品、检查、治疗拆分的收入明细，"
                    "所以无法单独统计各科室的药品收入。如果需要，可以先补充带收费项目的明细表。"
                ),
            ],
        ),
        Scenario(
            "h4n02",
            p,
            "no_data",
            "clinicdb",
            "What is the no-show rate for booked appointments?",
            [
                call("list_tables", {}),
                call("get_schema", {"table": s.VISITS}),
                *answer(
                    "The visits table only records visits that took place (with a booked flag on each); appointments "
                    "that were booked but never attended are not in it, so a no-show rate cannot be computed from "
                    "this data."
                ),
            ],
        ),
        Scenario(
            "h4n03",
            p,
            "no_data",
            "clinic",
            "人次和人数有什么区别？",
            answer(
                "人次按就诊记录计数，同一位患者来几次就算几次；人数按患者去重，同一位患者无论来几次都只算一次。"
                "所以同一时期的人次总是不少于人数。"
            ),
        ),
        Scenario(
            "h4n04",
            p,
            "no_data",
            "clinicdb",
            "How can I see this as a chart by month?",
            answer(
                'Ask for the figure by month (for example "fees by month in 2025") and then ask for a line or bar '
                "chart of that result; the chart is drawn from the result table, which you can also download."
            ),
        ),
    ]


_BUILDERS: list[Callable[[Facts4], list[Scenario]]] = [correct, wrong, lambda _facts: no_data()]


def scenarios(facts: Facts4, only: set[str] | None = None) -> list[Scenario]:
    chosen = [sc for build in _BUILDERS for sc in build(facts)]
    return [sc for sc in chosen if not only or sc.player in only]
