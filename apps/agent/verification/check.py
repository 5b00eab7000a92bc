"""verify(): the checks of VERIFY.md, in order — tool failure, required tools, fake data, grounding,
consistency. Deterministic and fast (one index per run; O(1) per number)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from apps.agent.verification.grounding import (
    GroundingIndex,
    ToolTable,
    date_is_known,
    date_tokens_of_text,
)
from apps.agent.verification.numbers import Mention, find_mentions
from apps.agent.verification.patterns import DEFAULT_PATTERNS, Pattern, find_fake_data
from apps.agent.verification.verdict import (
    Exempt,
    Grounded,
    MatchedPattern,
    Reason,
    Ungrounded,
    Verdict,
)

SourceType = Literal["file", "sql"]
DEFAULT_REQUIRED_TOOLS: dict[str, dict[str, list[str]]] = {
    "file": {"all": ["get_schema", "run_query"]},
    "sql": {"any": ["run_query", "execute_sql_safe"]},
}
_SMALL_TALK = re.compile(
    r"^\s*(?:你好|您好|hi|hello|hey|谢谢|thanks?|thank you|help|帮助|你能做什么|你是谁|what can you do|who are you)"
    r"[\s!！?？。.,，]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call of the run, as verify sees it."""

    step: int
    name: str
    status: Literal["ok", "validation_error", "system_error"]
    arguments: dict[str, Any] = field(default_factory=dict)
    columns: Sequence[str] = ()
    rows: Sequence[Sequence[Any]] = ()
    row_count: int = 0
    error: str = ""


@dataclass
class VerifyInput:
    question: str
    draft: str
    tool_calls: list[ToolCallRecord]
    source_type: SourceType = "file"
    history: list[str] = field(default_factory=list)
    required_tools: dict[str, dict[str, list[str]]] = field(default_factory=lambda: DEFAULT_REQUIRED_TOOLS)
    patterns: Iterable[Pattern] = DEFAULT_PATTERNS
    whitelist: Iterable[str] = ()
    strict: bool = True


def _tool_failures(calls: list[ToolCallRecord]) -> list[ToolCallRecord]:
    """System errors not replaced by a later successful call of the same tool."""
    failed = []
    for i, call in enumerate(calls):
        if call.status != "system_error":
            continue
        if not any(later.name == call.name and later.status == "ok" for later in calls[i + 1 :]):
            failed.append(call)
    return failed


def _missing_tools(inp: VerifyInput) -> list[str]:
    used = {c.name for c in inp.tool_calls if c.status == "ok"}
    rule = inp.required_tools.get(inp.source_type, {})
    missing = [t for t in rule.get("all", []) if t not in used]
    any_of = rule.get("any", [])
    if any_of and not used.intersection(any_of):
        missing.append(" or ".join(any_of))
    return missing


class _Grounder:
    def __init__(self, inp: VerifyInput, index: GroundingIndex) -> None:
        self.inp, self.index = inp, index
        asked = "\n".join([inp.question, *inp.history])
        asked_mentions = find_mentions(asked)
        self.asked_values = {(m.scaled, m.decimals, m.unit) for m in asked_mentions if m.kind == "number"}
        self.asked_values |= {(m.scaled, 0, "") for m in asked_mentions if m.kind == "rank"}
        self.known_dates = date_tokens_of_text(asked) | index.dates

    def exempt_reason(self, mention: Mention) -> str | None:
        if mention.kind == "list_marker":
            return "list marker"
        if mention.kind == "date":
            return "date in the question or results" if date_is_known(mention.text, self.known_dates) else None
        if mention.kind == "rank":
            return "rank within the rows returned" if mention.scaled <= max(self.index.max_rows, 1) else None
        if (mention.scaled, mention.decimals, mention.unit) in self.asked_values:
            return "stated in the question"
        return None


def _label_index(table: ToolTable) -> tuple[re.Pattern[str] | None, dict[str, set[int]]]:
    """The text labels of a table (group names such as 华东) and the rows each labels."""
    rows_of: dict[str, set[int]] = {}
    for r, row in enumerate(table.rows):
        for value in row:
            if isinstance(value, str) and 2 <= len(value) <= 40:
                rows_of.setdefault(value, set()).add(r)
    if not rows_of:
        return None, rows_of
    alternation = "|".join(re.escape(label) for label in sorted(rows_of, key=len, reverse=True))
    return re.compile(alternation), rows_of


