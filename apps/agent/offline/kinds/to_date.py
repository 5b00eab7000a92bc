"""A total accumulated up to a point: "截至6月底，2025年累计销售额", "2025年1到9月累计销售额", "revenue year to
date through June". One figure over [start of the year (or of the range named), end of the period named),
not a running total per day or month (that is a trend with 累计, asked with a grain: "每月累计")."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from apps.agent.offline import lexicon as lx
from apps.agent.offline.cues import find_words
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.timewords import Period, periods
from apps.agent.offline.wording import speaking
from apps.datasets.query.spec import Filter

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer
    from apps.agent.offline.metrics import MetricBuilder


def span(a: Analyzer) -> Period | None:
    """The span a cumulative question without a grain covers, or None when it is not one."""
    until = find_words(a.text, lx.UNTIL_WORDS, bytearray(len(a.text)))  # "到9月为止一共卖了多少"
    if not (a.cues.cumulative or until) or a.grain or a.trend or a.time_col is None:
        return None
    named = periods(a.time_filters)
    if not named or (not a.cues.cumulative and len(named) < 2):
        return None
    end = min(p.end for p in named)
    ranges = [p for p in named if p.grain == "range"]
    start = ranges[0].start if ranges else dt.date((end - dt.timedelta(days=1)).year, 1, 1)
    return Period(start, end, "range") if start < end else None


def detect(b: MetricBuilder) -> bool:
    return span(b.a) is not None


def build(b: MetricBuilder) -> None:
    period, column = span(b.a), b.a.time_col
    assert period is not None and column is not None  # noqa: S101 - detect() checked it
    b.time_consumed = True
    b.plan.filters += [Filter(**spec) for spec in period.filters(column)]
    last = period.end - dt.timedelta(days=1)
    start, end = period.start.isoformat(), last.isoformat()
    if column.period == "month":  # a column of months written as text: said as it writes them (2025-01)
        start, end = period.start.strftime("%Y-%m"), last.strftime("%Y-%m")
    with speaking(b.a.lang):
        label = _("%(column)s from %(start)s to %(end)s") % {"column": column.name, "start": start, "end": end}
    b.plan.filter_labels.append(label)
    b.a.cues.cumulative = False  # one total: no running-total window
    b.aggregate_all()
    for metric in b.plan.metrics:
        renamed = b.unique(f"累计{metric.name}" if b.zh else f"cumulative_{metric.name}")
        b.names.discard(metric.name)
        metric.name = renamed


KIND = Kind("to_date", detect, build)
