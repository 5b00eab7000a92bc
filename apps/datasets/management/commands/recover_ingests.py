"""`manage.py recover_ingests`: fail the dataset versions whose ingesting process stopped.

Without options: every pending or ingesting version whose heartbeat is older than INGEST_STALE_SECONDS.
With --worker HOST:PID (a process known to be gone): every pending or ingesting version of that process.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.datasets.ingest import recovery


class Command(BaseCommand):
    help = "Mark dataset versions whose ingesting process stopped as failed (stale heartbeat, or a given worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--worker", help="HOST:PID of a stopped process: fail all its ingests now")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["worker"]:
            failed = recovery.worker_ingests_fail(worker=opts["worker"])
            self.stdout.write(f"{failed} ingest(s) of {opts['worker']} marked failed")
        failed = recovery.fail_stale_ingests()
        self.stdout.write(f"{failed} stale ingest(s) marked failed")
