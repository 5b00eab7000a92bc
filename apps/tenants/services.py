"""Writes for tenants, memberships and API tokens. Keyword-only, each in one transaction."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.changes import Actor, change_record
from apps.audit.models import ChangeAction
from apps.tenants import tokens
from apps.tenants.models import ApiToken, Membership, Plan, Tenant
from apps.tenants.scopes import ROLE_SCOPES, Role, unknown_scopes
from apps.tenants.scoping import get_for_tenant_or_404
from apps.tenants.zones import invalid_zone_message, zone_names
from baplatform.errors import Conflict, Forbidden, InvalidInput

_SLUG_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
MAX_TOKEN_DAYS = 3650


def tenant_create(*, name: str, slug: str, plan: str = Plan.FREE) -> Tenant:
    name, slug = name.strip(), slug.strip().lower()
    if not name:
        raise InvalidInput(_("A tenant needs a name."), code="name_required")
    if not _SLUG_RE.match(slug):
        raise InvalidInput(
            _("“%(slug)s” is not a valid slug: use 1–64 lowercase letters, digits and hyphens.") % {"slug": slug},
            code="invalid_slug",
        )
    if plan not in Plan.values:
        raise InvalidInput(
            _("Unknown plan “%(plan)s”; choose one of: %(plans)s.") % {"plan": plan, "plans": ", ".join(Plan.values)},
            code="invalid_plan",
        )
    try:
        with transaction.atomic():
            return Tenant.objects.create(name=name, slug=slug, plan=plan)
    except IntegrityError as exc:
        raise Conflict(
            _("The slug “%(slug)s” is already taken; choose another.") % {"slug": slug}, code="slug_taken"
        ) from exc


@transaction.atomic
def tenant_set_time_zone(*, tenant: Tenant, time_zone: str, actor: Actor | None = None) -> Tenant:
    """Change the zone the tenant's times are shown in; recorded in the administrative trail."""
    time_zone = (time_zone or "").strip()
    if time_zone not in zone_names():
        raise InvalidInput(invalid_zone_message(time_zone), code="invalid_time_zone")
    locked = Tenant.objects.select_for_update().get(pk=tenant.pk)
    before = locked.time_zone
    if before != time_zone:
        locked.time_zone = time_zone
        locked.save(update_fields=["time_zone"])
        change_record(
            tenant=locked,
            actor=actor,
            action=ChangeAction.TENANT_TIME_ZONE,
            target_id=locked.pk,
            target=str(locked),
            before={"time_zone": before},
            after={"time_zone": time_zone},
        )
    tenant.time_zone = time_zone
    return tenant


def _owner_count(tenant: Tenant) -> int:
    return Membership.objects.for_tenant(tenant).filter(role=Role.OWNER).count()


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise InvalidInput(
            _("Unknown role “%(role)s”; choose one of: %(roles)s.") % {"role": role, "roles": ", ".join(Role.values)},
            code="invalid_role",
        )


def _member_fields(membership: Membership) -> dict[str, str]:
    return {"user": membership.user.get_username(), "role": membership.role}


def _member_record(membership: Membership, actor: Actor | None, action: ChangeAction, **states: Any) -> None:
    change_record(
        tenant=membership.tenant,
        actor=actor,
        action=action,
        target_id=membership.pk,
        target=membership.user.get_username(),
        **states,
    )


@transaction.atomic
def membership_add(*, tenant: Tenant, user: AbstractBaseUser, role: str, actor: Actor | None = None) -> Membership:
    _check_role(role)
    if Membership.objects.for_tenant(tenant).filter(user=user).exists():
        raise Conflict(_("%(user)s is already a member of this tenant.") % {"user": user}, code="already_member")
    membership = Membership.objects.create(tenant=tenant, user=user, role=role)
    _member_record(membership, actor, ChangeAction.MEMBER_ADD, after=_member_fields(membership))
    return membership


def membership_add_by_login(*, tenant: Tenant, login: str, role: str, actor: Actor | None = None) -> Membership:
    """Add an existing user, found by username or email, to the tenant."""
    user_model = get_user_model()
    login = login.strip()
    user = user_model.objects.filter(username=login).first() or (
        user_model.objects.filter(email__iexact=login).first() if "@" in login else None
    )
    if user is None:
        raise InvalidInput(
            _("No user with the username or email “%(login)s”; ask them to sign up first.") % {"login": login},
            code="unknown_user",
        )
    return membership_add(tenant=tenant, user=user, role=role, actor=actor)


@transaction.atomic
def membership_set_role(*, tenant: Tenant, membership_id: int, role: str, actor: Actor | None = None) -> Membership:
    _check_role(role)
    membership = get_for_tenant_or_404(Membership, tenant, pk=membership_id)
    if membership.role == Role.OWNER and role != Role.OWNER and _owner_count(tenant) <= 1:
        raise Forbidden(_("A tenant must keep at least one owner."), code="last_owner")
    if membership.role != role:
        before = {"role": membership.role}
        membership.role = role
        membership.save(update_fields=["role"])
        _member_record(membership, actor, ChangeAction.MEMBER_ROLE, before=before, after={"role": role})
    return membership


