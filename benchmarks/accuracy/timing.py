"""Time per question and per planner step. The plan node's time comes from the graph's own "node left"
log line (node "plan", duration_ms), caught by a handler for the duration of the run."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from apps.agent.events import RunEvent
from apps.agent.offline import OfflinePlanner
from apps.agent.response import AskResponse
from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding

GRAPH_LOGGER = "apps.agent.graph"


class PlanTimes(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.durations: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == "node left" and getattr(record, "node", None) == "plan":
            self.durations.append(float(getattr(record, "duration_ms", 0.0)))

    def take(self) -> list[float]:
        taken, self.durations = self.durations, []
        return taken


def quiet_logs() -> PlanTimes:
    """Keep the console to warnings (a run logs every node at INFO) and start catching plan-node times."""
    for handler in logging.getLogger().handlers:
        handler.setLevel(logging.WARNING)
    graph = logging.getLogger(GRAPH_LOGGER)
    graph.setLevel(logging.INFO)
    times = PlanTimes()
    graph.addHandler(times)
    return times


def ask(
    binding: DataBinding, question: str, times: PlanTimes, on_event: Callable[[RunEvent], Any] | None = None
) -> tuple[AskResponse, float, list[float]]:
    """One question through the real graph with the offline planner: the response, seconds, plan-node ms."""
    times.take()
    started = time.perf_counter()
    response = answer_question(
        binding=binding, question=question, model=OfflinePlanner(), emit=on_event or (lambda _e: None)
    )
    return response, time.perf_counter() - started, times.take()
