"""Who is acting, for which tenant, with which scopes: resolved once per request from authentication."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from apps.tenants.models import ApiToken, Membership, Tenant
from apps.tenants.selectors import memberships_for_user

SESSION_TENANT_KEY = "tenant_id"


@dataclass(frozen=True)
class TenantContext:
    tenant: Tenant
    scopes: frozenset[str]
    user: AbstractBaseUser | None = None
    token: ApiToken | None = None
    membership: Membership | None = None

    @property
    def actor_label(self) -> str:
        if self.token is not None:
            return f"token:{self.token.prefix}"
        return f"user:{getattr(self.user, 'username', '?')}"


def choose_membership(memberships: list[Membership], wanted_tenant_id: Any) -> Membership | None:
    """The membership for the tenant chosen in the session, else the user's first one."""
    for membership in memberships:
        if str(membership.tenant_id) == str(wanted_tenant_id):
            return membership
    return memberships[0] if memberships else None


def context_for_session(user: AbstractBaseUser, session: Any) -> TenantContext | None:
    membership = choose_membership(memberships_for_user(user=user), session.get(SESSION_TENANT_KEY))
    if membership is None:
        return None
    return TenantContext(tenant=membership.tenant, scopes=membership.scopes, user=user, membership=membership)


def context_for_token(token: ApiToken) -> TenantContext:
    return TenantContext(tenant=token.tenant, scopes=frozenset(token.scopes), user=token.created_by, token=token)
