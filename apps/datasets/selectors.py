"""Reads for datasets: lookups scoped to the tenant, schema, sample rows and QuerySpec results (cached)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from sqlglot import exp

from apps.datasets import storage
from apps.datasets.errors import QueryInvalid
from apps.datasets.ingest import recovery
from apps.datasets.ingest.profile import TableProfile
from apps.datasets.message_parts import closest
from apps.datasets.models import Dataset, DatasetVersion, FieldSynonym, Upload, VersionStatus
from apps.datasets.query import engine
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.results import ResultTable
from apps.datasets.query.spec import QuerySpec
from apps.tenants.models import Tenant
from apps.tenants.scoping import get_for_tenant_or_404

MAX_SAMPLE_ROWS = 50
RESULT_CACHE_SECONDS = 3600


def dataset_list(*, tenant: Tenant) -> QuerySet[Dataset]:
    recovery.fail_stale_ingests(tenant=tenant)  # an ingest whose process stopped reads as failed, not forever busy
    return Dataset.objects.for_tenant(tenant).select_related("current_version").order_by("name")


def dataset_get(*, tenant: Tenant, key: int | str) -> Dataset:
    """A dataset by id or exact name; another tenant's dataset is a 404 like a missing one."""
    recovery.fail_stale_ingests(tenant=tenant)
    text = str(key).strip()
    if text.isdigit():
        return get_for_tenant_or_404(Dataset, tenant, pk=int(text))
    try:
        return get_for_tenant_or_404(Dataset, tenant, name=text)
    except Http404:
        names = list(Dataset.objects.for_tenant(tenant).values_list("name", flat=True)[:500])
        raise Http404(_("no dataset named '%(name)s'%(hint)s") % {"name": text, "hint": closest(text, names)}) from None


def upload_get(*, tenant: Tenant, file_id: int | str) -> Upload:
    """A file staged with POST uploads/ (its `file_id`); another tenant's file is a 404 like a missing one."""
    text = str(file_id).strip()
    try:
        return get_for_tenant_or_404(Upload, tenant, pk=int(text))
    except (Http404, ValueError):
        raise Http404(
            _("no uploaded file with file_id %(id)s; stage the file with POST uploads/ first") % {"id": text[:40]}
        ) from None


def synonyms_for(*, tenant: Tenant, dataset: Dataset) -> dict[str, str]:
    """The tenant's synonyms that apply to a dataset: dataset-specific ones override tenant-wide ones."""
    rows = FieldSynonym.objects.for_tenant(tenant).filter(dataset__isnull=True) | FieldSynonym.objects.for_tenant(
        tenant
    ).filter(dataset=dataset)
    ordered = sorted(rows, key=lambda s: s.dataset_id is not None)
    return {s.term: s.column for s in ordered}


def version_get(*, tenant: Tenant, dataset: Dataset, number: int) -> DatasetVersion:
    return get_for_tenant_or_404(DatasetVersion, tenant, dataset=dataset, number=number)


def ready_version(*, dataset: Dataset) -> DatasetVersion:
    version = dataset.current_version
    if version is None or version.status != VersionStatus.READY:
        latest = DatasetVersion.objects.for_tenant(dataset.tenant).filter(dataset=dataset).first()
        state = latest.status if latest else "empty"
        if state == VersionStatus.PENDING:
            hint = _("it is waiting to be ingested; try again shortly")
        elif state == VersionStatus.INGESTING:
            hint = _("it is still being ingested; try again shortly")
        elif state == VersionStatus.FAILED:
            hint = _("its ingest failed: %(error)s") % {"error": latest.error_message if latest else ""}
        else:
            hint = _("upload a file first")
        raise QueryInvalid(
            _("dataset '%(name)s' has no data yet: %(hint)s") % {"name": dataset.name, "hint": hint},
            code="dataset_not_ready",
        )
    return version


def version_file(version: DatasetVersion) -> Path:
    return storage.version_path(version.tenant, version.storage_name)


def schema_of(version: DatasetVersion) -> TableProfile:
    return TableProfile.model_validate(version.profile)


def sample_rows(*, version: DatasetVersion, n: int = 10, columns: list[str] | None = None) -> ResultTable:
    if not 1 <= n <= MAX_SAMPLE_ROWS:
        raise QueryInvalid(_("n must be between 1 and %(max)s") % {"max": MAX_SAMPLE_ROWS}, code="invalid_sample_size")
    kinds = schema_of(version).kinds()
    chosen = columns or list(kinds)
    for name in chosen:
        if name not in kinds:
            raise QueryInvalid(
                _("unknown column '%(name)s'%(hint)s") % {"name": name, "hint": closest(name, kinds)},
                code="unknown_column",
            )
    select = exp.select(*(exp.column(exp.to_identifier(c, quoted=True)) for c in chosen))
    sql = select.from_(exp.Table(this=exp.to_identifier("data", quoted=True))).limit(n).sql("duckdb")
    return engine.execute(version_file(version), sql, row_cap=n)


def _cache_key(version: DatasetVersion, spec: QuerySpec) -> str:
    """What fully determines a result: the file's content, how it was read, and the spec."""
    source = [version.upload.content_hash, version.sheet, version.header_row]
    payload = json.dumps([source, spec.model_dump(mode="json")], sort_keys=True, ensure_ascii=False)
    return f"qs:{version.tenant_id}:{hashlib.sha256(payload.encode()).hexdigest()}"


_fresh_only: ContextVar[bool] = ContextVar("fresh_only", default=False)


@contextmanager
def fresh_results() -> Iterator[None]:
    """Within the block, queries run on the engine even when a cached result exists (replays)."""
    token = _fresh_only.set(True)
    try:
        yield
    finally:
        _fresh_only.reset(token)


def run_query(*, version: DatasetVersion, spec: QuerySpec) -> ResultTable:
    """Compile and run a QuerySpec on a ready version; results are cached per (version, spec)."""
    key = _cache_key(version, spec)
    cached = None if _fresh_only.get() else _cache_call(cache.get, key)
    if cached is not None:
        return ResultTable.model_validate(cached)
    result = execute_spec(version_file(version), schema_of(version).kinds(), spec)
    _cache_call(cache.set, key, result.model_dump(mode="json"), RESULT_CACHE_SECONDS)
    return result


def _cache_call(method: Any, *args: Any) -> Any:
    """The result cache is an optimisation: with the cache (Redis) unreachable, queries run uncached."""
    try:
        return method(*args)
    except Exception as exc:
        logging.getLogger(__name__).warning("result cache unavailable", extra={"error": type(exc).__name__})
        return None


def execute_spec(path: Path, kinds: dict[str, str], spec: QuerySpec) -> ResultTable:
    """Compile and run a spec on a version file (no cache): the engine's hot path."""
    compiled = compile_query(spec, schema=kinds, dialect="duckdb", row_cap=settings.QUERY_MAX_ROWS, ordered=True)
    result = engine.execute(path, compiled.sql, compiled.params, row_cap=compiled.limit)
    result.columns = compiled.columns
    return result
