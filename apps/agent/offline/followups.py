"""Suggested next questions, built from the schema so the planner can answer each of them itself,
and the plain answer for questions it cannot map."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from apps.agent.clarification import quotes_a_number
from apps.agent.offline.drafts import reference
from apps.agent.offline.lexicon import CONCEPTS
from apps.agent.offline.plan import Lang, Plan
from apps.agent.offline.schema_terms import ColumnView, Schema, flag_core, fold
from apps.agent.offline.wording import names, speaking

MAX_FOLLOW_UPS = 3
_CJK = re.compile(r"[\u4e00-\u9fff]")


def no_digits(text: str) -> bool:
    return not any(ch.isdigit() for ch in text)


_HEADLINE_CONCEPTS = ("revenue", "amount", "salary", "profit", "cost", "quantity", "session", "conversion", "stock")


@dataclass
class _Picks:
    measure: ColumnView | None
    dims: list[str]
    time: str | None
    flag: str | None
    flag_used: bool


def _headline_measure(schema: Schema, plan: Plan | None) -> ColumnView | None:
    """The measure to suggest: the one just asked about, else money or volume, else any summable one."""
    measures = [v for v in schema.of("measure") if no_digits(v.name)]
    asked = {m.column for m in plan.metrics if m.column} if plan else set()
    for view in measures:
        if view.name in asked:
            return view
    for concept in _HEADLINE_CONCEPTS:
        found = schema.concept_column(concept)
        if found is not None and found in measures:
            return found
    return next((v for v in measures if not v.averaged), measures[0] if measures else None)


def _picks(schema: Schema, plan: Plan | None) -> _Picks:
    used = {g.column for g in plan.groups} if plan else set()
    dims = [v.name for v in schema.of("dimension") if no_digits(v.name) and v.distinct <= 50]
    fresh = [d for d in dims if d not in used] or dims
    time = next((v.name for v in schema.of("time")), None)
    flag = next((v.name for v in schema.of("flag") if no_digits(v.name)), None)
    flag_used = bool(plan and flag and any(flag in str(m.where) for m in plan.metrics))
    return _Picks(_headline_measure(schema, plan), fresh, time, flag, flag_used)


def measure_phrase(view: ColumnView) -> str:
    """ "金额合计", "average salary": how a suggestion names a measure (its average when it is averaged)."""
    return average_phrase(view.name) if view.averaged else _("total %(measure)s") % {"measure": view.name}


def average_phrase(measure: str) -> str:
    return _("average %(measure)s") % {"measure": measure}


def by_group_question(measure: str, group: str) -> str:
    return _("What is the %(measure)s by %(group)s?") % {"measure": measure, "group": group}


def trend_question(measure: str) -> str:
    return _("What is the monthly trend of %(measure)s?") % {"measure": measure}


def records_question(group: str) -> str:
    return _("How many records are there per %(group)s?") % {"group": group}


def follow_ups(schema: Schema, plan: Plan | None, lang: Lang, question: str) -> list[str]:
    with speaking(lang):
        candidates = _candidates(schema, plan, lang)
    asked = fold(question).strip(" ?？。.")
    unique = [c for c in dict.fromkeys(candidates) if fold(c).strip(" ?？。.") != asked]
    return unique[:MAX_FOLLOW_UPS]


def _candidates(schema: Schema, plan: Plan | None, lang: Lang) -> list[str]:
    picks = _picks(schema, plan)
    dims, trended = picks.dims, bool(plan and plan.time_group)
    candidates: list[str] = []
    if picks.flag and dims:
        core = _flag_word(schema, picks.flag, lang == "zh")
        rate_by = _("What is the %(flag)s rate by %(group)s?") % {"flag": core, "group": dims[0]}
        rate_trend = _("What is the monthly trend of the %(flag)s rate?") % {"flag": core}
        if picks.flag_used:
            candidates += [rate_by] + ([rate_trend] if picks.time and not trended else [])
    if picks.measure is not None:
        m, averaged = picks.measure.name, picks.measure.averaged
        phrase = measure_phrase(picks.measure)
        if dims:
            candidates.append(by_group_question(phrase, dims[0]))
        if picks.time and not trended:
            candidates.append(trend_question(phrase))
        if len(dims) > 1:
            candidates.append(_("Which %(group)s has the highest %(measure)s?") % {"group": dims[1], "measure": phrase})
        if dims and not averaged and not (plan and plan.windows):
            candidates.append(_("What is the share of %(measure)s by %(group)s?") % {"measure": m, "group": dims[0]})
    elif dims:
        candidates.append(records_question(dims[0]))
    if picks.flag and dims and not picks.flag_used:
        candidates.append(rate_by)
    return candidates


def _flag_word(schema: Schema, flag: str, zh: bool) -> str:
    """What people call a yes/no column: 退货 for 是否退货, "return" for it in English, 远程 for remote."""
    core = flag_core(flag)
    if zh == bool(_CJK.search(core)):
        return core
    for key, forms in CONCEPTS.items():
        if core in (fold(f) for f in forms):
            return next((f for f in forms if bool(_CJK.search(f)) == zh), core) if zh else key
    return core


def fallback_draft(plan: Plan, schema: Schema, ref: str | None, metric: str, lang: Lang, question: str) -> str:
    with speaking(lang):
        lines = _greeting(schema, ref, metric) if plan.reason == "greeting" else _unmapped(plan, schema, ref, metric)
    return "\n".join(lines + [f">> {q}" for q in follow_ups(schema, None, lang, question)])


def _unmapped(plan: Plan, schema: Schema, ref: str | None, metric: str) -> list[str]:
    words = names([f"“{w}”" for w in plan.unmapped])
    if plan.reason == "query_failed":  # analyses no tool does are refused before any query (refusals.py)
        why = _("the query built for this question could not run")
    elif words:
        why = _("no column in the data matches %(words)s") % {"words": words}
    else:
        why = _("I found no measure or dimension of the data in the question")
    columns = _named_columns(schema)
    lines = [
        _("Sorry, I could not map this question to the data reliably: %(why)s. I did not guess any numbers.")
        % {"why": why}
    ]
    if ref:
        count = reference(ref, metric, 0)
        lines.append(
            _("The data has %(count)s rows with these columns: %(columns)s.") % {"count": count, "columns": columns}
        )
    else:
        lines.append(_("The data has these columns: %(columns)s.") % {"columns": columns})
    lines.append(_("Try one of the suggested questions below."))
    return lines


def _named_columns(schema: Schema) -> str:
    """The columns, by name, for a reader to rephrase with; a name with digits ("Xbox 360 release date") is left out
    of the list, since a number no query returned would stop the answer at verification."""
    return names([v.name for v in schema.views if not quotes_a_number(v.name)])


def _greeting(schema: Schema, ref: str | None, metric: str) -> list[str]:
    columns = _named_columns(schema)
    lines = [_("Hello! I answer questions about this data; every number comes from a query on it.")]
    if ref:
        count = reference(ref, metric, 0)
        lines.append(
            _("The data has %(count)s rows with these columns: %(columns)s.") % {"count": count, "columns": columns}
        )
    else:
        lines.append(_("Columns: %(columns)s.") % {"columns": columns})
    lines.append(_("Try one of the suggested questions below."))
    return lines
