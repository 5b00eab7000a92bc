"""Send a run's events to a conversation's channel group from the worker thread that runs it.

The in-memory channel layer (the embedded default) keeps its queues on the server's event loop, so
a worker thread must hand the send to that loop; the consumers remember it when they connect.
With Redis any loop works, and the same path is used.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
SEND_TIMEOUT_SECONDS = 5.0


def remember_server_loop() -> None:
    """Called from a consumer: the loop that serves WebSockets in this process."""
    global _server_loop
    with _lock:
        _server_loop = asyncio.get_running_loop()


def broadcast(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)
    else:
        async_to_sync(layer.group_send)(group, message)
