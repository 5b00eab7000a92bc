"""A ranking that counting rows cannot decide: "which city has the most density" over a table with one row
per city counts 1 for every city, so any "winner" would be arbitrary. Asked back with the measures the data
has ("Which city has the highest density?"), never answered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification
from apps.agent.offline.followups import measure_phrase
from apps.agent.offline.plan import Plan
from apps.agent.offline.wording import speaking

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer

ONE_ROW_EACH = 0.9  # distinct values per row above which each group is (almost) a single row
MAX_CHOICES = 3


def counts_single_rows(a: Analyzer, plan: Plan) -> bool:
    """A ranking of groups by their row counts where (nearly) every group is one row."""
    if plan.kind != "ranking" or not plan.dims or [m.func for m in plan.metrics] != ["count"]:
        return False
    rows = max(a.schema.row_count, 1)
    return all(a.schema.by_name[g.column].distinct >= ONE_ROW_EACH * rows for g in plan.dims)


def ask_about_ranking(a: Analyzer, plan: Plan) -> Clarification | None:
    if not counts_single_rows(a, plan):
        return None
    group = plan.dims[0].column
    measures = a.schema.of("measure")[:MAX_CHOICES]
    with speaking(a.lang):
        choices = [
            _("Which %(group)s has the highest %(measure)s?") % {"group": group, "measure": measure_phrase(m)}
            for m in measures
        ]
        question = _(
            "Each %(group)s appears in about one row, so counting rows cannot rank them. Which column should rank them?"
        ) % {"group": group}
    return Clarification(question, choices) if choices else Clarification(question, [])


def ask_about_single_row(a: Analyzer, plan: Plan) -> Clarification | None:
    """ "how many grandmasters does bulgaria have listed" over a table with one row per country: counting the
    rows of Bulgaria gives 1 whatever was asked; the number sought is in one of that row's columns."""
    if plan.kind != "scalar" or not plan.metrics or any(m.func not in ("count", "nunique") for m in plan.metrics):
        return None
    rows = max(a.schema.row_count, 1)
    single = [
        f
        for f in plan.filters
        if f.op == "="
        and isinstance(f.value, str)
        and f.column in a.schema.by_name
        and a.schema.by_name[f.column].distinct >= ONE_ROW_EACH * rows
    ]
    value = str(single[0].value) if single else ""
    if not value or any(ch.isdigit() for ch in value):
        return None
    column = single[0].column
    others = [v for v in a.schema.views if v.name != column and not any(ch.isdigit() for ch in v.name)]
    measures = ([v for v in others if v.category == "measure"] or others)[:MAX_CHOICES]
    with speaking(a.lang):
        question = _(
            "“%(value)s” is a single row, so counting its rows says nothing. Which of its columns holds the "
            "number you mean?"
        ) % {"value": value}
        choices = [_("What is the %(column)s of %(value)s?") % {"column": m.name, "value": value} for m in measures]
    return Clarification(question, choices)
