"""Idempotency-Key on the POSTs that create runs and datasets: a retried request gets the first response and
does no second piece of work; the same key with another body is refused; keys belong to their caller."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.conversations.models import Run
from apps.datasets.models import Dataset
from apps.tenants.scopes import ALL_SCOPES
from tests.conversations.conftest import SALES, good_turns

pytestmark = pytest.mark.django_db


def test_a_retried_ask_returns_the_first_run_and_starts_no_second(
    tenant_a, make_token, api_client, conversation, script
):
    script(*good_turns(), *good_turns())
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    url = f"/api/v1/conversations/{conversation.pk}/messages/"
    body = {"question": "各地区销售额？"}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="ask-7f3a")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="ask-7f3a")
    assert first.status_code == again.status_code == 200
    assert again.json()["trace_id"] == first.json()["trace_id"] and again["Idempotent-Replayed"] == "true"
    assert Run.objects.for_tenant(tenant_a).count() == 1
    other = client.post(url, {"question": "另一个问题？"}, format="json", HTTP_IDEMPOTENCY_KEY="ask-7f3a")
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert Run.objects.for_tenant(tenant_a).count() == 1
    fresh = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="ask-8b21")
    assert fresh.status_code == 200 and fresh.json()["trace_id"] != first.json()["trace_id"]
    without = client.post(url, body, format="json")  # no key: every request is new work
    assert without.status_code == 200 and Run.objects.for_tenant(tenant_a).count() == 3


def test_a_retried_upload_creates_one_dataset(tenant_a, make_token, api_client):
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))

    def send(content: str = SALES):
        file = SimpleUploadedFile("sales.csv", content.encode(), content_type="text/csv")
        return client.post("/api/v1/datasets/", {"file": file, "name": "销售"}, HTTP_IDEMPOTENCY_KEY="upload-1")

    first, again = send(), send()
    assert first.status_code == 201 and again.status_code == 201 and again.json() == first.json()
    assert Dataset.objects.for_tenant(tenant_a).count() == 1
    changed = send(SALES + "赵六,西部,10\n")
    assert changed.status_code == 422 and changed.json()["code"] == "idempotency_key_reused"


def test_keys_belong_to_their_caller_and_must_be_sane(tenant_a, make_token, api_client, conversation, script):
    script(*good_turns(), *good_turns())
    url = f"/api/v1/conversations/{conversation.pk}/messages/"
    body = {"question": "各地区销售额？"}
    one = api_client(make_token(tenant_a, list(ALL_SCOPES))).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    two = api_client(make_token(tenant_a, list(ALL_SCOPES))).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert one.json()["trace_id"] != two.json()["trace_id"]  # another token's same key is another request
    bad = api_client(make_token(tenant_a, list(ALL_SCOPES))).post(
        url, body, format="json", HTTP_IDEMPOTENCY_KEY="x" * 300, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_idempotency_key"
    assert "Idempotency-Key" in bad.json()["message"]
