"""Whole rows with the highest or lowest value of a measure: "金额最高的5笔订单", "the record with the lowest
price", "金额最大的一笔订单是哪一单，买的是什么产品" (the row's labels come with it, so the answer names the row
the value belongs to; the columns the question asks about come first). On a column of places (rank, 名次) the
best is number 1: "ranked first", "the highest rank" sort it from the smallest."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline import lexicon as lx
from apps.agent.offline import lookup
from apps.agent.offline.cues import ONE_PERIOD, find_words
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.metrics import numbers_as_text
from apps.agent.offline.plan import Shown
from apps.agent.offline.rankings import ONE_ROW_EACH
from apps.agent.offline.schema_terms import fold
from apps.datasets.query.spec import Sort

_PLACE = re.compile(r"(?<![a-z])(?:rank|ranking|place|placing|position|pos)(?![a-z])|名次|排名")

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def one_record(b: MetricBuilder) -> bool:
    """ "一笔", "单条", "single": the question is about single rows, not totals per group ("in a single month" is
    one month's total, a period: not a row)."""
    taken = bytearray(len(b.a.text))
    for m in ONE_PERIOD.finditer(b.a.text):
        taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    return bool(find_words(b.a.text, lx.RECORD_WORDS, taken))


def detect(b: MetricBuilder) -> bool:
    cues = b.a.cues
    target = cues.count_target  # "the largest number of silver medals": the Silver measure, not a count of rows
    counted = cues.counting and not (target is not None and b.a.view(target).category == "measure")
    if not cues.ranking or not b.measures or counted:
        return False
    # a place or a round is a row's own, never added up per group: "which competition was his best position in"
    numbered = b.a.schema.by_name[b.measures[0].column].ordinal
    return not b.plan.groups or one_record(b) or _one_row_each(b) or _rows_at_head(b) or numbered


_HEAD = re.compile(r"^\s*(?:(?:in|on|at|during|for)\s+)?(?:which|what)\s+(?P<noun>[a-z]+)(?![a-z])")
_NO_NOUN = frozenset("is was are were did does do has had have will would could can".split())


def _rows_at_head(b: MetricBuilder) -> bool:
    """ "which match had the largest attendance? give the opponent": the rows asked about are named at the head
    by a word that is no column (a match is a row), and the column shown is named only after the measure: the
    row with the largest value, shown with that column, not the column's groups added up."""
    head = _HEAD.match(b.a.text)
    if head is None or head.group("noun") in _NO_NOUN:
        return False
    terms = b.a.terms
    if any(t.start <= head.start("noun") < t.end for t in terms):
        return False
    measured = [t.start for t in terms if t.column == b.measures[0].column]
    for group in b.plan.groups:
        said = [t.start for t in terms if t.column == group.column]
        if not said or not measured or min(said) < min(measured):
            return False
    return True


def _one_row_each(b: MetricBuilder) -> bool:
    """ "which artist came in last place" over a place column (Place, Rank), or "the oldest stadium" over a column
    of years (Opened), where each artist or stadium is one row: the row with that value, not the values added
    up per group."""
    schema = b.a.schema
    view = schema.by_name[b.measures[0].column]
    if not (view.place or view.years) or not schema.row_count:  # "the oldest stadium": Opened, never added up
        return False
    views = [schema.by_name[g.column] for g in b.plan.groups]
    return all(v.distinct >= ONE_ROW_EACH * schema.row_count for v in views)


def build(b: MetricBuilder) -> None:
    measure = b.measures[0].column
    plan, cues = b.plan, b.a.cues
    asked = [g.column for g in plan.groups if g.column != measure]
    head = lookup.kind_head(b.a.text, b.a.schema, b.a.terms)  # "which episode had the fewest viewers": its Title
    if head is not None and head.column not in (measure, *asked):
        asked.insert(0, head.column)
    if b.a.time_col is not None and b.a.time_col.name not in asked and b.a.cues.when is None:
        asked.append(b.a.time_col.name)
    others = [  # the row's labels; not a Rank written as text ("1"), which reads as a number of the measure
        v.name
        for v in b.a.schema.of("id", "dimension", "time", "year")
        if v.name not in (measure, *asked) and not numbers_as_text(v)
    ]
    plan.groups, plan.time_group = [], None  # rows, not groups: the asked columns are shown beside each row
    plan.row_columns = [*dict.fromkeys([*asked, *others])][:6] + [measure]
    # "ranked first", "best place", "the best UK chart position": number 1
    best_is_lowest = _PLACE.search(fold(measure)) is not None or b.a.schema.by_name[measure].place
    plan.sort = [Sort(by=measure, desc=cues.ascending == best_is_lowest)]
    plan.limit = cues.top_n or 10
    # "which SKU has the highest stock", "last place": that row and every row tied with it, none other
    plan.single_best = not cues.top_n and not cues.plural
    plan.shown = [Shown(measure)]


KIND = Kind("extreme_rows", detect, build)
