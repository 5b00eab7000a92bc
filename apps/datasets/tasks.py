"""Celery tasks of the data engine: a worker ingests an uploaded file in the background (services enqueue it by
name, `datasets.ingest_version`, when TASK_QUEUE is celery).

Acknowledged late, so an ingest whose worker process was lost is delivered again, and then failed with a message
that says to upload the file again. Its own time limit (INGEST_TIMEOUT_SECONDS) is kept by the ingest's child
process; Celery's hard limit is a little longer.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from apps.datasets import services


@shared_task(
    name="datasets.ingest_version",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.INGEST_TIMEOUT_SECONDS + 60,
)
def ingest_version(version_id: int, tenant_id: int, language: str) -> None:
    services.version_ingest_queued(version_id=version_id, tenant_id=tenant_id, language=language)
