"""The verify node's rules, read from the audit tables at the start of every run (admin edits apply
at once). With no detection patterns stored, the built-in defaults apply: deactivate a pattern
rather than deleting it."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from apps.agent.verification.check import DEFAULT_REQUIRED_TOOLS
from apps.agent.verification.patterns import DEFAULT_PATTERNS, Pattern
from apps.audit.models import DetectionPattern, RequiredToolRule, WhitelistPattern

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VerifyRules:
    patterns: tuple[Pattern, ...] = DEFAULT_PATTERNS
    whitelist: tuple[str, ...] = ()
    required_tools: dict[str, dict[str, list[str]]] = field(default_factory=lambda: DEFAULT_REQUIRED_TOOLS)


def _compiles(regex: str, what: str) -> bool:
    try:
        re.compile(regex)
    except re.error:
        log.error("skipping %s that does not compile: %r", what, regex)
        return False
    return True


def verification_rules() -> VerifyRules:
    stored = list(DetectionPattern.objects.all())
    patterns = (
        tuple(Pattern(p.code, p.regex, p.description) for p in stored if p.active and _compiles(p.regex, "pattern"))
        if stored
        else DEFAULT_PATTERNS
    )
    whitelist = tuple(
        w.regex for w in WhitelistPattern.objects.filter(active=True) if _compiles(w.regex, "whitelist pattern")
    )
    required = {rule.source_type: {"all": rule.all_of, "any": rule.any_of} for rule in RequiredToolRule.objects.all()}
    return VerifyRules(patterns=patterns, whitelist=whitelist, required_tools={**DEFAULT_REQUIRED_TOOLS, **required})
