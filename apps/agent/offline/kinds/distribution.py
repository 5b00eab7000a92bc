"""A measure's distribution: minimum, lower quartile, median, upper quartile and maximum ("金额的分布",
"describe the distribution of salary")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder

_STEPS: tuple[tuple[str, float | None, str], ...] = (
    ("min", None, "min"),
    ("quantile", 0.25, "lower_quartile"),
    ("median", None, "median"),
    ("quantile", 0.75, "upper_quartile"),
    ("max", None, "max"),
)


def detect(b: MetricBuilder) -> bool:
    cues = b.a.cues
    return cues.summary and len(b.measures) == 1 and not b.plan.groups and not cues.counting


def build(b: MetricBuilder) -> None:
    term = b.measures[0]
    for func, q, role in _STEPS:
        b.add(Metric(b.name_for(role, term.column), func, term.column, q=q), term.start)


KIND = Kind("distribution", detect, build)
