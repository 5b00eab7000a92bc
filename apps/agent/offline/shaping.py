"""The last touches of a plan: filters with the words the question used, time windows, ranking and order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from apps.agent.offline.plan import Plan, Shown, filter_label
from apps.agent.offline.wording import speaking
from apps.datasets.queryspec import Filter, Sort, Window

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def _label(b: MetricBuilder, column: str, op: str, value: Any) -> str:
    return filter_label(column, op, value, b.a.lang)


def add_filters(b: MetricBuilder) -> None:
    plan, a = b.plan, b.a
    for f in [] if b.time_consumed else a.time_filters:
        plan.filters.append(Filter(**f.spec))
        said = a.question[f.start : f.end].strip()
        period = said if f.label == a.text[f.start : f.end].strip() else f.label
        column = f.spec["column"]
        if b.zh:
            plan.filter_labels.append(f"{column}在{period}")
        else:
            period = period.replace("、", ", ")
            joined = period.lower().startswith(
                ("since", "from", "after", "before", "in ", "last", "past", "between", "through", "the ")
            )
            plan.filter_labels.append(f"{column} {period}" if joined else f"{column} in {period}")
    for column, terms in b.values.items():
        if terms[0].start in b.used:
            continue
        if a.excluded(terms[0]):
            for term in terms:
                plan.filters.append(Filter(column=column, op="!=", value=term.value))
                plan.filter_labels.append(_label(b, column, "!=", term.value))
            continue
        if len(terms) == 1:
            spec = Filter(column=column, op="=", value=terms[0].value)
        else:
            spec = Filter(column=column, op="in", value=[t.value for t in terms])
        plan.filters.append(spec)
        plan.filter_labels.append(_label(b, column, spec.op, spec.value))
    for term in b.flags:
        if term.start in b.used or any(f.column == term.column for f in plan.filters):
            continue
        spec = b.flag_spec(term)
        plan.filters.append(spec)
        plan.filter_labels.append(_label(b, term.column, spec.op, spec.value))
    for t in a.cues.thresholds:
        plan.filters.append(Filter(column=t.column, op=t.op, value=t.value))
        plan.filter_labels.append(f"{t.column} {t.op} {t.label}")


def leave_out_summary_rows(b: MetricBuilder) -> None:
    """A "Total" row would count everything twice (and top every ranking): it is left out, and said so."""
    plan, a = b.plan, b.a
    for view in a.schema.views:
        if view.total_label is not None and not any(f.column == view.name for f in plan.filters):
            plan.filters.append(Filter(column=view.name, op="!=", value=view.total_label))
            with speaking(a.lang):
                said = {"column": view.name, "value": view.total_label}
                plan.filter_labels.append(_("without the summary row (%(column)s = %(value)s)") % said)


def add_windows(b: MetricBuilder) -> None:
    plan, cues = b.plan, b.a.cues
    if not plan.time_group or not plan.shown:
        return
    primary = plan.shown[0].name
    dims = [g.name for g in plan.dims]
    if cues.change:
        same_period = "同比" in b.a.text
        zh_name = "同比" if same_period else ("环比" if cues.change == "pct_change" else "变化量")
        name = b.unique(zh_name if b.zh else ("pct_change" if cues.change == "pct_change" else "change"))
        plan.windows.append(
            Window(name=name, func=cues.change, of=primary, order_by=plan.time_group, partition_by=dims)
        )
        plan.shown.insert(1, Shown(name, "pct" if cues.change == "pct_change" else None))
    if cues.cumulative:
        name = b.unique(f"累计{primary}" if b.zh else f"cumulative_{primary}")
        plan.windows.append(Window(name=name, func="cumsum", of=primary, order_by=plan.time_group, partition_by=dims))
        plan.shown.insert(1, Shown(name))


def add_order(b: MetricBuilder) -> None:
    plan, cues = b.plan, b.a.cues
    if plan.row_columns or not plan.shown:
        return
    primary = plan.shown[0].name
    if cues.ranking and plan.groups:
        for g in plan.dims:  # "哪种退货原因最多": among the rows that have one (a blank is not an answer)
            view = b.a.schema.by_name.get(g.column)
            if view is not None and view.null_ratio > 0 and all(f.column != g.column for f in plan.filters):
                plan.filters.append(Filter(column=g.column, op="is_null", value=False))
                with speaking(b.a.lang):
                    plan.filter_labels.append(_("%(column)s is not blank") % {"column": g.column})
        n = cues.top_n or (None if cues.plural else 1)
        plan.ascending = cues.ascending
        if plan.time_group and plan.dims:
            rank = b.unique("名次" if b.zh else "rank")
            plan.windows.append(
                Window(name=rank, func="rank", of=primary, partition_by=[plan.time_group], desc=not cues.ascending)
            )
            plan.having.append(Filter(column=rank, op="<=", value=n or 1))
            plan.sort = [Sort(by=plan.time_group), Sort(by=rank)]
        else:
            plan.sort = [Sort(by=primary, desc=not cues.ascending)]
            plan.limit = n
        plan.kind = "ranking"
        return
    if plan.time_group:
        plan.sort = [Sort(by=plan.time_group)] + [Sort(by=g.name) for g in plan.dims]
    elif plan.groups:
        plan.sort = [Sort(by=primary, desc=True)]


def _kind(plan: Plan) -> None:
    if plan.row_columns:
        plan.kind = "rows"
    elif plan.kind == "ranking":
        return
    elif plan.time_group:
        plan.kind = "trend"
    elif plan.groups:
        plan.kind = "grouped"
    else:
        plan.kind = "scalar"


def finish_plan(b: MetricBuilder) -> None:
    plan = b.plan
    if not plan.shown:
        plan.shown = [Shown(m.name, None) for m in plan.metrics]
    add_filters(b)
    leave_out_summary_rows(b)
    plan.filter_labels = list(dict.fromkeys(plan.filter_labels))
    add_windows(b)
    add_order(b)
    _kind(plan)
    plan.chart = b.a.cues.chart
    plan.unmapped = plan.unmapped or []
