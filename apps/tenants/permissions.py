"""Scope checks for API views: each view declares `scope_map` (method -> scope); undeclared means denied."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from apps.observability import context as log_context
from apps.tenants.context import TenantContext, context_for_session, context_for_token
from apps.tenants.models import ApiToken

# A scope_map value meaning "any authenticated member or token of the tenant".
ANY_SCOPE = "*"


def resolve_tenant_context(request: Request) -> TenantContext:
    if isinstance(request.auth, ApiToken):
        return context_for_token(request.auth)
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        raise exceptions.NotAuthenticated(_("Authentication required: send “Authorization: Bearer <token>” or log in."))
    ctx = context_for_session(user, request.session)
    if ctx is None:
        raise exceptions.PermissionDenied(_("You are not a member of any active tenant."), code="no_tenant")
    return ctx


class HasTenantScope(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        ctx = resolve_tenant_context(request)
        request.tenant_ctx = ctx
        log_context.annotate(tenant=ctx.tenant.slug, actor=ctx.actor_label)
        scope_map: dict[str, str] = getattr(view, "scope_map", {})
        method = "GET" if request.method in ("HEAD", "OPTIONS") else request.method
        required = scope_map.get(method or "")
        if not hasattr(view, (request.method or "").lower()):
            raise exceptions.MethodNotAllowed(request.method or "")  # 405 with the Allow header, not a 403
        if required is None:
            raise exceptions.PermissionDenied(
                _("This endpoint does not allow %(method)s.") % {"method": request.method}, code="method_not_scoped"
            )
        own = getattr(view, "own_read_scope", None)
        if method == "GET" and required not in ctx.scopes and own is not None and own in ctx.scopes:
            request.reads_own_only = True  # the view shows only what this caller created
            return True
        if required != ANY_SCOPE and required not in ctx.scopes:
            who = _("This token") if ctx.token is not None else _("Your role")
            raise exceptions.PermissionDenied(
                _("%(who)s lacks the “%(scope)s” scope needed for this request.") % {"who": who, "scope": required},
                code="missing_scope",
            )
        return True
