"""`manage.py recover_runs`: fail the runs whose process stopped, with a final event clients receive.

Without options: every queued or running run whose heartbeat is older than RUN_STALE_SECONDS.
With --worker HOST:PID (a process known to be gone; repeatable): every active run of that process, at once.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.conversations import recovery


class Command(BaseCommand):
    help = "Mark runs whose server process stopped as failed (stale heartbeat, or a given dead worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--worker", action="append", default=[], help="HOST:PID of a stopped process: fail all its active runs now"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        workers = opts["worker"]
        for worker in [workers] if isinstance(workers, str) else workers:  # call_command may pass one
            failed = recovery.worker_runs_fail(worker=worker)
            self.stdout.write(f"{failed} run(s) of {worker} marked failed")
        failed = recovery.stale_runs_fail()
        self.stdout.write(f"{failed} stale run(s) marked failed")
