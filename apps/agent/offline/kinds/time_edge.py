"""The earliest or latest date: "最早的下单日期", "when was the last order" (and "which department hired
first": the groups ranked by it)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline.cues import find_words
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.leftovers import leftover_words
from apps.agent.offline.lexicon import LINK_VERBS_EN, WHEN_WORDS, WHICH_WORDS
from apps.agent.offline.plan import Metric, Shown
from apps.agent.offline.schema_terms import fold
from apps.datasets.query.spec import Sort

_WHAT = re.compile(r"^\s*what\s")

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    """ "what year did the club last get relegated": asked by "what year" rather than "when", a word nothing read
    (relegated) is a condition the earliest or latest year would drop, so the kind is not taken (the words are
    reported instead)."""
    cues, text = b.a.cues, b.a.text
    if not (cues.when and b.a.time_col and not b.measures and not cues.counting):
        return False
    if find_words(text, WHEN_WORDS, bytearray(len(text))):
        return True
    # "in what year did he first race": a verb that only links the rows to their time (race, play) is no condition
    return not [w for w in leftover_words(text, b.a.taken, b.a.question) if fold(w) not in LINK_VERBS_EN]


def build(b: MetricBuilder) -> None:
    assert b.a.time_col is not None  # noqa: S101 - detect() checked it
    column, func = b.a.time_col.name, b.a.cues.when or "min"
    b.add(Metric(b.name_for("earliest" if func == "min" else "latest", column), func, column), 0)
    cues, text = b.a.cues, b.a.text
    asked_when = bytearray(len(text))  # "哪天" asks for the date, not which group
    for start, end, _word in find_words(text, WHEN_WORDS, asked_when):
        asked_when[start:end] = b"\x01" * (end - start)
    asks_which = find_words(text, WHICH_WORDS, asked_when) or _WHAT.match(text)  # "what was her first role"
    head = b.a.kind_head  # "which ship was commissioned last": that row (and any tied with it), named
    if not b.plan.dims and asks_which and head is not None and head.column != column:
        plan = b.plan
        plan.metrics, plan.groups, plan.time_group = [], [], None
        plan.kind, plan.row_columns = "rows", [head.column, column]
        plan.sort, plan.limit, plan.single_best = [Sort(by=column, desc=func == "max")], 10, True
        plan.shown = [Shown(column)]
        return
    if b.plan.dims and not cues.ranking and asks_which:
        cues.ranking, cues.ascending = True, func == "min"  # "which department hired first"


KIND = Kind("time_edge", detect, build)
