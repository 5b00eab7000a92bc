"""What verify is given: the question, the draft, every tool call of the run, the earlier turns with their results,
the data's words and the tenant's rules."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from apps.agent.verification.patterns import DEFAULT_PATTERNS, Pattern
from apps.agent.verification.vocabulary import Vocabulary

SourceType = Literal["file", "sql"]
DEFAULT_REQUIRED_TOOLS: dict[str, dict[str, list[str]]] = {
    "file": {"all": ["get_schema", "run_query"]},
    "sql": {"any": ["run_query", "execute_sql_safe"]},
}
# Results that ground numbers. Schema statistics (null ratios, distinct counts) describe columns, not answers.
GROUNDING_TOOLS = ("run_query", "execute_sql_safe", "sample_rows", "list_tables")
SEARCH_TOOLS = ("search_web", "web_reader")  # web facts: cited by title or link, never data


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
    payload: Any = None


@dataclass(frozen=True)
class EarlierTurn:
    """An earlier turn of the conversation with the result tables its answer was built from."""

    question: str
    answer: str = ""
    tables: Sequence[tuple[Sequence[str], Sequence[Sequence[Any]]]] = ()


@dataclass
class VerifyInput:
    question: str
    draft: str
    tool_calls: list[ToolCallRecord]
    source_type: SourceType = "file"
    earlier: list[EarlierTurn] = field(default_factory=list)
    vocabulary: Vocabulary | None = None
    required_tools: dict[str, dict[str, list[str]]] = field(default_factory=lambda: DEFAULT_REQUIRED_TOOLS)
    patterns: Iterable[Pattern] = DEFAULT_PATTERNS
    whitelist: Iterable[str] = ()
    strict: bool = True
