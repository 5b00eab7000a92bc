"""A rate the glossary defines over two concepts: 转化率 = conversions / sessions, profit margin = profit /
revenue, 客单价 = revenue / orders. Revenue falls back to the data's amount column; orders are the data's
order-count column when it has one, else its distinct order ids, else its rows (one row per order). When the
data lacks a side, the rate is reported as not computed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric
from apps.agent.offline.schema_terms import ColumnView

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder

_FALLBACK = {"revenue": "amount"}


def _measure(b: MetricBuilder, concept: str) -> ColumnView | None:
    schema = b.a.schema
    return schema.concept_column(concept) or (
        schema.concept_column(_FALLBACK[concept]) if concept in _FALLBACK else None
    )


def detect(b: MetricBuilder) -> bool:
    return b.a.cues.rate_concept is not None


def build(b: MetricBuilder) -> None:
    assert b.a.cues.rate_concept is not None  # noqa: S101 - detect() checked it
    numerator, denominator, word = b.a.cues.rate_concept
    at = b.a.cues.rate_at
    num_view, den_view = _measure(b, numerator), _measure(b, denominator)
    if num_view is not None and den_view is None and denominator == "order":
        ids = b.a.schema.concept_column("order", ("id",))
        num = b.add(Metric(b.agg_name("sum", num_view.name), "sum", num_view.name), at)
        if ids is not None and not ids.unique:
            den = b.add(Metric(b.agg_name("nunique", ids.name), "nunique", ids.name), at)
        else:
            den = b.add(Metric(b.unique("订单数" if b.zh else "orders"), "count"), at)
        b.ratio(b.rate_name(word), num.name, den.name, None)
        return
    if num_view is None or den_view is None:
        b.plan.unmapped.append(word)  # nothing computed: the question is answered as not mapped
        return
    b.sum_ratio(word, num_view.name, den_view.name, at, None if denominator == "order" else "pct")


KIND = Kind("named_rate", detect, build)
