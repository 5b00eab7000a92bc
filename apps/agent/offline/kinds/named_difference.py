"""The difference between two named groups of one column: "what is the difference in pick numbers between greg
schaum and ed bauer", "how many more silver medals did the united states win compared to russia", "北京比上海多
卖了多少杯". Both groups are aggregated in one query (conditional aggregations) and the difference is derived
from them, so every number the answer quotes comes from the query. "difference" is a distance (never negative);
"how many more A than B" is A minus B."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.agent.clarification import Clarification
from apps.agent.offline import lexicon as lx
from apps.agent.offline.cues import find_words
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric, Shown
from apps.agent.offline.schema_terms import Term
from apps.agent.offline.wording import names, speaking
from apps.datasets.query.spec import Derived, Filter

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder

MAX_CHOICES = 3


def named_values(b: MetricBuilder, most: int = 2) -> tuple[str, list[Term]] | None:
    """The one column the question names two (up to `most`) values of, in the question's order, and no other
    column with several; values holding brackets (which a derived expression cannot name) are left alone."""
    several = [(column, terms) for column, terms in b.values.items() if len(terms) > 1]
    if len(several) != 1 or len(several[0][1]) > most:
        return None
    column, terms = several[0]
    if any("[" in str(t.value) or "]" in str(t.value) for t in terms):
        return None
    return column, sorted(terms, key=lambda t: t.start)


def _pair(b: MetricBuilder) -> tuple[str, list[Term]] | None:
    return named_values(b, 2) or _years(b)


def _years(b: MetricBuilder) -> tuple[str, list[Term]] | None:
    """ "how many more votes did she receive in 2016 than in 2014": two years of the time column, in the
    question's order, as two named values of it."""
    a = b.a
    if len(a.years) != 2 or len(a.time_filters) != 1 or b.values.get(a.time_filters[0].spec["column"]):
        return None
    if not b.measures:  # which column to compare would be asked with the years in it: not read here
        return None
    column = a.time_filters[0].spec["column"]
    said = sorted((m.start(), m.end(), year) for year in a.years for m in re.finditer(rf"(?<!\d){year}(?!\d)", a.text))
    if len(said) != 2:
        return None
    return column, [Term(column, "value", start, end, 1.0, value=year) for start, end, year in said]


# "how much taller is a than b", "how many years longer did x serve than y": the first less the second; "how much
# shorter …" the second less the first (a positive amount, as said)
_HOW_MUCH_ER = re.compile(
    r"(?<![a-z])how (?:much|many(?: \w+)?) (?:(?P<up>taller|higher|longer|larger|bigger|heavier|deeper|wider|greater)"
    r"|(?P<down>shorter|lower|smaller|lighter|shallower|narrower))(?![a-z]).*(?<![a-z])than(?![a-z])"
)
_FEWER = re.compile(r"(?<![a-z])how (?:many|much) (?:fewer|less)(?![a-z])|少多少|少了多少|低多少")


def _more(b: MetricBuilder) -> bool:
    return bool(find_words(b.a.text, lx.MORE_WORDS, bytearray(len(b.a.text)))) or bool(_HOW_MUCH_ER.search(b.a.text))


def _less(b: MetricBuilder) -> bool:
    """ "how much shorter is a than b", "how many fewer …": the amount the first falls short by."""
    er = _HOW_MUCH_ER.search(b.a.text)
    return bool(er.group("down")) if er is not None else bool(_FEWER.search(b.a.text))


# "how much did his points per game go up from 2009–10 to 2010–11": the later one less the earlier one ("go down",
# "drop": the earlier less the later)
_CHANGED = re.compile(rf"(?<![a-z])(?:(?P<up>{lx.RISE_WORDS})|(?P<down>{lx.FALL_WORDS}))(?![a-z])")
_FROM_TO = re.compile(r"(?<![a-z])(?:from|between)\s+\S.*?\s+(?:to|and)\s+\S")


def _changed(b: MetricBuilder) -> re.Match[str] | None:
    m = _CHANGED.search(b.a.text)
    return m if m is not None and _FROM_TO.search(b.a.text, m.end()) else None


