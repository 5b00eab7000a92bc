"""How many rows share the highest or lowest value of a measure: "how many teams had the most seasons",
"how many players scored the fewest goals", "有几个门店的销售额最高". One query: the rows counted per value of the
measure, the top (or bottom) value alone, so the answer names the value and how many rows hold it (ties count)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline.cues import superlative_on
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Group, Metric, Shown
from apps.datasets.query.spec import Sort

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def _superlative(b: MetricBuilder) -> re.Match[str] | None:
    """The superlative on the one measure, when what is counted is something else (teams, not goals)."""
    a, cues = b.a, b.a.cues
    if not cues.counting or cues.top_n or cues.nth or b.plan.groups or len(b.measures) != 1:
        return None
    target, measure = cues.count_target, b.measures[0]
    if target is not None and a.view(target).category == "measure":
        return None  # "the largest number of silver medals": the Silver measure itself
    later = [t for t in a.terms if t.kind == "column" and t.start > measure.end and t != target]
    if a.view(measure).ordinal or later or (a.lang == "en" and target is not None and target.start > measure.start):
        return None  # "the best rank": a place; a column named after it (but what is counted): another reading
    return superlative_on(a.text, measure, a.lang)


def detect(b: MetricBuilder) -> bool:
    return _superlative(b) is not None


def build(b: MetricBuilder) -> None:
    a, plan = b.a, b.plan
    found = _superlative(b)
    assert found is not None  # noqa: S101 - built only when detected
    measure = b.measures[0].column
    target = a.cues.count_target
    plan.groups = [Group(measure, measure)]
    b.names.add(measure)
    if target is not None and a.view(target).category in ("dimension", "id"):  # "how many teams": teams, not rows
        said = a.question[target.start : target.end].strip()
        name = b.unique(f"{said}数" if b.zh else f"number of {said.lower()}")
        counted = b.add(Metric(name, "nunique", target.column), target.start)
    else:
        counted = b.add(Metric(b.count_name(), "count"), b.measures[0].start)
    plan.ascending = found.group("low") is not None
    plan.sort = [Sort(by=measure, desc=not plan.ascending)]
    plan.limit = 1
    plan.shown = [Shown(counted.name)]


KIND = Kind("tied_extreme", detect, build)
