"""Template context: the current tenant, the user's memberships (for the switcher), scopes and the label of the
time zone the page's times are in ("UTC+08:00 Asia/Shanghai")."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from apps.tenants.selectors import memberships_for_user
from apps.tenants.zones import current_zone_label


def tenant(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    ctx = getattr(request, "portal_ctx", None)
    ctx = ctx if ctx else None  # a SimpleLazyObject wrapping None is falsy
    return {
        "current_tenant": ctx.tenant if ctx else None,
        "current_role": ctx.membership.role if ctx and ctx.membership else None,
        "current_scopes": ctx.scopes if ctx else frozenset(),
        "memberships": memberships_for_user(user=user),
        "time_zone_label": current_zone_label(),
    }
