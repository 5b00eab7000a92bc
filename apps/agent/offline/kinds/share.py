"""Each group's share of the whole: "各地区销售额占比" (the measure added up, else rows counted), per
period when a time grain is asked too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    return b.a.cues.share and bool(b.plan.groups)


def build(b: MetricBuilder) -> None:
    b.share()


KIND = Kind("share", detect, build)
