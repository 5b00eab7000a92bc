"""Platform staff views over every tenant (the Django admin is the one unscoped reader)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.audit.changes import Actor
from apps.tenants import services
from apps.tenants.models import ApiToken, Membership, Tenant
from baplatform.errors import PlatformError


class UnscopedAdmin(admin.ModelAdmin):
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.model.objects.unscoped_for_admin()


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "plan", "time_zone", "active", "created_at")
    list_filter = ("plan", "active")
    search_fields = ("name", "slug")

    def save_model(self, request: HttpRequest, obj: Tenant, form: Any, change: bool) -> None:
        """A change of time zone goes through the service, so it is in the tenant's audit trail."""
        if not (change and "time_zone" in form.changed_data):
            super().save_model(request, obj, form, change)
            return
        zone, obj.time_zone = obj.time_zone, form.initial["time_zone"]
        super().save_model(request, obj, form, change)
        services.tenant_set_time_zone(tenant=obj, time_zone=zone, actor=Actor.staff(request.user))


@admin.register(Membership)
class MembershipAdmin(UnscopedAdmin):
    """Adds, role changes and removals go through the services, so each is in the tenant's audit trail."""

    list_display = ("user", "tenant", "role", "created_at")
    list_filter = ("role", "tenant")
    search_fields = ("user__username", "user__email", "tenant__slug")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (
            ("tenant", "user") if obj is not None else ()
        )  # a membership is someone in a tenant: only its role changes

    def save_model(self, request: HttpRequest, obj: Membership, form: Any, change: bool) -> None:
        actor = Actor.staff(request.user)
        if change:
            services.membership_set_role(tenant=obj.tenant, membership_id=obj.pk, role=obj.role, actor=actor)
        else:
            saved = services.membership_add(tenant=obj.tenant, user=obj.user, role=obj.role, actor=actor)
            obj.pk = saved.pk

    def delete_model(self, request: HttpRequest, obj: Membership) -> None:
        services.membership_remove(tenant=obj.tenant, membership_id=obj.pk, actor=Actor.staff(request.user))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        for membership in queryset.select_related("tenant"):
            try:
                self.delete_model(request, membership)
            except PlatformError as exc:
                self.message_user(request, f"{membership}: {exc.message}", messages.ERROR)


@admin.register(ApiToken)
class ApiTokenAdmin(UnscopedAdmin):
    list_display = ("name", "prefix", "tenant", "status", "expires_at", "last_used_at")
    list_filter = ("tenant",)
    search_fields = ("name", "prefix", "tenant__slug")
    # Nothing is edited here (a change would escape the audit trail): tokens are created in the portal, the API
    # or a command, and revoked with the action below, through the services.
    readonly_fields = (
        "tenant",
        "name",
        "prefix",
        "scopes",
        "expires_at",
        "created_at",
        "last_used_at",
        "revoked_at",
        "created_by",
    )
    exclude = ("token_hash",)
    actions = ("revoke",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tokens are created where the plaintext can be shown once: portal, API or command

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        actor = Actor.staff(request.user)
        for token in queryset.filter(revoked_at__isnull=True).select_related("tenant"):
            services.token_revoke(tenant=token.tenant, token_id=token.pk, actor=actor)
