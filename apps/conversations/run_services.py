"""Executing a stored run: claim it (once, within its tenant's bound of concurrent runs), answer it through the
graph, store the outcome. Whatever executes runs calls this (apps/conversations/queue.py: a pool thread of the web
process or a Celery worker), and so does the synchronous REST ask.
"""

from __future__ import annotations

import logging
import time
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding
from apps.audit.quotas import concurrent_runs_limit
from apps.conversations import recovery
from apps.conversations.events import RunEvents
from apps.conversations.models import ACTIVE, Conversation, Message, Run, RunStatus
from apps.observability import context as log_context
from apps.tenants.models import Tenant
from baplatform.errors import InvalidInput

log = logging.getLogger(__name__)

HISTORY_TURNS = 5  # earlier answered turns the model sees
# A run delivered again after its process was lost is executed once more if it had sent no event yet.
RETRIES_WHEN_SILENT = 1


class Claim(StrEnum):
    RUN = "run"  # this process executes it now
    WAIT = "wait"  # its tenant is at its bound of concurrent runs: hand it to the queue again shortly
    DONE = "done"  # it ended already (answered, or failed as stopped): nothing to do
    LOST = "lost"  # delivered again after the process executing it was lost, with events sent: fail it


def binding_of(conversation: Conversation) -> DataBinding:
    """The data the conversation is about, bound for a run (a clear error when it was deleted)."""
    if conversation.source is not None:
        return DataBinding.for_source(tenant=conversation.tenant, source=conversation.source)
    if conversation.dataset is None:
        raise InvalidInput(
            "the data of this conversation was deleted; start a new conversation", code="conversation_without_data"
        )
    return DataBinding.for_dataset(tenant=conversation.tenant, dataset=conversation.dataset)


def _history(conversation: Conversation, before: Message) -> list[dict[str, Any]]:
    """Earlier answered turns with the result tables their answers quoted (verify re-grounds repeated numbers)."""
    latest = Message.objects.for_tenant(conversation.tenant).filter(
        conversation=conversation, status=RunStatus.ANSWERED, pk__lt=before.pk
    )
    answered = reversed(list(latest.order_by("-pk")[:HISTORY_TURNS]))  # only the turns kept are loaded
    turns = [
        {
            "question": m.question,
            "answer": (m.response or {}).get("answer", ""),
            "tables": [
                {"columns": t.get("columns", []), "rows": t.get("rows", [])}
                for t in (m.response or {}).get("tables", [])
                if isinstance(t, dict)
            ],
        }
        for m in answered
    ]
    return turns


def run_claim(*, tenant: Tenant, run_id: int, bounded: bool = True) -> Claim:
    """Mark a queued run running in this process, unless its tenant already runs as many as its plan allows.

    The tenant's row is locked while counting, so two workers never both take the last free place.
    """
    limit = concurrent_runs_limit(tenant) if bounded else None
    with transaction.atomic():
        if limit is not None:
            list(Tenant.objects.select_for_update().filter(pk=tenant.pk).values_list("pk", flat=True))
        run = Run.objects.for_tenant(tenant).select_for_update().filter(pk=run_id).first()
        now = timezone.now()  # read once the locks are held: a claim that waited starts after what it waited for
        if run is None or run.status not in ACTIVE:
            return Claim.DONE
        if run.status == RunStatus.RUNNING:  # delivered again: the process that held it was lost
            if run.last_seq > 0 or run.attempts > RETRIES_WHEN_SILENT:
                return Claim.LOST
            log.warning("run %s is executed again: its process was lost before it sent anything", run.trace_id)
        elif limit is not None and Run.objects.for_tenant(tenant).filter(status=RunStatus.RUNNING).count() >= limit:
            Run.objects.for_tenant(tenant).filter(pk=run.pk).update(heartbeat_at=now)  # waiting, not lost
            return Claim.WAIT
        Run.objects.for_tenant(tenant).filter(pk=run.pk).update(
            status=RunStatus.RUNNING,
            started_at=run.started_at or now,
            worker=recovery.worker_id(),
            heartbeat_at=now,
            attempts=F("attempts") + 1,
        )
    return Claim.RUN


