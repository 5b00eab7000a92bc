"""Portal requests: attach the signed-in user's current tenant context (chosen in the session) and show times in
the tenant's time zone. API views activate their token's tenant zone after authentication (TenantAPIView); the
zone is reset here when any request ends, so it never leaks into the next request on the same thread."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from apps.tenants.context import TenantContext, context_for_session


class PortalTenantMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        def resolve() -> TenantContext | None:
            user = getattr(request, "user", None)
            if user is None or not user.is_authenticated:
                return None
            return context_for_session(user, request.session)

        request.portal_ctx = SimpleLazyObject(resolve)  # type: ignore[attr-defined]
        try:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and request.portal_ctx:  # type: ignore[attr-defined]
                timezone.activate(request.portal_ctx.tenant.time_zone)  # type: ignore[attr-defined]
            return self.get_response(request)
        finally:
            timezone.deactivate()
