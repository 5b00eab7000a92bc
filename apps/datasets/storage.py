"""Where a tenant's files live: TENANT_DATA_ROOT/<tenant id>/{uploads,versions}/. Names are ours, never a user's."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from apps.tenants.models import Tenant


def tenant_dir(tenant: Tenant) -> Path:
    if tenant.pk is None:
        raise ValueError("tenant must be saved")
    return Path(settings.TENANT_DATA_ROOT) / str(int(tenant.pk))


def uploads_dir(tenant: Tenant) -> Path:
    path = tenant_dir(tenant) / "uploads"
    path.mkdir(parents=True, exist_ok=True)
    return path


def versions_dir(tenant: Tenant) -> Path:
    path = tenant_dir(tenant) / "versions"
    path.mkdir(parents=True, exist_ok=True)
    return path


def upload_path(tenant: Tenant, content_hash: str, file_format: str) -> Path:
    return uploads_dir(tenant) / f"{content_hash}.{file_format}"


def version_path(tenant: Tenant, storage_name: str) -> Path:
    return versions_dir(tenant) / storage_name
