"""A rate the glossary defines over two concepts: 转化率 = conversions / sessions, profit margin = profit /
revenue. When the data lacks either side, the rate is reported as not computed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    return b.a.cues.rate_concept is not None


def build(b: MetricBuilder) -> None:
    assert b.a.cues.rate_concept is not None  # noqa: S101 - detect() checked it
    numerator, denominator, word = b.a.cues.rate_concept
    num_view = b.a.schema.concept_column(numerator)
    den_view = b.a.schema.concept_column(denominator)
    if num_view is None or den_view is None:
        b.plan.unmapped.append(word)  # nothing computed: the question is answered as not mapped
        return
    b.sum_ratio(word, num_view.name, den_view.name, b.a.cues.rate_at)


KIND = Kind("named_rate", detect, build)
