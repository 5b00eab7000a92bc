"""Rows named by their place in an uploaded file: "what is the first category listed on this chart?", "who is at
the top of the list?", "the last horse on the list that was pulled up", "what is in row 5", "第3行的客户是谁".

A file keeps its rows in the order they were written (the engine's ROW_POSITION, 1 = the first data row); a
database table keeps none, so there these questions are refused as before. The place is read from the question's
own words: first/top, last/final/bottom, or a row's number; "the first title" too where no date or year column
could order the titles (the list is then their only order). The rest of the question is read as a lookup (the
column asked for, the conditions named); the rows meeting the conditions are sorted by their place and the first
(or last) one is listed with its row number. Anything else that names a place (a count, a total, "the second
entry" among filtered rows) is refused as before. The neighbours of a named row ("the song right before X") are
against_row.py's, ordered by ROW_POSITION when no column of the table orders them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from apps.agent.offline import lookup
from apps.agent.offline.cues import PLACE_VERBS, row_order_span
from apps.agent.offline.lookup import shown_columns
from apps.agent.offline.plan import Plan
from apps.agent.offline.schema_terms import Schema, Term
from apps.agent.offline.timewords import _number
from apps.datasets.query.spec import ROW_POSITION, Filter, Sort

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer

_LAST = re.compile(r"(?<![a-z])(?:last|final|bottom)(?![a-z])|最后|末")
_FIRST = re.compile(r"(?<![a-z])(?:first|top)(?![a-z])|第一|首")
_NEIGHBOUR = re.compile(r"(?<![a-z])(?:next|previous|above|below|before|after)(?![a-z])|上一|下一|前一|后一")
WHOLE_ROW = 4  # the leading columns shown for a row asked for by its place alone ("who is at the top of the list")
_ASKS_WHICH = re.compile(r"^\s*(?:what|which|who|whom|where|name)\s")
_BARE_EDGE = re.compile(r"(?<![a-z])the\s+(?P<w>first|last|final)\s+")
_NOUN = re.compile(r"[a-z]+(?![a-z'\-])")
_PLACED_BEFORE = re.compile(rf"(?<![a-z])(?:{PLACE_VERBS}|ranks?|rated|seeded)\s+$")
_ROW_NUMBER = re.compile(
    r"^(?:row|entry|record)\s+(?:no\.?\s*|number\s+)?(?P<n>\d+)$|^第\s*(?P<zh>[\d一二三四五六七八九十]+)\s*(?:行|条记录|条数据)$"
)


@dataclass(frozen=True)
class Edge:
    """The place a question names: the first or the last row (of those meeting its conditions), or row `row`."""

    start: int  # where the question says it
    end: int
    columns: tuple[str, ...] = ()  # the columns named inside those words: "the first outcome listed"
    last: bool = False
    row: int | None = None


def find(text: str, taken: bytearray, terms: list[Term], schema: Schema) -> Edge | None:
    """The place the folded question names (first/top, last/bottom, a row's number), with the columns named
    inside its words; None when it names none, or a neighbour ("previous to", "listed after": against_row.py)."""
    dates = [t for t in terms if t.kind == "column" and schema.by_name[t.column].category in ("time", "year")]
    span = row_order_span(text, taken, dates)
    if span is None:
        return _unordered_edge(text, taken, terms, schema)
    start, end = span
    words = text[start:end]
    if _PLACED_BEFORE.search(text, 0, start):
        return None  # "which city is ranked first on the list": a place in the ranking, read by cues.py
    inside = tuple(dict.fromkeys(t.column for t in terms if t.kind == "column" and start <= t.start < end))
    number = _ROW_NUMBER.match(words.strip())
    if number is not None:
        n = number.group("n") or number.group("zh")
        row = _number(n, 0)
        return Edge(start, end, inside, row=row) if row else None
    if _NEIGHBOUR.search(words):
        return None
    if _LAST.search(words):
        return Edge(start, end, inside, last=True)
    if _FIRST.search(words):
        return Edge(start, end, inside)
    return None


def _unordered_edge(text: str, taken: bytearray, terms: list[Term], schema: Schema) -> Edge | None:
    """ "what is the name of the first title?", "where was the first tournament held?" over a table with no date
    or year column: nothing but the list orders the titles, so the first is the first listed. Only in a question
    asking which, what, who or where, for "the first"/"the last" right before a column's name."""
    if schema.of("time", "year") or not _ASKS_WHICH.match(text):
        return None
    filtered = {t.column for t in terms if t.kind == "value"}
    for m in _BARE_EDGE.finditer(text):
        if taken.find(1, m.start("w"), m.end()) != -1:
            continue
        last = m.group("w") != "first"
        named = [t for t in terms if t.kind == "column" and t.start == m.end()]
        if named:
            return Edge(m.start("w"), named[0].end, (named[0].column,), last=last)
        noun = _NOUN.match(text, m.end())  # "what is the title to the last song": a song is a Title
        kind = lookup.noun_column(noun.group(0), schema, filtered) if noun is not None else None
        if noun is not None and kind is not None:
            return Edge(m.start("w"), noun.end(), (kind,), last=last)
    return None


def look_up(a: Analyzer, plan: Plan, where: Edge) -> None:
    """Makes the plan a lookup of the column asked for at that place: the one measure the plan would add up
    ("the amount in the last entry": that row's amount, not a total), else the column the question asks for as
    any lookup reads it ("the location of …", "who", "which swimmer"), else the one column named inside the
    place's words ("the first outcome listed"). Nothing changes when none says one column (the place is then
    refused), or when the question aggregates, counts or ranks."""
    cues = a.cues
    if cues.agg_words or cues.ranking or cues.share or cues.rate:
        return  # "the total of the first rows", "the highest …": not one row's cell
    if cues.counting and not (len(plan.metrics) == 1 and plan.metrics[0].func == "sum"):
        return  # "how many entries …" counts rows; "how many plays does the last entry have" is its Plays
    if plan.metrics:  # "第一条记录的金额是多少": that row's 金额, no sum
        measured = list(dict.fromkeys(m.column for m in plan.metrics if m.column))
        column = measured[0] if len(measured) == 1 and len(plan.metrics) == 1 else None
    else:  # "the location of the last employee listed": Location; else "the last number on the list": Number
        asked = lookup.asked_column_zh(a) if a.lang == "zh" else lookup.asked_column(a)
        column = asked or (where.columns[0] if len(where.columns) == 1 else None)
    if column is None and not a.terms and _ASKS_WHICH.match(a.text):
        whole = [v.name for v in a.schema.views][:WHOLE_ROW]  # "who is at the top of the list?": the row itself
        plan.groups, plan.time_group, plan.metrics = [], None, []
        plan.row_columns, plan.kind, plan.question_kind = whole, "lookup", "lookup"
        return
    if column is None or any(t.kind == "value" and t.column == column for t in a.terms):
        return
    plan.groups, plan.time_group, plan.metrics = [], None, []
    plan.row_columns = [column, *(c for c in where.columns if c != column)]  # "the last title": which one, too
    plan.kind = "lookup"
    plan.question_kind = "lookup"


def place(plan: Plan, where: Edge) -> bool:
    """Turns a lookup plan into the row at that place: its cells with the row's number, sorted by the place and
    limited to that one row. False (nothing changed) for any other plan, and for a row number among conditions
    ("the fifth row of the 2010 games": the fifth of the file or of those games is not said)."""
    if plan.kind != "lookup":
        return False
    if where.row is not None and plan.filters:
        return False
    shown = [c for c in shown_columns(plan) if c != ROW_POSITION]
    plan.groups, plan.row_columns = [], [*shown, ROW_POSITION]
    plan.sort = [Sort(by=ROW_POSITION, desc=where.last)]
    if where.row is not None:
        plan.filters = [Filter(column=ROW_POSITION, op="=", value=where.row)]
    plan.limit = 1
    plan.question_kind = "row_position"
    return True
