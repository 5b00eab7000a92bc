"""Totals, averages, medians, extremes, counts and distinct counts, overall or per group: "各地区销售额",
"平均工资", "how many orders", "多少个不同的客户" (the default kind: it accepts every question)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    return True


def build(b: MetricBuilder) -> None:
    b.aggregate_all()


KIND = Kind("aggregate", detect, build)
