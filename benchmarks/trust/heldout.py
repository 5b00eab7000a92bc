"""The held-out set of the trust benchmark (`bench_trust --set heldout`): new data (warehouse shipments in
English, an HR roster in Chinese, both over 2024-2025), new questions and phrasings over those and the SQL
source, written without reference to the verify node's rules. Judged exactly as the first set (run.py).

Every player, in the order reported.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.trust import heldout_correct, heldout_wrong
from benchmarks.trust.heldout_facts import HeldoutFacts
from benchmarks.trust.script import Scenario

PLAYERS: dict[str, Callable[[HeldoutFacts], list[Scenario]]] = {
    "ho_reference": heldout_correct.by_reference,
    "ho_literal": heldout_correct.literal,
    "ho_context": heldout_correct.context,
    "ho_plan_text": heldout_correct.plan_text,
    "ho_label": heldout_wrong.labels,
    "ho_measure": heldout_wrong.measures,
    "ho_filter": heldout_wrong.filters,
    "ho_change": heldout_wrong.changes,
    "ho_no_data": lambda _facts: heldout_wrong.no_data(),
}


def scenarios(facts: HeldoutFacts, only: set[str] | None = None) -> list[Scenario]:
    chosen = [build(facts) for name, build in PLAYERS.items() if not only or name in only]
    return [scenario for group in chosen for scenario in group]
