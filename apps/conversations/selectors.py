"""Reads for conversations: tenant-scoped lookups and a run's stored events.

A run read here whose process stopped (stale heartbeat) is failed first (apps/conversations/recovery.py),
so no reader is ever told that a dead run is still under way.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from apps.conversations import recovery
from apps.conversations.models import ACTIVE, Conversation, Message, Run, RunEvent
from apps.tenants.models import Tenant
from apps.tenants.scoping import get_for_tenant_or_404


def conversation_list(*, tenant: Tenant, search: str = "") -> QuerySet[Conversation]:
    """The tenant's conversations, newest activity first; `search` matches the title or any question asked."""
    rows = Conversation.objects.for_tenant(tenant).select_related("dataset", "source")
    if search:
        asked = Message.objects.for_tenant(tenant).filter(question__icontains=search).values("conversation_id")
        rows = rows.filter(Q(title__icontains=search) | Q(pk__in=asked))
    return rows.order_by("-updated_at", "-id")


def conversation_get(*, tenant: Tenant, conversation_id: int) -> Conversation:
    return get_for_tenant_or_404(Conversation, tenant, pk=conversation_id)


def messages_of(*, conversation: Conversation) -> QuerySet[Message]:
    return Message.objects.for_tenant(conversation.tenant).filter(conversation=conversation).select_related("run")


def run_get(*, tenant: Tenant, trace_id: str) -> Run:
    return recovery.run_check_alive(get_for_tenant_or_404(Run, tenant, trace_id=trace_id))


def active_run(*, conversation: Conversation) -> Run | None:
    runs = Run.objects.for_tenant(conversation.tenant).filter(conversation=conversation, status__in=ACTIVE)
    for run in runs:
        if recovery.run_check_alive(run).status in ACTIVE:
            return run
    return None


def events_after(*, run: Run, after: int = 0) -> list[dict[str, Any]]:
    rows = RunEvent.objects.for_tenant(run.tenant).filter(run=run, seq__gt=after).order_by("seq")
    return [{"type": e.type, "trace_id": run.trace_id, "seq": e.seq, "data": e.data} for e in rows]


def run_questions(*, tenant: Tenant, trace_ids: list[str]) -> dict[str, str]:
    """{trace_id: question} for the tenant's runs among trace_ids (registered with audit at start-up)."""
    runs = Run.objects.for_tenant(tenant).filter(trace_id__in=trace_ids).values_list("trace_id", "message__question")
    return dict(runs)
