"""Ingestion in a child process: a reader that crashes or hangs stops the child, never the server; the
version says why; partial files go; a version whose process stopped is failed when read."""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from django.utils import timezone

from apps.datasets import selectors, services
from apps.datasets.errors import IngestRejected
from apps.datasets.ingest.recovery import STOPPED_CODE, fail_stale_ingests
from apps.datasets.ingest.worker import IngestDied, IngestJob, run_isolated
from apps.datasets.models import DatasetVersion, VersionStatus

pytestmark = pytest.mark.django_db


def job_for(tmp_path: Path, body: bytes, **changes) -> IngestJob:
    src = tmp_path / "in.csv"
    src.write_bytes(body)
    values = {
        "src": str(src),
        "dest": str(tmp_path / "out.duckdb"),
        "fmt": "csv",
        "sheet": None,
        "header_row": 1,
        "max_rows": 1000,
        "max_columns": 1000,
        "max_line_bytes": 50 * 1024**2,
        "timeout_s": 60.0,
        "language": "en",
        **changes,
    }
    return IngestJob(**values)


def crash(sender: Connection, job: IngestJob) -> None:
    """A reader that segfaults halfway: after writing a partial file."""
    Path(job.dest).with_name(f".partial-{os.getpid()}-{Path(job.dest).name}").write_bytes(b"half")
    os.kill(os.getpid(), signal.SIGSEGV)


def hang(sender: Connection, job: IngestJob) -> None:
    time.sleep(60)


def test_a_child_ingests_and_profiles(tmp_path):
    seen = []
    result = run_isolated(job_for(tmp_path, b"a,b\n1,x\n2,y\n"), progress=lambda f, s: seen.append(s), heartbeat=int)
    assert result.profile["row_count"] == 2 and result.report["columns"] == ["a", "b"]
    assert Path(tmp_path / "out.duckdb").exists() and "loaded" in seen


def test_a_crashing_reader_stops_its_child_not_the_server(tmp_path):
    with pytest.raises(IngestDied) as info:
        run_isolated(job_for(tmp_path, b"a\n1\n"), progress=lambda f, s: None, heartbeat=int, target=crash)
    assert info.value.code == "ingest_crashed" and "upload it again" in info.value.message
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "partial files are removed"


def test_a_hanging_reader_is_stopped_at_the_time_limit(tmp_path):
    with pytest.raises(IngestDied) as info:
        run_isolated(
            job_for(tmp_path, b"a\n1\n", timeout_s=1.0), progress=lambda f, s: None, heartbeat=int, target=hang
        )
    assert info.value.code == "ingest_timeout" and "1 s" in info.value.message


def test_a_rejection_in_the_child_keeps_its_code_and_message(tmp_path):
    with pytest.raises(IngestRejected) as info:
        run_isolated(job_for(tmp_path, b"a,a\n1,2\n"), progress=lambda f, s: None, heartbeat=int)
    assert info.value.code == "duplicate_header" and "twice" in info.value.message


def test_a_very_wide_csv_is_refused_with_the_limit_named(tmp_path):
    width = 3000
    body = (",".join(f"c{i}" for i in range(width)) + "\n" + ",".join("1" for _ in range(width)) + "\n").encode()
    with pytest.raises(IngestRejected) as info:
        run_isolated(job_for(tmp_path, body), progress=lambda f, s: None, heartbeat=int)
    assert info.value.code == "too_many_columns"
    assert "3,000 columns" in info.value.message and "1,000" in info.value.message


def test_the_column_limit_is_a_setting(tenant_a, settings):
    settings.INGEST_MAX_COLUMNS = 5
    body = b"a,b,c,d,e,f\n1,2,3,4,5,6\n"
    upload = services.upload_receive(tenant=tenant_a, chunks=[body], original_name="w.csv", size=len(body))
    with pytest.raises(IngestRejected) as info:
        services.dataset_create(tenant=tenant_a, upload=upload, wait=True)
    assert info.value.code == "too_many_columns"


def test_a_field_longer_than_128_kb_is_read(tmp_path):
    body = b"a,b\n" + b"x" * 300_000 + b",1\ny,2\n"
    result = run_isolated(job_for(tmp_path, body), progress=lambda f, s: None, heartbeat=int)
    assert result.profile["row_count"] == 2


def test_an_ingest_that_died_fails_its_version_and_leaves_no_data(tenant_a, monkeypatch):
    def died(*args, **kwargs):
        raise IngestDied("ingest_crashed", "reading the file stopped the reader")

    monkeypatch.setattr(services, "run_isolated", died)
    body = b"a,b\n1,2\n"
    upload = services.upload_receive(tenant=tenant_a, chunks=[body], original_name="c.csv", size=len(body))
    with pytest.raises(IngestRejected) as info:
        services.dataset_create(tenant=tenant_a, upload=upload, wait=True)
    assert info.value.code == "ingest_crashed"
    assert not DatasetVersion.objects.for_tenant(tenant_a).exists()


def test_a_version_whose_process_stopped_is_failed_when_read(tenant_a, monkeypatch):
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 1)
    monkeypatch.setattr(services, "_start_background_ingest", lambda *args: None)  # the process "dies" at once
    body = b"a,b\n1,2\n"
    upload = services.upload_receive(tenant=tenant_a, chunks=[body], original_name="s.csv", size=len(body))
    version = services.dataset_create(tenant=tenant_a, upload=upload)
    DatasetVersion.objects.for_tenant(tenant_a).filter(pk=version.pk).update(
        status=VersionStatus.INGESTING, heartbeat_at=timezone.now()
    )
    assert fail_stale_ingests(tenant=tenant_a) == 0, "a live heartbeat is left alone"
    DatasetVersion.objects.for_tenant(tenant_a).filter(pk=version.pk).update(
        heartbeat_at=timezone.now() - timedelta(hours=1)
    )
    selectors.dataset_get(tenant=tenant_a, key=version.dataset_id)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED and version.error_code == STOPPED_CODE
    assert "upload the file again" in version.error_message
