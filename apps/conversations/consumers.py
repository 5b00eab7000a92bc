"""`ws/conversations/{id}/`: ask, and receive the run's events live; resume after a reconnect.

Client -> server: {"type": "ask", "question": ...}, {"type": "resume", "trace_id": ..., "after": SEQ},
{"type": "ping"}. Server -> client: conversation.ready, ask.accepted, the run's events (run.started,
plan, tool.started, tool.finished, verify, run.finished | run.failed; each with trace_id and seq),
error (with code and message; the socket stays open, except after a message over WS_MAX_MESSAGE_BYTES:
then it is closed with 4413, message too big), pong. Asks count against the same per-user and per-tenant
limits as the REST ask (ASK_THROTTLE_RATE, ASK_TENANT_THROTTLE_RATE); one over them is answered with a
rate_limited error and retry_after, and nothing is run.

A socket gets each event of a run at most once, and never one its client said it holds (`after`).
Live events of a run go out in seq order; the stored events a resume asks for are sent when it
arrives, so if live events of that run came first (the run went on while the client reconnected),
the replayed ones follow them: order by seq. A run already under way when the socket connected is
followed from there (from its last_seq in conversation.ready); its earlier events come only on resume.
Every event is stored before it is broadcast, so one the channel layer drops is sent from the store:
at once when a later one arrives, or once the run has been quiet for CATCH_UP_SECONDS.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _

from apps.conversations import access, selectors, services
from apps.conversations.events import group_name, remember_server_loop
from apps.conversations.models import ACTIVE, Conversation, Run
from apps.observability import context as log_context
from apps.tenants.context import TenantContext
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.throttling import ask_refusal, ask_wait_seconds
from baplatform.errors import PlatformError

log = logging.getLogger(__name__)

# A run followed by a socket that has been quiet this long is read from the store: the channel layer
# may drop a message (channels_redis does when a busy process's list is full, or a socket closes while
# it reads for the others), and a lost final event would leave the client waiting for ever.
CATCH_UP_SECONDS = 3.0
CLOSE_UNAUTHENTICATED, CLOSE_FORBIDDEN, CLOSE_NOT_FOUND = 4401, 4403, 4404
# "Message too big", like HTTP 413 (4401/4403/4404 follow HTTP too): servers may send only 1000 or 3000-4999
# from an application (autobahn under daphne enforces it); daphne itself closes with 1009 over its own cap.
CLOSE_MESSAGE_TOO_BIG = 4413
FINAL_EVENTS = ("run.finished", "run.failed")
# The verified answer arrives from the run in answer.delta events all at once; the socket types them out, a
# short pause before each live one, for ANSWER_STREAM_SECONDS per run at most (replayed ones are not paused).
DELTA_PAUSE_SECONDS = 0.05


def _language(scope: dict[str, Any]) -> str:
    cookies = scope.get("cookies") or {}
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    wanted = (
        cookies.get(settings.LANGUAGE_COOKIE_NAME) or headers.get("accept-language", "").split(",")[0].split(";")[0]
    )
    try:
        return translation.get_supported_language_variant(wanted.strip().lower()) if wanted else settings.LANGUAGE_CODE
    except LookupError:
        return settings.LANGUAGE_CODE


def too_big(text: str) -> bool:
    """Over WS_MAX_MESSAGE_BYTES as UTF-8 (the characters are counted first: most frames are far below)."""
    limit = settings.WS_MAX_MESSAGE_BYTES
    return len(text) > limit or (len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit)


class ConversationConsumer(AsyncJsonWebsocketConsumer):
    conversation: Conversation | None = None
    ctx: TenantContext | None = None

    async def connect(self) -> None:
        remember_server_loop()
        self.lang = _language(self.scope)
        # Per run: every seq up to sent[trace] is sent or held by the client, except 1..unsent[trace],
        # which were stored before this socket joined a run already under way.
        self.sent: dict[str, int] = {}
        self.unsent: dict[str, int] = {}
        self.following: dict[str, float] = {}  # runs not ended on this socket: when it last got an event
        self.typed: dict[str, float] = {}  # per run: the seconds its answer.delta events were paused so far
        self.catching_up: asyncio.Task[None] | None = None
        await self.accept()  # accepted first, so a refusal can say why before closing
        ctx = self.scope.get("tenant_ctx")
        if ctx is None:
            code = self.scope.get("auth_rejection") or "unauthenticated"
            return await self.refuse(code, _("Sign in, or send a valid API token."), CLOSE_UNAUTHENTICATED)
        if CONVERSATIONS_READ not in ctx.scopes and CONVERSATIONS_WRITE not in ctx.scopes:
            return await self.refuse("missing_scope", _("This needs the conversations:read scope."), CLOSE_FORBIDDEN)
        conversation = await self._conversation(ctx, int(self.scope["url_route"]["kwargs"]["conversation_id"]))
        if conversation is None or not access.may_read_conversation(ctx, conversation):  # write: its own only
            return await self.refuse("not_found", _("Not found."), CLOSE_NOT_FOUND)
        self.ctx, self.conversation = ctx, conversation
        await self.channel_layer.group_add(group_name(conversation.pk), self.channel_name)
        # Read after group_add: every event past last_seq reaches this socket live.
        active = await database_sync_to_async(selectors.active_run)(conversation=conversation)
        ready = {"trace_id": active.trace_id, "last_seq": active.last_seq} if active else None
        if active is not None:
            self.sent[active.trace_id] = self.unsent[active.trace_id] = active.last_seq
            self.following[active.trace_id] = time.monotonic()
        await self.send_json({"type": "conversation.ready", "conversation": conversation.pk, "active_run": ready})
        self.catching_up = asyncio.ensure_future(self.catch_up_forever())

    @database_sync_to_async
    def _conversation(self, ctx: TenantContext, conversation_id: int) -> Conversation | None:
        try:
            return selectors.conversation_get(tenant=ctx.tenant, conversation_id=conversation_id)
        except Http404:
            return None

    def bound(self) -> tuple[TenantContext, Conversation]:
        """The caller and the conversation, set once connect() accepted them (handlers run only after)."""
        if self.ctx is None or self.conversation is None:
            raise RuntimeError("the socket was not accepted for a conversation")
        return self.ctx, self.conversation

    async def refuse(self, code: str, message: str, close_code: int) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        if self.catching_up is not None:
            self.catching_up.cancel()
        if self.conversation is not None:
            await self.channel_layer.group_discard(group_name(self.conversation.pk), self.channel_name)

    async def error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if self.conversation is None:
            return
        ctx, _conversation = self.bound()
        # Each message is its own unit of work in the logs.
        fields = {"trace_id": log_context.new_trace_id(), "tenant": ctx.tenant.slug, "actor": ctx.actor_label}
        with translation.override(self.lang), log_context.bind(**fields):
            if text_data is None:
                return await self.error("malformed_frame", _("Send JSON text frames."))
            if too_big(text_data):
                # Answered, then closed: a client sending such frames is not speaking this protocol.
                limit = settings.WS_MAX_MESSAGE_BYTES
                message = _("The message is too large (at most %(limit)d bytes); keep questions short.")
                return await self.refuse("frame_too_large", message % {"limit": limit}, CLOSE_MESSAGE_TOO_BIG)
            try:
                content = json.loads(text_data)
            except ValueError:
                return await self.error("malformed_json", _("The message is not valid JSON."))
            if not isinstance(content, dict):
                return await self.error("malformed_frame", _("Send a JSON object with a type."))
            await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        if kind == "ask":
            await self.ask(content)
        elif kind == "resume":
            await self.resume(content)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.error("unknown_type", _("Unknown message type; use ask, resume or ping."))

    async def ask(self, content: dict[str, Any]) -> None:
        ctx, _conversation = self.bound()
        if CONVERSATIONS_WRITE not in ctx.scopes:
            return await self.error("missing_scope", _("This needs the conversations:write scope."))
        question = content.get("question")
        if not isinstance(question, str):
            return await self.error("invalid", _("Send the question as text."))
        wait = await database_sync_to_async(ask_wait_seconds)(ctx)
        if wait is not None:
            message = {"type": "error", "code": "rate_limited", "message": ask_refusal(wait), "retry_after": wait}
            return await self.send_json(message)
        try:
            # Off the process's one thread for database work, so asks arriving together are stored side by side
            # (each on a thread and connection of its own) instead of one after another.
            run = await database_sync_to_async(self._ask, thread_sensitive=False)(question)
        except PlatformError as exc:
            return await self.error(exc.code, exc.message)
        self.sent.setdefault(run.trace_id, 0)
        self.following[run.trace_id] = time.monotonic()
        await self.send_json({"type": "ask.accepted", "trace_id": run.trace_id})

    def _ask(self, question: str) -> Any:
        ctx, conversation = self.bound()
        with translation.override(self.lang):
            return services.ask_in_background(conversation=conversation, question=question, actor=ctx.actor_label)

    async def resume(self, content: dict[str, Any]) -> None:
        trace_id, after = content.get("trace_id"), content.get("after", 0)
        if not isinstance(trace_id, str) or not isinstance(after, int) or after < 0:
            return await self.error("invalid", _("Send resume with trace_id and after (the last seq you received)."))
        events = await database_sync_to_async(self._events)(trace_id, after)
        if events is None:
            return await self.error("not_found", _("Not found."))
        unsent = self.unsent.pop(trace_id, 0)
        self.sent[trace_id] = max(self.sent.get(trace_id, 0), after)
        for event in events:
            await self.send_event(event, unsent=unsent)

    def _run(self, trace_id: str) -> Run | None:
        _ctx, conversation = self.bound()
        try:
            run = selectors.run_get(tenant=conversation.tenant, trace_id=trace_id)
        except Http404:
            return None
        return run if run.conversation_id == conversation.pk else None

    def _events(self, trace_id: str, after: int) -> list[dict[str, Any]] | None:
        run = self._run(trace_id)
        return None if run is None else selectors.events_after(run=run, after=after)

    def _stored_since(self, trace_id: str, after: int) -> tuple[list[dict[str, Any]], bool]:
        """The run's stored events after `after`, and whether it is still under way."""
        run = self._run(trace_id)
        return ([], False) if run is None else (selectors.events_after(run=run, after=after), run.status in ACTIVE)

    async def send_event(self, event: dict[str, Any], *, unsent: int = 0) -> bool:
        """Send an event unless this socket sent it or its client holds it (checked here: live, replayed and
        caught-up copies may meet). `unsent`: seqs up to this one were stored before the socket joined."""
        trace_id, seq = event["trace_id"], event["seq"]
        sent = self.sent.get(trace_id, 0)
        if seq <= sent and seq > unsent:
            return False
        self.sent[trace_id] = max(sent, seq)
        if event["type"] in FINAL_EVENTS:
            self.following.pop(trace_id, None)
        else:
            self.following[trace_id] = time.monotonic()
        await self.send_json(event)
        return True

    async def run_event(self, message: dict[str, Any]) -> None:
        """A live event from the group: sent in seq order, a gap filled from the stored events."""
        event = message["event"]
        trace_id, seq = event["trace_id"], event["seq"]
        sent = self.sent.get(trace_id)
        if sent is None:  # a run under way before this socket joined (it ended before connect() looked)
            self.sent[trace_id] = self.unsent[trace_id] = sent = seq - 1
        if seq > sent + 1:  # the channel layer dropped some; every event is stored before it is broadcast
            await self.catch_up(trace_id)
        if event["type"] == "answer.delta":
            await self.type_out(trace_id)
        elif event["type"] in FINAL_EVENTS:
            self.typed.pop(trace_id, None)
        await self.send_event(event)

    async def type_out(self, trace_id: str) -> None:
        """The pause before a live answer.delta, so people watch the answer arrive; its worker is already free."""
        typed = self.typed.get(trace_id, 0.0)
        pause = min(DELTA_PAUSE_SECONDS, settings.ANSWER_STREAM_SECONDS - typed)
        if pause > 0:
            self.typed[trace_id] = typed + pause
            await asyncio.sleep(pause)

    async def catch_up(self, trace_id: str) -> None:
        """Send the stored events of a run after the last one this socket sent."""
        stored, active = await database_sync_to_async(self._stored_since)(trace_id, self.sent.get(trace_id, 0))
        missed = [event["seq"] for event in stored if await self.send_event(event)]
        if missed:
            log.warning(
                "run %s: events %s sent from the store (the channel layer dropped or delayed them)", trace_id, missed
            )
        if not stored and trace_id in self.following:
            if active:
                self.following[trace_id] = time.monotonic()  # only quiet (a model thinking): look again later
            else:
                self.following.pop(trace_id)  # ended without a final event (its process stopped)

    async def catch_up_forever(self) -> None:
        while True:
            await asyncio.sleep(CATCH_UP_SECONDS)
            quiet_since = time.monotonic() - CATCH_UP_SECONDS
            for trace_id, last in list(self.following.items()):
                if last <= quiet_since:
                    try:
                        await self.catch_up(trace_id)
                    except Exception:  # the database may be briefly away: try again next time
                        log.exception("could not catch up run %s", trace_id)
