"""`manage.py replay TRACE_ID [--current] [--json]`: re-execute a run's tool calls and report differences."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.audit.replay import replay
from apps.tenants.errors import PlatformError


class Command(BaseCommand):
    help = "Replay a run's recorded tool calls against the same dataset versions and report every difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("trace_id")
        parser.add_argument("--current", action="store_true", help="use each dataset's current version instead")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            report = replay(trace_id=opts["trace_id"], against_current=opts["current"])
        except PlatformError as exc:
            raise CommandError(exc.message) from exc
        if opts["json"]:
            body: dict[str, Any] = {
                "trace_id": report.trace_id,
                "against": report.against,
                "differences": len(report.differences),
                "steps": [asdict(s) for s in report.steps],
            }
            self.stdout.write(json.dumps(body, ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"Replay of {report.trace_id} against the {report.against}:")
        for step in report.steps:
            mark = "same" if step.same else "DIFFERS"
            self.stdout.write(f"  step {step.step} {step.tool}: {mark} {step.detail}".rstrip())
        if report.differences:
            self.stdout.write(self.style.WARNING(f"{len(report.differences)} step(s) differ."))
        else:
            self.stdout.write(self.style.SUCCESS("No difference: every result is identical."))
