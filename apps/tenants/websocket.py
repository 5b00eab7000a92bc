"""WebSocket authentication: API tokens in the `Authorization: Bearer` header, for integrations.

Browser sessions are handled by Channels' AuthMiddlewareStack; this middleware adds the
token path and records the tenant context in `scope["tenant_ctx"]` for consumers.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from apps.tenants.authentication import TokenPrincipal, authenticate_bearer
from apps.tenants.context import TenantContext, context_for_session, context_for_token
from apps.tenants.selectors import TokenRejected


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


@database_sync_to_async
def _resolve(scope: dict[str, Any]) -> tuple[TenantContext | None, str | None]:
    """(context, rejection code). A bad token is rejected even if a session cookie is present."""
    header = _header(scope, b"authorization")
    if header:
        try:
            token = authenticate_bearer(header)
        except TokenRejected as exc:
            return None, exc.code
        if token is not None:
            scope["user"] = TokenPrincipal(token)
            return context_for_token(token), None
    user = scope.get("user")
    session = scope.get("session")
    if user is not None and user.is_authenticated and session is not None:
        return context_for_session(user, session), None
    return None, None


class TokenAuthMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            scope = dict(scope)
            ctx, rejection = await _resolve(scope)
            scope["tenant_ctx"] = ctx
            scope["auth_rejection"] = rejection
        return await self.app(scope, receive, send)


class OriginOrTokenValidator:
    """Browser connections (cookie auth) must come from an allowed Origin, as Channels checks;
    integrations that authenticate with a Bearer header are not CSRF-able and may omit Origin."""

    def __init__(self, app: Any) -> None:
        from channels.security.websocket import AllowedHostsOriginValidator

        self.app = app
        self.browser_app = AllowedHostsOriginValidator(app)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and _header(scope, b"authorization"):
            return await self.app(scope, receive, send)
        return await self.browser_app(scope, receive, send)


def websocket_stack(app: Any) -> Any:
    """The WebSocket middleware stack used by asgi.py (and by tests, around a test consumer)."""
    from channels.auth import AuthMiddlewareStack

    return OriginOrTokenValidator(AuthMiddlewareStack(TokenAuthMiddleware(app)))
