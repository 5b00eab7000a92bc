"""Reads for SQL sources: the tenant's sources, and one by id (another tenant's is a plain 404)."""

from __future__ import annotations

from django.db.models import QuerySet

from apps.datasets.models import SqlSource
from apps.tenants.models import Tenant
from apps.tenants.scoping import get_for_tenant_or_404


def source_list(*, tenant: Tenant) -> QuerySet[SqlSource]:
    return SqlSource.objects.for_tenant(tenant).order_by("name")


def source_get(*, tenant: Tenant, source_id: int) -> SqlSource:
    return get_for_tenant_or_404(SqlSource, tenant, pk=source_id)