def detect(b: MetricBuilder) -> bool:
    a = b.a
    asked = a.cues.change == "diff" or _more(b) or _changed(b) is not None
    # "in 2016 than in 2014": grouped by year until read here; a name beside them is one more condition
    years = len(a.years) == 2 and all(len(terms) == 1 for terms in b.values.values())
    return asked and (not b.plan.time_group or years) and not a.cues.ranking and _pair(b) is not None


def build(b: MetricBuilder) -> None:
    found = _pair(b)
    assert found is not None  # noqa: S101 - detect() checked it
    column, terms = found
    base = b.measures[0] if b.measures else None
    if base is None and b.a.schema.by_name[column].unique:  # one row each: counting rows compares nothing
        b.plan.clarification = which_measure(
            b, terms, gettext_noop("What is the difference in %(measure)s between %(values)s?")
        )
        return
    func = b.func_for(base) if base else "count"
    if func in ("max", "min", "nunique"):
        func = "sum"
    what = b.agg_name(func, base.column) if base else b.count_name()
    b.names.discard(what)
    names = []
    for term in terms:
        b.used.add(term.start)
        with speaking(b.a.lang):  # "华东金额合计", "total Silver (Russia)"
            name = b.unique(_("%(measure)s (%(value)s)") % {"value": term.value, "measure": what})
        where = [Filter(column=column, op="=", value=term.value)]
        b.add(Metric(name, func, base.column if base else None, where=where), term.start)
        names.append(name)
    b.plan.groups = [g for g in b.plan.groups if g.column != column]
    if b.plan.time_group is not None and all(g.name != b.plan.time_group for g in b.plan.groups):
        b.plan.time_group = None  # the two years are the two named values now
    first, second = names
    changed = _changed(b)
    with speaking(b.a.lang):
        if changed is not None:  # "go up from A to B": B less A; "drop from A to B": A less B
            later, earlier = (second, first) if changed.group("up") else (first, second)
            name, expr = b.unique(_("change")), f"[{later}] - [{earlier}]"
        elif _more(b) and _less(b):
            name, expr = b.unique(_("less by")), f"[{second}] - [{first}]"
        elif _more(b):
            name, expr = b.unique(_("more by")), f"[{first}] - [{second}]"
        else:
            name, expr = b.unique(_("difference")), f"abs([{first}] - [{second}])"
    b.plan.derived.append(Derived(name=name, expr=expr))
    b.plan.shown = [Shown(name), Shown(first), Shown(second)]


def listed(items: list[str]) -> str:
    """ "A and B", "A, B and C" in the active language."""
    return _("%(first)s and %(second)s") % {"first": names(items[:-1]), "second": items[-1]}


def which_measure(b: MetricBuilder, terms: list[Term], choice: str, asked: str = "", word: str = "") -> Clarification:
    """The named values are one row each, so counting their rows compares nothing: which measure is asked, each
    choice the question `choice` (a gettext message with %(measure)s and %(values)s, translated here) over one
    of the data's measures; said plainly when the data has none. `asked` (with %(values)s and %(word)s, the
    question's `word`) says why when it is another reason."""
    measures = b.a.schema.of("measure")[:MAX_CHOICES]
    with speaking(b.a.lang):
        said = listed([f"“{b.a.question[t.start : t.end]}”" for t in terms])  # as written: the question states no data
        if not measures and not asked:  # nothing to offer: said plainly, not asked
            text = _(
                "%(values)s are one row each, and no column holds numbers to compare between them, so I cannot "
                "compare them."
            )
            return Clarification(text % {"values": said}, [])
        if asked:
            question = _(asked) % {"values": said, "word": word}
        else:
            question = _("%(values)s are one row each. Which column should be compared?") % {"values": said}
        values = listed([str(t.value) for t in terms])
        choices = [_(choice) % {"measure": m.name, "values": values} for m in measures]
    return Clarification(question, choices)


KIND = Kind("named_difference", detect, build)
