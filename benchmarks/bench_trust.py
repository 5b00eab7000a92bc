"""Trust: do wrong answers get blocked and right ones shown? Scripted models (honest, and misbehaving in
twelve ways seen in practice) drive the real graph through the real OpenAI client against a loopback
chat-completions server, over two spreadsheets and a SQLite source ingested through the services.

Each scenario's truth (correct, wrong, no data) comes from values computed with pandas and sqlite3, never
from the product. It measures rates and asserts nothing (targets: docs/DESIGN.md section 8).

    .venv/bin/python -m benchmarks.bench_trust [--verbose] [--only honest_ref,swapped]
        [--set base|heldout|heldout2|heldout3|heldout4|all]

`--set heldout` plays the held-out scenarios instead (benchmarks/trust/heldout.py: other data, questions and
phrasings, written apart from the verify node's rules); `--set heldout2` a second held-out set on new data
(benchmarks/trust/heldout2.py: a marketing and a subscriptions table, new questions on the SQL source);
`--set heldout3` a third on a logistics table and the English sheet (benchmarks/trust/heldout3.py);
`--set heldout4` a fourth on a clinic's outpatient visits, as a spreadsheet and a SQLite source
(benchmarks/trust/heldout4.py); `--set all` plays them all.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run by path (python benchmarks/bench_trust.py): the repository is the import root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _isolate() -> str:
    """A fresh data directory and SQLite database, so the run touches nothing else."""
    folder = tempfile.mkdtemp(prefix="ba-trust-")
    os.environ["BA_DATA_DIR"] = folder
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/trust.sqlite3"
    return folder


def _chosen(world: Any, set_name: str, only: set[str]) -> list[Any]:
    """The scenarios of the chosen set(s), limited to the `only` players when given."""
    from benchmarks.trust import heldout, heldout2, heldout3, heldout4, players
    from benchmarks.trust.facts import compute
    from benchmarks.trust.heldout2_data import add_heldout2_data
    from benchmarks.trust.heldout2_facts import compute_heldout2
    from benchmarks.trust.heldout3_data import add_heldout3_data
    from benchmarks.trust.heldout3_facts import compute_heldout3
    from benchmarks.trust.heldout4_data import add_heldout4_data
    from benchmarks.trust.heldout4_facts import compute_heldout4
    from benchmarks.trust.heldout_data import add_heldout_data
    from benchmarks.trust.heldout_facts import compute_heldout

    sets: dict[str, dict[str, Any]] = {
        "base": players.PLAYERS,
        "heldout": heldout.PLAYERS,
        "heldout2": heldout2.PLAYERS,
        "heldout3": heldout3.PLAYERS,
        "heldout4": heldout4.PLAYERS,
    }
    names = [name for name in sets if set_name in (name, "all")]
    known = [player for name in names for player in sets[name]]
    if only - set(known):
        raise SystemExit(f"unknown player(s) {', '.join(sorted(only - set(known)))}; choose from {', '.join(known)}")
    chosen: list[Any] = []
    if "base" in names and (not only or only & set(players.PLAYERS)):
        chosen += players.scenarios(compute(world.truth), only & set(players.PLAYERS) or None)
    if "heldout" in names and (not only or only & set(heldout.PLAYERS)):
        chosen += heldout.scenarios(compute_heldout(add_heldout_data(world)), only & set(heldout.PLAYERS) or None)
    if "heldout2" in names and (not only or only & set(heldout2.PLAYERS)):
        facts2 = compute_heldout2(add_heldout2_data(world))
        chosen += heldout2.scenarios(facts2, only & set(heldout2.PLAYERS) or None)
    if "heldout3" in names and (not only or only & set(heldout3.PLAYERS)):
        facts3 = compute_heldout3(add_heldout3_data(world))
        chosen += heldout3.scenarios(facts3, only & set(heldout3.PLAYERS) or None)
    if "heldout4" in names and (not only or only & set(heldout4.PLAYERS)):
        facts4 = compute_heldout4(add_heldout4_data(world))
        chosen += heldout4.scenarios(facts4, only & set(heldout4.PLAYERS) or None)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every scenario with its answer")
    parser.add_argument("--only", default="", help="comma-separated players, e.g. swapped,think")
    parser.add_argument(
        "--set",
        dest="set_name",
        choices=("base", "heldout", "heldout2", "heldout3", "heldout4", "all"),
        default="base",
        help="which scenarios to play",
    )
    args = parser.parse_args()
    folder = _isolate()
    try:
        from benchmarks.common import setup_django

        setup_django()
        logging.disable(logging.WARNING)  # the runs' own log lines would bury the tables
        from django.core.management import call_command

        from apps.tenants.services import tenant_create
        from benchmarks.trust.data import build_world
        from benchmarks.trust.report import misses, overall_table, player_table, verify_timing
        from benchmarks.trust.run import play_all

        call_command("migrate", verbosity=0, interactive=False)
        tenant = tenant_create(name="Trust", slug=f"trust-{uuid.uuid4().hex[:8]}", plan="enterprise")
        world = build_world(tenant)
        only = {p.strip() for p in args.only.split(",") if p.strip()}
        chosen = _chosen(world, args.set_name, only)
        started = time.perf_counter()
        results = play_all(world, chosen)
        elapsed = time.perf_counter() - started
        print(player_table(results), end="\n\n")
        print(overall_table(results), end="\n\n")
        print("misses:" if not args.verbose else "scenarios:")
        print(misses(results, verbose=args.verbose), end="\n\n")
        print(verify_timing(), end="\n\n")
        print(f"{len(results)} runs in {elapsed:.1f} s ({elapsed / max(len(results), 1) * 1000:.0f} ms each)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
