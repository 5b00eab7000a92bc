"""The last touches of a plan: filters with the words the question used, time windows, ranking and order."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification
from apps.agent.offline import lexicon as lx
from apps.agent.offline import lookup
from apps.agent.offline.cues import ONE_ROW_EACH, find_words, threshold_label
from apps.agent.offline.plan import Lang, Metric, Plan, Shown, filter_label
from apps.agent.offline.schema_terms import ColumnView, Term, listed_in_cells
from apps.agent.offline.wording import names, speaking
from apps.datasets.query.spec import Filter, Sort, Window

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder


def _label(b: MetricBuilder, column: str, op: str, value: Any) -> str:
    return filter_label(column, op, value, b.a.lang)


def _exclude(b: MetricBuilder, column: str, terms: list[Term]) -> None:
    """ "not debut" keeps the rows with no Notes at all (a blank is not Debut); "a certification other than gold"
    names the column, so a row must have one."""
    plan, a = b.plan, b.a
    for term in terms:
        plan.filters.append(Filter(column=column, op="!=", value=term.value))
        plan.filter_labels.append(_label(b, column, "!=", term.value))
    named = any(t.kind == "column" and t.column == column for t in a.terms)
    if named and a.schema.by_name[column].null_ratio > 0:
        plan.filters.append(Filter(column=column, op="is_null", value=False))
        with speaking(a.lang):
            plan.filter_labels.append(_("%(column)s is not blank") % {"column": column})


def add_filters(b: MetricBuilder) -> None:
    plan, a = b.plan, b.a
    for f in [] if b.time_consumed else a.time_filters:
        plan.filters.append(Filter(**f.spec))
        said = a.question[f.start : f.end].strip()
        period = said if f.label == a.text[f.start : f.end].strip() else f.label
        column = f.spec["column"]
        if f.spec.get("op") == "!=":  # "excluding 2022"
            plan.filter_labels.append(f"{column} ≠ {period}")
            continue
        if b.zh:
            # "下单日期从2024年开始", "下单日期在2024年以后"
            said_from = "从" if period.endswith(("开始", "起")) and not period.startswith(("从", "自")) else "在"
            plan.filter_labels.append(f"{column}{said_from}{period}")
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
            _exclude(b, column, terms)
            continue
        if _either_of_listed(b, a.schema.by_name[column], terms):
            continue
        for spec in _value_filters(a.text, a.schema.by_name[column], terms):
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
        plan.filter_labels.append(threshold_label(t.column, t, a.lang))
    plan.filter_labels = list(dict.fromkeys(plan.filter_labels))  # "in the 80,000 range": both ends said once


# Cells that stand for "no value" in tables typed by hand: never the answer to "which … the most".
PLACEHOLDERS = frozenset({"n/a", "na", "n.a.", "-", "--", "—", "–", "?", "tbd", "tba"})


def _either_of_listed(b: MetricBuilder, view: ColumnView, terms: list[Term]) -> bool:
    """ "events held in canada or mexico" where cells list places ("Calgary, Canada"): rows holding one name or
    the other cannot be kept by the filters there are (each is one condition, all of them must hold). Asked
    back, one name at a time, instead of keeping only the cells equal to a name."""
    if len(terms) < 2 or _all_of(b.a.text, terms) or not any(listed_in_cells(view, t.value) for t in terms):
        return False
    question = b.a.question
    start, end = terms[0].start, terms[-1].end
    with speaking(b.a.lang):
        asked = _(
            "%(values)s also stand inside cells that list several names, and I can keep the rows holding one "
            "of them, or all of them, but not either. Which do you mean?"
        ) % {"values": names([f"“{t.value}”" for t in terms])}
    choices = [question[:start] + str(t.value) + question[end:] for t in terms]
    b.plan.clarification = Clarification(asked, list(dict.fromkeys(choices)))
    return True


def _value_filters(text: str, view: ColumnView, terms: list[Term]) -> list[Filter]:
    """The filters the values named of one column make: equal to one, or one of several; contains when cells
    list the value among others ("Allegany, Garrett"), each of them when the question names several together
    ("had their sailors as robert scheidt and bruno prada": a cell listing both)."""
    if len(terms) == 1:
        op = "contains" if listed_in_cells(view, terms[0].value) else "="
        return [Filter(column=view.name, op=op, value=terms[0].value)]
    if _all_of(text, terms) and all(listed_in_cells(view, t.value) for t in terms):
        return [Filter(column=view.name, op="contains", value=t.value) for t in terms]
    return [Filter(column=view.name, op="in", value=[t.value for t in terms])]


_AND = re.compile(r"^\s*(?:,?\s*and|&|,|和|与|及|、|以及)\s*$")


def _all_of(text: str, terms: list[Term]) -> bool:
    """ "A and B", "A、B和C": the values are named together, each joined to the next by "and" or a comma."""
    return all(_AND.match(text[left.end : right.start]) for left, right in zip(terms, terms[1:], strict=False))


def leave_out_summary_rows(b: MetricBuilder) -> None:
    """A "Total" row would count everything twice (and top every ranking): it is left out, and said so."""
    plan, a = b.plan, b.a
    for view in a.schema.views:
        if view.total_label is not None and not any(f.column == view.name for f in plan.filters):
            plan.filters.append(Filter(column=view.name, op="!=", value=view.total_label))
            with speaking(a.lang):
                said = {"column": view.name, "value": view.total_label}
                plan.filter_labels.append(_("without the summary row (%(column)s = %(value)s)") % said)


def ask_same_period(lang: Lang) -> Clarification:
    """同比 of each month or quarter needs the same period a year earlier, which a change between consecutive rows
    is not: the year-on-year change of one period, or of each year, is offered instead."""
    with speaking(lang):
        question = _(
            "A year-on-year change of every month needs each month set against the same month a year earlier, "
            "which I cannot line up in one series. Ask for one period (such as a month against the same month "
            "last year), or for the change of each year."
        )
    return Clarification(question, [])


# "平均每月收入", "average monthly revenue": the average of each period's total, not the rows' average per period
_AVERAGE_PER_PERIOD = re.compile(
    r"平均每个?(?:月|天|日|年|周|季度)|每个?(?:月|天|日|年|周|季度)平均"
    r"|average (?:monthly|daily|yearly|annual|weekly|quarterly)"
    r"|average [a-z ]{1,30}? (?:per|a|each) (?:month|day|year|week|quarter)"
)


def ask_average_of_totals(lang: Lang) -> Clarification:
    with speaking(lang):
        question = _(
            "An average per period needs each period's total first and then their average, which I cannot compute "
            "in one step. Ask for each period's total, or for the average of the rows."
        )
    return Clarification(question, [])


def averages_per_period(b: MetricBuilder) -> bool:
    """ "平均每月收入" grouped by month: the rows' average in each month would be shown, which is not the average of
    the months' totals the words ask for (an average per period of a measure people add up)."""
    plan, views = b.plan, b.a.schema.by_name
    in_time = plan.time_group or any(views[g.column].period or views[g.column].category == "time" for g in plan.groups)
    additive = [m for m in plan.metrics if m.func == "avg" and m.column and not views[m.column].averaged]
    return bool(in_time and additive and _AVERAGE_PER_PERIOD.search(b.a.text))


