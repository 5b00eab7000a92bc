"""Writes a user makes to a conversation itself from the portal: rename it, delete it.

Asking and recording runs stay in `services.py`; these two never touch a run's execution.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from apps.conversations import selectors
from apps.conversations.models import Conversation
from baplatform.errors import Conflict, InvalidInput

TITLE_MAX = 200


def conversation_rename(*, conversation: Conversation, title: str) -> Conversation:
    cleaned = " ".join(title.split())
    if not cleaned:
        raise InvalidInput(_("Enter a title for the conversation."), code="empty_title")
    if len(cleaned) > TITLE_MAX:
        raise InvalidInput(
            _("A title may have at most %(max)s characters; shorten it.") % {"max": TITLE_MAX}, code="title_too_long"
        )
    conversation.title = cleaned
    conversation.save(update_fields=["title", "updated_at"])
    return conversation


def conversation_delete(*, conversation: Conversation) -> None:
    """Delete the conversation with its questions, answers and run events; refused while a run is under way."""
    with transaction.atomic():
        if selectors.active_run(conversation=conversation) is not None:
            raise Conflict(
                _("A question in this conversation is still being answered; wait for it to finish, then delete it."),
                code="run_active",
            )
        conversation.delete()
