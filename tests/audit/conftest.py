"""Fixtures for the audit tests."""

from __future__ import annotations

import pytest

from apps.conversations import services
from apps.tenants.context import context_for_token
from apps.tenants.scopes import ALL_SCOPES
from apps.tenants.services import token_create


@pytest.fixture
def conversation_for():
    def make(binding):
        token, _raw = token_create(tenant=binding.tenant, name="setup", scopes=list(ALL_SCOPES))
        return services.conversation_create(
            tenant=binding.tenant, ctx=context_for_token(token), dataset=binding.dataset
        )

    return make
