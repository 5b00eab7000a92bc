"""The base of every API view: the tenant comes from authentication and nowhere else.

Subclasses declare `scope_map` and read `self.tenant`; they may not override
`get_queryset`/`get_object` (the PostHog rule) — tenant-owned rows are fetched through
`for_tenant()` and `get_for_tenant_or_404`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from apps.tenants.context import TenantContext
from apps.tenants.models import Tenant
from apps.tenants.permissions import HasTenantScope
from apps.tenants.throttling import PerTokenRateThrottle

_FORBIDDEN_OVERRIDES = ("get_queryset", "get_object")


class TenantAPIView(APIView):
    permission_classes: ClassVar[list[Any]] = [HasTenantScope]
    throttle_classes: ClassVar[list[Any]] = [PerTokenRateThrottle]
    scope_map: ClassVar[dict[str, str]] = {}
    # A scope that, lacking GET's scope, still reads what the caller created: the view then checks
    # `reads_own_only` and shows another's object as not found.
    own_read_scope: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _FORBIDDEN_OVERRIDES:
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}(); fetch rows with for_tenant()/get_for_tenant_or_404 instead"
                )
        if "permission_classes" in cls.__dict__ and HasTenantScope not in cls.permission_classes:
            raise TypeError(f"{cls.__name__} drops HasTenantScope from permission_classes")

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """After authentication and the scope check: times in this response are in the tenant's zone
        (PortalTenantMiddleware resets it when the request ends)."""
        super().initial(request, *args, **kwargs)
        ctx = getattr(request, "tenant_ctx", None)
        if ctx is not None:
            timezone.activate(ctx.tenant.time_zone)

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        response["X-Time-Zone"] = timezone.get_current_timezone_name()
        return response

    @property
    def tenant_ctx(self) -> TenantContext:
        request: Request = self.request
        return request.tenant_ctx

    @property
    def reads_own_only(self) -> bool:
        return bool(getattr(self.request, "reads_own_only", False))

    @property
    def tenant(self) -> Tenant:
        return self.tenant_ctx.tenant

    def paginate(self, queryset: Any, serialize: Any) -> Any:
        """Apply the default pagination to a scoped queryset and serialise the page."""
        paginator_class = api_settings.DEFAULT_PAGINATION_CLASS
        if paginator_class is None:
            return Response([serialize(obj) for obj in queryset])
        paginator = paginator_class()
        page = paginator.paginate_queryset(queryset, self.request, view=self)
        return paginator.get_paginated_response([serialize(obj) for obj in page or []])
