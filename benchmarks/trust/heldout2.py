"""The second held-out set (`--set heldout2`): new data (a Chinese e-commerce marketing table and an English
subscriptions table, heldout2_data.py) and new questions on the SQL source, written apart from the verify
node's rules and from the earlier sets. Truth from heldout2_facts.py (pandas/sqlite3)."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.trust import heldout2_correct, heldout2_honest, heldout2_wrong
from benchmarks.trust.heldout2_facts import Facts2
from benchmarks.trust.script import Scenario

PLAYERS: dict[str, Callable[[Facts2], list[Scenario]]] = {
    "h2_reference": heldout2_correct.by_reference,
    "h2_literal": heldout2_correct.literal,
    "h2_context": heldout2_correct.follow_ups,
    "h2_label": heldout2_wrong.labels,
    "h2_measure": heldout2_wrong.measures,
    "h2_period": heldout2_wrong.periods,
    "h2_claim": heldout2_wrong.claims,
    "h2_no_data": lambda _facts: heldout2_honest.no_data(),
}


def scenarios(facts: Facts2, only: set[str] | None = None) -> list[Scenario]:
    chosen = [build(facts) for name, build in PLAYERS.items() if not only or name in only]
    return [s for group in chosen for s in group]
