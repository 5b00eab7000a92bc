"""`ws/conversations/{id}/`: ask, and receive the run's events live; resume after a reconnect.

Client -> server: {"type": "ask", "question": ...}, {"type": "resume", "trace_id": ..., "after": SEQ},
{"type": "ping"}. Server -> client: conversation.ready, ask.accepted, the run's events (run.started,
plan, tool.started, tool.finished, verify, run.finished | run.failed; each with trace_id and seq),
error (with code and message; the socket stays open), pong. Every event is sent at most once.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _

from apps.conversations import selectors, services
from apps.conversations.broadcast import remember_server_loop
from apps.conversations.models import Conversation
from apps.tenants.context import TenantContext
from apps.tenants.errors import PlatformError
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE

MAX_FRAME_CHARS = 16_000
CLOSE_UNAUTHENTICATED, CLOSE_FORBIDDEN, CLOSE_NOT_FOUND = 4401, 4403, 4404


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


class ConversationConsumer(AsyncJsonWebsocketConsumer):
    conversation: Conversation | None = None
    ctx: TenantContext | None = None

    async def connect(self) -> None:
        remember_server_loop()
        self.lang = _language(self.scope)
        self.sent: dict[str, int] = {}
        await self.accept()  # accepted first, so a refusal can say why before closing
        ctx = self.scope.get("tenant_ctx")
        if ctx is None:
            code = self.scope.get("auth_rejection") or "unauthenticated"
            return await self.refuse(code, _("Sign in, or send a valid API token."), CLOSE_UNAUTHENTICATED)
        if CONVERSATIONS_READ not in ctx.scopes:
            return await self.refuse("missing_scope", _("This needs the conversations:read scope."), CLOSE_FORBIDDEN)
        conversation = await self._conversation(ctx, int(self.scope["url_route"]["kwargs"]["conversation_id"]))
        if conversation is None:
            return await self.refuse("not_found", _("Not found."), CLOSE_NOT_FOUND)
        self.ctx, self.conversation = ctx, conversation
        await self.channel_layer.group_add(services.group_name(conversation.pk), self.channel_name)
        active = await database_sync_to_async(selectors.active_run)(conversation=conversation)
        ready = {"trace_id": active.trace_id, "last_seq": active.last_seq} if active else None
        await self.send_json({"type": "conversation.ready", "conversation": conversation.pk, "active_run": ready})

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
        if self.conversation is not None:
            await self.channel_layer.group_discard(services.group_name(self.conversation.pk), self.channel_name)

    async def error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if self.conversation is None:
            return
        with translation.override(self.lang):
            if text_data is None:
                return await self.error("malformed_frame", _("Send JSON text frames."))
            if len(text_data) > MAX_FRAME_CHARS:
                return await self.error("frame_too_large", _("The message is too large; keep questions short."))
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
        try:
            run = await database_sync_to_async(self._ask)(question)
        except PlatformError as exc:
            return await self.error(exc.code, exc.message)
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
        for event in events:
            await self.forward(event)

    def _events(self, trace_id: str, after: int) -> list[dict[str, Any]] | None:
        _ctx, conversation = self.bound()
        try:
            run = selectors.run_get(tenant=conversation.tenant, trace_id=trace_id)
        except Http404:
            return None
        if run.conversation_id != conversation.pk:
            return None
        return selectors.events_after(run=run, after=after)

    async def forward(self, event: dict[str, Any]) -> None:
        trace_id, seq = event["trace_id"], event["seq"]
        if seq <= self.sent.get(trace_id, 0):
            return  # already sent (live and replayed copies meet here)
        self.sent[trace_id] = seq
        await self.send_json(event)

    async def run_event(self, message: dict[str, Any]) -> None:
        await self.forward(message["event"])
