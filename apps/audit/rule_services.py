"""Writes for the verify node's rules kept as data (detection and whitelist patterns, required-tool rules).

Every save and delete goes through here, in one transaction with its record in the administrative trail.
The rules are platform-wide: a change made by staff has no tenant; one made while reviewing a tenant's
interception (a false positive whitelisted) is recorded in that tenant's trail too, since it was theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from apps.audit.changes import Actor, change_record
from apps.audit.models import ChangeAction, DetectionPattern, RequiredToolRule, WhitelistPattern
from apps.tenants.models import Tenant

Rule = DetectionPattern | WhitelistPattern | RequiredToolRule


@dataclass(frozen=True)
class _Audited:
    fields: tuple[str, ...]
    create: ChangeAction
    update: ChangeAction
    delete: ChangeAction


_AUDITED: dict[type[Any], _Audited] = {
    DetectionPattern: _Audited(
        ("code", "regex", "description", "active"),
        ChangeAction.DETECTION_CREATE,
        ChangeAction.DETECTION_UPDATE,
        ChangeAction.DETECTION_DELETE,
    ),
    WhitelistPattern: _Audited(
        ("regex", "note", "active"),
        ChangeAction.WHITELIST_CREATE,
        ChangeAction.WHITELIST_UPDATE,
        ChangeAction.WHITELIST_DELETE,
    ),
    RequiredToolRule: _Audited(
        ("source_type", "all_of", "any_of"),
        ChangeAction.TOOL_RULE_CREATE,
        ChangeAction.TOOL_RULE_UPDATE,
        ChangeAction.TOOL_RULE_DELETE,
    ),
}


def _fields(rule: Rule) -> dict[str, Any]:
    return {f: getattr(rule, f) for f in _AUDITED[type(rule)].fields}


def _stored(rule: Rule) -> dict[str, Any] | None:
    """The rule's fields as saved now (None for a new rule): the "before" of a change."""
    if rule.pk is None:
        return None
    saved = type(rule).objects.filter(pk=rule.pk).values(*_AUDITED[type(rule)].fields).first()
    return dict(saved) if saved is not None else None


@transaction.atomic
def rule_save(*, rule: Rule, actor: Actor | None = None, tenant: Tenant | None = None) -> Rule:
    """Create or change a rule (the object as edited) and record what changed."""
    audited = _AUDITED[type(rule)]
    before = _stored(rule)
    rule.save()
    change_record(
        tenant=tenant,
        actor=actor,
        action=audited.create if before is None else audited.update,
        target_id=rule.pk,
        target=str(rule),
        before=before,
        after=_fields(rule),
    )
    return rule


@transaction.atomic
def rule_delete(*, rule: Rule, actor: Actor | None = None, tenant: Tenant | None = None) -> None:
    change_record(
        tenant=tenant,
        actor=actor,
        action=_AUDITED[type(rule)].delete,
        target_id=rule.pk,
        target=str(rule),
        before=_fields(rule),
    )
    rule.delete()
