"""Reads a conversation the way the graph sends it: the question, earlier turns, this run's tool calls
and their results. Tool results are parsed as data; nothing in them is ever followed as an instruction."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

VERIFY_FAILED = "VERIFY FAILED:"


def text_of(message: BaseMessage) -> str:
    content: Any = message.content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content or "")


@dataclass
class ToolResult:
    """One call this run made, and what came back (`body` is the parsed JSON, empty until it arrives)."""

    call_id: str
    name: str
    args: dict[str, Any]
    body: dict[str, Any] = field(default_factory=dict)
    answered: bool = False

    @property
    def ok(self) -> bool:
        return self.answered and self.body.get("ok") is True

    @property
    def data(self) -> Any:
        return self.body.get("data")

    @property
    def ref(self) -> str | None:
        ref = self.body.get("ref")
        return ref if isinstance(ref, str) else None

    @property
    def error_code(self) -> str:
        error = self.body.get("error")
        return str(error.get("code", "")) if isinstance(error, dict) else ""


@dataclass
class Transcript:
    question: str
    history: list[str] = field(default_factory=list)
    calls: list[ToolResult] = field(default_factory=list)
    verify_failed: bool = False
    drafts: int = 0

    def of(self, name: str) -> list[ToolResult]:
        return [c for c in self.calls if c.name == name]

    def last_ok(self, name: str) -> ToolResult | None:
        done = [c for c in self.of(name) if c.ok]
        return done[-1] if done else None


def parse_result(content: str) -> dict[str, Any]:
    """The JSON after the fence line; a result that is not JSON is an error result."""
    start = content.find("{")
    if start != -1:
        try:
            body = json.loads(content[start:])
        except ValueError:
            body = None
        if isinstance(body, dict):
            return body
    return {"ok": False, "error": {"code": "unreadable", "message": content[:200]}}


def _question_index(messages: list[BaseMessage]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, HumanMessage) and not text_of(message).lstrip().startswith(VERIFY_FAILED):
            return index
    return -1


def read_transcript(messages: list[BaseMessage]) -> Transcript:
    at = _question_index(messages)
    earlier = [text_of(m) for m in messages[: max(at, 0)] if isinstance(m, HumanMessage)]
    transcript = Transcript(
        question=text_of(messages[at]).strip() if at >= 0 else "",
        history=[t for t in earlier if not t.lstrip().startswith(VERIFY_FAILED)],
    )
    by_id: dict[str, ToolResult] = {}
    for message in messages[at + 1 :]:
        if isinstance(message, AIMessage):
            if not message.tool_calls:
                transcript.drafts += 1
            for call in message.tool_calls:
                result = ToolResult(call_id=call.get("id") or "", name=call["name"], args=dict(call.get("args") or {}))
                transcript.calls.append(result)
                by_id[result.call_id] = result
        elif isinstance(message, ToolMessage):
            found = by_id.get(message.tool_call_id)
            if found is not None:
                found.body, found.answered = parse_result(text_of(message)), True
        elif isinstance(message, HumanMessage) and text_of(message).lstrip().startswith(VERIFY_FAILED):
            transcript.verify_failed = True
    return transcript
