"""The distance between the largest and the smallest value of one measure: "what is the difference between the
highest and lowest salary", "最高和最低销售额相差多少". One query: the maximum, the minimum and their difference
derived from them, so every number the answer quotes comes from the query (per group when the question names
one: "各地区最高和最低金额的差")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric, Shown
from apps.datasets.query.spec import Derived

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer
    from apps.agent.offline.metrics import MetricBuilder


def asked(a: Analyzer) -> bool:
    """A difference asked between the largest and the smallest: both extremes said, nothing named to compare."""
    funcs = {func for _s, _e, func in a.cues.agg_words}
    named = sum(1 for t in a.terms if t.kind == "value")
    return a.cues.change == "diff" and {"max", "min"} <= funcs and named < 2 and not a.cues.ranking


def detect(b: MetricBuilder) -> bool:
    return asked(b.a) and len({t.column for t in b.measures}) == 1


def build(b: MetricBuilder) -> None:
    term = b.measures[0]
    column = term.column
    high = b.add(Metric(b.agg_name("max", column), "max", column), term.start)
    low = b.add(Metric(b.agg_name("min", column), "min", column), term.start + 1)
    name = b.unique("差值" if b.zh else "difference")
    b.plan.derived.append(Derived(name=name, expr=f"[{high.name}] - [{low.name}]"))
    b.plan.shown = [Shown(name), Shown(high.name), Shown(low.name)]


KIND = Kind("spread", detect, build)
