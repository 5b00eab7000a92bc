"""The honest answer to a question that needs an analysis the tools cannot do (a statistical test, outlier
rules, a model or forecast, the table's row order, causes and advice): it names what the question needed,
computes nothing, and offers the nearest question the planner can answer itself."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.agent.offline.followups import (
    MAX_FOLLOW_UPS,
    average_phrase,
    by_group_question,
    follow_ups,
    measure_phrase,
    no_digits,
    records_question,
    trend_question,
)
from apps.agent.offline.plan import Lang, Plan
from apps.agent.offline.schema_terms import ColumnView, Schema, find_terms, fold
from apps.agent.offline.wording import speaking

# What each family needs, said to the user. No digits: a refusal quotes no numbers.
_NEEDS: dict[str, Promise] = {
    "stat_test": gettext_lazy("a statistical test (such as a t-test, a p-value, normality, chi-square or ANOVA)"),
    "outliers": gettext_lazy("outlier detection by a rule (such as the IQR rule or the three-sigma rule)"),
    "model": gettext_lazy(
        "a forecast or a machine-learning model (prediction, clustering, regression, classification)"
    ),
    "row_order": gettext_lazy(
        "reading the order of the rows in a way I cannot (an uploaded file's first or last row, a row by its "
        "number and the row right before or after one named row are read; a database table keeps no order)"
    ),
    "explain": gettext_lazy("explaining causes, giving advice or simulating scenarios"),
    "streak": gettext_lazy("counting runs of consecutive rows (streaks), which depend on the order of the rows"),
    "column_compare": gettext_lazy(
        "comparing or combining two columns within each row (such as “stock below its reorder level” or “stock "
        "times unit cost”)"
    ),
    "row_compare": gettext_lazy(
        "comparing rows with the value of one named row (such as “more than X” or “the same as X”)"
    ),
    "change": gettext_lazy(
        "each row's change up or down, and the data has no one column that holds it as numbers (such as “+/-” or "
        "“Change”)"
    ),
}
# How the nearest answerable question (the first suggestion) relates to what was asked.
_NEAREST: dict[str, Promise] = {
    "stat_test": gettext_lazy("I can compare the groups' averages or show the distribution"),
    "outliers": gettext_lazy(
        "I can show the distribution (minimum, quartiles, median and maximum), where extreme values show"
    ),
    "model": gettext_lazy("I can show the trend or a breakdown of the data so far"),
    "row_order": gettext_lazy("I can order the rows by a column such as a date or an id (the earliest date)"),
    "streak": gettext_lazy("I can count or list the matching rows"),
    "column_compare": gettext_lazy("I can show the two columns side by side, or compare their totals"),
    "row_compare": gettext_lazy("I can show the values side by side, ranked, for you to compare"),
    "change": gettext_lazy("I can show the values side by side, ranked, for you to compare"),
}


@dataclass
class _Picks:
    """The columns a suggestion is built from: those the question mentions first, else the schema's own."""

    measure: ColumnView | None
    dim: ColumnView | None
    time: ColumnView | None
    groups_named: bool  # the question names groups (a dimension, one of its values, a yes/no column)


def _picks(schema: Schema, question: str, refused: list[str]) -> _Picks:
    """`refused`: the question's words for the analysis, never read as a column (预测 is not 预测准确率)."""
    terms = [t for t in find_terms(question, schema) if question[t.start : t.end] not in refused]
    mentioned = [schema.by_name[t.column] for t in terms]
    usable = [v for v in [*mentioned, *schema.views] if no_digits(v.name)]
    measures = [v for v in usable if v.category == "measure"]
    asked = [v for v in measures if v in mentioned]
    summed = [v for v in measures if not v.averaged]
    measure = next(iter(asked or summed or measures), None)
    dim = next((v for v in usable if v.category == "dimension" and v.distinct <= 50), None)
    time = next((v for v in usable if v.category == "time"), None)
    return _Picks(measure, dim, time, any(v.category in ("dimension", "flag") for v in mentioned))


def _by_group(p: _Picks, average: bool) -> str | None:
    """ "各地区的平均金额是多少？": a measure by a group, else the records per group."""
    m, d = p.measure, p.dim
    if m is not None:
        phrase = average_phrase(m.name) if average else measure_phrase(m)
        if d is not None:
            return by_group_question(phrase, d.name)
        return _("What is the %(measure)s?") % {"measure": phrase}
    if d is not None:
        return records_question(d.name)
    return None


def nearest_question(family: str, schema: Schema, question: str, refused: list[str], lang: Lang) -> str | None:
    """The closest question to what was asked that the planner can answer itself, or None."""
    with speaking(lang):
        return _nearest(family, _picks(schema, question, refused))


def _nearest(family: str, p: _Picks) -> str | None:
    if family == "stat_test" and (p.groups_named or p.measure is None):  # groups compared: their averages
        return _by_group(p, average=True)
    if family in ("stat_test", "outliers") and p.measure is not None:  # one variable: its distribution
        return _("What is the distribution of %(measure)s?") % {"measure": p.measure.name}
    if family == "outliers":
        return _by_group(p, average=False)
    if family == "model":
        if p.time is not None and p.measure is not None:
            return trend_question(measure_phrase(p.measure))
        return _by_group(p, average=False)
    if family == "row_order" and p.time is not None:
        return _("What is the earliest %(column)s?") % {"column": p.time.name}
    return None


def refusal_draft(plan: Plan, schema: Schema, question: str) -> str:
    nearest = nearest_question(plan.unsupported, schema, question, plan.unmapped, plan.lang)
    with speaking(plan.lang):
        lines = [_refusal(plan), _intro(plan.unsupported if nearest else None)]
    suggested = [nearest] if nearest else []
    asked = fold(question).strip(" ?？。.")
    for extra in follow_ups(schema, None, plan.lang, question):
        if fold(extra).strip(" ?？。.") != asked and extra not in suggested:
            suggested.append(extra)
    return "\n".join(lines + [f">> {q}" for q in suggested[:MAX_FOLLOW_UPS]])


def _refusal(plan: Plan) -> str:
    need = _NEEDS.get(plan.unsupported, _NEEDS["explain"])
    said = next((w for w in plan.unmapped if no_digits(w)), "")
    if said:
        return _(
            "Sorry, “%(said)s” in this question needs %(need)s, and my tools only filter, group, aggregate and "
            "sort the data, so they cannot do it. I did not compute any numbers rather than give an unreliable "
            "answer."
        ) % {"said": said, "need": need}
    return _(
        "Sorry, this question needs %(need)s, and my tools only filter, group, aggregate and sort the data, so "
        "they cannot do it. I did not compute any numbers rather than give an unreliable answer."
    ) % {"need": need}


def _intro(family: str | None) -> str:
    """What to try instead: the first suggestion when it is the nearest question to the refused one."""
    how = _NEAREST.get(family) if family else None
    if how is None:
        return _("Try one of the suggested questions below.")
    return _("%(nearest)s: see the first suggested question below.") % {"nearest": how}