def add_windows(b: MetricBuilder) -> None:
    plan, cues = b.plan, b.a.cues
    if not plan.time_group or not plan.shown:
        return
    primary = plan.shown[0].name
    dims = [g.name for g in plan.dims]
    if cues.change:
        same_period = "同比" in b.a.text
        timed = next((g for g in plan.groups if g.name == plan.time_group), None)
        view = b.a.schema.by_name.get(timed.column) if timed is not None else None
        grain = timed.grain if timed is not None and timed.grain else (view.period if view is not None else None)
        if same_period and grain not in (None, "year"):  # "每个月的同比": a month against the one before is no 同比
            plan.clarification = ask_same_period(b.a.lang)
            return
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


# kinds whose rows are ordered and cut by what they compute, not by the ranking
_OWN_ORDER = ("tied_extreme", "named_choice", "group_average")


def add_order(b: MetricBuilder) -> None:
    plan, cues = b.plan, b.a.cues
    if plan.row_columns or not plan.shown or plan.question_kind in _OWN_ORDER:
        return
    primary = plan.shown[0].name
    if cues.ranking and plan.groups:
        for g in plan.dims:  # "哪种退货原因最多": among the rows that have one (a blank is not an answer)
            view = b.a.schema.by_name.get(g.column)
            if view is None or any(f.column == g.column for f in plan.filters):
                continue
            if view.null_ratio > 0:
                plan.filters.append(Filter(column=g.column, op="is_null", value=False))
                with speaking(b.a.lang):
                    plan.filter_labels.append(_("%(column)s is not blank") % {"column": g.column})
            for placeholder in [v for v in view.values if v.strip().lower() in PLACEHOLDERS]:
                plan.filters.append(Filter(column=g.column, op="!=", value=placeholder))  # "N/A" names no one
                plan.filter_labels.append(_label(b, g.column, "!=", placeholder))
        n = cues.top_n or (None if cues.plural else 1)
        plan.ascending = cues.ascending
        # "the best team of each season" per period; "which team … in a single season": every team's season at once
        alone = b.a.one_period or b.a.period_asked
        per_period = [plan.time_group] if plan.time_group and plan.dims and not alone else []
        if per_period or n == 1:  # the best of each period; "which X has the most": all tied at the top
            rank = b.unique("名次" if b.zh else "rank")
            plan.windows.append(
                Window(name=rank, func="rank", of=primary, partition_by=per_period, desc=not cues.ascending)
            )
            plan.having.append(Filter(column=rank, op="<=", value=n or 1))
            if per_period:
                plan.sort = [Sort(by=plan.time_group), Sort(by=rank)]
            else:
                plan.sort = [Sort(by=primary, desc=not cues.ascending)] + [Sort(by=g.name) for g in plan.dims]
                plan.single_best = True
        else:
            plan.sort = [Sort(by=primary, desc=not cues.ascending)]
            plan.limit = n
            # "how many seats did the top two parties win combined": their total too, by a query of its own
            together = find_words(b.a.text, lx.COMBINED_WORDS, bytearray(len(b.a.text)))
            plan.combined_top = bool(together) and n is not None and n > 1 and len(plan.dims) == 1 and not per_period
            plan.combined_top = plan.combined_top or _average_of_the_top(b, plan, n)
            for start, end, _word in together if plan.combined_top else []:
                b.a.taken[start:end] = b"\x01" * (end - start)
        plan.kind = "ranking"
        return
    if plan.time_group:
        plan.sort = [Sort(by=plan.time_group)] + [Sort(by=g.name) for g in plan.dims]
    elif plan.groups:
        plan.sort = [Sort(by=primary, desc=True)]


