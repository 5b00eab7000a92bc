"""The administrative audit trail: who changed tokens, members, SQL sources, synonyms and the verify rules.

Services that make such a change call `change_record` inside their own transaction, so the change and its
record are saved together or not at all. Secret values (passwords, token values and hashes) are never passed in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from apps.audit.models import AdminChange, ChangeAction
from apps.tenants.context import TenantContext
from apps.tenants.models import ApiToken, Tenant

VIA_API, VIA_PORTAL, VIA_ADMIN, VIA_COMMAND, VIA_SYSTEM = "api", "portal", "admin", "command", "system"


@dataclass(frozen=True)
class Actor:
    """Who made a change and through which door."""

    label: str
    via: str
    user: AbstractBaseUser | None = None
    token: ApiToken | None = None

    @classmethod
    def of(cls, ctx: TenantContext, *, via: str) -> Actor:
        """The caller of an API request or a portal page (a token acts as itself, not as its creator)."""
        if ctx.token is not None:
            return cls(label=ctx.actor_label, via=via, token=ctx.token)
        return cls(label=ctx.actor_label, via=via, user=ctx.user)

    @classmethod
    def staff(cls, user: Any) -> Actor:
        """Platform staff in the Django admin."""
        return cls(label=f"staff:{getattr(user, 'username', '?')}", via=VIA_ADMIN, user=_saved(user))

    @classmethod
    def command(cls, name: str) -> Actor:
        return cls(label=f"command:{name}", via=VIA_COMMAND)


SYSTEM = Actor(label="system", via=VIA_SYSTEM)


def _saved(user: Any) -> AbstractBaseUser | None:
    return user if getattr(user, "pk", None) else None


def plain(value: Any) -> Any:
    """A field's value as JSON keeps it: times as ISO text, sets and tuples as sorted lists."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, set | frozenset | tuple):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    return value


def diff(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> dict[str, list[Any]]:
    """{field: [before, after]} for every field whose value differs; a creation's before and a deletion's
    after are None."""
    old = {k: plain(v) for k, v in (before or {}).items()}
    new = {k: plain(v) for k, v in (after or {}).items()}
    return {f: [old.get(f), new.get(f)] for f in dict.fromkeys([*old, *new]) if old.get(f) != new.get(f)}


def change_record(
    *,
    tenant: Tenant | None,
    actor: Actor | None,
    action: ChangeAction,
    target_id: Any = "",
    target: str = "",
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    secrets_changed: list[str] | tuple[str, ...] = (),
) -> AdminChange | None:
    """Record one change. Call it inside the transaction that makes the change (it insists).
    An update that changed nothing (every value the same, no secret set) is not recorded."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("change_record() must run inside the transaction that makes the change")
    changes = diff(before, after)
    if before is not None and after is not None and not changes and not secrets_changed:
        return None
    who = actor or SYSTEM
    return AdminChange.objects.create(
        tenant=tenant,
        action=action,
        actor=who.label[:200],
        actor_user=_saved(who.user),
        actor_token=who.token if getattr(who.token, "pk", None) else None,
        via=who.via,
        target_id=str(target_id or "")[:64],
        target=str(target or "")[:255],
        changes=changes,
        secrets_changed=list(secrets_changed),
    )
