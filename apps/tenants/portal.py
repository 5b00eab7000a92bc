"""Portal helpers: the `portal_view` decorator that resolves the tenant and checks the role's scope."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from apps.tenants.context import TenantContext


def current_context(request: HttpRequest) -> TenantContext | None:
    ctx = getattr(request, "portal_ctx", None)
    return ctx if ctx else None


def portal_view(scope: str | None = None, write_scope: str | None = None) -> Callable[..., Any]:
    """Login required, a tenant required; `scope` to view, `write_scope` for POST.

    The view receives the TenantContext as its second argument.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            ctx = current_context(request)
            if ctx is None:
                return render(request, "portal/no_tenant.html", status=403)
            needed = write_scope if request.method == "POST" and write_scope else scope
            if needed and needed not in ctx.scopes:
                message = _("Your role (%(role)s) does not allow this; ask an admin of %(tenant)s.") % {
                    "role": ctx.membership.get_role_display() if ctx.membership else "-",
                    "tenant": ctx.tenant.name,
                }
                return render(request, "portal/forbidden.html", {"message": message}, status=403)
            return view(request, ctx, *args, **kwargs)

        return wrapper

    return decorate
