"""The API against its own OpenAPI schema (schemathesis): generated requests to every operation get no server
error, and every answer matches the schema (status code, content type, body)."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from apps.tenants.models import Tenant
from apps.tenants.scopes import ALL_SCOPES, PLATFORM_SCOPES
from apps.tenants.services import token_create

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE])  # requests the schema allows
# The contract: no server error; the documented status codes, content types, response headers and bodies.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def bearer(db) -> dict[str, str]:
    tenant = Tenant.objects.create(name="Contract", slug="contract")
    scopes = [s for s in ALL_SCOPES if s not in PLATFORM_SCOPES]
    _token, raw = token_create(tenant=tenant, name="contract", scopes=scopes)
    return {"Authorization": f"Bearer {raw}", "Accept-Language": "en"}


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract(case, bearer):
    case.call_and_validate(headers=bearer, checks=CHECKS)
