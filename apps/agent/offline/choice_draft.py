"""The answer to a choice between named values (kinds/named_choice.py): every value's figure, then the one asked
for, or that they tie; a named value with nothing to compare is said, and then no one is named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.agent.offline.wording import names

if TYPE_CHECKING:
    from apps.agent.offline.drafts import Writer


@dataclass(frozen=True)
class _Figure:
    label: str  # the value as the answer names it
    measure: str  # what is compared ("count", "total Goals")
    said: str  # "count {{q1.count[0]}}"
    cell: Any  # the number, to tell the order and ties


def _way(writer: Writer) -> str:
    """ "high", "low", "early" or "late": what the plan's order and its metric (a date's edge or not) say."""
    plan = writer.plan
    primary = plan.shown[0].name if plan.shown else ""
    metric = next((m for m in plan.metrics if m.name == primary), None)
    if metric is None:
        return "low" if plan.ascending else "high"
    view = writer.schema.by_name.get(metric.column or "")
    if view is not None and (view.category in ("time", "year") or view.years) and metric.func in ("min", "max"):
        return "early" if plan.ascending else "late"
    return "low" if plan.ascending else "high"


def _grouped(writer: Writer, key: str) -> tuple[list[_Figure], list[str]]:
    """One row per value (already in the order asked), and the values named that no row holds."""
    result, measure = writer.result, writer.plan.shown[0].name
    figures = [
        _Figure(writer.label(i, key), measure, writer.row_values(i), result.cell(i, measure))
        for i in range(len(result.rows))
    ]
    named = next((f.value for f in writer.plan.filters if f.column == key and f.op == "in"), [])
    held = {result.cell(i, key) for i in range(len(result.rows))}
    return figures, [str(v) for v in (named if isinstance(named, list) else []) if v not in held]


def _one_row(writer: Writer) -> list[_Figure]:
    """One metric per value over the cells that list it (kinds/named_choice._each_value), put in the order asked."""
    figures = []
    for shown in writer.plan.shown:
        metric = next(m for m in writer.plan.metrics if m.name == shown.name)
        value = str(metric.where[-1].value)
        what = shown.name.removeprefix(value) if writer.plan.lang == "zh" else shown.name.removesuffix(f"_{value}")
        cell = writer.result.cell(0, shown.name)
        figures.append(_Figure(value, what, f"{what} {writer.value(0, shown.name, shown.fmt)}", cell))
    known = sorted((f for f in figures if f.cell is not None), key=lambda f: f.cell, reverse=not writer.plan.ascending)
    return known + [f for f in figures if f.cell is None]


def choice_lines(writer: Writer) -> list[str]:
    plan = writer.plan
    if not writer.result.rows:
        return [_("No rows match these conditions, so there is no value to report.")]
    figures, missing = _grouped(writer, plan.groups[0].name) if plan.groups else (_one_row(writer), [])
    separator = pgettext("separator between rows compared in an answer", "; ")
    values = separator.join(_("%(labels)s: %(values)s") % {"labels": f.label, "values": f.said} for f in figures)
    blank = [f.label for f in figures if f.cell is None]
    said = {"values": values, "measure": figures[0].measure, "said": figures[0].said, "winner": figures[0].label}
    if missing or blank:  # a value with nothing to compare: no winner is named
        said["missing"] = names(missing + blank)
        return [_("%(missing)s has no %(measure)s in the rows that match (%(values)s).") % said]
    tied = [f.label for f in figures if f.cell == figures[0].cell]
    said["labels"] = names(tied)
    if len(tied) == len(figures):
        return [_("%(labels)s are level: each has %(said)s.") % said]
    if len(tied) > 1:
        return [_("%(labels)s tie with %(said)s each (%(values)s).") % said]
    messages = {
        "high": _("%(winner)s has the higher %(measure)s (%(values)s)."),
        "low": _("%(winner)s has the lower %(measure)s (%(values)s)."),
        "early": _("%(winner)s is the earlier (%(values)s)."),
        "late": _("%(winner)s is the more recent (%(values)s)."),
    }
    return [messages[_way(writer)] % said]
