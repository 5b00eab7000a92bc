"""What a trend answer says beyond its rows: where it starts and ends, its peak and trough, and the overall
change. The start, end, peak and trough are cells of the trend's own result (chosen by reading it, never
computed); the overall change and its rate come from a second query that puts the first and last periods
side by side, so every number the answer quotes is grounded in a query."""

from __future__ import annotations

from typing import Any

from apps.agent.offline.plan import Metric, Plan
from apps.datasets.query.spec import Derived, Filter, QuerySpec

MIN_POINTS = 3
_GRAINS = ("month", "quarter", "year")


def _primary(plan: Plan) -> Metric | None:
    """The trend's measure when it is a plain aggregation (a rate or a window has no simple overall change)."""
    if not plan.shown:
        return None
    return next((m for m in plan.metrics if m.name == plan.shown[0].name and not m.where), None)


def summarised(plan: Plan, columns: list[str], rows: list[list[Any]], row_count: int) -> bool:
    """Whether the trend's result gets a summary: one series, every row visible, at least MIN_POINTS of them."""
    if plan.kind != "trend" or plan.dims or plan.time_group is None or _primary(plan) is None:
        return False
    group = next(g for g in plan.groups if g.name == plan.time_group)
    if group.grain is not None and group.grain not in _GRAINS:
        return False
    return MIN_POINTS <= len(rows) == row_count and plan.time_group in columns


def change_spec(plan: Plan, columns: list[str], rows: list[list[Any]], names: tuple[str, str, str, str]) -> dict:
    """The query for the overall change: the measure in the first and in the last period, their difference and
    its rate. `names`: (first period's value, last period's value, change, rate)."""
    metric = _primary(plan)
    assert metric is not None and plan.time_group is not None  # noqa: S101 - summarised() checked both
    group = next(g for g in plan.groups if g.name == plan.time_group)
    at = columns.index(plan.time_group)
    first, last, change, rate = names
    aggregations = []
    for name, label in ((first, rows[0][at]), (last, rows[-1][at])):
        where = [Filter(column=group.column, op="=", value=label, grain=group.grain)]
        aggregations.append(Metric(name, metric.func, metric.column, metric.column2, metric.q, where).aggregation())
    spec = QuerySpec(
        filters=plan.filters,
        aggregations=aggregations,
        derived=[
            Derived(name=change, expr=f"[{last}] - [{first}]"),
            Derived(name=rate, expr=f"([{last}] - [{first}]) / nullif([{first}], 0)"),
        ],
    )
    return spec.model_dump(mode="json", exclude_unset=True, exclude_none=True)


def extremes(rows: list[list[Any]], column: int) -> tuple[int, int] | None:
    """The rows holding the highest and the lowest value of a column (read, not computed), or None."""
    numbers = [(r[column], i) for i, r in enumerate(rows) if isinstance(r[column], int | float)]
    numbers = [(value, i) for value, i in numbers if not isinstance(value, bool)]
    if len(numbers) < MIN_POINTS:
        return None
    return max(numbers)[1], min(numbers)[1]
