"""OfflinePlanner: a deterministic chat model that drives the agent graph with real tool calls.

It is what answers when no LLM endpoint is configured. Each call reads the whole conversation again
(question, tool results so far, a "VERIFY FAILED:" note) and decides the next move, so it keeps no
state between calls. Token counts are estimated from text length so usage metering still works.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from apps.agent.offline.outline import outline
from apps.agent.offline.steps import next_move
from apps.agent.offline.transcript import read_transcript, text_of
from apps.agent.round_plan import PLAN_METADATA_KEY

MODEL_NAME = "offline-planner"
DEFAULT_TOOLS = ("get_schema", "run_query", "plot")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def estimate_tokens(text: str) -> int:
    """About one token per Chinese character and one per four other characters."""
    if not text:
        return 0
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


def _tool_name(tool: Any) -> str | None:
    if isinstance(tool, dict):
        function = tool.get("function")
        name = function.get("name") if isinstance(function, dict) else tool.get("name")
        return str(name) if name else None
    if isinstance(tool, BaseTool):
        return tool.name
    return getattr(tool, "name", None) or getattr(tool, "__name__", None)


class OfflinePlanner(BaseChatModel):
    """Understands common analysis questions in Chinese and English over any table's schema."""

    model_name: str = MODEL_NAME
    tool_names: tuple[str, ...] = DEFAULT_TOOLS

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        names = tuple(name for name in (_tool_name(t) for t in tools) if name)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        transcript = read_transcript(messages)
        move = next_move(transcript, set(self.tool_names))
        step = len(transcript.calls) + 1
        calls = [
            {"name": name, "args": args, "id": f"offline-{step + i}-{name}", "type": "tool_call"}
            for i, (name, args) in enumerate(move.calls)
        ]
        content = "" if calls else move.draft
        spoken = content + "".join(json.dumps(args, ensure_ascii=False) + name for name, args in move.calls)
        input_tokens = sum(estimate_tokens(text_of(m)) for m in messages)
        output_tokens = max(1, estimate_tokens(spoken))
        message = AIMessage(
            content=content,
            tool_calls=calls,
            usage_metadata={
                "input_tokens": input_tokens,
                "output_tokens": output_tokens,
                "total_tokens": input_tokens + output_tokens,
            },
            # The step's task analysis and execution plan, written from the move (the plan node streams it).
            response_metadata={"model_name": self.model_name, PLAN_METADATA_KEY: outline(transcript, move)},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
