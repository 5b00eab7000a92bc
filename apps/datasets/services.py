"""Writes for datasets: receive an upload, create a dataset or a new version, ingest it.

Small files are ingested inside the request; larger ones in a background thread, with progress
on the version row. A failed ingest leaves no data file behind and says why on the version.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import close_old_connections, transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.audit.changes import Actor, change_record
from apps.audit.models import ChangeAction
from apps.audit.quotas import check_storage_allowed
from apps.datasets import storage
from apps.datasets.errors import IngestRejected
from apps.datasets.ingest import recovery
from apps.datasets.ingest.excel import unknown_sheet
from apps.datasets.ingest.load import detect_format, list_sheets
from apps.datasets.ingest.worker import IngestDied, IngestJob, failed_message, run_isolated
from apps.datasets.message_parts import closest, human_size, quoted_list
from apps.datasets.models import Dataset, DatasetVersion, FieldSynonym, Upload, VersionStatus
from apps.datasets.query import engine
from apps.observability.counters import INGEST_ROWS, INGEST_SECONDS, UPLOAD_BYTES
from apps.tenants.models import Tenant
from baplatform.errors import Conflict, InvalidInput

log = logging.getLogger(__name__)

SYNC_INGEST_BYTES = 2 * 1024 * 1024  # below this an upload is ingested inside the request
_CHUNK = 1024 * 1024


def plan_limits(tenant: Tenant) -> dict[str, int]:
    return settings.PLAN_LIMITS.get(tenant.plan, settings.PLAN_LIMITS["free"])


def upload_receive(
    *, tenant: Tenant, chunks: Iterable[bytes], original_name: str, size: int | None, created_by: Any = None
) -> Upload:
    """Store an uploaded file once per tenant (by content hash) and list its sheets."""
    limit = plan_limits(tenant)["max_upload_bytes"]
    if size is not None and size > limit:
        raise IngestRejected(
            _("the file is %(size)s, over your plan's %(limit)s limit; split it or upgrade the plan")
            % {"size": human_size(size), "limit": human_size(limit)},
            code="file_too_large",
        )
    check_storage_allowed(tenant, size or 0)
    directory = storage.uploads_dir(tenant)
    digest, written = hashlib.sha256(), 0
    fd, temp_name = tempfile.mkstemp(dir=directory, prefix=".incoming-")
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                written += len(chunk)
                if written > limit:
                    raise IngestRejected(
                        _("the file is over your plan's %(limit)s limit; split it or upgrade the plan")
                        % {"limit": human_size(limit)},
                        code="file_too_large",
                    )
                digest.update(chunk)
                out.write(chunk)
        file_format = detect_format(temp, original_name)
        sheets = [s.name for s in list_sheets(temp, file_format)]
        content_hash = digest.hexdigest()
        final = storage.upload_path(tenant, content_hash, file_format)
        os.replace(temp, final)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    UPLOAD_BYTES.observe(written)
    log.info("upload received", extra={"size_bytes": written, "file_format": file_format, "sheets": len(sheets)})
    upload, _created = Upload.objects.for_tenant(tenant).get_or_create(
        tenant=tenant,
        content_hash=content_hash,
        defaults={
            "original_name": original_name[:255],
            "file_format": file_format,
            "size_bytes": written,
            "sheets": sheets,
            "created_by": created_by,
        },
    )
    return upload


def _default_name(upload: Upload, sheet: str) -> str:
    stem = Path(upload.original_name).stem or "dataset"
    return f"{stem} - {sheet}" if len(upload.sheets) > 1 else stem


def _check_sheet(upload: Upload, sheet: str | None) -> str:
    if upload.file_format == "csv":
        return ""
    if not sheet:
        return upload.sheets[0]
    if sheet not in upload.sheets:
        raise unknown_sheet(sheet, upload.sheets)
    return sheet


def _replace_failed(tenant: Tenant, name: str, upload: Upload) -> None:
    """A dataset left by a failed background ingest (every version failed) gives way to a new one of its name."""
    failed = Dataset.objects.for_tenant(tenant).filter(name=name).first()
    if failed is None:
        return
    versions = DatasetVersion.objects.for_tenant(tenant).filter(dataset=failed)
    if versions.exists() and not versions.exclude(status=VersionStatus.FAILED).exists():
        dataset_delete(tenant=tenant, dataset=failed, keep_upload=upload)


def dataset_create(
    *,
    tenant: Tenant,
    upload: Upload,
    name: str | None = None,
    sheet: str | None = None,
    header_row: int = 1,
    created_by: Any = None,
    dataset: Dataset | None = None,
    wait: bool = False,
    discard_upload: bool = False,
) -> DatasetVersion:
    """A new dataset (or a new version of `dataset`) from an upload.

    Small files (or any file with `wait=True`) are ingested now, and a failure is raised with nothing
    left behind (with `discard_upload`, for a file sent with the request, not the upload either);
    larger ones are ingested in the background, with progress on the version. A dataset of the same
    name whose every version failed is replaced: its failure was shown, and it holds nothing.
    """
    sheet = _check_sheet(upload, sheet)
    if not 1 <= header_row <= 1000:
        raise InvalidInput(_("header_row must be between 1 and 1000 (the row that holds the column names)"))
    new_dataset = dataset is None
    with transaction.atomic():
        if dataset is None:
            name = (name or _default_name(upload, sheet)).strip()[:200]
            _replace_failed(tenant, name, upload)
            if Dataset.objects.for_tenant(tenant).filter(name=name).exists():
                raise Conflict(
                    _("a dataset named '%(name)s' already exists; choose another name or upload a new version of it")
                    % {"name": name},
                    code="dataset_name_taken",
                )
            dataset = Dataset.objects.create(tenant=tenant, name=name, created_by=created_by)
        else:
            current = dataset.current_version
            if current and (current.upload_id, current.sheet, current.header_row) == (upload.pk, sheet, header_row):
                return current  # the same file again: versions are immutable, nothing to do
        last = DatasetVersion.objects.for_tenant(tenant).filter(dataset=dataset).aggregate(n=Max("number"))["n"]
        version = DatasetVersion.objects.create(
            tenant=tenant,
            dataset=dataset,
            number=(last or 0) + 1,
            upload=upload,
            sheet=sheet,
            header_row=header_row,
            created_by=created_by,
        )
    if wait or upload.size_bytes <= SYNC_INGEST_BYTES:
        version_ingest(version_id=version.pk, tenant=tenant)
        version.refresh_from_db()
        if version.status == VersionStatus.FAILED:
            if new_dataset:  # nothing half-made remains: the caller gets the error instead
                dataset_delete(tenant=tenant, dataset=version.dataset, keep_upload=None if discard_upload else upload)
            else:
                version.delete()
                if discard_upload:
                    upload_delete_if_unused(tenant=tenant, upload=upload)
            raise IngestRejected(version.error_message, code=version.error_code)
    else:
        transaction.on_commit(lambda: _start_background_ingest(version.pk, tenant))
    return version


INGEST_TASK = "datasets.ingest_version"  # apps/datasets/tasks.py


def _start_background_ingest(version_id: int, tenant: Tenant) -> None:
    """Ingest a pending version in the background: on a Celery worker (TASK_QUEUE=celery), else in a thread here.

    Either way the file is read in a child process (apps/datasets/ingest/worker.py).
    """
    language = translation.get_language()  # the uploader's: the thread would otherwise use LANGUAGE_CODE
    if settings.TASK_QUEUE == "celery":
        try:
            current_app.send_task(INGEST_TASK, args=(version_id, tenant.pk, language))
        except Exception:  # the broker is away: say so on the version rather than leave it pending
            log.exception("could not queue the ingest of version %s", version_id)
            recovery.version_fail_unqueued(version_id=version_id, tenant=tenant)
        return

    def job() -> None:
        try:
            with translation.override(language):
                version_ingest(version_id=version_id, tenant=tenant)
        finally:
            close_old_connections()

    # The thread keeps the uploader's log context (trace id, tenant, actor).
    runner = contextvars.copy_context().run
    threading.Thread(target=runner, args=(job,), name=f"ingest-{version_id}", daemon=True).start()


class _Progress:
    """Writes progress to the version row at most twice a second."""

    def __init__(self, version: DatasetVersion) -> None:
        self.version, self.last = version, 0.0

    def __call__(self, fraction: float, stage: str) -> None:
        now = time.monotonic()
        if now - self.last < 0.5 and fraction < 1.0:
            return
        self.last = now
        DatasetVersion.objects.for_tenant(self.version.tenant).filter(pk=self.version.pk).update(
            progress=round(min(fraction, 1.0) * 0.9, 3), stage=stage, heartbeat_at=timezone.now()
        )


def version_ingest_queued(*, version_id: int, tenant_id: int, language: str) -> None:
    """What a worker does with a queued ingest: ingest the version if it is still pending. One found ingesting was
    delivered again because the process reading it was lost: it is failed ("upload the file again")."""
    tenant = Tenant.objects.filter(pk=tenant_id).first()
    version = DatasetVersion.objects.for_tenant(tenant).filter(pk=version_id).first() if tenant else None
    if tenant is None or version is None:
        return
    if version.status == VersionStatus.INGESTING:
        recovery.worker_ingests_fail(worker=version.worker)
    elif version.status == VersionStatus.PENDING:
        with translation.override(language):
            version_ingest(version_id=version_id, tenant=tenant)


def version_ingest(*, version_id: int, tenant: Tenant) -> None:
    """Ingest a pending version into its DuckDB file and profile it; record failure on the version."""
    started = time.perf_counter()
    outcome, rows = _ingest(version_id=version_id, tenant=tenant)
    seconds = time.perf_counter() - started
    INGEST_SECONDS.labels(outcome=outcome).observe(seconds)
    if rows is not None:
        INGEST_ROWS.observe(rows)
    log.info(
        "ingest finished",
        extra={"version": version_id, "outcome": outcome, "rows": rows, "duration_ms": round(seconds * 1000, 3)},
    )


def _ingest(*, version_id: int, tenant: Tenant) -> tuple[str, int | None]:
    """(outcome, rows): ready with the row count, rejected (the file's fault) or failed."""
    version = DatasetVersion.objects.for_tenant(tenant).select_related("upload", "dataset").get(pk=version_id)
    upload = version.upload
    storage_name = f"v{version.pk}.duckdb"
    dest = storage.version_path(tenant, storage_name)
    rows = DatasetVersion.objects.for_tenant(tenant).filter(pk=version.pk)
    rows.update(
        status=VersionStatus.INGESTING, stage="reading", worker=recovery.worker_id(), heartbeat_at=timezone.now()
    )
    limits = plan_limits(tenant)
    job = IngestJob(
        src=str(storage.upload_path(tenant, upload.content_hash, upload.file_format)),
        dest=str(dest),
        fmt=upload.file_format,
        sheet=version.sheet or None,
        header_row=version.header_row,
        max_rows=limits["max_rows"],
        max_columns=settings.INGEST_MAX_COLUMNS,
        max_line_bytes=limits["max_upload_bytes"],
        timeout_s=settings.INGEST_TIMEOUT_SECONDS,
        language=translation.get_language() or settings.LANGUAGE_CODE,
    )
    recovery.track(version.pk)
    try:
        result = run_isolated(
            job, progress=_Progress(version), heartbeat=lambda: rows.update(heartbeat_at=timezone.now())
        )
    except IngestRejected as exc:
        _fail(version, exc.code, exc.message, dest)
        return "rejected", None
    except IngestDied as exc:
        _fail(version, exc.code, exc.message, dest)
        return "failed", None
    except Exception:  # a bug or an I/O failure here: still leave nothing behind and say so
        log.exception("ingest of version %s failed", version.pk)
        _fail(version, "ingest_failed", failed_message(), dest)
        return "failed", None
    finally:
        recovery.untrack(version.pk)
    with transaction.atomic():
        rows.update(
            status=VersionStatus.READY,
            progress=1.0,
            stage="done",
            row_count=result.profile["row_count"],
            profile=result.profile,
            ingest_report=result.report,
            storage_name=storage_name,
            ready_at=timezone.now(),
        )
        dataset = Dataset.objects.for_tenant(tenant).select_for_update().get(pk=version.dataset_id)
        current = dataset.current_version
        if current is None or current.number < version.number:
            dataset.current_version_id = version.pk
            dataset.save(update_fields=["current_version", "updated_at"])
    return "ready", int(result.profile["row_count"])


def _fail(version: DatasetVersion, code: str, message: str, dest: Path) -> None:
    engine.forget(dest)
    dest.unlink(missing_ok=True)
    DatasetVersion.objects.for_tenant(version.tenant).filter(pk=version.pk).update(
        status=VersionStatus.FAILED, stage="failed", error_code=code, error_message=message
    )


def dataset_delete(*, tenant: Tenant, dataset: Dataset, keep_upload: Upload | None = None) -> None:
    """Delete a dataset, its versions, their data files, and the uploads no other dataset's version uses
    (except `keep_upload`, about to be used again)."""
    versions = list(DatasetVersion.objects.for_tenant(tenant).filter(dataset=dataset).select_related("upload"))
    with transaction.atomic():
        Dataset.objects.for_tenant(tenant).filter(pk=dataset.pk).update(current_version=None)
        dataset.delete()
    for version in versions:
        if version.storage_name:
            path = storage.version_path(tenant, version.storage_name)
            engine.forget(path)
            path.unlink(missing_ok=True)
    for upload in {version.upload_id: version.upload for version in versions}.values():
        if keep_upload is None or upload.pk != keep_upload.pk:
            upload_delete_if_unused(tenant=tenant, upload=upload)


def upload_users(*, tenant: Tenant, upload: Upload) -> list[str]:
    """Names of the datasets with a version made from the upload."""
    return sorted(
        set(DatasetVersion.objects.for_tenant(tenant).filter(upload=upload).values_list("dataset__name", flat=True))
    )


def upload_delete_if_unused(*, tenant: Tenant, upload: Upload) -> bool:
    """Delete an upload (row and file) that no dataset version uses; whether it was deleted."""
    with transaction.atomic():
        if DatasetVersion.objects.for_tenant(tenant).filter(upload=upload).exists():
            return False
        deleted, _rows = Upload.objects.for_tenant(tenant).filter(pk=upload.pk).delete()
    if deleted:
        storage.upload_path(tenant, upload.content_hash, upload.file_format).unlink(missing_ok=True)
    return bool(deleted)


def upload_delete(*, tenant: Tenant, upload: Upload) -> None:
    """Delete a staged upload; refused while a dataset's version was made from it (delete that dataset first)."""
    if upload_delete_if_unused(tenant=tenant, upload=upload):
        return
    names = upload_users(tenant=tenant, upload=upload)
    raise Conflict(
        _(
            "the file is used by dataset %(datasets)s; delete the dataset first (its file goes with it when no other "
            "dataset uses it)"
        )
        % {"datasets": quoted_list(names)},
        code="upload_in_use",
    )


def user_or_none(user: Any) -> AbstractBaseUser | None:
    return user if getattr(user, "pk", None) else None


def _synonym_fields(synonym: FieldSynonym) -> dict[str, Any]:
    return {
        "term": synonym.term,
        "column": synonym.column,
        "dataset": synonym.dataset.name if synonym.dataset else None,
    }


def synonym_create(
    *, tenant: Tenant, term: str, column: str, dataset: Dataset | None = None, actor: Actor | None = None
) -> FieldSynonym:
    term, column = term.strip(), column.strip()
    if not term or not column:
        raise InvalidInput(_("a synonym needs a term and the column it means"), code="invalid_synonym")
    if dataset is not None and dataset.current_version and dataset.current_version.profile:
        names = [c["name"] for c in dataset.current_version.profile["columns"]]
        if column not in names:
            raise InvalidInput(
                _("dataset '%(dataset)s' has no column '%(column)s'%(hint)s")
                % {"dataset": dataset.name, "column": column, "hint": closest(column, names)},
                code="unknown_column",
            )
    if FieldSynonym.objects.for_tenant(tenant).filter(dataset=dataset, term=term).exists():
        raise Conflict(_("the synonym '%(term)s' is already defined") % {"term": term}, code="synonym_exists")
    with transaction.atomic():
        synonym = FieldSynonym.objects.create(tenant=tenant, term=term, column=column, dataset=dataset)
        change_record(
            tenant=tenant,
            actor=actor,
            action=ChangeAction.SYNONYM_CREATE,
            target_id=synonym.pk,
            target=term,
            after=_synonym_fields(synonym),
        )
    return synonym


@transaction.atomic
def synonym_delete(*, synonym: FieldSynonym, actor: Actor | None = None) -> None:
    change_record(
        tenant=synonym.tenant,
        actor=actor,
        action=ChangeAction.SYNONYM_DELETE,
        target_id=synonym.pk,
        target=synonym.term,
        before=_synonym_fields(synonym),
    )
    synonym.delete()
