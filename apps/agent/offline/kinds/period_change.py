"""A change between two periods: "2025年退货金额同比增长了多少" (2025 against 2024), "7月销售额的环比增长率"
(July against June), "2025年12月环比11月", "Q3 revenue year over year". Both periods are aggregated in one
query (conditional aggregations), and the change and growth rate are derived from them, so every number the
answer quotes comes from the query. A series over time with 同比 per point is a trend, not this kind."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline import lexicon as lx
from apps.agent.offline.cues import find_words
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.leftovers import leftover_words
from apps.agent.offline.plan import Metric, Shown
from apps.agent.offline.timewords import Period, periods
from apps.datasets.query.spec import Derived, Filter

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer
    from apps.agent.offline.metrics import MetricBuilder

_BARE_MONTH = re.compile(r"(?<![\d年])(\d{1,2})\s*月(?:份)?")


def _words(a: Analyzer, words: tuple[str, ...]) -> list[tuple[int, int, str]]:
    return find_words(a.text, words, bytearray(len(a.text)))


def compared(a: Analyzer) -> tuple[Period, Period, str] | None:
    """(this period, the one it is compared with, "yoy" or "mom") when the question asks for that change."""
    if a.time_col is None or a.grain or not (a.cues.change or _words(a, lx.YOY_WORDS)):
        return None
    named = periods(a.named_periods)
    if not named:
        return None
    yoy, mom = _words(a, lx.YOY_WORDS), _words(a, lx.MOM_WORDS)
    way = "yoy" if yoy and not mom else "mom"
    current = named[0]
    if len(named) >= 2:  # "2025年3月和2024年3月相比": the first period against the second
        return current, named[1], "yoy" if current.shifted(-12) == named[1] else way
    if mom:  # "12月环比11月": a bare month after the change word is the one compared with
        after = _BARE_MONTH.search(a.text, mom[0][1])
        if after and current.grain == "month" and 1 <= int(after.group(1)) <= 12:
            month = int(after.group(1))
            year = current.start.year if month < current.start.month else current.start.year - 1
            return current, Period.month(year, month), "mom"
        return current, current.before(), "mom"
    if yoy:
        return current, current.shifted(-12), "yoy"
    return None


def detect(b: MetricBuilder) -> bool:
    if compared(b.a) is None or b.a.cues.cumulative:
        return False
    # "the difference between the qualfying time in 1967 and 1965": with no measure read, rows would be counted
    # in each year; unless a count is asked, a word no column matches is what was meant, so nothing is guessed
    return bool(b.measures) or b.a.cues.counting or not leftover_words(b.a.text, b.a.taken, b.a.question)


def build(b: MetricBuilder) -> None:
    found = compared(b.a)
    assert found is not None and b.a.time_col is not None  # noqa: S101 - detect() checked it
    now, then, way = found
    if then.start > now.start:  # "the difference between 2019 and 2020": the later one against the earlier
        now, then = then, now
    b.time_consumed = True
    column = b.a.time_col
    base = b.measures[0] if b.measures else None
    func = b.func_for(base) if base else "count"
    if func in ("max", "min"):
        func = "sum"
    what = b.agg_name(func, base.column) if base else b.count_name()
    b.names.discard(what)
    metrics = []
    for period in (now, then):
        name = b.unique(f"{period.label()}{what}" if b.zh else f"{what}_{period.label()}")
        where = [Filter(**spec) for spec in period.filters(column)]
        metrics.append(b.add(Metric(name, func, base.column if base else None, where=where), 0))
    cur, prev = metrics[0].name, metrics[1].name
    rate_word = {"yoy": ("同比增长率", "year-on-year growth"), "mom": ("环比增长率", "growth on the period before")}[
        way
    ]
    rate = b.unique(rate_word[0] if b.zh else rate_word[1])
    change = b.unique("变化量" if b.zh else "change")
    b.plan.derived += [
        Derived(name=rate, expr=f"([{cur}] - [{prev}]) / nullif([{prev}], 0)"),
        Derived(name=change, expr=f"[{cur}] - [{prev}]"),
    ]
    if b.a.cues.change == "diff" and not _words(b.a, lx.YOY_WORDS + lx.MOM_WORDS):  # a difference, not a growth
        b.plan.shown = [Shown(change), Shown(cur), Shown(prev)]
    else:
        b.plan.shown = [Shown(rate, "pct"), Shown(cur), Shown(prev), Shown(change)]


KIND = Kind("period_change", detect, build)
