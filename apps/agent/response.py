"""The response of an ask (docs/DESIGN.md section 5): what the API, the portal and the `ask` command show."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field


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


class CoverageOut(BaseModel):
    """One anchor of the question (a period, a value, a column, top-N, a grain, an operation) and how the
    answer's queries applied it."""

    anchor: str
    kind: str = Field(description="number, period, value, column, top_n, grain, operation")
    status: Literal["applied", "disclosed", "missing"]
    how: str = Field(default="", description="where it was applied, in the user's language (e.g. 筛选 地区 = 华东)")


class VerificationOut(BaseModel):
    """What verify checked. `reasons` and `warnings` carry a stable `code` and a `message` for people, in the
    question's language; the text the model was given is never part of the response."""

    passed: bool
    reasons: list[dict[str, str]] = Field(default_factory=list)
    warnings: list[dict[str, str]] = Field(default_factory=list)
    grounding: list[GroundingOut] = Field(default_factory=list)
    coverage: list[CoverageOut] = Field(default_factory=list)
    checks: list[str] = Field(
        default_factory=list,
        description="what was checked: numbers_grounded, labels_bound, question_covered, no_fake_data",
    )


class MeasureOut(BaseModel):
    name: str
    formula: str = Field(description="in terms of the data's columns, e.g. sum(退货数量) / sum(订单数量)")


class ExplanationOut(BaseModel):
    """How one executed query computed its result, in the user's language; rendered from the query itself."""

    ref: str = Field(description="the result it explains: q1, q2...")
    text: str = Field(
        description="one line, e.g. 下单日期（按年）= 2025 · 按 下单日期 分组（按月） · 退货数量合计 = sum(退货数量)"
    )
    source: str
    filters: list[str] = Field(default_factory=list)
    grouping: list[str] = Field(default_factory=list)
    measures: list[MeasureOut] = Field(default_factory=list)
    windows: list[str] = Field(default_factory=list)
    sort_limit: str = ""
    rows: int = 0
    truncated: bool = Field(default=False, description="more rows existed than were returned")
    sql: str | None = None
    assumptions: list[str] = Field(default_factory=list, description="what a careful analyst would state")


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

    @computed_field  # type: ignore[prop-decorator]
    @property
    def llm_cost_usd(self) -> float:
        """The run's LLM cost in USD: `llm.cost_usd`, under the name of the requirements' response."""
        return self.llm.cost_usd


class ErrorOut(BaseModel):
    code: str
    message: str
    suggestions: list[str] = Field(default_factory=list)


class ClarificationOut(BaseModel):
    """The answer is a question back: the question was ambiguous, so nothing was computed yet."""

    question: str = Field(description="what needs deciding, in the question's language; it quotes no numbers")
    choices: list[str] = Field(
        description="complete questions, one per reading of the question: asking one gets a direct answer"
    )


class AskResponse(BaseModel):
    status: Literal["answered", "intercepted", "failed"]
    answer: str = Field(default="", description="the answer; for a clarification, its question")
    task_analysis: str = Field(
        default="", description="the last plan step's task analysis, as streamed in its `plan` event (checked text)"
    )
    execution_plan: str = Field(default="", description="the rounds of the run: R1: ...; R2: ... (current)")
    current_round: int = Field(default=0, description="the round of the last plan step (1, 2, ...)")
    tables: list[TableOut] = Field(default_factory=list)
    charts: list[ChartOut] = Field(default_factory=list)
    recommended_questions: list[str] = Field(
        default_factory=list, description="questions to ask next; for a clarification, its choices"
    )
    clarification: ClarificationOut | None = Field(
        default=None,
        description="set when the answer asks which of a few readings was meant instead of guessing (then "
        "`answer` is the question and `recommended_questions` the choices); null for any other answer",
    )
    download_links: list[str] = Field(default_factory=list)
    verification: VerificationOut = Field(default_factory=lambda: VerificationOut(passed=False))
    explanation: list[ExplanationOut] = Field(
        default_factory=list, description="how it was computed: one entry per executed query (answered runs)"
    )
    error: ErrorOut | None = None
    audit: AuditOut
