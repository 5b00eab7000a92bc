"""`manage.py replay TRACE_ID [--current] [--live] [--json]`: re-execute a run's tool calls and report differences.

Web steps (search_web, web_reader) are reported as not replayable unless `--live` runs them again."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.audit.replay import replay
from baplatform.errors import PlatformError


class Command(BaseCommand):
    help = "Replay a run's recorded tool calls against the same dataset versions and report every difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("trace_id")
        parser.add_argument("--current", action="store_true", help="use each dataset's current version instead")
        parser.add_argument("--live", action="store_true", help="also re-run web steps (search_web, web_reader)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            report = replay(trace_id=opts["trace_id"], against_current=opts["current"], live=opts["live"])
        except PlatformError as exc:
            raise CommandError(exc.message) from exc
        if opts["json"]:
            body: dict[str, Any] = {
                "trace_id": report.trace_id,
                "against": report.against,
                "differences": len(report.differences),
                "not_replayable": len(report.not_replayable),
                "steps": [asdict(s) for s in report.steps],
            }
            self.stdout.write(json.dumps(body, ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"Replay of {report.trace_id} against the {report.against}:")
        for step in report.steps:
            mark = "not replayable" if not step.replayable else "same" if step.same else "DIFFERS"
            name = f"{step.tool} (called as {step.called_as})" if step.called_as not in ("", step.tool) else step.tool
            self.stdout.write(f"  step {step.step} {name}: {mark} {step.detail}".rstrip())
        skipped = len(report.not_replayable)
        if report.differences:
            self.stdout.write(self.style.WARNING(f"{len(report.differences)} step(s) differ."))
        elif skipped:
            self.stdout.write(
                self.style.SUCCESS(f"No difference in the replayed steps; {skipped} web step(s) not replayable.")
            )
        else:
            self.stdout.write(self.style.SUCCESS("No difference: every result is identical."))
