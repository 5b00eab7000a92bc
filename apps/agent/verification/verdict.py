"""The verify node's verdict: pass or fail, why, and where every number shown came from."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ReasonCode = Literal[
    "tool_failed",
    "required_tools_missing",
    "fake_data_pattern",
    "ungrounded_number",
    "unfilled_reference",
    "inconsistent_with_source",
]


class Reason(BaseModel):
    code: ReasonCode
    message: str


class Grounded(BaseModel):
    text: str
    value: float
    step: int
    row: int | None
    column: str


class Ungrounded(BaseModel):
    text: str
    position: int


class Exempt(BaseModel):
    text: str
    why: str


class MatchedPattern(BaseModel):
    pattern: str
    text: str
    position: int


class Verdict(BaseModel):
    passed: bool
    reasons: list[Reason] = Field(default_factory=list)
    grounding: list[Grounded] = Field(default_factory=list)
    ungrounded: list[Ungrounded] = Field(default_factory=list)
    exempt: list[Exempt] = Field(default_factory=list)
    matched_patterns: list[MatchedPattern] = Field(default_factory=list)
    warnings: list[Reason] = Field(default_factory=list)

    def feedback(self) -> str:
        """What the model is told for its one corrective retry."""
        lines = [r.message for r in self.reasons]
        return "\n".join(f"- {line}" for line in lines)

    def summary(self) -> dict[str, Any]:
        return {"passed": self.passed, "reasons": [r.model_dump() for r in self.reasons]}
