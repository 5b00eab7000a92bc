"""Whole rows with the highest or lowest value of a measure: "金额最高的5笔订单", "the record with the lowest
price" (the row's labels come with it, so the answer names the row the value belongs to)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Shown
from apps.datasets.queryspec import Sort

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    cues = b.a.cues
    return cues.ranking and not b.plan.groups and bool(b.measures) and not cues.counting


def build(b: MetricBuilder) -> None:
    measure = b.measures[0].column
    labels = [v.name for v in b.a.schema.of("id", "dimension", "time", "year") if v.name != measure][:6]
    plan, cues = b.plan, b.a.cues
    plan.row_columns = [*labels, measure]
    plan.sort = [Sort(by=measure, desc=not cues.ascending)]
    plan.limit = cues.top_n or (10 if cues.plural else 1)
    plan.shown = [Shown(measure)]


KIND = Kind("extreme_rows", detect, build)
