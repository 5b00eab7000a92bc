"""Tenants, memberships (roles) and hashed API tokens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.tenants.scopes import ROLE_SCOPES, Role
from apps.tenants.scoping import TenantOwnedModel
from apps.tenants.zones import default_time_zone, validate_time_zone


class Plan(models.TextChoices):
    FREE = "free", _("Free")
    TEAM = "team", _("Team")
    ENTERPRISE = "enterprise", _("Enterprise")


class Tenant(models.Model):
    """A customer company. The root of scoping: it is not itself tenant-owned."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=64, unique=True)
    plan = models.CharField(max_length=20, choices=Plan.choices, default=Plan.FREE)
    active = models.BooleanField(default=True)
    # The IANA zone the tenant's pages, API responses and exports show times in (stored times stay UTC).
    time_zone = models.CharField(max_length=64, default=default_time_zone, validators=[validate_time_zone])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.slug})"


class Membership(TenantOwnedModel):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.ANALYST)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "user"], name="uniq_membership")]
        ordering = ["tenant_id", "user_id"]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tenant_id} ({self.role})"

    @property
    def scopes(self) -> frozenset[str]:
        return ROLE_SCOPES[self.role]


class ApiToken(TenantOwnedModel):
    """An integration's credential. Only a sha256 of the secret is stored; the prefix is for display."""

    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16)
    token_hash = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def status(self) -> str:
        if self.is_revoked:
            return "revoked"
        if self.is_expired:
            return "expired"
        return "active"
