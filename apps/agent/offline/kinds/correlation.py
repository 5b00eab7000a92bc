"""Correlation of two measures: "correlation between price and quantity", "销售额和数量的相关性"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    return b.a.cues.corr and len(b.measures) >= 2


def build(b: MetricBuilder) -> None:
    first, second = b.measures[0].column, b.measures[1].column
    b.add(Metric(b.name_for("corr", first, second), "corr", first, column2=second), b.measures[0].start)


KIND = Kind("correlation", detect, build)
