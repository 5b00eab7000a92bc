"""Which of two (or three) named values of one column has more, less, the bigger or the earlier: "which location had
more tournaments, oldsmar or los angeles", "does lake bafa or lake yay have a bigger area", "which lake opened
first, lake alba or lake brio", "did he have more wins in 1978 or 1979", "哪个门店的销售额更高，北京店还是上海店".
One grouped query restricted to the named values: the rows counted per value, or the named measure per value
(added up over many rows, the value itself over one row each), or the earliest / latest date; the answer quotes
every value's figure and names the one asked for, or says they tie (choice_draft.py). What cannot be told (which
measure, for values of one row each or a comparative that names no column) is asked back, never guessed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.kinds.named_difference import named_values, which_measure
from apps.agent.offline.plan import Group, Metric, Shown
from apps.agent.offline.schema_terms import Term, listed_in_cells, name_words
from apps.agent.offline.wording import speaking
from apps.datasets.query.spec import Filter, Sort

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder
    from apps.agent.offline.schema_terms import ColumnView

MOST_VALUES = 3
# The comparative the choice is made by, and which way it points: "high" (more, bigger), "low" (fewer, smaller),
# "early" (first, earlier: on a date the smaller), "late" (most recent, later: the larger).
_EN_WAYS = {  # the edges first: "most recent" is late, not "most"
    "age": r"older|oldest|younger|youngest|newer|newest",
    "early": r"first|earlier|earliest|sooner",
    "late": r"later|latest|most\s+recent(?:ly)?|more\s+recent(?:ly)?",
    "high": r"more|bigger|larger|higher|greater|longer|taller|heavier|wider|deeper|most",
    "low": r"fewer|less|smaller|lower|shorter|lighter|narrower|shallower|least|fewest",
}
_EN_WAY = re.compile("|".join(rf"(?<![a-z])(?P<{way}>{words})(?![a-z])" for way, words in _EN_WAYS.items()))
# one character said alone ends its clause ("哪个地区订单多？", "销售额高还是…"): 多少, 高于, 大区 are other words
_ZH_END = r"(?=[一些点]?\s*(?:[？?，,。！!]|还是|呢|$))"
_ZH_WAY = re.compile(
    rf"(?P<early>更早|最早|较早|早{_ZH_END})|(?P<late>更晚|最晚|较晚|更近|最近|晚{_ZH_END})"
    rf"|(?P<high>更多|更高|更大|更长|最多|最高|最大|较多|较高|较大|(?:多|高|大|长){_ZH_END})"
    rf"|(?P<low>更少|更低|更小|更短|最少|最低|最小|较少|较低|较小|(?:少|低|小|短){_ZH_END})"
)
# the comparatives that count rows when no measure is named ("more beetles", "订单更多")
_COUNTING = frozenset(
    {"more", "fewer", "less", "most", "least", "fewest"} | set("更多 更少 最多 最少 较多 较少 多 少".split())
)
_ZH_ROWS = re.compile(r"(?:订单|记录|次数|次|笔数|单数|条数|行数)[的\s]*(?:更|较|比较)?$")
_NEXT_WORD = re.compile(r"\s+(?:of\s+)?(?:the\s+)?([a-z]+)")
# "older" over an Age column: the higher; over a date the question names ("opened"): the earlier
_AGE_WAY = {"older": "high", "oldest": "high", "younger": "low", "youngest": "low", "newer": "low", "newest": "low"}
_DATE_WAY = {"high": "early", "low": "late"}
# Between the named values: "oldsmar or los angeles", "北京店还是上海店", "华东和华南(哪个…)"
_EN_OR = re.compile(r"^\s*(?:,\s*)?(?:or|,)\s*$")
_ZH_OR = re.compile(r"^\s*(?:还是|或者|或)\s*$")
_ZH_AND = re.compile(r"^\s*(?:和|与|跟|同|、|，)\s*$")
_ZH_WHICH = re.compile(r"哪(?:个|一个|家|位|边|方)?")
_PLACED_BEFORE = re.compile(r"(?<![a-z])(?:finish(?:ed)?|came|come|placed|ranked|end(?:ed)?|in)\s+(?:the\s+)?$")
_PLACE_AFTER = re.compile(r"\s+(?:place|position|spot)(?![a-z])")
_WH_HEAD = re.compile(r"\s*(?:which|what)\s+")
_THAN = re.compile(r"(?<![a-z])than(?![a-z])|比")


@dataclass(frozen=True)
class _Choice:
    key: str  # the result column the values are in: the column, or the time group ("1978 or 1979")
    column: str
    terms: list[Term]
    said: re.Match[str]  # the comparative


def _choice(b: MetricBuilder) -> _Choice | None:
    """The column, its named values (joined by "or", 还是, or by 和 in a "哪个" question) and the comparative;
    None when the question is no such choice."""
    a = b.a
    found = _named_periods(b) if b.plan.time_group else named_values(b, MOST_VALUES)
    if found is None or _THAN.search(a.text):  # "more than B": a difference or a comparison with one row
        return None
    column, terms = found
    gaps = [a.text[left.end : right.start] for left, right in zip(terms, terms[1:], strict=False)]
    if a.lang == "zh":
        either = any(_ZH_OR.match(g) for g in gaps) or _ZH_WHICH.search(a.text) is not None
        joined = either and all(_ZH_OR.match(g) or _ZH_AND.match(g) for g in gaps)
    else:
        joined = all(_EN_OR.match(g) for g in gaps) and " or" in "".join(gaps)
    said = _way(b) if joined else None
    if said is None:
        return None
    return _Choice(b.plan.time_group or column, column, terms, said)


def _named_periods(b: MetricBuilder) -> tuple[str, list[Term]] | None:
    """ "did he have more wins in 1978 or 1979": the years named, each a group of the time column."""
    a = b.a
    years = [f for f in a.named_periods if f.year is not None]
    several = any(len(terms) > 1 for terms in b.values.values())
    if a.time_col is None or several or len(years) != len(a.named_periods) or not 2 <= len(years) <= MOST_VALUES:
        return None
    column = a.time_col.name
    return column, [Term(column, "value", f.start, f.end, 1.0, f.year) for f in years]


def _way(b: MetricBuilder) -> re.Match[str] | None:
    """The comparative outside the named values, the columns and the thresholds ("11,000 or more")."""
    a = b.a
    pattern = _ZH_WAY if a.lang == "zh" else _EN_WAY
    spans = [(t.start, t.end) for t in a.terms] + [(t.start, t.end) for t in a.cues.thresholds]
    for m in pattern.finditer(a.text):
        if any(s < m.end() and m.start() < e for s, e in spans) or m.lastgroup is None:
            continue
        placed = _PLACED_BEFORE.search(a.text, 0, m.start()) or _PLACE_AFTER.match(a.text, m.end())
        if m.lastgroup == "early" and placed:
            continue  # "who finished first", "first place": a place, not a date
        if m.lastgroup in ("early", "late") and _dated(b, m.lastgroup) is None:
            return None  # "which was first" with no date to tell it by: not read here
        if m.lastgroup == "age" and _dated(b, "age") is None and _age(b) is None:
            return None  # "which player is older" with neither an age nor a date named: not read here
        return m
    return None


def way_of(m: re.Match[str], dated: bool) -> str:
    """ "high", "low", "early" or "late"; "older": the higher age, or the earlier date named."""
    if m.lastgroup != "age":
        return m.lastgroup or "high"
    way = _AGE_WAY[m.group(0)]
    return _DATE_WAY[way] if dated else way


def _age(b: MetricBuilder) -> ColumnView | None:
    """The data's one column of ages, for "older" or "younger" said without it."""
    found = [v for v in b.a.schema.of("measure") if "age" in name_words(v.name)]
    return found[0] if len(found) == 1 else None


