"""The structured reply of the requirements' prompt (`task_analysis`, `execution_plan`, `current_round`,
`action`), read defensively.

A model may answer in that JSON instead of native tool calls: its tool calls (`action.type == "tool_call"`,
`content` a list of `{tool_name, tool_call_id, arguments}`) become ordinary tool calls that the tool node
validates, runs and audits; its final `content` (`action.type == "complete"`) becomes the draft that verify
checks, with `recommended_questions` as follow-up lines. The JSON itself is never shown. Text that merely
mentions JSON is plain text; text that is plainly meant as the structure but cannot be read (cut off, invalid
JSON, an unknown action) is `Malformed`, and the model is asked to send it again.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import AIMessage
from langchain_core.messages.tool import InvalidToolCall, ToolCall, invalid_tool_call, tool_call

_KEYS = ("task_analysis", "execution_plan", "current_round", "action")
# An object whose first key is one of ours, anywhere in the text (bare, fenced, or after a line of prose).
_OPENING = re.compile(r'\{\s*"(?:task_analysis|execution_plan|current_round|action)"\s*:')
# The opening of a fenced block that holds an object (```json, or a bare ```).
_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\r?\n\s*(?=\{)", re.IGNORECASE)
_MAX_ROUND = 100


@dataclass(frozen=True)
class RoundPlan:
    """The structured plan of one plan step: what the task is, the rounds planned, and the current round."""

    task_analysis: str = ""
    execution_plan: str = ""
    current_round: int | None = None


@dataclass
class StructuredReply:
    """A readable structured reply: either tool calls or a final text (with suggested questions)."""

    plan: RoundPlan
    kind: Literal["tool_call", "complete"]
    calls: list[ToolCall] = field(default_factory=list)
    invalid_calls: list[InvalidToolCall] = field(default_factory=list)
    text: str = ""
    recommended_questions: list[str] = field(default_factory=list)

    def as_message(self, reply: AIMessage) -> AIMessage:
        """The model's turn with the structure's tool calls as tool calls (metadata and usage kept).

        The content stays the model's own JSON, so the next turn shows the model what it sent.
        """
        return reply.model_copy(update={"tool_calls": self.calls, "invalid_tool_calls": self.invalid_calls})

    def draft(self) -> str:
        """The final text with the suggested questions as `>> ` lines (verify checks them like the answer)."""
        text = self.text.strip()
        asked = {line.strip()[2:].strip() for line in text.splitlines() if line.strip().startswith(">>")}
        extra = [f">> {q}" for q in self.recommended_questions if q not in asked]
        return "\n".join([text, *extra]) if extra else text


@dataclass(frozen=True)
class Malformed:
    """Text meant as the structure that cannot be used; `problem` is told to the model (never to users)."""

    problem: str


def _starts(text: str) -> tuple[list[int], bool]:
    """Where an object that may be the structure starts, and whether one plainly opens with our keys."""
    starts: list[int] = []
    opening = _OPENING.search(text)
    if opening is not None:
        starts.append(opening.start())
    fence = _FENCE.search(text)
    if fence is not None:
        starts.append(fence.end())
    stripped = len(text) - len(text.lstrip())
    if text[stripped : stripped + 1] == "{":
        starts.append(stripped)
    return list(dict.fromkeys(starts)), opening is not None


def _as_text(value: Any, joiner: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return joiner.join(t for t in (_as_text(v, joiner) for v in value) if t)
    if isinstance(value, dict):
        return joiner.join(f"{k}: {_as_text(v, joiner)}" for k, v in value.items())
    return str(value)


def _round(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        number = int(str(value).strip()) if isinstance(value, str) else int(value)
    except (TypeError, ValueError):
        return None
    return number if 1 <= number <= _MAX_ROUND else None


def read_plan(body: dict[str, Any]) -> RoundPlan:
    return RoundPlan(
        task_analysis=_as_text(body.get("task_analysis"), "\n"),
        execution_plan=_as_text(body.get("execution_plan"), "; "),
        current_round=_round(body.get("current_round")),
    )


def _one_call(item: Any, index: int, seen: set[str]) -> ToolCall | InvalidToolCall:
    raw = item if isinstance(item, dict) else {}
    name = raw.get("tool_name") or raw.get("name")
    call_id = str(raw.get("tool_call_id") or raw.get("id") or "")
    if not call_id or call_id in seen:  # ids answer each call: they must be unique within the turn
        call_id = f"call_{uuid.uuid4().hex[:12]}"
    seen.add(call_id)
    arguments = raw.get("arguments", raw.get("args", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            pass
    if not isinstance(name, str) or not name.strip():
        shown = json.dumps(item, ensure_ascii=False, default=str)[:200]
        return invalid_tool_call(name=None, args=shown, id=call_id, error=f"call {index + 1} has no tool_name")
    if not isinstance(arguments, dict):
        shown = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False, default=str)
        return invalid_tool_call(name=name.strip(), args=shown[:200], id=call_id, error="arguments are not an object")
    return tool_call(name=name.strip(), args=arguments, id=call_id)


def _calls(content: Any) -> tuple[list[ToolCall], list[InvalidToolCall]]:
    items = content if isinstance(content, list) else [content] if isinstance(content, dict) else []
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        one = _one_call(item, index, seen)
        if one.get("type") == "invalid_tool_call":
            invalid.append(one)  # type: ignore[arg-type]
        else:
            calls.append(one)  # type: ignore[arg-type]
    return calls, invalid


def _questions(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    questions = [" ".join(q.split()) for q in items if isinstance(q, str)]
    return [q for q in dict.fromkeys(questions) if q]


def _kind(action: dict[str, Any]) -> str:
    return str(action.get("type") or "").strip().lower().replace("-", "_")


def _read_action(body: dict[str, Any]) -> StructuredReply | Malformed:
    plan = read_plan(body)
    action = body.get("action")
    if not isinstance(action, dict):
        return Malformed('the reply has no "action" object')
    kind = _kind(action)
    content = action.get("content")
    if kind in ("tool_call", "tool_calls"):
        calls, invalid = _calls(content)
        if not calls and not invalid:
            return Malformed('"action.type" is "tool_call" but "action.content" holds no tool calls')
        return StructuredReply(plan=plan, kind="tool_call", calls=calls, invalid_calls=invalid)
    if kind == "complete":
        if not isinstance(content, str):
            return Malformed('"action.type" is "complete" but "action.content" is not a string')
        questions = _questions(action.get("recommended_questions"))
        return StructuredReply(plan=plan, kind="complete", text=content, recommended_questions=questions)
    return Malformed(f'"action.type" must be "tool_call" or "complete", not {json.dumps(kind)[:60]}')


def read_structured(text: str) -> StructuredReply | Malformed | None:
    """The structured reply in `text` (bare, fenced, or after a line of prose); None for plain text."""
    if not text or '"' not in text:
        return None
    starts, ours = _starts(text)
    decoder = json.JSONDecoder()
    for start in starts:
        try:
            body, _end = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(body, dict) and any(key in body for key in _KEYS):
            return _read_action(body)
    if ours or re.search(r'"action"\s*:\s*\{', text):
        return Malformed("the reply is not valid JSON (it may have been cut off)")
    return None
