"""Writes for conversations: start one; ask, synchronously or in the background.

An ask stores the question and a queued run. In the background the run goes to the task queue
(apps/conversations/queue.py) and executes there (apps/conversations/run_services.py); it does not depend
on any client: its events are stored and published (apps/conversations/events.py), and clients that
reconnect read what they missed.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.agent.runner import check_question
from apps.audit.quotas import check_run_allowed
from apps.conversations import recovery
from apps.conversations.models import ACTIVE, Conversation, Message, Run
from apps.conversations.queue import enqueue_run, queued_owner, uses_celery
from apps.conversations.run_services import binding_of, download_link, run_execute, run_wait
from apps.datasets.models import Dataset, SqlSource
from apps.tenants.context import TenantContext
from apps.tenants.models import Tenant
from baplatform.errors import Conflict, InvalidInput

log = logging.getLogger(__name__)


def conversation_create(
    *,
    tenant: Tenant,
    ctx: TenantContext,
    dataset: Dataset | None = None,
    source: SqlSource | None = None,
    title: str = "",
) -> Conversation:
    if (dataset is None) == (source is None):
        raise InvalidInput("a conversation is about one dataset or one SQL source: give exactly one", code="invalid")
    name = dataset.name if dataset is not None else source.name  # type: ignore[union-attr]
    return Conversation.objects.create(
        tenant=tenant,
        dataset=dataset,
        source=source,
        title=(title or name).strip()[:200],
        created_by=ctx.user if getattr(ctx.user, "pk", None) else None,
        actor=ctx.actor_label,
    )


def ask_create(*, conversation: Conversation, question: str, actor: str) -> Run:
    """Record the question and its queued run; refuse while another run of the conversation is active."""
    question = check_question(question)
    binding_of(conversation)  # a clear error now rather than a failed run later
    check_run_allowed(conversation.tenant)
    tenant = conversation.tenant
    recovery.stale_runs_fail(conversation=conversation)  # a run whose process stopped must not block the next
    with transaction.atomic():
        locked = Conversation.objects.for_tenant(tenant).select_for_update().get(pk=conversation.pk)
        if Run.objects.for_tenant(tenant).filter(conversation=locked, status__in=ACTIVE).exists():
            raise Conflict(
                "a question is still being answered in this conversation; wait for it to finish", code="run_in_progress"
            )
        message = Message.objects.create(tenant=tenant, conversation=locked, question=question, actor=actor)
        run = Run.objects.create(
            tenant=tenant,
            conversation=locked,
            message=message,
            trace_id=uuid.uuid4().hex,
            worker=queued_owner(),
            heartbeat_at=timezone.now(),
        )
        locked.save(update_fields=["updated_at"])
    log.info("run queued", extra={"run_trace_id": run.trace_id, "conversation": conversation.pk})
    return run


def ask_sync(*, conversation: Conversation, question: str, actor: str) -> tuple[Run, dict[str, Any]]:
    """Ask and wait for the answer: executed here, or, when runs are queued, by a worker while this waits."""
    if uses_celery():
        run = ask_in_background(conversation=conversation, question=question, actor=actor)
        return run, run_wait(run=run)
    run = ask_create(conversation=conversation, question=question, actor=actor)
    return run, run_execute(run=run, link_for=download_link(run.trace_id))


def ask_in_background(*, conversation: Conversation, question: str, actor: str) -> Run:
    """Record the question and its run, then hand the run to the task queue once that is committed."""
    run = ask_create(conversation=conversation, question=question, actor=actor)
    enqueue_run(run)
    return run
