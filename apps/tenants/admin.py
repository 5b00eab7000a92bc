"""Platform staff views over every tenant (the Django admin is the one unscoped reader)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from apps.tenants.models import ApiToken, Membership, Tenant


class UnscopedAdmin(admin.ModelAdmin):
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.model.objects.unscoped_for_admin()


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "plan", "active", "created_at")
    list_filter = ("plan", "active")
    search_fields = ("name", "slug")


@admin.register(Membership)
class MembershipAdmin(UnscopedAdmin):
    list_display = ("user", "tenant", "role", "created_at")
    list_filter = ("role", "tenant")
    search_fields = ("user__username", "user__email", "tenant__slug")


@admin.register(ApiToken)
class ApiTokenAdmin(UnscopedAdmin):
    list_display = ("name", "prefix", "tenant", "status", "expires_at", "last_used_at")
    list_filter = ("tenant",)
    search_fields = ("name", "prefix", "tenant__slug")
    readonly_fields = ("prefix", "token_hash", "created_at", "last_used_at", "revoked_at", "created_by")
    actions = ("revoke",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tokens are created where the plaintext can be shown once: portal, API or command

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
