"""Where a stored run executes: `enqueue_run(run)` hands it to the task queue once its transaction commits.

TASK_QUEUE "celery" (the default with REDIS_URL): a Celery worker takes it (apps/conversations/tasks.py
`execute_run`), executes it and publishes its events through the channel layer, which every web process reads.
TASK_QUEUE "local" (the embedded default, the demo, most tests): one of LOCAL_RUN_THREADS daemon threads of this
process executes it. Either way the run is claimed first (run_services.run_claim): a run whose tenant already
runs as many as its plan allows stays queued and is looked at again after RUN_FAIRNESS_RETRY_SECONDS.
"""

from __future__ import annotations

import logging
import os
import queue
import threading

from django.conf import settings
from django.db import close_old_connections, transaction

from apps.conversations import recovery, run_services
from apps.conversations.models import Run
from apps.conversations.run_services import Claim
from apps.conversations.tasks import execute_run

log = logging.getLogger(__name__)


def uses_celery() -> bool:
    return settings.TASK_QUEUE == "celery"


def queued_owner() -> str:
    """The process recorded on a queued run: this one for the local pool; none while it waits in Celery's queue."""
    return "" if uses_celery() else recovery.worker_id()


def enqueue_run(run: Run) -> None:
    """Hand the run to the queue after the current transaction commits (at once outside one)."""
    run_id, tenant_id = run.pk, run.tenant_id
    transaction.on_commit(lambda: _enqueue(run_id, tenant_id))


def _enqueue(run_id: int, tenant_id: int, delay: float = 0.0) -> None:
    try:
        if uses_celery():
            execute_run.apply_async((run_id, tenant_id), countdown=delay or None)
        else:
            _pool().submit(run_id, tenant_id, delay)
    except Exception:  # the broker is away: tell the client now rather than leave the run queued
        log.exception("could not queue run %s", run_id)
        recovery.run_fail_unqueued(run_id=run_id, tenant_id=tenant_id)


class LocalPool:
    """A bounded pool of daemon threads (a run in flight must not hold up the process's exit: recovery fails it)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.jobs: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
        for n in range(size):
            threading.Thread(target=self._work, name=f"run-pool-{n}", daemon=True).start()

    def submit(self, run_id: int, tenant_id: int, delay: float = 0.0) -> None:
        if delay > 0:
            timer = threading.Timer(delay, self.jobs.put, args=((run_id, tenant_id),))
            timer.daemon = True
            timer.start()
        else:
            self.jobs.put((run_id, tenant_id))

    def _work(self) -> None:
        while True:
            run_id, tenant_id = self.jobs.get()
            try:
                if run_services.run_execute_queued(tenant_id=tenant_id, run_id=run_id) == Claim.WAIT:
                    self.submit(run_id, tenant_id, settings.RUN_FAIRNESS_RETRY_SECONDS)
            except Exception:  # the run's own failures end it with run.failed; this is the platform
                log.exception("run %s could not be executed", run_id)
            finally:
                close_old_connections()


_pools: dict[int, LocalPool] = {}
_pools_lock = threading.Lock()


def _pool() -> LocalPool:
    """This process's pool (a forked child gets its own)."""
    with _pools_lock:
        pool = _pools.get(os.getpid())
        if pool is None:
            pool = _pools[os.getpid()] = LocalPool(settings.LOCAL_RUN_THREADS)
        return pool
