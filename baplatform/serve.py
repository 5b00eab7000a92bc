"""`python -m baplatform.serve [daphne's options] baplatform.asgi:application`: daphne, answering oversized
WebSocket messages instead of dropping the connection.

The application refuses a message over WS_MAX_MESSAGE_BYTES itself (an error event, then close 4413), but
daphne reads a message whole before the application sees it and has its own cap (1 MiB by default,
--websocket-max-message-size). Over that cap autobahn, under daphne, drops the TCP connection without a
word. Served through this module, the client instead gets the same error event (in its Accept-Language)
and a clean close with 1009 (message too big). Every other option and behaviour is daphne's.
"""

from __future__ import annotations

import json
from typing import Any

from daphne import server as daphne_server
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.utils import translation
from django.utils.translation import gettext as _

CLOSE_HANDSHAKE_SECONDS = 15


def _language(headers: dict[str, str]) -> str | None:
    wanted = headers.get("accept-language", "").split(",")[0].split(";")[0].strip().lower()
    try:
        return translation.get_supported_language_variant(wanted) if wanted else None
    except LookupError:
        return None


class AnsweringWebSocketProtocol(WebSocketProtocol):
    def _max_message_size_exceeded(self, msg_size: int, max_msg_size: int, reason: str) -> None:
        headers = getattr(getattr(self, "request", None), "headers", None) or {}
        with translation.override(_language(headers)):
            message = _("The message is too large (at most %(limit)d bytes); keep questions short.")
            body = {"type": "error", "code": "frame_too_large", "message": message % {"limit": max_msg_size}}
        if self.state == self.STATE_OPEN:
            self.sendMessage(json.dumps(body, ensure_ascii=False).encode("utf-8"), isBinary=False)
        super()._max_message_size_exceeded(msg_size, max_msg_size, reason)  # close 1009 (failByDrop is off)


class AnsweringWebSocketFactory(WebSocketFactory):
    protocol = AnsweringWebSocketProtocol

    def setProtocolOptions(self, *args: Any, **options: Any) -> None:  # noqa: N802 - autobahn's name
        # A failed connection is closed with a close frame (code and reason), not dropped. The client may
        # still be sending the oversized message when the close goes out; autobahn's 1 s wait for its
        # close reply would then drop a socket with unread data, and the reset that follows discards the
        # error event before the client reads it. Waiting longer lets the client finish and reply.
        options.setdefault("closeHandshakeTimeout", CLOSE_HANDSHAKE_SECONDS)
        super().setProtocolOptions(*args, failByDrop=False, **options)


def main() -> None:
    daphne_server.WebSocketFactory = AnsweringWebSocketFactory  # the factory Server.run builds
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
