"""The run-to-socket path: each event of a run is stored once (a numbered RunEvent), then published to the
conversation's channel group, where `ConversationConsumer.run_event` sends it to every socket in seq order.

    graph node -> EventSink (apps/agent/events.py) -> RunEvents.__call__ -> store_event (the database)
                                                                        -> publish (the channel layer)
               -> ConversationConsumer.run_event -> send_event -> the client

Storing comes first: the store is the truth a socket catches up from (gaps, resume, a dropped message), so
a broken channel layer never fails a run. The process that runs the graph may be the web process (the local
pool) or a Celery worker; with Redis the channel layer carries the message across processes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.agent.events import RunEvent as AgentEvent
from apps.conversations.models import ACTIVE, Run, RunEvent

log = logging.getLogger(__name__)

SEND_TIMEOUT_SECONDS = 5.0
_server_loop: asyncio.AbstractEventLoop | None = None
_publisher_loop: asyncio.AbstractEventLoop | None = None
_publisher_pid = 0
_loop_lock = threading.Lock()


def group_name(conversation_id: int) -> str:
    """The channel group of a conversation: its sockets join it, its runs' events are published to it."""
    return f"conversation.{conversation_id}"


def remember_server_loop() -> None:
    """Called from a consumer: the loop that serves WebSockets in this process.

    The in-memory channel layer (the embedded default) keeps its queues on that loop, so a run executing
    in a pool thread of the same process must hand its sends to it. With Redis any loop works.
    """
    global _server_loop
    with _loop_lock:
        _server_loop = asyncio.get_running_loop()


def publisher_loop() -> asyncio.AbstractEventLoop:
    """A loop of this process's own (a Celery worker's) for its sends: one Redis connection pool for all of them,
    where a new loop per send would open a connection per event (about ten times slower)."""
    global _publisher_loop, _publisher_pid
    with _loop_lock:
        if _publisher_loop is None or _publisher_pid != os.getpid():  # a forked pool process starts its own
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="event-publisher", daemon=True).start()
            _publisher_loop, _publisher_pid = loop, os.getpid()
        return _publisher_loop


def publish(conversation_id: int, event: dict[str, Any]) -> None:
    """Send one stored event to the conversation's group (raises if the channel layer does)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "run.event", "event": event}
    group = group_name(conversation_id)
    loop = _server_loop
    if loop is None or not loop.is_running() or loop.is_closed():
        if isinstance(layer, InMemoryChannelLayer):  # no server here to read it: a send on a loop of its own
            async_to_sync(layer.group_send)(group, message)
            return
        loop = publisher_loop()
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)


def publish_quietly(conversation_id: int, event: dict[str, Any]) -> None:
    """publish(), logging a failure instead of raising: the event is stored, sockets read it from there."""
    try:
        publish(conversation_id, event)
    except Exception:
        log.exception("could not broadcast an event of run %s", event.get("trace_id"))


def store_event(run: Run, event: AgentEvent) -> bool:
    """Append the event to the run's stored events, once; False when the run had ended (it takes no more).

    The run's row is updated first (last_seq, heartbeat) in the same transaction, so the update's row lock
    orders this with recovery.run_fail_stopped: a run failed as stopped takes no further event.
    """
    payload = event.model_dump(mode="json")
    try:
        with transaction.atomic():
            alive = (
                Run.objects.for_tenant(run.tenant)
                .filter(pk=run.pk, status__in=ACTIVE)
                .update(last_seq=event.seq, heartbeat_at=timezone.now())
            )
            if alive:
                RunEvent.objects.create(
                    tenant_id=run.tenant_id, run=run, seq=event.seq, type=event.type, data=payload["data"]
                )
    except IntegrityError:  # the same seq twice cannot happen within one run; never lose the run for it
        log.exception("duplicate event %s of run %s", event.seq, run.trace_id)
        return False
    if not alive:
        log.warning("run %s was failed as stopped; event %s dropped", run.trace_id, event.seq)
    return bool(alive)


class RunEvents:
    """The emit callback of one run: store each event, then publish it."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.last_seq = run.last_seq

    def __call__(self, event: AgentEvent) -> None:
        self.last_seq = event.seq
        if store_event(self.run, event):
            publish_quietly(self.run.conversation_id, event.model_dump(mode="json"))

    def fail(self, response: dict[str, Any]) -> None:
        """The final event when the run broke before the graph could send its own."""
        self(
            AgentEvent(
                type="run.failed", trace_id=self.run.trace_id, seq=self.last_seq + 1, data={"response": response}
            )
        )
