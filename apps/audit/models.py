"""What admins review and tune: interceptions, and the verify node's rules kept as data.

Detection patterns, whitelist patterns and required-tool rules are platform-wide (staff edit them);
they take effect on the next run. Interceptions belong to the tenant whose run was intercepted.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import models

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