def run_execute_queued(*, tenant_id: int, run_id: int) -> Claim:
    """What a queue does with a run it delivers: claim it, then answer it (or fail it, when it was lost)."""
    tenant = Tenant.objects.filter(pk=tenant_id).first()
    if tenant is None:
        return Claim.DONE
    claim = run_claim(tenant=tenant, run_id=run_id)
    if claim in (Claim.RUN, Claim.LOST):
        run = _load(tenant, run_id)
        if claim == Claim.LOST:
            recovery.run_fail_stopped(run=run, reason="delivered again after its worker was lost")
        else:
            _execute_claimed(run=run, link_for=download_link(run.trace_id))
    return claim


def run_execute(*, run: Run, link_for: Any = None) -> dict[str, Any]:
    """Answer the run's question here and now (the synchronous ask); the stored response if it had ended."""
    if run_claim(tenant=run.tenant, run_id=run.pk, bounded=False) != Claim.RUN:
        return Message.objects.for_tenant(run.tenant).get(pk=run.message_id).response or {}
    return _execute_claimed(run=run, link_for=link_for)


def run_wait(*, run: Run, poll_seconds: float = 0.2) -> dict[str, Any]:
    """The response of a run a worker executes, once it has ended (the synchronous ask when runs are queued).

    A run that never ends is failed by the stale, queue-wait and time limits; past all of them it is failed here.
    """
    deadline = time.monotonic() + settings.RUN_QUEUE_WAIT_SECONDS + settings.RUN_TIME_LIMIT_SECONDS
    runs = Run.objects.for_tenant(run.tenant)
    current = run
    while current.status in ACTIVE and time.monotonic() < deadline:
        time.sleep(poll_seconds)
        current = recovery.run_check_alive(runs.get(pk=run.pk))
    if current.status in ACTIVE:
        recovery.run_fail_stopped(run=current, reason="waited too long", error=recovery.stopped_error())
    return Message.objects.for_tenant(run.tenant).get(pk=run.message_id).response or {}


def _load(tenant: Tenant, run_id: int) -> Run:
    return Run.objects.for_tenant(tenant).select_related("message", "conversation", "tenant").get(pk=run_id)


def _execute_claimed(*, run: Run, link_for: Any) -> dict[str, Any]:
    # Runs execute in pool threads or worker processes, which start with an empty log context.
    with log_context.bind(trace_id=run.trace_id, tenant=run.tenant.slug, actor=run.message.actor):
        recovery.in_flight.add(run.pk)
        try:
            return _answer(run=run, link_for=link_for)
        finally:
            recovery.in_flight.discard(run.pk)


def _answer(*, run: Run, link_for: Any) -> dict[str, Any]:
    tenant = run.tenant
    message = run.message
    conversation = run.conversation
    events = RunEvents(run)
    try:
        response = answer_question(
            binding=binding_of(conversation),
            question=message.question,
            history=_history(conversation, message),
            emit=events,
            trace_id=run.trace_id,
            actor=message.actor,
            link_for=link_for,
        ).model_dump(mode="json")
        status = response["status"]
    except Exception as exc:  # the graph always ends its runs; this is the data or the platform failing first
        log.exception("run could not start")
        message_text = getattr(exc, "message", "") or "the run could not start; try again"
        response = {"status": "failed", "error": {"code": getattr(exc, "code", "internal"), "message": message_text}}
        status = RunStatus.FAILED
        events.fail(response)
    with transaction.atomic():
        ended = (
            Run.objects.for_tenant(tenant)
            .filter(pk=run.pk, status__in=ACTIVE)
            .update(status=status, finished_at=timezone.now())
        )
        if not ended:  # failed as stopped while it ran (its heartbeat went stale): that outcome was sent
            log.warning("run %s ended after it was failed as stopped; its answer is dropped", run.trace_id)
            return Message.objects.for_tenant(tenant).get(pk=message.pk).response or response
        Message.objects.for_tenant(tenant).filter(pk=message.pk).update(response=response, status=status)
    return response


def download_link(trace_id: str) -> Any:
    def link(ref: str, fmt: str) -> str:
        return f"/api/v1/runs/{trace_id}/results/{ref}.{fmt}"

    return link
