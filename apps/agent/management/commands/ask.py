"""`manage.py ask --tenant SLUG --dataset ID_OR_NAME "question" [--json]`: one question through the whole graph."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _

from apps.agent.messages import language_of
from apps.agent.references import no_data_matched
from apps.agent.response import ExplanationOut, TableOut
from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding
from apps.datasets import selectors
from apps.datasets.sources import selectors as source_selectors
from apps.tenants.selectors import tenant_by_slug
from baplatform.errors import PlatformError

# What --steps shows of each plan, tool and verify event.
_STEP_KEYS = ("current_round", "task_analysis", "tool", "status", "rows", "latency_ms", "passed", "tool_calls")


class Command(BaseCommand):
    help = "Ask a question about a dataset (or SQL source) of a tenant and print the verified answer."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question")
        parser.add_argument("--tenant", required=True, help="tenant slug")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--dataset", help="dataset id or exact name")
        where.add_argument("--source", type=int, help="SQL source id")
        parser.add_argument("--json", action="store_true", help="print the whole response as JSON")
        parser.add_argument("--steps", action="store_true", help="print each step as it happens")

    def _binding(self, opts: dict[str, Any]) -> DataBinding:
        tenant = tenant_by_slug(slug=opts["tenant"])
        if tenant is None:
            raise CommandError(f"no tenant with slug {opts['tenant']!r}")
        try:
            if opts["source"] is not None:
                return DataBinding.for_source(
                    tenant=tenant, source=source_selectors.source_get(tenant=tenant, source_id=opts["source"])
                )
            return DataBinding.for_dataset(
                tenant=tenant, dataset=selectors.dataset_get(tenant=tenant, key=opts["dataset"])
            )
        except Http404 as exc:
            raise CommandError(str(exc) or "not found in this tenant") from exc
        except PlatformError as exc:
            raise CommandError(exc.message) from exc

    def _tables(self, tables: list[TableOut], language: str) -> None:
        for table in tables:
            self.stdout.write(f"\n{table.name}  ({table.row_count} rows)")
            self.stdout.write("  " + " | ".join(table.columns))
            for row in table.rows[:20]:
                self.stdout.write("  " + " | ".join("" if v is None else str(v) for v in row))
            if not table.rows:  # an empty result says so
                with translation.override(language):
                    self.stdout.write("  " + no_data_matched())

    def handle(self, *args: Any, **opts: Any) -> None:
        binding = self._binding(opts)

        def show(event: Any) -> None:
            if opts["steps"] and event.type in ("plan", "tool.finished", "verify"):
                detail = {k: v for k, v in event.data.items() if k in _STEP_KEYS}
                self.stderr.write(f"  [{event.type}] {json.dumps(detail, ensure_ascii=False, default=str)}")

        try:
            response = answer_question(binding=binding, question=opts["question"], emit=show, actor="cli")
        except PlatformError as exc:
            raise CommandError(exc.message) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(response.model_dump(mode="json"), ensure_ascii=False, indent=2))
            return
        if response.status != "answered":
            error = response.error
            self.stdout.write(f"[{response.status}] {error.message if error else ''}")
            for suggestion in error.suggestions if error else []:
                self.stdout.write(f"  - {suggestion}")
            return
        self.stdout.write(response.answer)
        language = "zh-hans" if language_of(opts["question"]) == "zh" else "en"
        self._tables(response.tables, language)
        for question in response.recommended_questions:
            self.stdout.write(f">> {question}")
        with translation.override(language):
            for line in explanation_lines(response.explanation):
                self.stdout.write(line)
            for warning in response.verification.warnings:
                message = warning.get("message") or warning.get("code")
                self.stdout.write(_("Please note: %(message)s") % {"message": message})
        checked = len(response.verification.grounding)
        self.stdout.write(f"\n(verified: {checked} numbers traced to tool results · trace {response.audit.trace_id})")


def explanation_lines(explanations: list[ExplanationOut]) -> list[str]:
    """The answer's "how it was computed" as plain text, in the active language."""
    if not explanations:
        return []

    def field(label: str, value: str) -> str:
        return "    " + _("%(label)s: %(value)s") % {"label": label, "value": value}

    lines = ["", _("How it was computed")]
    for e in explanations:
        lines += [f"  {e.ref} · {e.text}", field(_("Source"), e.source)]
        parts = [(_("Filters"), e.filters), (_("Grouping"), e.grouping)]
        lines += [field(label, "; ".join(items)) for label, items in parts if items]
        lines += [field(_("Measure"), f"{m.name} = {m.formula}") for m in e.measures]
        lines += [field(_("Windows"), "; ".join(e.windows))] if e.windows else []
        if e.sort_limit:
            lines.append(field(_("Sort and limit"), e.sort_limit))
        more = " " + _("(more rows matched)") if e.truncated else ""
        lines.append(field(_("Rows returned"), f"{e.rows}{more}" if e.rows else f"0 · {no_data_matched()}"))
        lines += [field(_("Assumption"), note) for note in e.assumptions]
        lines += [field("SQL", line) for line in (e.sql or "").splitlines()]
    return lines
