"""Writes for conversations: start one, ask (synchronously or in the background), record a run's events.

A run does not depend on any client: it executes in a worker thread, every event is stored (numbered)
and broadcast to the conversation's channel group; clients that reconnect read what they missed.
"""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Any

from django.db import IntegrityError, close_old_connections, transaction
from django.utils import timezone

from apps.agent.events import RunEvent as AgentEvent
from apps.agent.runner import answer_question, check_question
from apps.agent.tools import DataBinding
from apps.audit.quotas import check_run_allowed
from apps.conversations import recovery
from apps.conversations.broadcast import broadcast
from apps.conversations.models import ACTIVE, Conversation, Message, Run, RunEvent, RunStatus
from apps.datasets.models import Dataset, SqlSource
from apps.observability import context as log_context
from apps.tenants.context import TenantContext
from apps.tenants.models import Tenant
from baplatform.errors import Conflict, InvalidInput

log = logging.getLogger(__name__)

HISTORY_TURNS = 5  # earlier answered turns the model sees


def group_name(conversation_id: int) -> str:
    return f"conversation.{conversation_id}"


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


def _binding(conversation: Conversation) -> DataBinding:
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


def ask_create(*, conversation: Conversation, question: str, actor: str) -> Run:
    """Record the question and its queued run; refuse while another run of the conversation is active."""
    question = check_question(question)
    _binding(conversation)  # a clear error now rather than a failed run later
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
            worker=recovery.worker_id(),
            heartbeat_at=timezone.now(),
        )
        locked.save(update_fields=["updated_at"])
    log.info("run queued", extra={"run_trace_id": run.trace_id, "conversation": conversation.pk})
    return run


class _Recorder:
    """Stores each event of a run, then broadcasts it to the conversation's group."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.last_seq = run.last_seq

    def fail(self, response: dict[str, Any]) -> None:
        """The final event when the run broke before the graph could send its own."""
        self(
            AgentEvent(
                type="run.failed", trace_id=self.run.trace_id, seq=self.last_seq + 1, data={"response": response}
            )
        )

    def __call__(self, event: AgentEvent) -> None:
        self.last_seq = event.seq
        payload = event.model_dump(mode="json")
        try:
            with transaction.atomic():
                # The row lock orders this with recovery.run_fail_stopped; a run it failed takes no more events.
                alive = (
                    Run.objects.for_tenant(self.run.tenant)
                    .filter(pk=self.run.pk, status__in=ACTIVE)
                    .update(last_seq=event.seq, heartbeat_at=timezone.now())
                )
                if alive:
                    RunEvent.objects.create(
                        tenant_id=self.run.tenant_id, run=self.run, seq=event.seq, type=event.type, data=payload["data"]
                    )
        except IntegrityError:  # the same seq twice cannot happen within one run; never lose the run for it
            log.exception("duplicate event %s of run %s", event.seq, self.run.trace_id)
            return
        if not alive:
            log.warning("run %s was failed as stopped; event %s dropped", self.run.trace_id, event.seq)
            return
        try:
            broadcast(group_name(self.run.conversation_id), {"type": "run.event", "event": payload})
        except Exception:  # a broken channel layer must not fail the run: events are stored
            log.exception("could not broadcast an event of run %s", self.run.trace_id)


def run_execute(*, run: Run, link_for: Any = None) -> dict[str, Any]:
    """Answer the run's question through the graph; store the response and the final status."""
    # Runs execute in worker threads, which start with an empty log context.
    with log_context.bind(trace_id=run.trace_id, tenant=run.tenant.slug, actor=run.message.actor):
        return _execute(run=run, link_for=link_for)


def _execute(*, run: Run, link_for: Any) -> dict[str, Any]:
    tenant = run.tenant
    now = timezone.now()
    started = (
        Run.objects.for_tenant(tenant)
        .filter(pk=run.pk, status=RunStatus.QUEUED)
        .update(status=RunStatus.RUNNING, started_at=now, worker=recovery.worker_id(), heartbeat_at=now)
    )
    if not started:  # failed meanwhile as stopped (or started twice): what is stored stands
        return Message.objects.for_tenant(tenant).get(pk=run.message_id).response or {}
    recovery.in_flight.add(run.pk)
    try:
        return _answer(run=run, link_for=link_for)
    finally:
        recovery.in_flight.discard(run.pk)


def _answer(*, run: Run, link_for: Any) -> dict[str, Any]:
    tenant = run.tenant
    message = run.message
    conversation = run.conversation
    recorder = _Recorder(run)
    try:
        response = answer_question(
            binding=_binding(conversation),
            question=message.question,
            history=_history(conversation, message),
            emit=recorder,
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
        recorder.fail(response)
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


def ask_sync(*, conversation: Conversation, question: str, actor: str) -> tuple[Run, dict[str, Any]]:
    run = ask_create(conversation=conversation, question=question, actor=actor)
    return run, run_execute(run=run, link_for=download_link(run.trace_id))


def ask_in_background(*, conversation: Conversation, question: str, actor: str) -> Run:
    run = ask_create(conversation=conversation, question=question, actor=actor)

    def work() -> None:
        try:
            fresh = (
                Run.objects.for_tenant(run.tenant).select_related("message", "conversation", "tenant").get(pk=run.pk)
            )
            run_execute(run=fresh, link_for=download_link(run.trace_id))
        finally:
            close_old_connections()

    transaction.on_commit(lambda: threading.Thread(target=work, name=f"run-{run.trace_id[:8]}", daemon=True).start())
    return run
