"""Tenant scoping by construction: the base of every tenant-owned model and its manager.

A tenant-owned row is reached only through `Model.objects.for_tenant(tenant)`; lookups
by id go through `get_for_tenant_or_404`, where "not yours" and "missing" are the same 404.
An unscoped read is spelled `unscoped_for_admin()` so it stands out in review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models
from django.http import Http404

if TYPE_CHECKING:
    from apps.tenants.models import Tenant

M = TypeVar("M", bound="TenantOwnedModel")


class TenantQuerySet(models.QuerySet):
    def for_tenant(self, tenant: Tenant) -> TenantQuerySet:
        if tenant is None or getattr(tenant, "pk", None) is None:
            raise ValueError("for_tenant() needs a saved tenant")
        return self.filter(tenant=tenant)


class TenantManager(models.Manager.from_queryset(TenantQuerySet)):  # type: ignore[misc]
    """The default manager of tenant-owned models."""

    def unscoped_for_admin(self) -> TenantQuerySet:
        """Every tenant's rows: for the Django admin, staff views and system jobs only."""
        return super().get_queryset()


class TenantOwnedModel(models.Model):
    """Base of every tenant-owned model: a non-null tenant and the scoped manager."""

    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TenantManager()

    class Meta:
        abstract = True


def get_for_tenant_or_404(model: type[M], tenant: Tenant, **lookup: Any) -> M:
    """The one way to fetch a tenant-owned object by key; another tenant's object is a plain 404."""
    try:
        return model.objects.for_tenant(tenant).get(**lookup)
    except (model.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise Http404(f"{model._meta.verbose_name} not found") from exc
