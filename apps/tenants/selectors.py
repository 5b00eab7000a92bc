"""Reads for tenants, memberships and tokens."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from apps.tenants import tokens
from apps.tenants.models import ApiToken, Membership, Tenant
from baplatform.errors import PlatformError


class TokenRejected(PlatformError):
    status = 401


def token_authenticate(*, raw: str) -> ApiToken:
    """The token for a plaintext secret, or TokenRejected saying why (malformed, unknown, revoked, expired)."""
    if not tokens.is_well_formed(raw):
        raise TokenRejected(
            _("The API token is malformed: expected “Bearer bap_…” as issued by the platform."),
            code="token_malformed",
        )
    # The hash is the lookup key; this is the one place a token is found without a tenant, by design.
    token = (
        ApiToken.objects.unscoped_for_admin().select_related("tenant").filter(token_hash=tokens.hash_token(raw)).first()
    )
    if token is None:
        raise TokenRejected(_("The API token is not recognised; check that it was copied whole."), code="token_unknown")
    if token.is_revoked:
        raise TokenRejected(_("The API token was revoked; ask an admin for a new one."), code="token_revoked")
    if token.is_expired:
        raise TokenRejected(_("The API token has expired; ask an admin for a new one."), code="token_expired")
    if not token.tenant.active:
        raise TokenRejected(_("This tenant is deactivated."), code="tenant_inactive")
    return token


def memberships_for_user(*, user: AbstractBaseUser | AnonymousUser) -> list[Membership]:
    if not user.is_authenticated:
        return []
    # Memberships are reached from the user here (which tenants may I enter?), not from a tenant.
    return list(
        Membership.objects.unscoped_for_admin()
        .filter(user=user, tenant__active=True)
        .select_related("tenant")
        .order_by("tenant__name")
    )


def tenant_by_slug(*, slug: str) -> Tenant | None:
    return Tenant.objects.filter(slug=slug).first()