def detect(b: MetricBuilder) -> bool:
    found = None if b.a.cues.top_n else _choice(b)
    return found is not None and not _asks_another(b, found.column)


def _asks_another(b: MetricBuilder, column: str) -> bool:
    """ "which players from red lions or blue hawks scored the most goals": the question asks for rows of another
    column, among those of the named values; no choice between them."""
    a = b.a
    if a.kind_head is not None:  # "which swimmer …" over a column of people the values are not in
        return True
    head = _WH_HEAD.match(a.text)
    named = [t for t in a.terms if t.kind == "column" and head is not None and t.start == head.end()]
    return any(t.column != column and a.view(t).category in ("id", "dimension") for t in named)


def _dated(b: MetricBuilder, way: str) -> ColumnView | None:
    """ "founded first", "the most recent title": the date or year column the edge is on (the one named, else the
    data's only one)."""
    if way not in ("early", "late", "age"):
        return None
    named = [b.a.view(t) for t in b.a.terms if t.kind == "column" and b.a.view(t).category in ("time", "year")]
    named += [v for t in b.measures if (v := b.a.view(t)).years]
    if named or b.measures or way == "age":  # "older" over an Age column: the age, unless a date is named
        return named[0] if named else None
    dated = b.a.schema.of("time", "year") + [v for v in b.a.schema.of("measure") if v.years]
    return dated[0] if len(dated) == 1 else None


def build(b: MetricBuilder) -> None:
    found = _choice(b)
    assert found is not None  # noqa: S101 - detect() checked it
    a, plan, said = b.a, b.plan, found.said
    a.taken[said.start() : said.end()] = b"\x01" * (said.end() - said.start())
    dated = _dated(b, said.lastgroup or "")
    way = way_of(said, dated is not None)
    metric = _metric(b, found, dated, way)
    if metric is None:
        return
    plan.ascending = way in ("low", "early")
    view = a.schema.by_name[found.column]
    if not plan.time_group and any(listed_in_cells(view, t.value) for t in found.terms):
        _each_value(b, found, metric)
        return
    if not plan.time_group:  # what is counted ("more players") is no breakdown of its own
        plan.groups = [Group(found.column, found.column)]
        b.names.add(found.column)
    plan.shown = [Shown(metric.name, "year" if dated is not None and dated.years else None)]
    plan.sort = [Sort(by=metric.name, desc=not plan.ascending), Sort(by=found.key)]


