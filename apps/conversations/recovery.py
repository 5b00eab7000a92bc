"""Runs whose process stopped: a heartbeat per run, and failing the runs that lost theirs.

Each run records the process executing it (`worker`, host:pid) and a heartbeat, refreshed on every
event and by a ticker thread while the run is in flight here (a model may think for a while between
events). A queued or running run whose heartbeat is older than RUN_STALE_SECONDS is failed with a
final stored and broadcast `run.failed` event; reads of runs do this lazily, `manage.py recover_runs`
at once. When this process shuts down, its runs in flight are failed the same way.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.conversations.broadcast import broadcast
from apps.conversations.models import ACTIVE, Conversation, Message, Run, RunEvent, RunStatus

log = logging.getLogger(__name__)

WORKER_STOPPED_CODE = "worker_stopped"


def worker_id() -> str:
    """This process, as recorded on the runs it executes (read each time: a forked child is another)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def stopped_message() -> str:
    return _("the server running this question stopped; ask again")


def _stale_before(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(seconds=settings.RUN_STALE_SECONDS)


def is_stale(run: Run, *, now: datetime | None = None) -> bool:
    if run.status not in ACTIVE:
        return False
    alive_at = run.heartbeat_at or run.created_at
    return alive_at < _stale_before(now)


def _stale_filter(now: datetime | None = None) -> Q:
    cutoff = _stale_before(now)
    return Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=cutoff)


def run_fail_stopped(*, run: Run, reason: str = "stale") -> bool:
    """Fail an active run whose process stopped: status, response and a final run.failed event.

    False when the run had ended meanwhile (checked under a row lock, so two processes never both do it).
    """
    response = {"status": "failed", "error": {"code": WORKER_STOPPED_CODE, "message": stopped_message()}}
    with transaction.atomic():
        locked = Run.objects.for_tenant(run.tenant).select_for_update().filter(pk=run.pk, status__in=ACTIVE).first()
        if locked is None:
            return False
        seq = locked.last_seq + 1
        event = RunEvent.objects.create(
            tenant_id=locked.tenant_id, run=locked, seq=seq, type="run.failed", data={"response": response}
        )
        now = timezone.now()
        Run.objects.for_tenant(run.tenant).filter(pk=locked.pk).update(
            status=RunStatus.FAILED, finished_at=now, last_seq=seq
        )
        Message.objects.for_tenant(run.tenant).filter(pk=locked.message_id).update(
            response=response, status=RunStatus.FAILED
        )
        payload = {"type": event.type, "trace_id": locked.trace_id, "seq": seq, "data": event.data}
        group = f"conversation.{locked.conversation_id}"
        transaction.on_commit(lambda: _broadcast_quietly(group, payload, locked.trace_id))
    log.warning(
        "run failed: its process stopped",
        extra={"run_trace_id": locked.trace_id, "worker": locked.worker, "reason": reason},
    )
    run.status, run.last_seq, run.finished_at = RunStatus.FAILED, seq, now
    return True


def _broadcast_quietly(group: str, event: dict[str, object], trace_id: str) -> None:
    try:
        broadcast(group, {"type": "run.event", "event": event})
    except Exception:  # stored already: clients read it on resume or catch-up
        log.exception("could not broadcast the failure of run %s", trace_id)


def run_check_alive(run: Run) -> Run:
    """The run as read, failed first if its process stopped (no query unless it is active and stale)."""
    if is_stale(run):
        run_fail_stopped(run=run)
    return run


def stale_runs_fail(*, conversation: Conversation | None = None) -> int:
    """Fail every active run (of one conversation, or all) whose heartbeat went stale; how many."""
    runs = Run.objects.unscoped_for_admin() if conversation is None else Run.objects.for_tenant(conversation.tenant)
    found = runs.filter(status__in=ACTIVE).filter(_stale_filter()).select_related("tenant")
    if conversation is not None:
        found = found.filter(conversation=conversation)
    return sum(run_fail_stopped(run=run) for run in found)


def worker_runs_fail(*, worker: str, reason: str = "worker stopped") -> int:
    """Fail every active run of a process known to be gone, at once; how many."""
    found = Run.objects.unscoped_for_admin().filter(status__in=ACTIVE, worker=worker).select_related("tenant")
    return sum(run_fail_stopped(run=run, reason=reason) for run in found)


class _InFlight:
    """The runs executing in this process: their heartbeat ticker, and failing them at shutdown."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.run_ids: set[int] = set()
        self.started_for_pid: int | None = None

    def add(self, run_id: int) -> None:
        with self.lock:
            self.run_ids.add(run_id)
            if self.started_for_pid != os.getpid():
                self.started_for_pid = os.getpid()
                threading.Thread(target=self._tick_forever, name="run-heartbeat", daemon=True).start()
                atexit.register(self.fail_all, reason="shutdown")

    def discard(self, run_id: int) -> None:
        with self.lock:
            self.run_ids.discard(run_id)

    def snapshot(self) -> list[int]:
        with self.lock:
            return sorted(self.run_ids)

    def _tick_forever(self) -> None:
        interval = max(0.5, min(30.0, settings.RUN_STALE_SECONDS / 4))
        while True:
            time.sleep(interval)
            ids = self.snapshot()
            if not ids:
                continue
            try:
                Run.objects.unscoped_for_admin().filter(pk__in=ids, status__in=ACTIVE).update(
                    heartbeat_at=timezone.now()
                )
            except Exception:  # the database may be briefly away; the next tick tries again
                log.exception("could not refresh the heartbeat of runs %s", ids)
            finally:
                close_old_connections()

    def fail_all(self, reason: str) -> int:
        """Best effort at shutdown: fail this process's runs in flight so clients elsewhere hear of it."""
        ids = self.snapshot()
        if not ids:
            return 0
        failed = 0
        try:
            runs = Run.objects.unscoped_for_admin().filter(pk__in=ids, status__in=ACTIVE).select_related("tenant")
            for run in runs:
                failed += run_fail_stopped(run=run, reason=reason)
        except Exception:
            log.exception("could not fail the runs in flight at shutdown")
        return failed


in_flight = _InFlight()
