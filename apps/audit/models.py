"""What admins review and tune: interceptions, and the verify node's rules kept as data.

Detection patterns, whitelist patterns and required-tool rules are platform-wide (staff edit them);
they take effect on the next run. Interceptions belong to the tenant whose run was intercepted.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenants.scoping import TenantOwnedModel


def validate_regex(value: str) -> None:
    try:
        re.compile(value)
    except re.error as exc:
        raise ValidationError(f"this pattern does not compile ({exc}); fix it before saving") from exc


class InterceptionLog(TenantOwnedModel):
    """A draft the verify node held back, with everything needed to review it."""

    trace_id = models.CharField(max_length=64, db_index=True)
    question = models.TextField()
    draft = models.TextField(help_text="the answer as the model wrote it, references filled")
    reason = models.CharField(max_length=40, db_index=True, help_text="the first reason's code")
    reasons = models.JSONField(default=list)
    matched_patterns = models.JSONField(default=list)
    ungrounded = models.JSONField(default=list)
    tool_calls = models.JSONField(default=list)
    source_type = models.CharField(max_length=10)
    source_name = models.CharField(max_length=255, blank=True)
    model = models.CharField(max_length=100, blank=True)
    prompt_version = models.CharField(max_length=64, blank=True)
    actor = models.CharField(max_length=200, blank=True)
    pattern_codes = models.CharField(
        max_length=500, blank=True, help_text="codes of the matched patterns, for filtering"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    false_positive = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.reason} · {self.question[:40]}"


class DetectionPattern(models.Model):
    """A fake-data pattern (用户1, Alice...): a match not found in the tool results intercepts the answer."""

    code = models.CharField(max_length=60, unique=True)
    regex = models.TextField(validators=[validate_regex])
    description = models.CharField(max_length=255, blank=True)
    active = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.code


class WhitelistPattern(models.Model):
    """Text that matches a detection pattern but is legitimate (a product truly called "Sample Kit")."""

    regex = models.TextField(validators=[validate_regex])
    note = models.CharField(max_length=255, blank=True)
    active = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["regex"]

    def __str__(self) -> str:
        return self.regex


class RequiredToolRule(models.Model):
    """Tools an answer about a source type must have used: all of `all_of`, and one of `any_of`."""

    source_type = models.CharField(max_length=10, unique=True, choices=[("file", "file"), ("sql", "sql")])
    all_of = models.JSONField(default=list, blank=True)
    any_of = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.source_type}: all {self.all_of}, any {self.any_of}"


class AuditEvent(TenantOwnedModel):
    """One tool call of a run: what was asked, against which data, what came back (digest), how long."""

    trace_id = models.CharField(max_length=64, db_index=True)
    step = models.PositiveIntegerField()
    call_id = models.CharField(max_length=100)
    actor = models.CharField(max_length=200, blank=True, help_text="user:NAME or token:PREFIX")
    tool = models.CharField(max_length=40, help_text="the canonical tool that ran (get_schema, run_query...)")
    called_as = models.CharField(
        max_length=40, blank=True, help_text="the name the model called: the tool's own or a documented alias"
    )
    arguments = models.JSONField(default=dict)
    called_arguments = models.JSONField(
        null=True, blank=True, help_text="an alias call's arguments as the model sent them (`arguments`: canonical)"
    )
    status = models.CharField(max_length=20)
    error = models.TextField(blank=True)
    result_digest = models.CharField(max_length=64, blank=True, help_text="sha256 of the result's columns and rows")
    result_size = models.PositiveIntegerField(default=0, help_text="bytes of the result as JSON")
    rows = models.PositiveIntegerField(default=0)
    rows_scanned = models.BigIntegerField(default=0)
    latency_ms = models.FloatField(default=0.0)
    prompt_version = models.CharField(max_length=64, blank=True)
    source_type = models.CharField(max_length=10)
    dataset_version = models.ForeignKey(
        "datasets.DatasetVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    source = models.ForeignKey("datasets.SqlSource", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    table = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["trace_id", "step", "id"]
        indexes = [models.Index(fields=["tenant", "created_at"])]

    def __str__(self) -> str:
        return f"{self.trace_id[:8]} step {self.step} {self.tool}"


class UsageKind(models.TextChoices):
    LLM_CALL = "llm_call", "LLM call"
    QUERY = "query", "query"
    RUN = "run", "run"


class UsageRecord(TenantOwnedModel):
    """What a tenant used: each LLM call (tokens, cost), each query (rows), each run. Billing sums these."""

    kind = models.CharField(max_length=12, choices=UsageKind.choices)
    trace_id = models.CharField(max_length=64, blank=True, db_index=True)
    actor = models.CharField(max_length=200, blank=True)
    model = models.CharField(max_length=100, blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=14, decimal_places=8, default=0)
    rows = models.BigIntegerField(default=0, help_text="queries: rows scanned")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tenant", "kind", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.model} {self.created_at:%Y-%m-%d}"


class ChangeAction(models.TextChoices):
    """What an administrative change did; the prefix names the kind of object changed."""

    TENANT_TIME_ZONE = "tenant.time_zone", _("Time zone changed")
    TOKEN_CREATE = "token.create", _("API token created")
    TOKEN_REVOKE = "token.revoke", _("API token revoked")
    MEMBER_ADD = "member.add", _("Member added")
    MEMBER_ROLE = "member.role", _("Member's role changed")
    MEMBER_REMOVE = "member.remove", _("Member removed")
    SOURCE_CREATE = "source.create", _("SQL source registered")
    SOURCE_UPDATE = "source.update", _("SQL source changed")
    SOURCE_DELETE = "source.delete", _("SQL source deleted")
    SYNONYM_CREATE = "synonym.create", _("Synonym added")
    SYNONYM_DELETE = "synonym.delete", _("Synonym deleted")
    DETECTION_CREATE = "detection_pattern.create", _("Detection pattern added")
    DETECTION_UPDATE = "detection_pattern.update", _("Detection pattern changed")
    DETECTION_DELETE = "detection_pattern.delete", _("Detection pattern deleted")
    WHITELIST_CREATE = "whitelist_pattern.create", _("Whitelist pattern added")
    WHITELIST_UPDATE = "whitelist_pattern.update", _("Whitelist pattern changed")
    WHITELIST_DELETE = "whitelist_pattern.delete", _("Whitelist pattern deleted")
    TOOL_RULE_CREATE = "tool_rule.create", _("Required-tool rule added")
    TOOL_RULE_UPDATE = "tool_rule.update", _("Required-tool rule changed")
    TOOL_RULE_DELETE = "tool_rule.delete", _("Required-tool rule deleted")


class AdminChange(TenantOwnedModel):
    """One administrative change (like Zulip's RealmAuditLog or Sentry's AuditLogEntry): who did what to which
    object, when, and each non-secret field's value before and after. Written by the service that makes the
    change, in its transaction, so no path (API, portal, admin site, command) makes a change without one.

    `tenant` is null only for a platform-wide change made outside any tenant (staff editing the verify rules in
    the Django admin); those are read by staff through `unscoped_for_admin()`, never by `for_tenant()`.
    """

    tenant = models.ForeignKey(  # type: ignore[assignment]  # nullable here only: see the docstring
        "tenants.Tenant", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    action = models.CharField(max_length=40, choices=ChangeAction.choices, db_index=True)
    actor = models.CharField(max_length=200, help_text="user:NAME, token:PREFIX, staff:NAME, command:NAME or system")
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_token = models.ForeignKey(
        "tenants.ApiToken", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via = models.CharField(max_length=10, help_text="api, portal, admin, command or system")
    target_id = models.CharField(max_length=64, blank=True, help_text="the changed object's id")
    target = models.CharField(max_length=255, blank=True, help_text="the changed object's name at the time")
    changes = models.JSONField(default=dict, help_text="{field: [before, after]} of the non-secret fields changed")
    secrets_changed = models.JSONField(
        default=list, blank=True, help_text="secret fields (a password) that changed: named, their values never kept"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tenant", "action", "created_at"])]

    def __str__(self) -> str:
        return f"{self.action} {self.target} by {self.actor}"
