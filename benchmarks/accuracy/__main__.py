"""Accuracy benchmark of the offline planner through the real graph, per question set.

Each question runs through `answer_question` with the offline planner on datasets ingested through the
services, in a throw-away data directory and SQLite database, and gets exactly one outcome: correct,
wrong-but-verified, clarified-or-refused, intercepted or failed (benchmarks/accuracy/outcome.py). It
measures; it asserts nothing.

    .venv/bin/python -m benchmarks.accuracy --set all --wtq ../shared/eval/wtq-train [--limit N]
        [--verbose] [--only ID,ID]

Sets: golden (the bilingual golden set), zh (the Chinese business set), zh2 (a held-out Chinese business set
over a coffee-shop chain, written without looking at the planner), wtq (WikiTableQuestions sample, read from
the folder given with --wtq, never copied into the repository).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from benchmarks.accuracy.outcome import Item, Outcome

SETS = ("golden", "zh", "zh2", "wtq")
PROGRESS_EVERY = 25


def _isolate() -> str:
    """A fresh data directory and SQLite database, so the run touches nothing else."""
    folder = tempfile.mkdtemp(prefix="ba-accuracy-")
    os.environ["BA_DATA_DIR"] = folder
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/accuracy.sqlite3"
    return folder


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.accuracy", description=__doc__.split("\n")[0])
    parser.add_argument("--set", choices=[*SETS, "all"], default="all", help="which question set (default: all)")
    parser.add_argument("--wtq", type=Path, help="the WikiTableQuestions sample folder (questions.jsonl, tables/)")
    parser.add_argument("--limit", type=int, help="at most N questions per set")
    parser.add_argument("--verbose", action="store_true", help="print every question's outcome as it runs")
    parser.add_argument("--only", default="", help="comma-separated question ids")
    args = parser.parse_args()
    if args.set == "wtq" and args.wtq is None:
        parser.error("the wtq set needs --wtq DIR (the folder holding questions.jsonl and tables/)")
    if args.wtq is not None and not (args.wtq / "questions.jsonl").is_file():
        parser.error(f"{args.wtq} holds no questions.jsonl")
    return args


def _follow(name: str, items: Iterable[Item], *, verbose: bool) -> list[Item]:
    """Collects a set's items, printing each one (verbose) or a progress line every few questions."""
    from benchmarks.accuracy.report import line

    done: list[Item] = []
    started = time.perf_counter()
    for item in items:
        done.append(item)
        if verbose:
            print(line(item), flush=True)
        elif len(done) % PROGRESS_EVERY == 0:
            counts = Counter(i.outcome for i in done)
            print(
                f"[{name}] {len(done)} done in {time.perf_counter() - started:.0f} s: "
                + ", ".join(f"{o.value} {counts[o]}" for o in Outcome if counts[o]),
                file=sys.stderr,
                flush=True,
            )
    return done


def _run_sets(args: argparse.Namespace, folder: str) -> dict[str, list[Item]]:
    # Imported here, not at the top: the settings must first see the throw-away database and data folder.
    from django.core.management import call_command

    from apps.tenants.models import Plan
    from apps.tenants.services import tenant_create
    from benchmarks.accuracy import business_set, golden_set, heldout_set, wtq_set
    from benchmarks.accuracy.timing import quiet_logs

    times = quiet_logs()
    call_command("migrate", verbosity=0, interactive=False)
    tenant = tenant_create(name="Accuracy", slug=f"accuracy-{uuid.uuid4().hex[:8]}", plan=Plan.ENTERPRISE)
    only = {c.strip() for c in args.only.split(",") if c.strip()}
    results: dict[str, list[Item]] = {}
    for name in SETS if args.set == "all" else (args.set,):
        started = time.perf_counter()
        items: Iterator[Item]
        if name == "golden":
            items = golden_set.run(tenant, times, only=only, limit=args.limit)
        elif name == "zh":
            items = business_set.run(tenant, times, folder=folder, only=only, limit=args.limit)
        elif name == "zh2":
            items = heldout_set.run(tenant, times, folder=folder, only=only, limit=args.limit)
        elif args.wtq is not None:
            items = wtq_set.run(tenant, times, folder=args.wtq, only=only, limit=args.limit)
        else:
            print("wtq skipped: pass --wtq DIR to run it", file=sys.stderr)
            continue
        results[name] = _follow(name, items, verbose=args.verbose)
        _print_set(name, results[name], time.perf_counter() - started)
    return results


def _print_set(name: str, items: list[Item], elapsed: float) -> None:
    from benchmarks.accuracy.report import set_report

    group = {"golden": "language", "zh": "topic", "zh2": "topic", "wtq": "target kind"}[name]
    print(set_report(name, items, group, value_in_text=name == "wtq"), flush=True)
    print(f"{name}: {len(items)} questions in {elapsed:.1f} s (ingest included)\n", flush=True)


def main() -> None:
    args = _arguments()
    folder = _isolate()
    try:
        from benchmarks.common import setup_django

        setup_django()
        results = _run_sets(args, folder)
        from benchmarks.accuracy.report import summary

        if results:
            print(summary(results))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
