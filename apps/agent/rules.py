"""The verify node's rules, read from the audit tables through audit's rules store (apps/audit/rules_store.py,
plain values) at the start of every run (admin edits apply at once). With no detection patterns stored, the
built-in defaults apply: deactivate a pattern rather than deleting it. Required-tool rules may name tools by
their documented aliases (inspect_file, analyze_dataframe, query...): they are matched by the canonical names."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from apps.agent.aliases import canonical_names
from apps.agent.verification.check import DEFAULT_REQUIRED_TOOLS
from apps.agent.verification.patterns import DEFAULT_PATTERNS, Pattern
from apps.audit.rules_store import active_whitelist, detection_patterns, required_tool_rules

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
    stored = detection_patterns()
    patterns = (
        tuple(Pattern(p.code, p.regex, p.description) for p in stored if p.active and _compiles(p.regex, "pattern"))
        if stored
        else DEFAULT_PATTERNS
    )
    whitelist = tuple(regex for regex in active_whitelist() if _compiles(regex, "whitelist pattern"))
    required = {
        rule.source_type: canonical_rule(rule.source_type, rule.all_of, rule.any_of) for rule in required_tool_rules()
    }
    return VerifyRules(patterns=patterns, whitelist=whitelist, required_tools={**DEFAULT_REQUIRED_TOOLS, **required})


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def canonical_rule(source_type: str, all_of: list[str], any_of: list[str]) -> dict[str, list[str]]:
    """A rule in canonical names. `query` stands for run_query or execute_sql_safe: in `any` both count; in
    `all` it means a query must have run — run_query on a file, either of the two on a SQL source."""
    required: list[str] = []
    either: list[str] = [name for alias in any_of or [] for name in canonical_names(alias)]
    for alias in all_of or []:
        names = canonical_names(alias)
        if len(names) == 1:
            required.append(names[0])
        elif source_type == "file":
            required.append(names[0])  # file datasets have no SQL tools: the query is run_query
        elif not either:
            either = list(names)
        else:
            # Already "one of these": the answer must also have run one of the alias's tools. The any-rule
            # holds one group, so the query tools are kept in it and every other tool dropped.
            either = [name for name in either if name in names] or list(names)
    return {"all": _unique(required), "any": _unique(either)}