@transaction.atomic
def membership_remove(*, tenant: Tenant, membership_id: int, actor: Actor | None = None) -> None:
    membership = get_for_tenant_or_404(Membership, tenant, pk=membership_id)
    if membership.role == Role.OWNER and _owner_count(tenant) <= 1:
        raise Forbidden(_("A tenant must keep at least one owner."), code="last_owner")
    _member_record(membership, actor, ChangeAction.MEMBER_REMOVE, before=_member_fields(membership))
    membership.delete()


def _token_expiry(expires_in_days: int | None) -> dt.datetime | None:
    days = settings.API_TOKEN_DEFAULT_DAYS if expires_in_days is None else expires_in_days
    if days < 0 or days > MAX_TOKEN_DAYS:
        raise InvalidInput(
            _("Expiry must be between 0 (never) and %(max)d days.") % {"max": MAX_TOKEN_DAYS}, code="invalid_expiry"
        )
    return timezone.now() + dt.timedelta(days=days) if days else None


def token_create(
    *,
    tenant: Tenant,
    name: str,
    scopes: list[str],
    created_by: AbstractBaseUser | None = None,
    expires_in_days: int | None = None,
    allowed_scopes: frozenset[str] | None = None,
    actor: Actor | None = None,
) -> tuple[ApiToken, str]:
    """Create a token and return it with its plaintext, which is shown once and never stored.

    `allowed_scopes` is what the creator may grant (their own scopes); None means any scope.
    """
    name = name.strip()
    scopes = sorted(set(scopes))
    if not name:
        raise InvalidInput(_("A token needs a name."), code="name_required")
    if not scopes:
        raise InvalidInput(_("Choose at least one scope for the token."), code="scopes_required")
    if bad := unknown_scopes(scopes):
        raise InvalidInput(_("Unknown scopes: %(scopes)s.") % {"scopes": ", ".join(bad)}, code="invalid_scope")
    if allowed_scopes is not None and (beyond := sorted(set(scopes) - allowed_scopes)):
        raise Forbidden(
            _("You cannot grant scopes you do not have: %(scopes)s.") % {"scopes": ", ".join(beyond)},
            code="scope_not_allowed",
        )
    raw = tokens.generate_token()
    with transaction.atomic():
        token = ApiToken.objects.create(
            tenant=tenant,
            name=name,
            prefix=tokens.display_prefix(raw),
            token_hash=tokens.hash_token(raw),
            scopes=scopes,
            created_by=created_by,
            expires_at=_token_expiry(expires_in_days),
        )
        _token_record(token, actor, ChangeAction.TOKEN_CREATE, after=_token_fields(token))
    return token, raw


def _token_fields(token: ApiToken) -> dict[str, Any]:
    """What the trail keeps of a token: never its value or hash (the prefix is shown in lists anyway)."""
    return {"name": token.name, "prefix": token.prefix, "scopes": token.scopes, "expires_at": token.expires_at}


def _token_record(token: ApiToken, actor: Actor | None, action: ChangeAction, **states: Any) -> None:
    change_record(tenant=token.tenant, actor=actor, action=action, target_id=token.pk, target=str(token), **states)


@transaction.atomic
def token_revoke(*, tenant: Tenant, token_id: int, actor: Actor | None = None) -> ApiToken:
    token = get_for_tenant_or_404(ApiToken, tenant, pk=token_id)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        _token_record(
            token, actor, ChangeAction.TOKEN_REVOKE, before={"revoked_at": None}, after={"revoked_at": token.revoked_at}
        )
    return token


LAST_USED_RESOLUTION = dt.timedelta(minutes=1)


def token_touch(*, token: ApiToken) -> None:
    """Record use, at most once a minute per token so authentication does not write on every request."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.for_tenant(token.tenant).filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


@transaction.atomic
def owner_ensure(*, tenant: Tenant, user: AbstractBaseUser, actor: Actor | None = None) -> Membership:
    """Make `user` an owner of `tenant` (idempotent; used by setup commands)."""
    membership, created = Membership.objects.for_tenant(tenant).get_or_create(
        tenant=tenant, user=user, defaults={"role": Role.OWNER}
    )
    if created:
        _member_record(membership, actor, ChangeAction.MEMBER_ADD, after=_member_fields(membership))
    elif membership.role != Role.OWNER:
        before = {"role": membership.role}
        membership.role = Role.OWNER
        membership.save(update_fields=["role"])
        _member_record(membership, actor, ChangeAction.MEMBER_ROLE, before=before, after={"role": Role.OWNER})
    return membership


def role_scopes(role: str) -> frozenset[str]:
    return ROLE_SCOPES[role]
