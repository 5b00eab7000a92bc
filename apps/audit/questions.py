"""Which question a run answered, for the audit pages. Audit sits below the parts that keep the questions, so it
does not read their tables: each such part registers a lookup when it starts (see ConversationsConfig.ready)."""

from __future__ import annotations

from collections.abc import Callable

from apps.tenants.models import Tenant

QuestionLookup = Callable[..., dict[str, str]]
"""Called as lookup(tenant=..., trace_ids=[...]); returns {trace_id: question} for the runs it knows."""

_LOOKUPS: list[QuestionLookup] = []


def register_question_lookup(lookup: QuestionLookup) -> None:
    """Add a source of run questions; registering the same lookup twice keeps one."""
    if lookup not in _LOOKUPS:
        _LOOKUPS.append(lookup)


def questions_from_registered(*, tenant: Tenant, trace_ids: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for lookup in _LOOKUPS:
        found.update(lookup(tenant=tenant, trace_ids=trace_ids))
    return found
