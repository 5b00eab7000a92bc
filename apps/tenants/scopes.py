"""Scopes (what a token or a role may do) and the scopes each membership role carries."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

DATASETS_READ = "datasets:read"
DATASETS_WRITE = "datasets:write"
CONVERSATIONS_READ = "conversations:read"
CONVERSATIONS_WRITE = "conversations:write"
AUDIT_READ = "audit:read"
BILLING_READ = "billing:read"
TOKENS_MANAGE = "tokens:manage"
MEMBERS_MANAGE = "members:manage"

ALL_SCOPES: tuple[str, ...] = (
    DATASETS_READ,
    DATASETS_WRITE,
    CONVERSATIONS_READ,
    CONVERSATIONS_WRITE,
    AUDIT_READ,
    BILLING_READ,
    TOKENS_MANAGE,
    MEMBERS_MANAGE,
)


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    ANALYST = "analyst", _("Analyst")
    VIEWER = "viewer", _("Viewer")


_VIEWER = frozenset({DATASETS_READ, CONVERSATIONS_READ})
_ANALYST = _VIEWER | {DATASETS_WRITE, CONVERSATIONS_WRITE}
_ADMIN = _ANALYST | {AUDIT_READ, BILLING_READ, TOKENS_MANAGE, MEMBERS_MANAGE}

ROLE_SCOPES: dict[str, frozenset[str]] = {
    Role.VIEWER: _VIEWER,
    Role.ANALYST: frozenset(_ANALYST),
    Role.ADMIN: frozenset(_ADMIN),
    Role.OWNER: frozenset(ALL_SCOPES),
}


def unknown_scopes(scopes: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    return sorted(set(scopes) - set(ALL_SCOPES))
