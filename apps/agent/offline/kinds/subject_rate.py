"""退货率 when the data has the subject's own column: 退货数量 over its base (订单数量, or 退货金额 over
销售金额), in the unit settled for it (asked back when both count and amount would do)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    return b.a.readings.rate_pair is not None


def build(b: MetricBuilder) -> None:
    rate, pair = b.a.readings.rate, b.a.readings.rate_pair
    assert rate is not None and pair is not None  # noqa: S101 - a rate pair comes with its rate
    b.sum_ratio(rate.word, pair[0], pair[1], rate.start)


KIND = Kind("subject_rate", detect, build)
