"""WebSocket URL routes (consumers live in their apps)."""

from __future__ import annotations

from typing import Any

from django.urls import path

from apps.conversations.consumers import ConversationConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/conversations/<int:conversation_id>/", ConversationConsumer.as_asgi()),
]
