"""`manage.py recover_runs`: fail the runs whose process stopped, with a final event clients receive.

Without options: every queued or running run whose heartbeat is older than RUN_STALE_SECONDS.
With --worker HOST:PID (a process known to be gone): every active run of that process, at once.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.conversations import recovery


class Command(BaseCommand):
    help = "Mark runs whose server process stopped as failed (stale heartbeat, or a given dead worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--worker", help="HOST:PID of a stopped process: fail all its active runs now")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["worker"]:
            failed = recovery.worker_runs_fail(worker=opts["worker"])
            self.stdout.write(f"{failed} run(s) of {opts['worker']} marked failed")
        failed = recovery.stale_runs_fail()
        self.stdout.write(f"{failed} stale run(s) marked failed")