_WHAT_VALUE = re.compile(r"^\s*(?:what|how much|how many)(?![a-z])")


def _average_of_the_top(b: MetricBuilder, plan: Plan, n: int | None) -> bool:
    """ "what is the average number of gold medals won by the top four nations": one average over the top N rows
    (each nation one row), not each nation's average of its one row."""
    if n is None or n < 2 or len(plan.dims) != 1 or not _WHAT_VALUE.match(b.a.text):
        return False
    metric = next((m for m in plan.metrics if plan.shown and m.name == plan.shown[0].name), None)
    view = b.a.schema.by_name[plan.dims[0].column]
    present = b.a.schema.row_count * (1 - view.null_ratio)
    return metric is not None and metric.func == "avg" and view.distinct >= ONE_ROW_EACH * present > 0


def _kind(plan: Plan) -> None:
    if plan.kind == "lookup":  # lookup.py: the cells asked for, listed with the columns that explain them
        return
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


def _format(b: MetricBuilder, metric: Metric) -> str | None:
    """ "year" for the earliest or latest of a column of years (1850, never 1,850); None: a plain number."""
    view = b.a.schema.by_name.get(metric.column or "")
    return "year" if view is not None and view.years and metric.func in ("min", "max") else None


def count_alone(b: MetricBuilder) -> None:
    """ "how many singles did celine dion sing" over cells that list her alone and with others ("Barbra Streisand
    & Céline Dion"): the count keeps every row holding her (contains), and says how many of them hold her alone,
    counted by the same query, so either reading is answered."""
    plan = b.plan
    held = [f for f in plan.filters if f.op == "contains" and isinstance(f.value, str)]
    counts = plan.metrics and all(m.func in ("count", "nunique") and not m.where for m in plan.metrics)
    if not counts or plan.groups or len(held) != 1:
        return
    view, said = b.a.schema.by_name.get(held[0].column), str(held[0].value).strip().casefold()
    alone = [v for v in view.values if v.strip().casefold() == said] if view else []
    if not alone:
        return  # "November" of a date kept as text is no cell of its own
    with speaking(b.a.lang):
        name = b.unique(_("%(measure)s, %(value)s alone") % {"measure": plan.metrics[0].name, "value": alone[0]})
    counted = plan.metrics[0]
    where = [Filter(column=held[0].column, op="=", value=alone[0])]
    plan.metrics.append(Metric(name, counted.func, counted.column, where=where))
    plan.shown.append(Shown(name))


