"""The difference between two named groups of one column: "what is the difference in pick numbers between greg
schaum and ed bauer", "how many more silver medals did the united states win compared to russia", "北京比上海多
卖了多少杯". Both groups are aggregated in one query (conditional aggregations) and the difference is derived
from them, so every number the answer quotes comes from the query. "difference" is a distance (never negative);
"how many more A than B" is A minus B."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification
from apps.agent.offline import lexicon as lx
from apps.agent.offline.cues import find_words
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric, Shown
from apps.agent.offline.wording import speaking
from apps.datasets.query.spec import Derived, Filter

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder
    from apps.agent.offline.schema_terms import Term

MAX_CHOICES = 3


def _pair(b: MetricBuilder) -> tuple[str, list[Term]] | None:
    """The one column the question names exactly two values of (and no other column with several)."""
    several = [(column, terms) for column, terms in b.values.items() if len(terms) > 1]
    if len(several) != 1 or len(several[0][1]) != 2:
        return None
    column, terms = several[0]
    if any("[" in str(t.value) or "]" in str(t.value) for t in terms):
        return None
    return column, sorted(terms, key=lambda t: t.start)


def _more(b: MetricBuilder) -> bool:
    return bool(find_words(b.a.text, lx.MORE_WORDS, bytearray(len(b.a.text))))


def detect(b: MetricBuilder) -> bool:
    a = b.a
    asked = a.cues.change == "diff" or _more(b)
    return asked and not b.plan.time_group and not a.cues.ranking and _pair(b) is not None


def build(b: MetricBuilder) -> None:
    found = _pair(b)
    assert found is not None  # noqa: S101 - detect() checked it
    column, terms = found
    base = b.measures[0] if b.measures else None
    if base is None and b.a.schema.by_name[column].unique:  # one row each: counting rows compares nothing
        b.plan.clarification = _which_measure(b, terms)
        return
    func = b.func_for(base) if base else "count"
    if func in ("max", "min", "nunique"):
        func = "sum"
    what = b.agg_name(func, base.column) if base else b.count_name()
    b.names.discard(what)
    names = []
    for term in terms:
        b.used.add(term.start)
        name = b.unique(f"{term.value}{what}" if b.zh else f"{what}_{term.value}")
        where = [Filter(column=column, op="=", value=term.value)]
        b.add(Metric(name, func, base.column if base else None, where=where), term.start)
        names.append(name)
    b.plan.groups = [g for g in b.plan.groups if g.column != column]
    first, second = names
    if _more(b):
        name, expr = b.unique("多出" if b.zh else "more_by"), f"[{first}] - [{second}]"
    else:
        name, expr = b.unique("差值" if b.zh else "difference"), f"abs([{first}] - [{second}])"
    b.plan.derived.append(Derived(name=name, expr=expr))
    b.plan.shown = [Shown(name), Shown(first), Shown(second)]


def _which_measure(b: MetricBuilder, terms: list[Term]) -> Clarification:
    said = [b.a.question[t.start : t.end] for t in terms]  # as the user wrote them: the question states no data
    first, second = (str(t.value) for t in terms)
    measures = b.a.schema.of("measure")[:MAX_CHOICES]
    with speaking(b.a.lang):
        if not measures:  # nothing to offer: said plainly, not asked
            text = _(
                "“%(first)s” and “%(second)s” are one row each, and no column holds numbers to compare between "
                "them, so I cannot compute a difference."
            )
            return Clarification(text % {"first": said[0], "second": said[1]}, [])
        question = _("“%(first)s” and “%(second)s” are one row each. Which column should be compared?") % {
            "first": said[0],
            "second": said[1],
        }
        choices = [
            _("What is the difference in %(measure)s between %(first)s and %(second)s?")
            % {"measure": m.name, "first": first, "second": second}
            for m in measures
        ]
    return Clarification(question, choices)


KIND = Kind("named_difference", detect, build)
