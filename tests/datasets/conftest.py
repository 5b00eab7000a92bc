"""Fixtures for the data-engine tests: a private data directory per test and an API client that writes."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE, SOURCES_MANAGE


@pytest.fixture(autouse=True)
def _data_dir(settings, tmp_path):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"


@pytest.fixture(autouse=True)
def _english_messages():
    """Engine-level tests assert on English messages (the default language is Chinese); requests
    still choose their own language through Accept-Language or the portal's language cookie."""
    with translation.override("en"):
        yield


@pytest.fixture
def writer(tenant_a, make_token, api_client):
    return api_client(make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE]))


@pytest.fixture
def source_admin(tenant_a, make_token, api_client):
    """A client that may also register, change, test and delete SQL sources (an admin's token)."""
    return api_client(make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE, SOURCES_MANAGE]))
