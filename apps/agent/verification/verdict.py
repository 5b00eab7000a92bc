"""The verify node's verdict: pass or fail, why (for the model and, separately, for people), every claim with
the row it is bound to, and how each anchor of the question was applied."""

from __future__ import annotations

from typing import Any, Literal

from django.utils.translation import gettext as _
from pydantic import BaseModel, Field

ReasonCode = Literal[
    "tool_failed",
    "required_tools_missing",
    "fake_data_pattern",
    "ungrounded_number",
    "unfilled_reference",
    "inconsistent_with_source",
    "mislabeled_value",
    "question_not_covered",
    "empty_answer",
    "truncated_output",
    "unknown_url",
    "uncited_search",
    "stale_filter",
]


def user_text(code: str) -> str:
    """What a person reads about a failed or warned check: short, in the active language, no draft text."""
    texts = {
        "tool_failed": _("A data query failed, so no answer was produced from it."),
        "required_tools_missing": _("The answer stated data without querying it."),
        "fake_data_pattern": _("The answer contained sample or placeholder data that is not in your data."),
        "ungrounded_number": _("The answer contained numbers that no query returned."),
        "unfilled_reference": _("The answer referred to a result that does not exist."),
        "inconsistent_with_source": _("A number stood next to a label of another row."),
        "mislabeled_value": _("A number was written next to the wrong label."),
        "question_not_covered": _("Part of the question was not applied by the queries behind the answer."),
        "empty_answer": _("The model returned an empty answer."),
        "truncated_output": _("The model's output was cut off."),
        "unknown_url": _("The answer contained a link that no tool returned."),
        "uncited_search": _("Facts from a web search were given without citing the source."),
        "stale_filter": _("A filter from an earlier question was applied; check that it is still wanted."),
    }
    return str(texts.get(code, _("The answer could not be verified.")))


class Reason(BaseModel):
    code: ReasonCode
    message: str = Field(description="for the model: what to fix (never shown to people)")
    user: str = Field(default="", description="for people, in their language; filled from the code when empty")

    def model_post_init(self, context: Any) -> None:
        if not self.user:
            self.user = user_text(self.code)

    def for_people(self) -> dict[str, str]:
        return {"code": self.code, "message": self.user}


class Grounded(BaseModel):
    text: str
    value: float
    step: int
    row: int | None
    column: str
    labels: list[str] = Field(default_factory=list, description="labels in the claim's clause checked against the row")
    earlier_turn: int | None = Field(default=None, description="grounded in this earlier turn's results (1 = first)")


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


class Coverage(BaseModel):
    anchor: str
    kind: Literal["number", "period", "value", "column", "top_n", "grain", "operation"]
    status: Literal["applied", "disclosed", "missing"]
    how: str = ""


class Verdict(BaseModel):
    passed: bool
    reasons: list[Reason] = Field(default_factory=list)
    grounding: list[Grounded] = Field(default_factory=list)
    ungrounded: list[Ungrounded] = Field(default_factory=list)
    exempt: list[Exempt] = Field(default_factory=list)
    matched_patterns: list[MatchedPattern] = Field(default_factory=list)
    coverage: list[Coverage] = Field(default_factory=list)
    warnings: list[Reason] = Field(default_factory=list)
    checks: list[str] = Field(default_factory=list, description="the checks that ran")

    def fail(self, code: ReasonCode, message: str) -> None:
        self.reasons.append(Reason(code=code, message=message))
        self.passed = False

    def feedback(self) -> str:
        """What the model is told for its one corrective retry."""
        return "\n".join(f"- {r.message}" for r in self.reasons)

    def user_status(self) -> str:
        """One short line for people about this verdict (the live step, the interception message)."""
        if self.passed:
            return str(_("Numbers and their definitions checked against the query results."))
        seen: list[str] = []
        for reason in self.reasons:
            if reason.user not in seen:
                seen.append(reason.user)
        return "".join(t if t.endswith("。") else t + " " for t in seen).strip()

    def summary(self) -> dict[str, Any]:
        return {"passed": self.passed, "reasons": [r.model_dump() for r in self.reasons]}
