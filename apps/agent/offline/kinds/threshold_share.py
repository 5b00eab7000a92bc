"""The share of rows (or of a measure) that meet a threshold: "what percentage of seasons had more than 8 wins",
"what percentage of the Hawks' seasons had more than 8 wins" (the Hawks are the whole, a filter on both parts),
"金额超过1000的订单占比". The threshold is the numerator's condition, never a filter on the whole (which would
make every share 100%, or the share of the rows that meet it taken by a named value)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.cues import threshold_label
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Metric
from apps.datasets.query.spec import Filter

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def detect(b: MetricBuilder) -> bool:
    cues = b.a.cues
    if not (cues.share or cues.rate) or cues.rate_concept or not cues.thresholds or b.plan.groups or b.flags:
        return False
    return all(b.a.schema.by_name[t.column].category == "measure" for t in cues.thresholds)


def build(b: MetricBuilder) -> None:
    cues = b.a.cues
    said = list(cues.thresholds)
    where = [Filter(column=t.column, op=t.op, value=t.value) for t in said]
    label = "; ".join(threshold_label(t.column, t, b.a.lang) for t in said)
    cues.thresholds = []  # the numerator's condition, not a filter on the whole
    measure = next((m.column for m in b.measures if m.column not in {t.column for t in said}), None)
    func = "sum" if measure else "count"
    unit = (measure or "行数") if b.zh else (f"total {measure}" if measure else "rows")
    at = said[0].start
    num = b.add(Metric(b.unique(f"{unit}（{label}）" if b.zh else f"{unit} ({label})"), func, measure, where=where), at)
    den = b.add(Metric(b.unique(unit if b.zh else f"all {unit}"), func, measure), at)
    b.ratio("占比" if b.zh else "share", num.name, den.name, "pct")


KIND = Kind("threshold_share", detect, build)
