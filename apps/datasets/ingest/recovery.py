"""Ingests whose process stopped: each ingesting version records its process and a heartbeat; a pending or
ingesting version whose heartbeat is older than INGEST_STALE_SECONDS is failed with a message that says to
upload again. Reads of a tenant's datasets do this lazily, `manage.py recover_ingests` at once, and a process
that shuts down fails its own ingests in flight.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.datasets.models import DatasetVersion, VersionStatus
from apps.tenants.models import Tenant

log = logging.getLogger(__name__)

STOPPED_CODE = "ingest_stopped"
UNQUEUED_CODE = "ingest_unqueued"
_in_flight: set[int] = set()
_lock = threading.Lock()
_exit_hook = False


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def unqueued_message() -> str:
    return _("the file could not be queued for reading (the task queue is unavailable); upload the file again")


def stopped_message() -> str:
    return _("the server reading this file stopped before it finished; upload the file again")


def _stale_filter() -> Q:
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.INGEST_STALE_SECONDS)
    lost = Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=cutoff)
    if settings.TASK_QUEUE != "celery":
        return Q(status__in=[VersionStatus.PENDING, VersionStatus.INGESTING]) & lost
    # A pending version waits its turn in the ingest queue, where nothing refreshes it.
    queued_cutoff = now - timedelta(seconds=max(settings.INGEST_STALE_SECONDS, settings.INGEST_QUEUE_WAIT_SECONDS))
    waited = Q(heartbeat_at__lt=queued_cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=queued_cutoff)
    return (Q(status=VersionStatus.INGESTING) & lost) | (Q(status=VersionStatus.PENDING) & waited)


def fail_stale_ingests(*, tenant: Tenant | None = None) -> int:
    """Fail pending or ingesting versions that lost their process; the number failed."""
    versions = DatasetVersion.objects.for_tenant(tenant) if tenant else DatasetVersion.objects.unscoped_for_admin()
    return _fail(versions.filter(_stale_filter()))


def worker_ingests_fail(*, worker: str) -> int:
    """Fail every pending or ingesting version of a process known to be gone."""
    active = [VersionStatus.PENDING, VersionStatus.INGESTING]
    return _fail(DatasetVersion.objects.unscoped_for_admin().filter(worker=worker, status__in=active))


def version_fail_unqueued(*, version_id: int, tenant: Tenant) -> int:
    """Fail a pending version whose ingest the task queue refused (the broker is unavailable)."""
    pending = DatasetVersion.objects.for_tenant(tenant).filter(pk=version_id, status=VersionStatus.PENDING)
    count = pending.update(
        status=VersionStatus.FAILED, stage="failed", error_code=UNQUEUED_CODE, error_message=unqueued_message()
    )
    return count


def _fail(versions: QuerySet[DatasetVersion]) -> int:
    count = versions.update(
        status=VersionStatus.FAILED, stage="failed", error_code=STOPPED_CODE, error_message=stopped_message()
    )
    if count:
        log.warning("failed %s ingests whose process stopped", count)
    return count


def track(version_id: int) -> None:
    """This process is ingesting the version: fail it if the process shuts down first."""
    global _exit_hook
    with _lock:
        _in_flight.add(version_id)
        if not _exit_hook:
            atexit.register(_fail_own_in_flight)
            _exit_hook = True


def untrack(version_id: int) -> None:
    with _lock:
        _in_flight.discard(version_id)


def _fail_own_in_flight() -> None:
    with _lock:
        ids = list(_in_flight)
    if not ids:
        return
    try:
        close_old_connections()
        _fail(
            DatasetVersion.objects.unscoped_for_admin().filter(
                pk__in=ids, status__in=[VersionStatus.PENDING, VersionStatus.INGESTING]
            )
        )
    except Exception:  # the database may be gone at exit; the stale check catches them later
        log.exception("could not fail this process's ingests at exit")
