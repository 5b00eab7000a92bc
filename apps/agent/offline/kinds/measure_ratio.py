"""One measure over another: "revenue per session", "销售额/订单数量", "the ratio of A to B"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def per(b: MetricBuilder) -> bool:
    """ "revenue per session": the first measure, then per / 每 / a slash, then the second."""
    if len(b.measures) < 2:
        return False
    first, second = b.measures[:2]
    return bool(re.fullmatch(r"\s*(per|每|/)\s*", b.a.text[first.end : second.start]))


def detect(b: MetricBuilder) -> bool:
    return (b.a.cues.rate or per(b)) and len(b.measures) >= 2


def build(b: MetricBuilder) -> None:
    num = b.measure_metric(b.measures[0], "sum").name
    den = b.measure_metric(b.measures[1], "sum").name
    b.ratio(b.name_for("per", b.measures[0].column, b.measures[1].column), num, den, None)


KIND = Kind("measure_ratio", detect, build)
