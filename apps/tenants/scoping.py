"""Tenant scoping by construction: the base of every tenant-owned model and its manager, which fails closed.

A tenant-owned row is reached only through `Model.objects.for_tenant(tenant)`; lookups by id go through
`get_for_tenant_or_404`, where "not yours" and "missing" are the same 404. A query that was never scoped
(`Model.objects.all()`, `.filter(...)`, `.get(...)`, `.count()`, `.update(...)`...) raises `UnscopedQuery`
when it would touch the database, instead of reading every tenant's rows. The one way to read across tenants
is spelled `unscoped_for_admin()`, so it stands out in review; the meta-test (apps/tenants/boundaries.py)
allows it only in selectors, services, admin, migrations, management commands and a short list of system jobs.
Rows reached through a scoped parent (`dataset.versions.all()`) are scoped by that parent.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models
from django.http import Http404

if TYPE_CHECKING:
    from apps.tenants.models import Tenant

M = TypeVar("M", bound="TenantOwnedModel")


class UnscopedQuery(RuntimeError):
    """A tenant-owned model was queried without `for_tenant(tenant)`: a bug, never answered around."""


# Django's own uniqueness checks (full_clean: forms, the admin) ask the default manager whether a clashing row
# exists, in any tenant for platform-wide unique fields (a token's hash). Only those checks may ask unscoped.
_uniqueness_check: ContextVar[bool] = ContextVar("tenant_uniqueness_check", default=False)


@contextmanager
def _checking_uniqueness() -> Iterator[None]:
    token = _uniqueness_check.set(True)
    try:
        yield
    finally:
        _uniqueness_check.reset(token)


class TenantQuerySet(models.QuerySet):
    """Queries of a tenant-owned model; reading one that was never scoped raises UnscopedQuery."""

    _scoped = False

    def _clone(self) -> Any:
        clone = super()._clone()  # type: ignore[misc]  # Django's private copy, which every chained call makes
        clone._scoped = self._scoped
        return clone

    def _mark_scoped(self) -> TenantQuerySet:
        scoped = self.all()
        scoped._scoped = True
        return scoped

    def _require_scope(self, action: str) -> None:
        if not self._scoped and not _uniqueness_check.get():
            raise UnscopedQuery(
                f"{self.model.__name__}.objects...{action}() would read every tenant's rows: "
                "call .for_tenant(tenant) first (or .unscoped_for_admin() in a selector, service, admin, "
                "migration or command)"
            )

    def for_tenant(self, tenant: Tenant) -> TenantQuerySet:
        if tenant is None or getattr(tenant, "pk", None) is None:
            raise ValueError("for_tenant() needs a saved tenant")
        return self.filter(tenant=tenant)._mark_scoped()

    def unscoped_for_admin(self) -> TenantQuerySet:
        """Every tenant's rows: for the Django admin, staff views and system jobs only."""
        return self._mark_scoped()

    # Every way a queryset reaches the database goes through one of these.
    def _fetch_all(self) -> None:
        if self._result_cache is None:
            self._require_scope("read")
        super()._fetch_all()

    def iterator(self, chunk_size: int | None = None) -> Any:
        self._require_scope("iterator")
        return super().iterator(chunk_size=chunk_size)

    def count(self) -> int:
        if self._result_cache is None:
            self._require_scope("count")
        return super().count()

    def exists(self) -> bool:
        if self._result_cache is None:
            self._require_scope("exists")
        return super().exists()

    def aggregate(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self._require_scope("aggregate")
        return super().aggregate(*args, **kwargs)

    def update(self, **kwargs: Any) -> int:
        self._require_scope("update")
        return super().update(**kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        self._require_scope("delete")
        return super().delete()

    def in_bulk(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        self._require_scope("in_bulk")
        return super().in_bulk(*args, **kwargs)

    def explain(self, *args: Any, **kwargs: Any) -> str:
        self._require_scope("explain")
        return super().explain(*args, **kwargs)

    def resolve_expression(self, *args: Any, **kwargs: Any) -> Any:
        """Used inside another query (`pk__in=...`): the inner query must be scoped too."""
        self._require_scope("subquery")
        return super().resolve_expression(*args, **kwargs)


class TenantManager(models.Manager.from_queryset(TenantQuerySet)):  # type: ignore[misc]
    """The default manager of tenant-owned models: unscoped until `for_tenant` (or the named escape hatch)."""

    def get_queryset(self) -> TenantQuerySet:
        queryset = super().get_queryset()
        if hasattr(self, "instance") and hasattr(self, "core_filters"):
            # A related manager (`dataset.versions`): its rows hang off a parent that was itself reached scoped.
            queryset = queryset._mark_scoped()
        return queryset

    def unscoped_for_admin(self) -> TenantQuerySet:
        """Every tenant's rows: for the Django admin, staff views and system jobs only."""
        return self.get_queryset()._mark_scoped()


class TenantOwnedModel(models.Model):
    """Base of every tenant-owned model: a non-null tenant and the scoped manager."""

    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TenantManager()

    class Meta:
        abstract = True

    def validate_unique(self, exclude: Any = None) -> None:
        with _checking_uniqueness():
            super().validate_unique(exclude)

    def validate_constraints(self, exclude: Any = None) -> None:
        with _checking_uniqueness():
            super().validate_constraints(exclude)


def get_for_tenant_or_404(model: type[M], tenant: Tenant, **lookup: Any) -> M:
    """The one way to fetch a tenant-owned object by key; another tenant's object is a plain 404."""
    try:
        return model.objects.for_tenant(tenant).get(**lookup)
    except (model.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise Http404(f"{model._meta.verbose_name} not found") from exc
