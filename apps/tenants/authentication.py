"""DRF authentication for `Authorization: Bearer <token>`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from apps.tenants.models import ApiToken
from apps.tenants.selectors import TokenRejected, token_authenticate
from apps.tenants.services import token_touch


class TokenPrincipal:
    """`request.user` for token requests: authenticated, but not a person with a password."""

    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False

    def __init__(self, token: ApiToken) -> None:
        self.token = token
        self.pk = None
        self.username = f"token:{token.prefix}"

    def __str__(self) -> str:
        return self.username


def parse_bearer(header: str) -> str | None:
    """The raw token of a Bearer header; None for another scheme; TokenRejected when malformed."""
    parts = header.split()
    if not parts or parts[0].lower() != "bearer":
        return None
    if len(parts) != 2:
        raise TokenRejected(
            _("Malformed Authorization header: use “Authorization: Bearer <token>”."), code="token_malformed"
        )
    return parts[1]


def authenticate_bearer(header: str) -> ApiToken | None:
    raw = parse_bearer(header)
    if raw is None:
        return None
    token = token_authenticate(raw=raw)
    token_touch(token=token)
    return token


class BearerTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = get_authorization_header(request).decode("latin-1")
        try:
            token = authenticate_bearer(header)
        except TokenRejected as exc:
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        if token is None:
            return None
        return TokenPrincipal(token), token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
