"""Typed step events of a run, in the order a client receives them (the WebSocket layer forwards them).

run.started, plan, tool.started, tool.finished, ..., verify, then for an answered run its verified text in
answer.delta events (their `text`s joined are the response's `answer`), and always a final run.finished
(carrying the response) or run.failed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

EventType = Literal[
    "run.started", "plan", "tool.started", "tool.finished", "verify", "answer.delta", "run.finished", "run.failed"
]


class RunEvent(BaseModel):
    type: EventType
    trace_id: str
    seq: int = Field(description="1, 2, 3... within the run: clients resume after the last one they saw")
    data: dict[str, Any] = Field(default_factory=dict)


Emit = Callable[[RunEvent], None]


class EventSink:
    """Numbers events and hands them to the subscriber (and keeps them, for tests and replays)."""

    def __init__(self, trace_id: str, subscriber: Emit | None = None) -> None:
        self.trace_id, self.subscriber = trace_id, subscriber
        self.events: list[RunEvent] = []

    def __call__(self, type_: EventType, **data: Any) -> RunEvent:
        event = RunEvent(type=type_, trace_id=self.trace_id, seq=len(self.events) + 1, data=data)
        self.events.append(event)
        if self.subscriber is not None:
            self.subscriber(event)
        return event


DELTA_CHARS = 24  # about a few words (or a dozen Chinese characters) per answer.delta
MAX_DELTAS = 40  # a longer answer is sent in bigger pieces, in about this many events


def answer_chunks(text: str) -> list[str]:
    """The answer in pieces of about DELTA_CHARS characters, cut after a space where there is one."""
    size = max(DELTA_CHARS, math.ceil(len(text) / MAX_DELTAS))
    chunks: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        space = text.rfind(" ", start + size // 2, end) if end < len(text) else -1
        end = space + 1 if space > 0 else end
        chunks.append(text[start:end])
        start = end
    return chunks
