"""Accuracy of the offline planner on the golden set, per language and per dataset.

Every question runs through the real graph (`answer_question`) and the real tools on datasets ingested
through the services, in a throw-away database and data directory; each final query result and the
numbers of the filled answer are compared with a reference computed directly with pandas.

    .venv/bin/python -m benchmarks.golden [--verbose] [--only O01,H03]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
import uuid


def _isolate() -> str:
    """A fresh data directory and SQLite database, so the run touches nothing else."""
    folder = tempfile.mkdtemp(prefix="ba-golden-")
    os.environ["BA_DATA_DIR"] = folder
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/golden.sqlite3"
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every question's result")
    parser.add_argument("--only", default="", help="comma-separated case ids")
    args = parser.parse_args()
    folder = _isolate()
    try:
        from benchmarks.common import setup_django

        setup_django()
        from django.core.management import call_command

        from apps.tenants.services import tenant_create
        from tests.agent.golden.scorer import CASES, report, run_all
        from tests.agent.golden.scorer import ingest_all as ingest

        call_command("migrate", verbosity=0, interactive=False)
        tenant = tenant_create(name="Golden", slug=f"golden-{uuid.uuid4().hex[:8]}")
        wanted = {c.strip() for c in args.only.split(",") if c.strip()}
        cases = [c for c in CASES if not wanted or c.id in wanted]
        started = time.perf_counter()
        results = run_all(ingest(tenant), cases)
        elapsed = time.perf_counter() - started
        print(report(results, verbose=args.verbose or bool(wanted)))
        failed = [r for r in results if not r.passed]
        if failed and not args.verbose:
            print("failed: " + "; ".join(f"{r.case.id} ({r.reason})" for r in failed))
        print(f"{len(results)} questions in {elapsed:.1f} s ({elapsed / max(len(results), 1) * 1000:.0f} ms each)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
