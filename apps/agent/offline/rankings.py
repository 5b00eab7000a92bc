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
