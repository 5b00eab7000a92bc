"""Shared fixtures: tenants, users with roles, API tokens and clients, and datasets bound for agent runs."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from apps.agent.tools import DataBinding
from apps.datasets import services as dataset_services
from apps.tenants import services
from apps.tenants.models import Tenant
from apps.tenants.scopes import ALL_SCOPES, Role
from tests.support.requirements import stopping_services_allowed, stopping_services_refused
from tests.support.sales import SALES

_seq = itertools.count(1)


@pytest.fixture(autouse=True)
def _test_isolation(settings: Any) -> None:
    cache.clear()  # throttling counters must not leak between tests
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    settings.TASK_QUEUE = "local"  # runs execute in this process (test_celery_worker.py starts workers)
    settings.ANSWER_STREAM_SECONDS = 0  # answer.delta events without the pause that types them out


@pytest.fixture
def make_tenant(db: Any) -> Callable[..., Tenant]:
    def make(slug: str | None = None, **kwargs: Any) -> Tenant:
        n = next(_seq)
        slug = slug or f"t{n}"
        return services.tenant_create(name=kwargs.pop("name", f"Tenant {slug}"), slug=slug, **kwargs)

    return make


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    def make(username: str | None = None, *, tenant: Tenant | None = None, role: str = Role.ANALYST) -> Any:
        username = username or f"user{next(_seq)}"
        user = get_user_model().objects.create_user(
            username=username, email=f"{username}@example.com", password="pw-" + username
        )
        if tenant is not None:
            services.membership_add(tenant=tenant, user=user, role=role)
        return user

    return make


@pytest.fixture
def make_token(db: Any) -> Callable[..., str]:
    def make(tenant: Tenant, scopes: list[str] | None = None, **kwargs: Any) -> str:
        _token, raw = services.token_create(
            tenant=tenant, name=kwargs.pop("name", "test"), scopes=scopes or list(ALL_SCOPES), **kwargs
        )
        return raw

    return make


@pytest.fixture
def api_client() -> Callable[..., APIClient]:
    def make(token: str | None = None) -> APIClient:
        client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
        if token:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    return make


@pytest.fixture
def tenant_a(make_tenant: Callable[..., Tenant]) -> Tenant:
    return make_tenant("alpha", name="Alpha Co")


@pytest.fixture
def tenant_b(make_tenant: Callable[..., Tenant]) -> Tenant:
    return make_tenant("beta", name="Beta Co")


@pytest.fixture
def csv_binding(tenant_a: Any, settings: Any, tmp_path: Any) -> Callable[..., DataBinding]:
    """make(filename, content, name=None): the CSV uploaded as a dataset of tenant_a, bound for a run."""
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"

    def make(filename: str, content: str | bytes, name: str | None = None) -> DataBinding:
        data = content.encode() if isinstance(content, str) else content
        file = SimpleUploadedFile(filename, data)
        upload = dataset_services.upload_receive(
            tenant=tenant_a, chunks=file.chunks(), original_name=filename, size=file.size
        )
        dataset = dataset_services.dataset_create(tenant=tenant_a, upload=upload, name=name).dataset
        return DataBinding.for_dataset(tenant=tenant_a, dataset=dataset)

    return make


@pytest.fixture
def binding(csv_binding: Callable[..., DataBinding]) -> DataBinding:
    """The sales table of tests/support/sales.py as tenant_a's dataset 销售, bound for a run."""
    return csv_binding("sales.csv", SALES, name="销售")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that stop the machine's services are skipped unless the caller opted in."""
    if stopping_services_allowed():
        return
    skip = pytest.mark.skip(reason=stopping_services_refused())
    for item in items:
        if item.get_closest_marker("stops_services"):
            item.add_marker(skip)