def _each_value(b: MetricBuilder, found: _Choice, metric: Metric) -> None:
    """Values that cells list among others ("France, Spain", "South Africa (via Hawaii)"): a row may hold both,
    so no grouping gives each its rows; the metric is taken once per value over the cells holding it."""
    b.plan.metrics.remove(metric)
    b.plan.groups = [g for g in b.plan.groups if g.column != found.column]
    names = []
    for term in found.terms:
        b.used.add(term.start)
        name = b.unique(f"{term.value}{metric.name}" if b.zh else f"{metric.name}_{term.value}")
        where = [*metric.where, Filter(column=found.column, op="contains", value=term.value)]
        b.add(Metric(name, metric.func, metric.column, where=where), term.start)
        names.append(name)
    b.plan.shown = [Shown(n) for n in names]
    with speaking(b.a.lang):
        said = {"column": found.column}
        b.plan.notes.append(
            _("Each value covers every row whose %(column)s holds it; some of those cells list several values.") % said
        )


def _metric(b: MetricBuilder, found: _Choice, dated: ColumnView | None, way: str) -> Metric | None:
    """What each value is compared by: the date's edge, the measure named (its value over one row each, else its
    total or average), or the rows counted; None when the plan asks which measure instead."""
    a, terms, said = b.a, found.terms, found.said
    one_each = a.schema.by_name[found.column].unique
    measures = list(dict.fromkeys(t.column for t in b.measures))
    if dated is not None:  # one row each: the date itself, under the column's own name
        func = "min" if way == "early" else "max"
        name = b.unique(dated.name) if one_each else b.name_for("earliest" if way == "early" else "latest", dated.name)
        return b.add(Metric(name, func, dated.name), terms[0].start)
    age = _age(b) if said.lastgroup == "age" and not measures else None
    if age is not None:  # "which player is older": the age, averaged over many rows
        name = b.unique(age.name) if one_each else b.agg_name("avg", age.name)
        return b.add(Metric(name, "max" if one_each else "avg", age.name), said.start())
    if len(measures) > 1 or (not measures and (one_each or not _counted(b, said))):  # which measure: asked
        choice = gettext_noop("Which has the higher %(measure)s, %(values)s?")
        unsaid = gettext_noop("“%(word)s” does not say which column to compare %(values)s on. Which one do you mean?")
        word = a.question[said.start() : said.end()]
        b.plan.clarification = which_measure(b, terms, choice, "" if one_each and not measures else unsaid, word)
        return None
    if not measures:
        return _count(b, found.column, said)
    base = b.measures[0]
    view = a.view(base)
    func = b.func_for(base)
    if one_each:  # one row each: the value itself, under the column's own name (its average if said)
        return b.add(Metric(b.unique(view.name), "avg" if func == "avg" else "max", view.name), base.start)
    return b.measure_metric(base, func if func in ("sum", "avg") else "avg" if view.averaged else "sum")


def _counted(b: MetricBuilder, said: re.Match[str]) -> bool:
    """With no measure named, whether the comparative counts: "more tournaments", "fewer beetles", "more often",
    "更多" (many, few); not "more successful", "bigger", "higher", which name no column counting rows answers."""
    a = b.a
    if said.group(0) not in _COUNTING:
        return False
    if a.cues.thresholds:  # "more wins" over a column of results: the rows of that outcome
        return True
    if a.lang == "zh":  # "订单更多", "次数更多": rows said as such; not "哪个卖得多" (by money or by units?)
        return _counted_column(b, said) is not None or _ZH_ROWS.search(a.text, 0, said.start()) is not None
    after = _NEXT_WORD.match(a.text, said.end())
    if after is None:
        return False
    word = after.group(1)
    named = _counted_column(b, said) is not None
    return named or word in ("often", "times") or (word.endswith("s") and not word.endswith(("ss", "ous")))


def _counted_column(b: MetricBuilder, said: re.Match[str]) -> Term | None:
    """The column named right after the comparative ("more players"), or before it in Chinese ("订单更多")."""
    a = b.a
    if a.lang == "zh":
        return next((t for t in a.terms if t.kind == "column" and not a.text[t.end : said.start()].strip("的 ")), None)
    after = _NEXT_WORD.match(a.text, said.end())
    return next((t for t in a.terms if t.kind == "column" and after and t.start == after.start(1)), None)


def _count(b: MetricBuilder, column: str, said: re.Match[str]) -> Metric:
    """The rows of each named value, or the different things counted ("more players", "订单更多") when they are
    not its rows."""
    target = _counted_column(b, said) or b.a.cues.count_target
    view = b.a.view(target) if target is not None else None
    if target is None or view is None or target.column == column or view.category not in ("id", "dimension"):
        return b.count_rows()
    said_as = b.a.question[target.start : target.end].strip()
    name = b.unique(f"{said_as}数" if b.zh else f"number of {said_as.lower()}")
    return b.add(Metric(name, "nunique", view.name), target.start)


KIND = Kind("named_choice", detect, build)
