"""The response of an ask (DESIGN.md section 5): what the API, the portal and the `ask` command show."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class TableOut(BaseModel):
    name: str
    ref: str
    columns: list[str]
    rows: list[list[Any]]
    row_count: int
    truncated: bool = False


class ChartOut(BaseModel):
    type: str
    result: str = Field(description="the reference of the result it draws")
    option: dict[str, Any]


class GroundingOut(BaseModel):
    text: str
    value: float
    step: int
    row: int | None
    column: str


class VerificationOut(BaseModel):
    passed: bool
    reasons: list[dict[str, str]] = Field(default_factory=list)
    warnings: list[dict[str, str]] = Field(default_factory=list)
    grounding: list[GroundingOut] = Field(default_factory=list)


class StepOut(BaseModel):
    step: int
    tool: str
    status: str
    latency_ms: float
    rows: int
    ref: str | None = None
    error: str = ""


class LlmUsageOut(BaseModel):
    model: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0


class AuditOut(BaseModel):
    trace_id: str
    prompt_version: str
    steps: list[StepOut] = Field(default_factory=list)
    llm: LlmUsageOut
    elapsed_ms: float = 0.0


class ErrorOut(BaseModel):
    code: str
    message: str
    suggestions: list[str] = Field(default_factory=list)


class AskResponse(BaseModel):
    status: Literal["answered", "intercepted", "failed"]
    answer: str = ""
    tables: list[TableOut] = Field(default_factory=list)
    charts: list[ChartOut] = Field(default_factory=list)
    recommended_questions: list[str] = Field(default_factory=list)
    download_links: list[str] = Field(default_factory=list)
    verification: VerificationOut = Field(default_factory=lambda: VerificationOut(passed=False))
    error: ErrorOut | None = None
    audit: AuditOut