_NOMINATED = frozenset(("nominated", "nominee", "nomination"))
_WON = frozenset(("won", "win", "winner", "winners"))


def count_nominations(b: MetricBuilder) -> None:
    """ "how many times was she nominated for best female artist" over an awards table whose Result is Won or
    Nominated: a win was a nomination too, so the count is every nomination, and how many of them were won and
    how many only nominated is said beside it, counted by the same query: either reading is answered."""
    plan = b.plan
    counts = plan.metrics and all(m.func == "count" and not m.where for m in plan.metrics)
    said = [f for f in plan.filters if f.op == "=" and isinstance(f.value, str) and f.value.casefold() in _NOMINATED]
    if not counts or plan.groups or len(said) != 1:
        return
    view = b.a.schema.by_name.get(said[0].column)
    won = [v for v in view.values if v.strip().casefold() in _WON] if view else []
    if not won:
        return
    nominated, column = said[0].value, said[0].column
    plan.filters.remove(said[0])
    label = _label(b, column, "=", nominated)
    plan.filter_labels = [x for x in plan.filter_labels if x != label]
    with speaking(b.a.lang):
        plan.metrics[0] = Metric(b.unique(_("nominations, won or not")), "count")
        plan.shown = [Shown(plan.metrics[0].name)]
        for value in (won[0], nominated):
            name = b.unique(_("%(column)s %(value)s") % {"column": column, "value": value})
            plan.metrics.append(Metric(name, "count", where=[Filter(column=column, op="=", value=value)]))
            plan.shown.append(Shown(name))


def finish_plan(b: MetricBuilder) -> None:
    plan = b.plan
    if not plan.shown:
        plan.shown = [Shown(m.name, _format(b, m)) for m in plan.metrics]
    add_filters(b)
    leave_out_summary_rows(b)
    plan.filter_labels = list(dict.fromkeys(plan.filter_labels))
    if averages_per_period(b) and plan.clarification is None:
        plan.clarification = ask_average_of_totals(b.a.lang)
        return
    count_alone(b)
    count_nominations(b)
    add_windows(b)
    add_order(b)
    _kind(plan)
    if plan.kind == "lookup":
        lookup.add_context(plan, b.a.schema)
    plan.chart = b.a.cues.chart
    plan.unmapped = plan.unmapped or []
