"""Questions to start with, derived from a dataset's profile: its measures, dimensions and time columns.

Deterministic (no model call): the same profile always gives the same questions, in the user's language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.datasets.ingest.profile import ColumnProfile, TableProfile

MAX_SUGGESTIONS = 3
TOP = 5  # the ranking question asks for the top five


def _first(columns: list[ColumnProfile], role: str) -> ColumnProfile | None:
    return next((c for c in columns if c.role == role), None)


def _grouping(columns: list[ColumnProfile], more_than: int) -> ColumnProfile | None:
    """The dimension with the fewest values above `more_than`: the one a breakdown reads best by (a yes/no
    column is a poor breakdown; a top five needs more than five values)."""
    dimensions = [c for c in columns if c.role == "dimension" and c.distinct_count > more_than]
    return min(dimensions, key=lambda c: c.distinct_count, default=None)


def suggested_questions(profile: TableProfile) -> list[str]:
    columns = profile.columns
    measure, time = _first(columns, "measure"), _first(columns, "time")
    dimension = _grouping(columns, 2) or _grouping(columns, 1)
    ranked = _grouping(columns, TOP)
    names = {
        "measure": measure.name if measure else "",
        "dimension": dimension.name if dimension else "",
        "ranked": ranked.name if ranked else "",
        "time": time.name if time else "",
    }
    questions: list[str] = []
    if measure and dimension:
        questions.append(_("What is the total %(measure)s for each %(dimension)s?") % names)
    if measure and time:
        if time.kind in ("date", "datetime"):
            questions.append(_("How did the total %(measure)s change by month of %(time)s?") % names)
        else:
            questions.append(_("How did the total %(measure)s change by %(time)s?") % names)
    if measure and ranked:
        questions.append(_("Which 5 %(ranked)s have the highest %(measure)s?") % names)
    if not measure and dimension:
        questions.append(_("How many rows are there for each %(dimension)s?") % names)
    if measure and not dimension and not time:
        questions.append(_("What are the total and the average of %(measure)s?") % names)
    return questions[:MAX_SUGGESTIONS]
