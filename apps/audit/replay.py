"""Replay a run: execute its recorded tool calls again and compare every result with the recorded digest
(`replay` below; what it does is described in apps/conversations/replay.py).

Re-executing needs the agent's tools, which sit above audit. So audit keeps what it owns (the recorded calls,
the report, this entry point, which the API, the portal, the admin and the `replay` command call) and the part
above registers the replayer when it starts (see ConversationsConfig.ready), as it does for run questions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import QuerySet

from apps.audit.models import AuditEvent
from apps.tenants.models import Tenant

WEB_TOOLS = {"search_web", "web_reader"}
NOT_REPLAYABLE = "not_replayable"

RecordedCall = AuditEvent
"""One recorded tool call, as the replayer reads it."""


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


def recorded_calls(trace_id: str, tenant: Tenant | None) -> QuerySet[AuditEvent]:
    """A run's recorded calls in order. Staff replay any run (tenant=None); tenant admins only their own."""
    manager = AuditEvent.objects
    rows = manager.for_tenant(tenant) if tenant is not None else manager.unscoped_for_admin()
    return (
        rows.filter(trace_id=trace_id)
        .select_related("dataset_version__dataset", "source", "tenant")
        .order_by("step", "id")
    )


Replayer = Callable[..., ReplayReport]
"""Called as replayer(trace_id=..., tenant=..., against_current=..., live=...)."""

_REPLAYER: list[Replayer] = []


def register_replayer(replayer: Replayer) -> None:
    """Set the function that re-executes a run's calls; the last registered wins."""
    _REPLAYER[:] = [replayer]


def replay(
    *, trace_id: str, tenant: Tenant | None = None, against_current: bool = False, live: bool = False
) -> ReplayReport:
    """Re-run a run's tool calls; `live` also re-runs its web steps (their results may have changed)."""
    if not _REPLAYER:
        raise RuntimeError("no replayer registered: replay needs the conversations app installed")
    return _REPLAYER[0](trace_id=trace_id, tenant=tenant, against_current=against_current, live=live)
