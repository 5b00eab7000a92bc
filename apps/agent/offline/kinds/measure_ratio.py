"""One measure over another: "revenue per session", "销售额/订单数量", "the ratio of A to B"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.metrics import PER_BETWEEN

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder
    from apps.agent.offline.schema_terms import Term


def per(b: MetricBuilder) -> bool:
    """ "revenue per session": the first measure, then per / 每 / a slash, then the second."""
    if len(b.measures) < 2:
        return False
    first, second = b.measures[:2]
    return PER_BETWEEN.fullmatch(b.a.text, first.end, second.start) is not None


def per_unit(b: MetricBuilder) -> tuple[Term, Term] | None:
    """ "每杯平均卖多少钱": (the measure, the unit it is taken per) when a unit follows 每 (每杯 -> 杯数)."""
    if len(b.measures) != 2:
        return None
    units = [t for t in b.measures if t.end - t.start == 1 and b.a.text[: t.start].rstrip().endswith("每")]
    if len(units) != 1:
        return None
    other = next(t for t in b.measures if t is not units[0])
    return other, units[0]


def detect(b: MetricBuilder) -> bool:
    return ((b.a.cues.rate or per(b)) and len(b.measures) >= 2) or per_unit(b) is not None


def build(b: MetricBuilder) -> None:
    num_term, den_term = per_unit(b) or (b.measures[0], b.measures[1])
    num = b.measure_metric(num_term, "sum").name
    den = b.measure_metric(den_term, "sum").name
    name = b.name_for("per", num_term.column, den_term.column)
    b.names.discard(name)  # ratio() takes the name itself
    b.ratio(name, num, den, None)


KIND = Kind("measure_ratio", detect, build)
