"""Background ingests on the task queue (TASK_QUEUE=celery): one the queue refuses fails at once with a message
to upload again; one delivered again after its worker was lost is failed, never read twice.
(A worker reading a real upload: tests/conversations/test_celery_worker.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone, translation

from apps.datasets import services
from apps.datasets.ingest.recovery import STOPPED_CODE, UNQUEUED_CODE, fail_stale_ingests
from apps.datasets.models import DatasetVersion, VersionStatus

pytestmark = pytest.mark.django_db(transaction=True)
BODY = b"a,b\n1,2\n"


@pytest.fixture
def queued(settings, monkeypatch):
    settings.TASK_QUEUE = "celery"
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 1)  # every upload is read in the background
    sent = []
    monkeypatch.setattr(current_app, "send_task", lambda name, args: sent.append((name, args)))
    return sent


def test_a_large_upload_is_queued_for_a_worker_with_the_uploaders_language(tenant_a, queued, settings):
    upload = services.upload_receive(tenant=tenant_a, chunks=[BODY], original_name="q.csv", size=len(BODY))
    with translation.override("zh-hans"):  # the uploader's
        version = services.dataset_create(tenant=tenant_a, upload=upload)
    assert queued == [("datasets.ingest_version", (version.pk, tenant_a.pk, "zh-hans"))]
    assert settings.CELERY_TASK_ROUTES["datasets.ingest_version"] == {"queue": settings.CELERY_INGEST_QUEUE}
    version.refresh_from_db()
    assert version.status == VersionStatus.PENDING

    services.version_ingest_queued(version_id=version.pk, tenant_id=tenant_a.pk, language="en")  # the worker
    version.refresh_from_db()
    assert version.status == VersionStatus.READY and version.row_count == 1


def test_an_ingest_delivered_again_after_its_worker_was_lost_is_failed(tenant_a, queued):
    upload = services.upload_receive(tenant=tenant_a, chunks=[BODY], original_name="l.csv", size=len(BODY))
    version = services.dataset_create(tenant=tenant_a, upload=upload)
    DatasetVersion.objects.for_tenant(tenant_a).filter(pk=version.pk).update(
        status=VersionStatus.INGESTING, worker="gone-host:4242"
    )
    services.version_ingest_queued(version_id=version.pk, tenant_id=tenant_a.pk, language="zh-hans")
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED and version.error_code == STOPPED_CODE


def test_an_upload_the_queue_refuses_is_failed_at_once(tenant_a, settings, monkeypatch):
    settings.TASK_QUEUE = "celery"
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 1)

    def broker_down(*_args, **_kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(current_app, "send_task", broker_down)
    upload = services.upload_receive(tenant=tenant_a, chunks=[BODY], original_name="r.csv", size=len(BODY))
    with translation.override("zh-hans"):
        version = services.dataset_create(tenant=tenant_a, upload=upload)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED and version.error_code == UNQUEUED_CODE
    assert version.error_message == "文件无法排队读取（任务队列不可用）；请重新上传该文件"


def test_an_upload_waiting_in_the_ingest_queue_is_not_failed_as_stopped(tenant_a, queued, settings):
    settings.INGEST_STALE_SECONDS, settings.INGEST_QUEUE_WAIT_SECONDS = 60, 600
    upload = services.upload_receive(tenant=tenant_a, chunks=[BODY], original_name="w.csv", size=len(BODY))
    version = services.dataset_create(tenant=tenant_a, upload=upload)
    waiting = DatasetVersion.objects.for_tenant(tenant_a).filter(pk=version.pk)
    waiting.update(created_at=timezone.now() - timedelta(seconds=120))
    assert fail_stale_ingests(tenant=tenant_a) == 0, "queued behind other uploads: nothing refreshes it there"
    waiting.update(created_at=timezone.now() - timedelta(seconds=601))
    assert fail_stale_ingests(tenant=tenant_a) == 1
