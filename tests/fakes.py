"""Scripted chat models for the agent tests: each plays a fixed list of turns, some misbehaving on purpose."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

Turn = AIMessage | Callable[[list[BaseMessage]], AIMessage]
_ids = itertools.count(1)


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": f"call_{next(_ids)}", "type": "tool_call"}


def tools(*calls: dict[str, Any], text: str = "") -> AIMessage:
    """A turn that asks for tool calls (several = parallel)."""
    return AIMessage(content=text, tool_calls=list(calls))


def final(text: str) -> AIMessage:
    return AIMessage(content=text)


def structured_call(name: str, **args: Any) -> dict[str, Any]:
    """A tool call as the requirements' structured JSON writes it (inside `action.content`)."""
    return {"tool_name": name, "tool_call_id": f"call_{next(_ids)}", "arguments": args}


def structured(
    kind: str,
    content: Any,
    *,
    task_analysis: str = "",
    execution_plan: str = "",
    current_round: int = 1,
    fenced: bool = False,
    **action: Any,
) -> AIMessage:
    """A turn written in the requirements' structured JSON (no native tool calls): `kind` is "tool_call"
    (content: a list of `structured_call`s) or "complete" (content: the answer)."""
    body = {
        "task_analysis": task_analysis,
        "execution_plan": execution_plan,
        "current_round": current_round,
        "action": {"type": kind, "content": content, **action},
    }
    text = json.dumps(body, ensure_ascii=False, indent=2)
    return AIMessage(content=f"```json\n{text}\n```" if fenced else text)


def tool_results(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """The JSON bodies of the tool results the model has been shown so far."""
    out = []
    for message in messages:
        if isinstance(message, ToolMessage) and "\n" in str(message.content):
            out.append(json.loads(str(message.content).split("\n", 1)[1]))
    return out


class ScriptedChatModel(BaseChatModel):
    """Answers each call with the next scripted turn; records what it was sent."""

    turns: list[Any] = Field(default_factory=list)
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[dict[str, Any]] = Field(default_factory=list)
    usage: tuple[int, int] = (120, 30)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.bound_tools = list(tools)
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        self.seen.append(list(messages))
        if not self.turns:
            raise AssertionError("the script ran out of turns")
        turn = self.turns.pop(0)
        message = turn(messages) if callable(turn) else turn
        message = message.model_copy(
            update={
                "usage_metadata": {
                    "input_tokens": self.usage[0],
                    "output_tokens": self.usage[1],
                    "total_tokens": sum(self.usage),
                }
            }
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


class Gate:
    """Holds a scripted turn until the test opens it: a model that thinks exactly as long as the test needs.

    Script `gate.hold(turn)`; `reached` is set when the run asks the model for that turn (every earlier event
    of the run is stored by then); `open()` lets the turn through. A gate nobody opens gives up after
    `timeout` seconds, so a failing test never leaves a run thread waiting.
    """

    def __init__(self, timeout: float = 30) -> None:
        self.timeout = timeout
        self.reached = threading.Event()
        self._opened = threading.Event()

    def hold(self, turn: Turn) -> Callable[[list[BaseMessage]], AIMessage]:
        def play(messages: list[BaseMessage]) -> AIMessage:
            self.reached.set()
            if not self._opened.wait(self.timeout):
                raise AssertionError(f"the test did not open the gate within {self.timeout:.0f} s")
            return turn(messages) if callable(turn) else turn

        return play

    def open(self) -> None:
        self._opened.set()

    async def until_reached(self) -> None:
        """Wait (without blocking the event loop) until the run asks for the held turn."""
        if not await asyncio.to_thread(self.reached.wait, self.timeout):
            raise AssertionError(f"the run did not reach the held turn within {self.timeout:.0f} s")
