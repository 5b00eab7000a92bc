"""Replay a run: execute its recorded tool calls again and compare every result with the recorded digest.

By default against the same dataset versions the run read (versions are immutable, so an unchanged
run replays identically); `against_current` uses each dataset's current version instead, to show
what a newer upload would change. SQL sources are always read as they are now. Web steps (search_web,
web_reader) read the outside world: they are reported as not replayable, or run again with `live`.
A step the model called by a documented alias (inspect_file, query_database...) was recorded under its
canonical tool and arguments, and replays as that tool.

Replay re-executes with the agent's tools, so it sits above the agent and audit: audit keeps the recorded
calls, the report and the entry point (apps/audit/replay.py, which the API, portal, admin and the `replay`
command call); this module is the replayer registered there in ConversationsConfig.ready.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.audit.replay import (
    NOT_REPLAYABLE,
    WEB_TOOLS,
    RecordedCall,
    ReplayReport,
    StepReplay,
    recorded_calls,
)
from apps.audit.services import result_digest
from apps.tenants.models import Tenant
from baplatform.errors import NotFound


def _binding(event: RecordedCall, against_current: bool) -> Any:
    from apps.agent.tools import DataBinding

    if event.source is not None:
        return DataBinding.for_source(tenant=event.tenant, source=event.source)
    version = event.dataset_version
    if version is None:
        return None
    dataset = version.dataset
    if against_current and dataset.current_version_id is not None:
        version = dataset.current_version
    return DataBinding(tenant=event.tenant, dataset=dataset, version=version)


def _web_tools(live: bool) -> dict[str, Any]:
    """The web tools configured now, when a live replay asks for them."""
    if not live:
        return {}
    from apps.agent.providers import optional_tools

    return {tool.name: tool for tool in optional_tools() if tool.name in WEB_TOOLS}


def _not_replayed(event: RecordedCall, detail: Any) -> StepReplay:
    return StepReplay(
        event.step, event.tool, event.status, NOT_REPLAYABLE, False, str(detail), event.called_as, replayable=False
    )


def replay_run(
    *, trace_id: str, tenant: Tenant | None = None, against_current: bool = False, live: bool = False
) -> ReplayReport:
    """Re-run a run's tool calls; `live` also re-runs its web steps (their results may have changed)."""
    from apps.agent.aliases import canonical_names
    from apps.agent.tools import TOOLS, ToolOutcome, run_tool, tools_for
    from apps.datasets.selectors import fresh_results

    events = list(recorded_calls(trace_id, tenant))
    if not events:
        raise NotFound(_("No run with trace id %(trace)s.") % {"trace": trace_id})
    report = ReplayReport(trace_id=trace_id, against="current versions" if against_current else "recorded versions")
    web = _web_tools(live)
    previous: list[ToolOutcome] = []
    with fresh_results():
        for event in events:
            binding = _binding(event, against_current)
            tools_named = set(canonical_names(event.tool))  # older rows may hold an alias
            if tools_named & WEB_TOOLS and not live:
                report.steps.append(_not_replayed(event, _("reads the web; not replayable (replay with --live)")))
                continue
            if tools_named & WEB_TOOLS and not tools_named & set(web):
                report.steps.append(_not_replayed(event, _("web access is not configured now")))
                continue
            if binding is None or not tools_named & {*TOOLS, *web}:
                why = _("its data no longer exists") if binding is None else _("no such tool")
                report.steps.append(
                    StepReplay(event.step, event.tool, event.status, "skipped", event.status != "ok", why)
                )
                continue
            outcome = run_tool(
                binding,
                tools=tools_for(binding, list(web.values())),
                name=event.tool,
                arguments=event.arguments,
                call_id=event.call_id,
                step=event.step,
                previous=previous,
            )
            previous.append(outcome)
            digest = ""
            if outcome.status == "ok":
                digest, _size = result_digest(
                    columns=outcome.columns, rows=outcome.rows, row_count=outcome.row_count, payload=outcome.payload
                )
            same = outcome.status == event.status and digest == event.result_digest
            detail = "" if same else _differs(event, outcome, digest)
            report.steps.append(
                StepReplay(event.step, event.tool, event.status, outcome.status, same, detail, event.called_as)
            )
    return report


def _differs(event: RecordedCall, outcome: object, digest: str) -> str:
    status = getattr(outcome, "status", "")
    if status != event.status:
        return _("status %(before)s, now %(now)s %(error)s") % {
            "before": event.status,
            "now": status,
            "error": getattr(outcome, "error", ""),
        }
    rows = getattr(outcome, "row_count", 0)
    return _("the result differs (%(before)s rows recorded, %(now)s now)") % {"before": event.rows, "now": rows}
