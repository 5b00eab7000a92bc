"""Play each scenario through the real graph and the real OpenAI client (over the loopback server), then
judge what the user was shown against the scenario's truth label and the values computed with pandas."""

from __future__ import annotations

import re
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from pydantic import ValidationError

from apps.agent.runner import answer_question
from apps.agent.state import RunState
from benchmarks.trust.data import World
from benchmarks.trust.script import Scenario
from tests.agent.loopback import LOOPBACK_OPENAI_KEY, OpenAIServer

_NUMBER = re.compile(
    r"(?<![0-9A-Za-z.])(-?\d[\d,]*(?:\.\d+)?)\s*(万|亿|%|‰|K|million|billion|bn|M|m)?(?![A-Za-z])", re.IGNORECASE
)
_SCALE = {"万": 4, "亿": 8, "%": -2, "‰": -3, "k": 3, "million": 6, "m": 6, "billion": 9, "bn": 9}
THINK = ("<think", "</think")


@dataclass
class Result:
    scenario: Scenario
    status: str
    verified: bool
    reasons: list[str]
    answer: str
    seconds: float
    leaks: list[str] = field(default_factory=list)
    unshown: list[str] = field(default_factory=list)  # true values missing from a shown correct answer
    notes: list[str] = field(default_factory=list)

    @property
    def miss(self) -> bool:
        if self.scenario.truth == "wrong":
            return self.verified
        return not self.verified or bool(self.leaks) or bool(self.unshown)


def configure(server: OpenAIServer) -> None:
    """The OPENAI_* settings point at the loopback server: no retries, a short timeout."""
    settings.OPENAI_API_KEY = LOOPBACK_OPENAI_KEY
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_MODEL = "gpt-4o-mini"
    settings.LLM_TIMEOUT_SECONDS = 5.0
    settings.LLM_MAX_RETRIES = 0


def history_takes_tables() -> bool:
    """Whether this build's run state accepts earlier turns with their result tables."""
    turn = {"question": "q", "answer": "a", "tables": [{"columns": ["x"], "rows": [[1]]}]}
    try:
        RunState(question="q", history=[turn])
    except ValidationError:
        return False
    return True


def numbers_in(text: str) -> list[tuple[Decimal, Decimal]]:
    """(value, tolerance) of each number written in `text`, its unit applied."""
    found = []
    for match in _NUMBER.finditer(text):
        digits, unit = match.group(1).replace(",", ""), (match.group(2) or "").lower()
        value = Decimal(digits)
        places = len(digits.split(".")[1]) if "." in digits else 0
        shift = _SCALE.get(unit, 0)
        found.append((value.scaleb(shift), Decimal(5).scaleb(shift - places - 1)))
    return found


def _carries(text: str, value: Decimal) -> bool:
    return any(abs(n - value) <= tol + Decimal("1e-9") for n, tol in numbers_in(text))


def _strings(value: Any, skip: str = "tool_calls") -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != skip for s in _strings(v, skip)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v, skip)]
    return []


def _reason_codes(response: Any, events: list[Any]) -> list[str]:
    codes: list[str] = []
    for event in events:
        if event.type == "verify":
            codes += [str(r.get("code", r)) if isinstance(r, dict) else str(r) for r in event.data.get("reasons", [])]
    if response.error is not None:
        codes.append(f"error:{response.error.code}")
    return list(dict.fromkeys(codes))


def _leaks(scenario: Scenario, response: Any, events: list[Any]) -> list[str]:
    plan = "\n".join(s for e in events if e.type == "plan" for s in _strings(e.data))
    shown = "\n".join(
        [response.answer, *response.recommended_questions]
        + [s for e in events if e.type == "answer.delta" for s in _strings(e.data)]
    )
    found = []
    for where, text in (("plan", plan), ("answer", shown)):
        found += [f"{where}: {marker}" for marker in (*scenario.leaks, *THINK) if marker in text]
    return list(dict.fromkeys(found))


def play(world: World, server: OpenAIServer, scenario: Scenario, *, tables_in_history: bool) -> Result:
    server.script = list(scenario.turns)
    server.requests.clear()
    notes = []
    history = scenario.history
    if history and not tables_in_history:
        history = [{k: v for k, v in turn.items() if k != "tables"} for turn in history]
        notes.append("earlier turns passed without their tables (not accepted by this build)")
    events: list[Any] = []
    started = time.perf_counter()
    with world.source_offline() if scenario.offline else nullcontext():
        response = answer_question(
            binding=world.bindings[scenario.source], question=scenario.question, history=history, emit=events.append
        )
    seconds = time.perf_counter() - started
    if len(server.chat_requests) > len(scenario.turns):
        notes.append("the model was asked more often than scripted")
    verified = response.status == "answered" and bool(response.verification.passed)
    result = Result(scenario, response.status, verified, _reason_codes(response, events), response.answer, seconds)
    result.leaks = _leaks(scenario, response, events)
    result.notes = notes
    if verified and scenario.truth == "correct":
        result.unshown = [str(v) for v in _expected(scenario) if not _carries(response.answer, v)]
    return result


def _expected(scenario: Scenario) -> tuple[Decimal, ...]:
    """What a shown correct answer must carry: the true values it refers to, or every number of a literal draft."""
    if scenario.shows:
        return scenario.shows
    draft = scenario.turns[-1].content or ""
    if "{{" in draft or "<think" in draft:
        return ()
    return tuple(value for value, _tolerance in numbers_in(draft))


def play_all(world: World, scenarios: list[Scenario]) -> list[Result]:
    server = OpenAIServer()
    server.start()
    try:
        configure(server)
        tables = history_takes_tables()
        return [play(world, server, s, tables_in_history=tables) for s in scenarios]
    finally:
        server.stop()
