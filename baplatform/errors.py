"""Errors that reach users: a stable `code`, a message in the user's language, an HTTP status.

Services raise `PlatformError` subclasses; the API turns them into `{"code": ..., "message": ...}`
JSON (baplatform/api_errors.py); portal views show `message` to the user.

Ground floor: this module imports nothing of the project, so every part may raise these errors.
"""

from __future__ import annotations

from typing import Any


class PlatformError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details


class InvalidInput(PlatformError):
    status = 400
    code = "invalid"


class NotFound(PlatformError):
    status = 404
    code = "not_found"


class Conflict(PlatformError):
    status = 409
    code = "conflict"


class Forbidden(PlatformError):
    status = 403
    code = "forbidden"


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return body
