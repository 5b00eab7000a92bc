"""Datasets (uploaded files, each upload an immutable version), staged uploads, SQL sources, synonyms."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from apps.tenants.scoping import TenantOwnedModel


class FileFormat(models.TextChoices):
    CSV = "csv", "CSV"
    XLSX = "xlsx", "XLSX"
    XLS = "xls", "XLS"


class Upload(TenantOwnedModel):
    """A file received from a user, stored once per tenant by content hash; versions are made from it."""

    content_hash = models.CharField(max_length=64)
    original_name = models.CharField(max_length=255)
    file_format = models.CharField(max_length=8, choices=FileFormat.choices)
    size_bytes = models.BigIntegerField()
    sheets = models.JSONField(default=list, help_text="sheet names (one pseudo-sheet for CSV)")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "content_hash"], name="uniq_upload_hash")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.original_name


class Dataset(TenantOwnedModel):
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    current_version = models.ForeignKey(
        "datasets.DatasetVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "name"], name="uniq_dataset_name")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class VersionStatus(models.TextChoices):
    PENDING = "pending", "pending"
    INGESTING = "ingesting", "ingesting"
    READY = "ready", "ready"
    FAILED = "failed", "failed"


class DatasetVersion(TenantOwnedModel):
    """One ingested upload of a dataset. Immutable once ready: queries and caches key on it."""

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    upload = models.ForeignKey(Upload, on_delete=models.PROTECT, related_name="versions")
    sheet = models.CharField(max_length=255, blank=True)
    header_row = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=12, choices=VersionStatus.choices, default=VersionStatus.PENDING)
    progress = models.FloatField(default=0.0)
    stage = models.CharField(max_length=40, blank=True)
    error_code = models.CharField(max_length=40, blank=True)
    error_message = models.TextField(blank=True)
    row_count = models.BigIntegerField(null=True, blank=True)
    profile = models.JSONField(null=True, blank=True, help_text="TableProfile, computed once after ingest")
    ingest_report = models.JSONField(null=True, blank=True)
    storage_name = models.CharField(max_length=100, blank=True, help_text="file name under the tenant's versions/")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ready_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=120, blank=True, help_text="host:pid of the process ingesting it")
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="last sign of life of that process while ingesting; stale ones are failed"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["dataset", "number"], name="uniq_version_number")]
        ordering = ["dataset_id", "-number"]

    def __str__(self) -> str:
        return f"{self.dataset_id} v{self.number}"


class SourceKind(models.TextChoices):
    POSTGRESQL = "postgresql", "PostgreSQL"
    MYSQL = "mysql", "MySQL / MariaDB"
    SQLITE = "sqlite", "SQLite"


class SqlSource(TenantOwnedModel):
    """A tenant's own database, reached read-only. The password is stored encrypted, never returned."""

    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=SourceKind.choices)
    host = models.CharField(max_length=255, blank=True)
    port = models.PositiveIntegerField(null=True, blank=True)
    database = models.CharField(max_length=255, help_text="database name, or the file path for SQLite")
    schema = models.CharField(max_length=255, blank=True, help_text="PostgreSQL schema; empty = public")
    username = models.CharField(max_length=255, blank=True)
    password_encrypted = models.TextField(blank=True)
    tables = models.JSONField(default=list, help_text="tables exposed to queries; empty = all tables")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    tested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "name"], name="uniq_source_name")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class FieldSynonym(TenantOwnedModel):
    """A tenant's own word for a column ("GMV" -> 销售额), optionally for one dataset only."""

    term = models.CharField(max_length=100)
    column = models.CharField(max_length=255)
    dataset = models.ForeignKey(Dataset, null=True, blank=True, on_delete=models.CASCADE, related_name="synonyms")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "dataset", "term"], name="uniq_synonym")]
        ordering = ["term"]

    def __str__(self) -> str:
        return f"{self.term} -> {self.column}"