def _label_warnings(draft: str, grounded: list[tuple[Mention, Any]], tables: dict[int, ToolTable]) -> list[Reason]:
    """A grounded number next to another row's label (华东 with 华北's value) is suspicious."""
    warnings = []
    labels: dict[int, tuple[re.Pattern[str] | None, dict[str, set[int]]]] = {}
    for mention, where in grounded:
        table = tables.get(where.step)
        if table is None or where.row is None:
            continue
        if where.step not in labels:
            labels[where.step] = _label_index(table)
        pattern, rows_of = labels[where.step]
        if pattern is None:
            continue
        window = draft[max(0, mention.start - 16) : mention.start]
        found = pattern.findall(window)
        if not found or any(where.row in rows_of[label] for label in found):
            continue
        own = ", ".join(str(v) for v in table.rows[where.row] if isinstance(v, str)) or "another row"
        warnings.append(
            Reason(
                code="inconsistent_with_source",
                message=f"{mention.text} stands next to {found[-1]!r}, but it is the value of row {where.row} "
                f"({own}) in step {where.step}",
            )
        )
    return warnings


def _identifier_spans(draft: str, texts: set[str], whitelist: Iterable[str]) -> list[tuple[int, int]]:
    """Spans of the draft that quote a result value containing digits ("User 7", "SKU-1024", 七天无理由)
    or a whitelisted pattern: their digits are part of a name, not numbers to ground."""
    spans = []
    for text in texts:
        has_digits = any(ch.isdigit() or ch in _CN_NUMERALS for ch in text)
        if len(text) >= 2 and has_digits and not _NUMERIC_TEXT.match(text):
            start = draft.find(text)
            while start != -1:
                spans.append((start, start + len(text)))
                start = draft.find(text, start + 1)
    for pattern in whitelist:
        spans += [m.span() for m in re.finditer(pattern, draft)]
    return spans


_NUMERIC_TEXT = re.compile(r"^[\d\s.,%:/\-年月日Q]+$")
_CN_NUMERALS = frozenset("零一二两三四五六七八九十百千万亿")


def verify(inp: VerifyInput) -> Verdict:
    verdict = Verdict(passed=True)
    failures = _tool_failures(inp.tool_calls)
    if failures:
        names = ", ".join(sorted({f.name for f in failures}))
        verdict.reasons.append(Reason(code="tool_failed", message=f"tool call failed and was not recovered: {names}"))
        verdict.passed = False
        return verdict  # the draft is never shown when a tool failed

    ok_calls = [c for c in inp.tool_calls if c.status == "ok"]
    tables = [ToolTable(c.step, list(c.columns), list(c.rows), c.row_count) for c in ok_calls]
    index = GroundingIndex(tables)
    mentions = find_mentions(inp.draft, protected=_identifier_spans(inp.draft, index.texts, inp.whitelist))
    states_numbers = any(m.kind == "number" for m in mentions)

    missing = _missing_tools(inp)
    small_talk = bool(_SMALL_TALK.match(inp.question)) and not states_numbers and not ok_calls
    if missing and not small_talk:
        verdict.reasons.append(
            Reason(
                code="required_tools_missing",
                message=f"answers about {inp.source_type} data must come from tools; missing: {', '.join(missing)}",
            )
        )

    real_texts = index.texts | {inp.question, *inp.history}
    for match in find_fake_data(inp.draft, patterns=inp.patterns, whitelist=inp.whitelist, real_texts=real_texts):
        verdict.matched_patterns.append(MatchedPattern(pattern=match.code, text=match.text, position=match.start))
    if verdict.matched_patterns:
        shown = ", ".join(sorted({m.text for m in verdict.matched_patterns}))
        verdict.reasons.append(
            Reason(
                code="fake_data_pattern",
                message=f"the answer shows placeholder or sample data not in any result: {shown}",
            )
        )

    grounder = _Grounder(inp, index)
    grounded_pairs: list[tuple[Mention, Any]] = []
    for mention in mentions:
        if mention.kind == "reference":
            verdict.reasons.append(
                Reason(code="unfilled_reference", message=f"{mention.text} refers to a value no tool returned")
            )
            continue
        why = grounder.exempt_reason(mention)
        if why:
            verdict.exempt.append(Exempt(text=mention.text, why=why))
            continue
        where = index.lookup(mention) if mention.kind == "number" else None
        if where is None:
            verdict.ungrounded.append(Ungrounded(text=mention.text, position=mention.start))
            continue
        grounded_pairs.append((mention, where))
        verdict.grounding.append(
            Grounded(text=mention.text, value=mention.value, step=where.step, row=where.row, column=where.column)
        )
    if verdict.ungrounded:
        shown = ", ".join(u.text for u in verdict.ungrounded[:8])
        reason = Reason(
            code="ungrounded_number",
            message=f"these numbers were not returned by any tool: {shown}; compute them with run_query "
            "(derived/windows) and refer to the result, or remove them",
        )
        (verdict.reasons if inp.strict else verdict.warnings).append(reason)

    verdict.warnings += _label_warnings(inp.draft, grounded_pairs, {t.step: t for t in tables})
    verdict.passed = not verdict.reasons
    return verdict
