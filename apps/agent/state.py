"""The graph's state and the run's context (what nodes read but never change)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field

from apps.agent.events import EventSink
from apps.agent.prompts import Prompt
from apps.agent.response import AskResponse, ErrorOut
from apps.agent.rules import VerifyRules
from apps.agent.tools import DataBinding, Tool, ToolOutcome
from apps.agent.verification.verdict import Verdict

RunStatus = Literal["running", "answered", "intercepted", "failed"]


class Node(StrEnum):
    PLAN = "plan"
    TOOL = "tool"
    VERIFY = "verify"
    NARRATE = "narrate"


class LlmCall(BaseModel):
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0


class RunState(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    question: str = Field(description="the user's question for this run")
    history: list[dict[str, Any]] = Field(
        default_factory=list, description="earlier turns: question, answer, and the result tables behind the answer"
    )
    messages: Annotated[list[AnyMessage], add_messages] = Field(
        default_factory=list, description="the model's turns and the tool results of this run"
    )
    outcomes: Annotated[list[ToolOutcome], operator.add] = Field(
        default_factory=list, description="every executed tool call, in order"
    )
    llm_calls: Annotated[list[LlmCall], operator.add] = Field(default_factory=list, description="usage per call")
    steps: int = Field(default=0, description="plan steps that asked for tools")
    validation_errors: int = Field(default=0, description="tool calls refused for bad arguments")
    retried: bool = Field(default=False, description="the one corrective retry after verify has been used")
    retry_step: int = Field(default=0, description="the step at which verify asked for the retry")
    refused_answers: int = Field(
        default=0, description="final texts refused before verify (cut off by the length limit, or oversized)"
    )
    draft: str = Field(default="", description="the model's final text, references unfilled")
    answer: str = Field(default="", description="the draft with references filled, once verified")
    markup_removed: bool = Field(default=False, description="model-written HTML or chart code was cut from the draft")
    task_analysis: str = Field(default="", description="the last plan step's task analysis, as shown")
    execution_plan: str = Field(default="", description="the last plan step's execution plan by round, as shown")
    current_round: int = Field(default=0, description="the last plan step's round")
    verdict: Verdict | None = None
    status: RunStatus = "running"
    error: ErrorOut | None = None
    response: AskResponse | None = None


@dataclass
class RunContext:
    """Fixed for the whole run; the tenant and the data come from here, never from the model."""

    binding: DataBinding
    model: BaseChatModel
    model_name: str
    tools: dict[str, Tool]
    emit: EventSink
    trace_id: str
    prompt: Prompt
    rules: VerifyRules
    actor: str = ""
    language: Literal["zh", "en"] = "zh"
    max_steps: int = 8
    max_parallel: int = 6
    max_validation_errors: int = 4
    link_for: Any = None  # (ref, fmt) -> URL of a result download, when the caller can serve one
    started: float = field(default=0.0)
    vocabularies: dict[int, Any] = field(default_factory=dict)  # the data's words, per number of schema/query calls
