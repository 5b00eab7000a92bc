"""Who may read a conversation or a run: the conversations:read scope, or conversations:write for what the
caller itself created (an integration that asks may always read its own answers, their result files and its
conversation's socket, without being given every other conversation of the tenant)."""

from __future__ import annotations

from apps.conversations.models import Conversation, Run
from apps.tenants.context import TenantContext
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE


def may_read_conversation(ctx: TenantContext, conversation: Conversation) -> bool:
    if CONVERSATIONS_READ in ctx.scopes:
        return True
    return CONVERSATIONS_WRITE in ctx.scopes and conversation.actor == ctx.actor_label


def may_read_run(ctx: TenantContext, run: Run) -> bool:
    if may_read_conversation(ctx, run.conversation):
        return True
    return CONVERSATIONS_WRITE in ctx.scopes and run.message.actor == ctx.actor_label
