"""The verify rules as stored: audit keeps the tables (admin edits them, with their change trail), the agent reads
them through these functions as plain values, never through the models. Part of audit's public API."""

from __future__ import annotations

from dataclasses import dataclass

from apps.audit.models import DetectionPattern, RequiredToolRule, WhitelistPattern


@dataclass(frozen=True)
class StoredPattern:
    code: str
    regex: str
    description: str
    active: bool


@dataclass(frozen=True)
class StoredRequiredTools:
    source_type: str
    all_of: list[str]
    any_of: list[str]


def detection_patterns() -> list[StoredPattern]:
    """Every stored detection pattern, active or not, in code order."""
    return [StoredPattern(p.code, p.regex, p.description, p.active) for p in DetectionPattern.objects.all()]


def active_whitelist() -> list[str]:
    """The regexes of the active whitelist patterns."""
    return [w.regex for w in WhitelistPattern.objects.filter(active=True)]


def required_tool_rules() -> list[StoredRequiredTools]:
    """Every stored required-tool rule."""
    return [StoredRequiredTools(r.source_type, r.all_of, r.any_of) for r in RequiredToolRule.objects.all()]
