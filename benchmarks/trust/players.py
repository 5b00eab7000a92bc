"""Every player of the trust benchmark, in the order they are reported."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.trust import players_context, players_honest, players_real, players_wrong
from benchmarks.trust.facts import Facts
from benchmarks.trust.script import Scenario

PLAYERS: dict[str, Callable[[Facts], list[Scenario]]] = {
    "honest_ref": players_honest.by_reference,
    "honest_literal": players_honest.literal,
    "derived": players_wrong.derived,
    "swapped": players_wrong.swapped,
    "fabricated": players_wrong.fabricated,
    "tool_failure": players_wrong.tool_failure,
    "injection": players_wrong.injection,
    "leading": players_context.leading,
    "truncated": players_wrong.truncated,
    "think": players_context.think,
    "plan_text": players_context.plan_text,
    "no_data": lambda _facts: players_context.no_data(),
    "real_life": players_real.real_life,
}


def scenarios(facts: Facts, only: set[str] | None = None) -> list[Scenario]:
    unknown = (only or set()) - set(PLAYERS)
    if unknown:
        raise SystemExit(f"unknown player(s) {', '.join(sorted(unknown))}; choose from {', '.join(PLAYERS)}")
    chosen = [build(facts) for name, build in PLAYERS.items() if not only or name in only]
    return [scenario for group in chosen for scenario in group]
