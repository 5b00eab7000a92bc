"""Replay a run: execute its recorded tool calls again and compare every result with the recorded digest.

By default against the same dataset versions the run read (versions are immutable, so an unchanged
run replays identically); `against_current` uses each dataset's current version instead, to show
what a newer upload would change. SQL sources are always read as they are now. Web steps (search_web,
web_reader) read the outside world: they are reported as not replayable, or run again with `live`.
A step the model called by a documented alias (inspect_file, query_database...) was recorded under its
canonical tool and arguments, and replays as that tool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from apps.audit.models import AuditEvent
from apps.audit.services import result_digest
from apps.tenants.models import Tenant
from baplatform.errors import NotFound

WEB_TOOLS = {"search_web", "web_reader"}
NOT_REPLAYABLE = "not_replayable"


@dataclass
class StepReplay:
    step: int
    tool: str
    recorded_status: str
    replayed_status: str
    same: bool
    detail: str = ""
    called_as: str = ""
    replayable: bool = True

    @property
    def differs(self) -> bool:
        return self.replayable and not self.same


@dataclass
class ReplayReport:
    trace_id: str
    against: str
    steps: list[StepReplay] = field(default_factory=list)

    @property
    def differences(self) -> list[StepReplay]:
        return [s for s in self.steps if s.differs]

    @property
    def not_replayable(self) -> list[StepReplay]:
        return [s for s in self.steps if not s.replayable]


def _events(trace_id: str, tenant: Tenant | None) -> QuerySet[AuditEvent]:
    """Staff replay any run (tenant=None); tenant admins only their own."""
    manager = AuditEvent.objects
    rows = manager.for_tenant(tenant) if tenant is not None else manager.unscoped_for_admin()
    return (
        rows.filter(trace_id=trace_id)
        .select_related("dataset_version__dataset", "source", "tenant")
        .order_by("step", "id")
    )


def _binding(event: AuditEvent, against_current: bool) -> Any:
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


def _not_replayed(event: AuditEvent, detail: Any) -> StepReplay:
    return StepReplay(
        event.step, event.tool, event.status, NOT_REPLAYABLE, False, str(detail), event.called_as, replayable=False
    )


def replay(
    *, trace_id: str, tenant: Tenant | None = None, against_current: bool = False, live: bool = False
) -> ReplayReport:
    """Re-run a run's tool calls; `live` also re-runs its web steps (their results may have changed)."""
    from apps.agent.aliases import canonical_names
    from apps.agent.tools import TOOLS, ToolOutcome, run_tool, tools_for
    from apps.datasets.selectors import fresh_results

    events = list(_events(trace_id, tenant))
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


def _differs(event: AuditEvent, outcome: object, digest: str) -> str:
    status = getattr(outcome, "status", "")
    if status != event.status:
        return _("status %(before)s, now %(now)s %(error)s") % {
            "before": event.status,
            "now": status,
            "error": getattr(outcome, "error", ""),
        }
    rows = getattr(outcome, "row_count", 0)
    return _("the result differs (%(before)s rows recorded, %(now)s now)") % {"before": event.rows, "now": rows}
