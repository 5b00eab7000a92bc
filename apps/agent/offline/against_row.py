"""Rows compared with one named row: "how many provinces have the same number of districts as kabul", "which
networks have more affiliates than canal de las estrellas", "哪些门店的销售额比北京店高".

Two queries, both cited by the answer: the first reads the named row's value of the compared column; the
second keeps the rows whose value is greater, smaller or the same (the named row itself left out) and counts
or lists them. The comparison is read only when it is unambiguous: one named value right after "than"/"as"/比,
one column compared (not a position such as a rank, where "higher" would mean the smaller number), no negation,
no number it does not read, and every other value a plain condition; anything else is refused as before, with
the nearest question the tools can answer. Where the named value spans many rows, its groups are compared and
the other conditions apply to both queries ("哪些地区的保温杯销售额比华东高": 华东's 保温杯 total). The named row
may be a year or a day of the time column ("the winner was the same as in 2011").
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from apps.agent.offline import conditions, lookup
from apps.agent.offline.cues import NAMED_AFTER, PLACE_VERBS
from apps.agent.offline.drafts import MAX_LISTED, ResultView, Writer, _labelled, compared_said, reference
from apps.agent.offline.plan import Anchor, Group, Lang, Metric, Plan, Shown, filter_label
from apps.agent.offline.schema_terms import Schema, Term, fold, name_words, singular
from apps.agent.offline.wording import speaking
from apps.datasets.query.spec import ROW_POSITION, Filter, Sort

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer

MAX_ROWS = 1000  # the second query's rows, all in the answer's table
_GREATER = "more|greater|higher|larger|bigger|longer|taller|older|heavier|later"
_SMALLER = "less|fewer|lower|smaller|shorter|younger|lighter|earlier"
_THAN = re.compile(rf"(?<![a-z])(?P<word>{_GREATER}|{_SMALLER})(?P<span>(?:\s+[^\s]+){{0,4}}?)\s+than\s+(?:the\s+)?$")
_SAME = re.compile(r"(?<![a-z])the same(?P<span>(?:\s+[^\s]+){0,10}?)\s+as\s+(?:the\s+)?$")
# "what film was released before devakanya", "who finished after rossi": the row just before or after the named
# one on the column that orders them (a date or year; a finishing place where the question says finished)
_ORDER = re.compile(
    r"(?<![a-z])(?:(?:right|directly|immediately|just)\s+)?(?P<word>before|after|previous to|prior to|preceding|"
    r"following|next after|above|below|under)\s+(?:the\s+)?[\"'“‘]?$"
)
_EARLIER = ("before", "previous to", "prior to", "preceding", "above")
# "the model above 6 texan", "next under belorussian on the chart": the table's layout, so its order of rows
_LAYOUT = ("above", "below", "under")
# "after italy won": the row is not simply named ("named after lincoln" is no order: cues.NAMED_AFTER)
_ENDS = re.compile(r"[\"'”’]?\s*(?:[?.!,;]|$|(?:in|on|at|during|of|for|from)\s)")
# an unnamed date column orders rows only when it says when they happened (not Born, Died, Founded)
_WHEN_COLUMN = re.compile(
    r"(?<![a-z])(?:year|season|date|dates|edition|held|took office|start|started|began|from|released?|release date|"
    r"aired|opened|premiered?)(?![a-z])"
)
_PLACED = re.compile(r"(?<![a-z])(?:finish(?:ed|es|ing)?|came|comes|come|placed?|ranked)(?![a-z])")
_SAME_AS_WHICH = re.compile(r"(?:\s+[a-z]+){0,3}?\s+the same(?P<span>(?:\s+[^\s]+){0,10}?)\s+as\s+(?:what|which|who)\b")
_ZH_AGAINST = re.compile(r"(?<![对相])比\s*$")
_ZH_AFTER = re.compile(r"^\s*(?:的)?(?:(?P<more>高|多|大|贵|长)|(?P<less>低|少|小|便宜|短))")
# "比华东多多少", "高出一倍": a difference or a ratio is asked (named_difference), not which rows are above it
_ZH_HOW_MUCH = re.compile(r"\s*(?:出|了)?\s*(?:多少|几|\d|[一二两三四五六七八九十半]+倍|倍)")
_NEGATED = re.compile(r"(?<![a-z])(?:no|not|never|none|neither|nor)(?![a-z])|n't|不|没|未|非|除")
_WAS = re.compile(r"\s+(?:was|were|is|are)\s+")
_TIME_LEAD = re.compile(r"(?P<lead>(?:(?<![a-z])one\s+)?(?<![a-z])(?:in|on)\s+)$")  # "as in 2011", "as the one on"
_NUMBER = re.compile(r"\d")
_NUMBER_OF = re.compile(r"number\s+of\s")  # "the same number of …": how many, not a column named Number
# The question asks how many (not "the same number of districts as", which cues.counting also sees)
_COUNT_EN = re.compile(r"^\s*(?:how many|what is the (?:total )?number of|what number of)\b")
_COUNT_ZH = re.compile(r"多少个|几个|多少家|几家|多少种|几种|有多少")


def _anchor_term(a: Analyzer, values: list[Term]) -> tuple[Term, str, int, int] | None:
    """The named value, the comparison's operator and where the compared column may be named (start, end);
    for "before"/"after" the span is empty (-1, -1; -1, -2 for "above"/"below", which speak of the table's
    layout): the ordering column is found by `_ordering`."""
    for term in values:
        before = a.text[: term.start]
        if a.lang == "zh":
            against, after = _ZH_AGAINST.search(before), _ZH_AFTER.match(a.text[term.end :])
            if against is None or after is None:
                continue
            if _ZH_HOW_MUCH.match(a.text, term.end + after.end()):
                continue
            return term, ">" if after.group("more") else "<", 0, against.start()
        same = _SAME.search(before)
        if same is not None:
            if before[same.start("span") : same.end("span")].strip():
                return term, "=", same.start("span"), same.end("span")
            said = _said_before(a, same.start())  # "the winner was the same as in 2011"
            return term, "=", said.start if said else 0, said.end if said else 0
        after = _SAME_AS_WHICH.match(a.text, term.end)  # "lorant olah scored the same … as what other player"
        if after is not None:
            return term, "=", after.start("span"), after.end("span")
        than = _THAN.search(before)
        if than is not None:
            op = ">" if re.fullmatch(_GREATER, than.group("word")) else "<"
            return term, op, than.start("span"), than.end("span")
        order = _ORDER.search(before) if a.lang == "en" else None
        if order is not None and not NAMED_AFTER.search(before, 0, order.start()) and _ENDS.match(a.text, term.end):
            word = order.group("word")
            measured = any(t.kind == "column" and a.schema.by_name[t.column].category == "measure" for t in a.terms)
            if word in _LAYOUT and measured:
                continue  # "which stores had sales above the east store": more sales, no place in the list
            return term, "<" if word in _EARLIER else ">", -1, -2 if word in _LAYOUT else -1
    return None


_ORDER_VERB = re.compile(rf"(?<![a-z])(?:{PLACE_VERBS}|listed|happened|occurred|aired|held)\s+$")


def order_words(a: Analyzer) -> list[tuple[int, int]]:
    """Where the question says the named row's neighbour is meant: "before"/"after" (and the like) right before
    the named value, with the verb that places it ("comes before", "finished after")."""
    values = [t for t in a.terms if t.kind == "value"]
    found = []
    for term in values:
        order = _ORDER.search(a.text, 0, term.start)
        if order is None:
            continue
        verb = _ORDER_VERB.search(a.text, 0, order.start())
        found.append((verb.start() if verb is not None else order.start(), order.end()))
    return found


def _said_before(a: Analyzer, same: int) -> Term | None:
    """The column named as the subject of "was the same as": "the winner was the same as in 2011"."""
    named = [t for t in a.terms if t.kind == "column" and _WAS.fullmatch(a.text, t.end, same)]
    return named[0] if named else None


def _time_anchor(a: Analyzer) -> Term | None:
    """ "the same as in 2011", "the same stadium as the one on 4 march 2000": the named row is the one of a
    year or a day of the time column, said after in/on; the question's only period. None for any other period
    ("after 2011" is a period filter, not a named row)."""
    spans = {(f.start, f.end) for f in a.time_filters}
    if len(spans) != 1 or a.time_col is None:
        return None
    start, end = next(iter(spans))
    lead = _TIME_LEAD.search(a.text, 0, start)
    if lead is None:
        return None
    specs = [f.spec for f in a.time_filters]
    if len(specs) == 1 and specs[0]["op"] == "=" and a.time_col.category == "year":
        value = specs[0]["value"]
    elif a.time_col.kind == "date" and sorted(s["op"] for s in specs) == ["<", ">="]:
        day = next(s["value"] for s in specs if s["op"] == ">=")
        following = next(s["value"] for s in specs if s["op"] == "<")
        if _next_day(day) != following:
            return None  # a month or a year of days: many rows, no one named
        value = day
    else:
        return None
    return Term(a.time_col.name, "value", lead.start("lead"), end, 2.0, value)


def _next_day(day: str) -> str | None:
    try:
        return (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()
    except ValueError:
        return None


def _ordering(a: Analyzer, anchor: Term, layout: bool = False) -> str | None:
    """The one column "before"/"after" a named row reads: a finishing place where the question says finished,
    came or placed (Rank, Pos.: before is the smaller number), else a date or a year; the one the question
    names, else the table's only one. An uploaded file's own order of rows (ROW_POSITION) where no column
    orders them, or where the question speaks of the layout ("above", "below"). None when there is none or
    more than one."""
    if layout:
        return ROW_POSITION if a.ordered else None
    found = _ordering_column(a, anchor)
    # "released before X" means by a date or a year, never the file's order: with one that could be meant but is
    # not the one, nothing is read
    if found is None and a.ordered and (not a.schema.of("time", "year") or _PLACED.search(a.text)):
        return ROW_POSITION  # "what state comes after kerala": the next in the list, where no place is kept
    if found is not None and a.ordered and a.schema.by_name[found].finishing and a.schema.by_name[found].null_ratio:
        return ROW_POSITION  # a Rank left blank for the medallists: the list is the finishing order
    return found


def _ordering_column(a: Analyzer, anchor: Term) -> str | None:
    named = [a.schema.by_name[t.column] for t in a.terms if t.kind == "column" and t.column != anchor.column]
    if _PLACED.search(a.text):  # a finishing place (Rank, Pos., Place), not a Peak position
        fits = [v for v in (*named, *a.schema.views) if v.finishing]
    else:
        fits = [v for v in named if v.category in ("time", "year") or v.years]  # "built before": Built 1936
        fits = fits or [
            v for v in a.schema.views if v.category in ("time", "year") and _WHEN_COLUMN.search(fold(v.name))
        ]
    said = [v.name for v in fits if v in named]
    found = list(dict.fromkeys(said or [v.name for v in fits]))
    return found[0] if len(found) == 1 else None


def _compared(a: Analyzer, anchor: Term, start: int, end: int, op: str) -> str | None:
    """The one column the comparison is on: named inside it ("more affiliates than", "the same number of
    districts as"), or for Chinese the last one before 比/和 ("销售额比北京高")."""
    named = [
        t for t in a.terms if t.kind == "column" and t.column != anchor.column and start <= t.start and t.end <= end
    ]
    if a.lang == "zh":
        named = named[-1:]
    counted = [t for t in named if _NUMBER_OF.match(a.text, t.start)]  # "the same number of goals in the uefa cup"
    if len(named) > len(counted):
        named = [t for t in named if t not in counted]
    columns = list(dict.fromkeys(t.column for t in named))
    if not columns and a.lang == "en":
        columns = _headed(a, anchor, start, end)  # "the same type as": the one column whose name ends so
    if len(columns) != 1:
        return None
    view = a.schema.by_name[columns[0]]
    if op != "=" and (view.category not in ("measure", "year", "time") or view.ordinal):
        return None  # "more X than" on a text column compares nothing; a "higher rank" is a smaller number
    return columns[0]


def _headed(a: Analyzer, anchor: Term, start: int, end: int) -> list[str]:
    """ "the same type as the freedom bell": a span of one word that no column is named by, read as the one column
    whose name ends with it (Flower type); none when several do or the span says more."""
    words = re.findall(r"[a-z]+", a.text[start:end])
    if len(words) != 1:
        return []
    word = singular(words[0])
    return [v.name for v in a.schema.views if v.name != anchor.column and name_words(v.name)[-1:] == (word,)]


def read(a: Analyzer) -> Plan | None:
    """The plan for a question comparing rows with one named row, or None when it is not read unambiguously."""
    values = [t for t in a.terms if t.kind == "value"]
    timed = _time_anchor(a) if a.lang == "en" else None
    found = _anchor_term(a, [*values, *([timed] if timed else [])])
    if found is None or a.cues.thresholds or a.cues.unsupported is None:
        return None
    term, op, start, end = found
    nearest = start < 0  # "before"/"after": the rows nearest the named one on the column that orders them
    # 'before "1000 times", what song is listed in 1999': a period that is one more condition on the rows listed
    periods = [f for f in a.time_filters if nearest and term is not timed and f.spec.get("op") != "!="]
    if a.time_filters and term is not timed and len(periods) != len(a.time_filters):
        return None  # a period the comparison does not read
    if _NEGATED.search(a.text):
        return None  # "no more districts than", "不比华东高", "not in the north": not read here, so not answered
    others = [t for t in values if t is not term]
    columns = [t.column for t in others]
    if term.column in columns or len(set(columns)) != len(columns):
        return None  # two values of one column: which rows are meant is not one condition each
    said = [Term("", "value", f.start, f.end, 0.0) for f in periods]
    # "… in the 2008 malaysian motorcycle grand prix": the occasion the table is about, said back as left out
    said += [Term("", "value", s, e, 0.0) for s, e in conditions.occasion_years(a)]
    if _NUMBER.search(_outside(a.text, [term, *others, *said])):
        return None  # "in 1990": a number the comparison does not read (a year, a threshold)
    compared = _ordering(a, term, layout=end == -2) if nearest else _compared(a, term, start, end, op)
    if compared is None:
        return None
    anchor = _anchor(a, term, compared, op, nearest=nearest)
    plan = Plan(lang=a.lang, anchor=anchor, question_kind="against_row")
    plan.filters = [Filter(column=t.column, op="=", value=t.value) for t in others]  # "how many girls …"
    plan.filters += [Filter(**f.spec) for f in periods]
    counting = _COUNT_ZH.search(a.text) if a.lang == "zh" else _COUNT_EN.match(a.text)
    if counting and anchor.func:
        return None  # how many groups qualify is no cell of a query: not answered with a number nobody computed
    if counting:
        target = a.cues.count_target
        if _unread_columns(a, {compared, anchor.column, *columns, *([target.column] if target else [])}):
            return None
        name = "行数" if a.lang == "zh" else "rows"
        plan.anchor = replace(anchor, nearest=False)  # how many were before it: strictly before, every one
        plan.metrics = [Metric(name, "count")]
        plan.shown = [Shown(name)]
        return plan
    return _listing(a, plan, term, columns)


def _listing(a: Analyzer, plan: Plan, term: Term, filtered: list[str]) -> Plan | None:
    """The rows (or groups) compared with the named one, listed: the column asked for beside the compared one."""
    anchor = plan.anchor
    assert anchor is not None  # noqa: S101 - only anchored plans come here
    compared, op, nearest = anchor.compared, anchor.op, anchor.nearest
    listed = _listed_column(a, anchor)
    if _unread_columns(a, {listed, compared, anchor.column, *filtered}):
        return None  # (a column named beside its value, "the labour party", is read by that value's filter)
    if nearest and not _head_fits(a, term, listed):
        return None
    if anchor.func:
        if listed != anchor.column:
            return None
        plan.kind = "grouped"
        plan.groups = [Group(anchor.column, anchor.column)]
        plan.metrics = [Metric(anchor.name, anchor.func, compared)]
        plan.shown = [Shown(anchor.name)]
    else:
        plan.kind = "rows"
        plan.row_columns = list(dict.fromkeys([listed, compared]))
    plan.sort = [Sort(by=anchor.measured, desc=op == "<" if nearest else op != "<")]  # nearest first, if asked
    plan.limit = MAX_ROWS
    return plan


def _nearest(anchor: Anchor, result: ResultView, writer: Writer, listed: str, relation: str, same: Any) -> list[str]:
    """The rows right before (or after) the named one: those tied nearest it, then where the others are. Rows
    with the named row's own value (`same`) are said apart: which of them comes first is not in the data."""
    shown = range(min(len(result.rows), MAX_LISTED))

    def named(rows: list[int]) -> str:
        return "; ".join(
            _labelled(writer.label(i, listed), compared_said(anchor.compared, writer.label(i, anchor.compared)))
            if listed != anchor.compared
            else writer.label(i, listed)
            for i in rows
        )

    level = [i for i in shown if result.cell(i, anchor.compared) == same]
    beyond = [i for i in shown if i not in level]
    tied = [i for i in beyond if result.cell(i, anchor.compared) == result.cell(beyond[0], anchor.compared)]
    lines = [_("%(relation)s: %(rows)s.") % {"relation": relation, "rows": named(tied) if tied else _("none")}]
    if level:
        lines.append(_("With the same %(compared)s: %(rows)s.") % {"compared": anchor.compared, "rows": named(level)})
    if result.row_count > len(tied) + len(level):
        lines.append(
            _("The other rows before it are in the table, nearest first.")
            if anchor.op == "<"
            else _("The other rows after it are in the table, nearest first.")
        )
    return lines


def _anchor(a: Analyzer, term: Term, compared: str, op: str, *, nearest: bool = False) -> Anchor:
    """The named row; where its value spans many rows (华东 of an orders table), its group's total or average."""
    said = a.cues.unsupported[1] if a.cues.unsupported else ""
    if nearest:
        return Anchor(column=term.column, value=term.value, compared=compared, op=op, said=said, nearest=nearest)
    view = a.schema.by_name[compared]
    if a.schema.by_name[term.column].unique or view.category != "measure":
        return Anchor(column=term.column, value=term.value, compared=compared, op=op, said=said, nearest=nearest)
    func = "avg" if view.averaged else "sum"
    if a.lang == "zh":
        name = f"{compared}合计" if func == "sum" else f"平均{compared}"
    else:
        name = f"{'total' if func == 'sum' else 'average'} {compared}"
    return Anchor(term.column, term.value, compared, op, said, func=func, name=name)


def _listed_column(a: Analyzer, anchor: Anchor) -> str:
    """What a "which …"/"who …" question lists: the column named after which/what, the one column of those who
    did what "who" asks ("who won the race after …": Winning driver), else the named row's column."""
    if re.match(r"^\s*who\s", a.text):
        doer = lookup.kind_head(a.text, a.schema, [t for t in a.terms if t.kind == "value"])
        if doer is not None and doer.column != anchor.column:
            return doer.column
    head = re.match(r"^\s*(?:which|what)\s+", a.text)
    if head is not None:
        named = [t for t in a.terms if t.kind == "column" and 0 <= t.start - head.end() <= 1]
        kinds = ("dimension", "id", "time", "year")
        chosen = [t.column for t in named if a.schema.by_name[t.column].category in kinds]
        if chosen:
            return chosen[0]
    return anchor.column


_HEAD_NOUN = re.compile(r"^\s*(?:what|which)\s+(?P<noun>[a-z]+)")


def _head_fits(a: Analyzer, term: Term, listed: str) -> bool:
    """ "what film was released before devakanya": the kind of thing asked for is the column listed (a column
    named there, or a noun of titles, people or places whose one column it is); "what song comes after …" over
    a table of people is not read."""
    head = _HEAD_NOUN.match(a.text)
    if head is None or head.group("noun") in ("is", "was", "are", "were", "did", "does", "do", "has", "had"):
        return True
    named = [t for t in a.terms if t.kind == "column" and t.start <= head.start("noun") < t.end]
    if named:
        return named[0].column == listed
    kind = lookup.kind_head(a.text, a.schema, [t for t in a.terms if t is not term])
    return kind is not None and kind.column == listed


def _unread_columns(a: Analyzer, read: set[str]) -> bool:
    """ "which team made their first appearance in the same tournament as …": a column the comparison does not
    use (Appearance) is a condition it would drop; "number of" says how many, it is no column Number."""
    return any(t.kind == "column" and t.column not in read and not _NUMBER_OF.match(a.text, t.start) for t in a.terms)


def _outside(text: str, terms: list[Term]) -> str:
    """The question without the spans the terms read."""
    kept = list(text)
    for t in terms:
        kept[t.start : t.end] = " " * (t.end - t.start)
    return "".join(kept)


def anchor_value(anchor: Anchor, first: ResultView) -> Any:
    """The named row's value of the compared column, or None when the rows named hold no single value (none,
    blank, or several different ones: which to compare with is not known). The first query returns one row per
    different value (Anchor.spec), so one row is one value."""
    if first.row_count != 1 or len(first.rows) != 1:
        return None
    return first.cell(0, anchor.measured)


def beyond_the_file(anchor: Anchor, value: Any, schema: Schema, lang: Lang) -> list[str] | None:
    """ "what name is previous to wayne gretzky on the list" where Wayne Gretzky is the file's first row: nothing
    comes before it in the file's order, so the question meant another order (a rank, a date). Said so, with no
    row named, instead of an empty list shown as the answer; None when a row does come before (or after) it."""
    if anchor.compared != ROW_POSITION or not anchor.nearest:
        return None
    first, last = value == 1, value == schema.row_count
    if not (first if anchor.op == "<" else last):
        return None
    with speaking(lang):
        said = {"name": str(anchor.value)}
        lines = [
            (
                _("Sorry, %(name)s is the first row of the file, so I cannot name a row before it in that order.")
                if first
                else _("Sorry, %(name)s is the last row of the file, so I cannot name a row after it in that order.")
            )
            % said,
            _("If you meant another order, ask by the column that holds it (such as a rank or a date)."),
        ]
    return lines


def draft(plan: Plan, first: ResultView, result: ResultView, schema: Schema, follow_ups: list[str]) -> str:
    """The named row's value (from the first query), then how many rows compare so with it or which ones."""
    anchor = plan.anchor
    assert anchor is not None  # noqa: S101 - only anchored plans come here
    row = next(i for i in range(len(first.rows)) if first.cell(i, anchor.measured) is not None)
    with speaking(plan.lang):
        said = {
            "name": str(anchor.value),
            "compared": anchor.measured,
            "value": reference(first.ref, anchor.measured, row),
        }
        lines = [
            _("%(name)s is row %(value)s of the file.") % said
            if anchor.compared == ROW_POSITION
            else _("%(name)s: %(compared)s %(value)s.") % said
        ]
        if anchor.func:  # groups, named by their column: "地区 with a higher 销售额合计 than 华东"
            relation = {
                ">": _("%(groups)s with a higher %(compared)s than %(name)s"),
                "<": _("%(groups)s with a lower %(compared)s than %(name)s"),
                "=": _("Other %(groups)s with the same %(compared)s as %(name)s"),
            }[anchor.op] % {**said, "groups": anchor.column}
        elif anchor.nearest and anchor.compared == ROW_POSITION:
            relation = (
                _("Right before %(name)s in the file's order of rows")
                if anchor.op == "<"
                else _("Right after %(name)s in the file's order of rows")
            ) % said
        elif anchor.nearest:
            relation = (
                _("Right before %(name)s by %(compared)s")
                if anchor.op == "<"
                else _("Right after %(name)s by %(compared)s")
            ) % said
        else:
            relation = {
                "=": _("Other rows with the same %(compared)s as %(name)s"),
                ">": _("Rows with a higher %(compared)s than %(name)s"),
                "<": _("Rows with a lower %(compared)s than %(name)s"),
            }[anchor.op] % said
        writer = Writer(plan, result, schema)
        if plan.kind == "scalar":
            lines.append(
                _("%(relation)s: %(count)s.")
                % {"relation": relation, "count": writer.value(0, plan.shown[0].name, None)}
            )
        elif not result.rows:
            lines.append(_("%(relation)s: none.") % {"relation": relation})
        elif anchor.nearest and not anchor.func:
            lines += _nearest(
                anchor,
                result,
                Writer(plan, result, schema),
                plan.row_columns[0],
                relation,
                first.cell(row, anchor.measured),
            )
        else:
            lines.append(_("%(relation)s:") % {"relation": relation})
            listed, compared = (
                (anchor.column, anchor.name) if anchor.func else (plan.row_columns[0], plan.row_columns[-1])
            )
            for i in range(min(len(result.rows), MAX_LISTED)):
                label = writer.label(i, listed)
                value = (
                    writer.value(i, compared, None)
                    if anchor.func
                    else writer.label(i, compared)
                    if compared != listed
                    else ""
                )
                lines.append(f"{i + 1}. " + (_labelled(label, f"{compared} {value}") if value else label))
            if result.row_count > MAX_LISTED:
                lines.append(_("... the rest is in the table."))
        others = [f for f in plan.filters if f.column not in (anchor.column, anchor.compared)]
        labels = [filter_label(f.column, f.op, f.value, plan.lang) for f in others]
        labels.append(filter_label(anchor.measured, anchor.compared_op, said["value"], plan.lang))
        labels.append(filter_label(anchor.column, "!=", anchor.value, plan.lang))
        plan.filter_labels = labels
        lines += writer.filters_line()
        lines += writer.left_out_line()  # "in the 2008 malaysian motorcycle grand prix": the occasion, left out
        lines += plan.notes
    lines += [f">> {q}" for q in follow_ups]
    return "\n".join(lines)
