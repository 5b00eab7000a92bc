"""ASGI wrapper that keeps bap_websocket_connections: +1 when a socket is accepted, -1 when its consumer ends."""

from __future__ import annotations

from typing import Any

from apps.observability.counters import WEBSOCKET_CONNECTIONS


class CountWebSockets:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        accepted = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                WEBSOCKET_CONNECTIONS.inc()
            await send(message)

        try:
            return await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                WEBSOCKET_CONNECTIONS.dec()
