"""Runs whose process stopped: a heartbeat per run, and failing the runs that lost theirs.

Each run records the process executing it (`worker`, host:pid) and a heartbeat, refreshed on every
event and by a ticker thread while the run is in flight here (a model may think for a while between
events). A running run whose heartbeat is older than RUN_STALE_SECONDS is failed with a final stored
and broadcast `run.failed` event; a queued one only after RUN_QUEUE_WAIT_SECONDS (it may wait its turn in
Celery's queue, where no process refreshes it). Reads of runs do this lazily, `manage.py recover_runs` at
once. The ticker also fails a run of this process still executing after RUN_TIME_LIMIT_SECONDS. When this
process shuts down, its runs in flight are failed the same way.
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

from apps.conversations.events import publish_quietly
from apps.conversations.models import ACTIVE, Conversation, Message, Run, RunEvent, RunStatus

log = logging.getLogger(__name__)

WORKER_STOPPED_CODE = "worker_stopped"
QUEUE_TIMEOUT_CODE = "queue_timeout"
QUEUE_UNAVAILABLE_CODE = "queue_unavailable"
RUN_TIMEOUT_CODE = "run_timeout"


def worker_id() -> str:
    """This process, as recorded on the runs it executes (read each time: a forked child is another)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def stopped_message() -> str:
    return _("the server running this question stopped; ask again")


def stopped_error(code: str = WORKER_STOPPED_CODE) -> dict[str, str]:
    """The error a run failed from outside its graph ends with (the process stopped, the queue, the time limit)."""
    messages = {
        QUEUE_TIMEOUT_CODE: _("no worker took this question in time; ask again in a moment"),
        QUEUE_UNAVAILABLE_CODE: _("the question could not be queued (the task queue is unavailable); ask again"),
        RUN_TIMEOUT_CODE: _("answering took longer than %(seconds)s s and was stopped; ask a narrower question")
        % {"seconds": f"{settings.RUN_TIME_LIMIT_SECONDS:g}"},
    }
    return {"code": code, "message": messages.get(code) or stopped_message()}


def _stale_before(now: datetime | None = None, *, queued: bool = False) -> datetime:
    seconds = settings.RUN_STALE_SECONDS
    if queued:
        seconds = max(seconds, settings.RUN_QUEUE_WAIT_SECONDS)
    return (now or timezone.now()) - timedelta(seconds=seconds)


def is_stale(run: Run, *, now: datetime | None = None) -> bool:
    if run.status not in ACTIVE:
        return False
    alive_at = run.heartbeat_at or run.created_at
    return alive_at < _stale_before(now, queued=run.status == RunStatus.QUEUED)


def _stale_filter(now: datetime | None = None) -> Q:
    found = Q()
    for status in ACTIVE:
        cutoff = _stale_before(now, queued=status == RunStatus.QUEUED)
        lost = Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=cutoff)
        found |= Q(status=status) & lost
    return found


def _stale_error(run: Run) -> dict[str, str]:
    queued_in_celery = run.status == RunStatus.QUEUED and not run.worker
    return stopped_error(QUEUE_TIMEOUT_CODE if queued_in_celery else WORKER_STOPPED_CODE)


def run_fail_stopped(*, run: Run, reason: str = "stale", error: dict[str, str] | None = None) -> bool:
    """Fail an active run whose process stopped: status, response and a final run.failed event.

    False when the run had ended meanwhile (checked under a row lock, so two processes never both do it).
    """
    response = {"status": "failed", "error": error or stopped_error()}
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
        transaction.on_commit(lambda: publish_quietly(locked.conversation_id, payload))
    log.warning(
        "run failed: its process stopped",
        extra={"run_trace_id": locked.trace_id, "worker": locked.worker, "reason": reason},
    )
    run.status, run.last_seq, run.finished_at = RunStatus.FAILED, seq, now
    return True


def run_check_alive(run: Run) -> Run:
    """The run as read, failed first if its process stopped (no query unless it is active and stale)."""
    if is_stale(run):
        run_fail_stopped(run=run, error=_stale_error(run))
    return run


def stale_runs_fail(*, conversation: Conversation | None = None) -> int:
    """Fail every active run (of one conversation, or all) whose heartbeat went stale; how many."""
    runs = Run.objects.unscoped_for_admin() if conversation is None else Run.objects.for_tenant(conversation.tenant)
    found = runs.filter(status__in=ACTIVE).filter(_stale_filter()).select_related("tenant")
    if conversation is not None:
        found = found.filter(conversation=conversation)
    return sum(run_fail_stopped(run=run, error=_stale_error(run)) for run in found)


def run_fail_unqueued(*, run_id: int, tenant_id: int) -> bool:
    """Fail a run the task queue refused (the broker is unavailable), so its client is told at once."""
    run = Run.objects.unscoped_for_admin().filter(pk=run_id, tenant_id=tenant_id).select_related("tenant").first()
    if run is None:
        return False
    return run_fail_stopped(run=run, reason="could not be queued", error=stopped_error(QUEUE_UNAVAILABLE_CODE))


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
        interval = max(0.5, min(30.0, settings.RUN_STALE_SECONDS / 4, settings.RUN_TIME_LIMIT_SECONDS / 4))
        while True:
            time.sleep(interval)
            ids = self.snapshot()
            if not ids:
                continue
            try:
                Run.objects.unscoped_for_admin().filter(pk__in=ids, status__in=ACTIVE).update(
                    heartbeat_at=timezone.now()
                )
                self.fail_overdue(ids)
            except Exception:  # the database may be briefly away; the next tick tries again
                log.exception("could not refresh the heartbeat of runs %s", ids)
            finally:
                close_old_connections()

    def fail_overdue(self, ids: list[int]) -> int:
        """Fail this process's runs still executing after RUN_TIME_LIMIT_SECONDS (what they emit later is dropped)."""
        cutoff = timezone.now() - timedelta(seconds=settings.RUN_TIME_LIMIT_SECONDS)
        overdue = Run.objects.unscoped_for_admin().filter(pk__in=ids, status=RunStatus.RUNNING, started_at__lt=cutoff)
        error = stopped_error(RUN_TIMEOUT_CODE)
        return sum(
            run_fail_stopped(run=run, reason="time limit", error=error) for run in overdue.select_related("tenant")
        )

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
