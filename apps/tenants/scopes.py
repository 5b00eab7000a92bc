"""Scopes (what a token or a role may do) and the scopes each membership role carries."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

DATASETS_READ = "datasets:read"
DATASETS_WRITE = "datasets:write"
# Register, change, re-test and delete SQL sources: the platform connects to hosts these name and sends
# the stored credentials there, so it is an admin power, not an analyst's.
SOURCES_MANAGE = "sources:manage"
CONVERSATIONS_READ = "conversations:read"
CONVERSATIONS_WRITE = "conversations:write"
AUDIT_READ = "audit:read"
BILLING_READ = "billing:read"
TOKENS_MANAGE = "tokens:manage"
MEMBERS_MANAGE = "members:manage"
# Platform-wide Prometheus metrics (all tenants' aggregates): in no role; granted to a scraper's token by staff.
METRICS_READ = "metrics:read"

ALL_SCOPES: tuple[str, ...] = (
    DATASETS_READ,
    DATASETS_WRITE,
    SOURCES_MANAGE,
    CONVERSATIONS_READ,
    CONVERSATIONS_WRITE,
    AUDIT_READ,
    BILLING_READ,
    TOKENS_MANAGE,
    MEMBERS_MANAGE,
    METRICS_READ,
)
PLATFORM_SCOPES = frozenset({METRICS_READ})

# What each scope allows, in the user's language, beside its name (which stays as the API spells it).
SCOPE_LABELS = {
    DATASETS_READ: _("read datasets and SQL sources, query them"),
    DATASETS_WRITE: _("upload files and create datasets"),
    SOURCES_MANAGE: _("register, change and delete SQL sources"),
    CONVERSATIONS_READ: _("read every conversation and its answers"),
    CONVERSATIONS_WRITE: _("start conversations and ask questions (and read its own)"),
    AUDIT_READ: _("read the audit trail"),
    BILLING_READ: _("read usage and billing"),
    TOKENS_MANAGE: _("create and revoke API tokens"),
    MEMBERS_MANAGE: _("add, change and remove members"),
    METRICS_READ: _("read the platform's metrics"),
}


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    ANALYST = "analyst", _("Analyst")
    VIEWER = "viewer", _("Viewer")


_VIEWER = frozenset({DATASETS_READ, CONVERSATIONS_READ})
_ANALYST = _VIEWER | {DATASETS_WRITE, CONVERSATIONS_WRITE}
_ADMIN = _ANALYST | {SOURCES_MANAGE, AUDIT_READ, BILLING_READ, TOKENS_MANAGE, MEMBERS_MANAGE}

ROLE_SCOPES: dict[str, frozenset[str]] = {
    Role.VIEWER: _VIEWER,
    Role.ANALYST: frozenset(_ANALYST),
    Role.ADMIN: frozenset(_ADMIN),
    Role.OWNER: frozenset(ALL_SCOPES) - PLATFORM_SCOPES,
}


def unknown_scopes(scopes: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    return sorted(set(scopes) - set(ALL_SCOPES))
