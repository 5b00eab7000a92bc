"""A rate or share under a condition: "退货订单占比" (rows flagged 是否退货 over all rows), "share of
revenue from 华东" (华东's revenue over all revenue), "华东的退货率" (华东's returned over 华东's all)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    return bool(b.conditions())


def build(b: MetricBuilder) -> None:
    b.conditional_ratio(b.conditions())


KIND = Kind("conditional_ratio", detect, build)
