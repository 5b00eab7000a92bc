"""Celery tasks of conversations: a worker executes a queued run (apps/conversations/queue.py enqueues it).

Acknowledged late (after the run is recorded), so a worker process lost mid-run gives the message back and another
worker decides: executed again if the run had sent nothing yet, else failed with run.failed. A run whose tenant is
at its bound of concurrent runs is retried after RUN_FAIRNESS_RETRY_SECONDS, without holding a worker meanwhile.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from apps.conversations import run_services
from apps.conversations.run_services import Claim


@shared_task(bind=True, name="conversations.execute_run", acks_late=True, reject_on_worker_lost=True, max_retries=None)
def execute_run(self: Any, run_id: int, tenant_id: int) -> str:
    claim = run_services.run_execute_queued(tenant_id=tenant_id, run_id=run_id)
    if claim == Claim.WAIT:
        raise self.retry(countdown=settings.RUN_FAIRNESS_RETRY_SECONDS)
    return claim.value
