"""The base of every API view: the tenant comes from authentication and nowhere else.

Subclasses declare `scope_map` and read `self.tenant`; they may not override
`get_queryset`/`get_object` (the PostHog rule) — tenant-owned rows are fetched through
`for_tenant()` and `get_for_tenant_or_404`.
"""

from __future__ import annotations

from typing import Any, ClassVar

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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _FORBIDDEN_OVERRIDES:
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}(); fetch rows with for_tenant()/get_for_tenant_or_404 instead"
                )
        if "permission_classes" in cls.__dict__ and HasTenantScope not in cls.permission_classes:
            raise TypeError(f"{cls.__name__} drops HasTenantScope from permission_classes")

    @property
    def tenant_ctx(self) -> TenantContext:
        request: Request = self.request
        return request.tenant_ctx

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
