"""The database or Redis going away: readiness names the component, the API answers 503 database_unavailable."""

from __future__ import annotations

import os

import httpx
import pytest
from django.db import InterfaceError, OperationalError

from apps.conversations import selectors
from apps.conversations.models import Conversation
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from tests.live_server import daphne

DEAD_DATABASE = "postgres://postgres@127.0.0.1:1/nowhere"
DEAD_REDIS = "redis://127.0.0.1:1/0"


def _raise(exc: Exception):
    def broken(*args, **kwargs):
        raise exc

    return broken


def test_a_database_failure_in_a_view_is_a_503_and_writes_nothing(tenant_a, make_token, api_client, monkeypatch):
    client = api_client(make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE]))
    monkeypatch.setattr(selectors, "conversation_list", _raise(OperationalError("connection refused")))
    resp = client.get("/api/v1/conversations/")
    assert resp.status_code == 503 and resp["Retry-After"] == "5"
    assert resp.json()["code"] == "database_unavailable" and "database is unavailable" in resp.json()["message"]


def test_a_database_failure_mid_write_leaves_nothing_behind(
    tenant_a, make_token, api_client, monkeypatch, settings, tmp_path
):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    from django.core.files.uploadedfile import SimpleUploadedFile

    from apps.conversations.models import Message, Run
    from apps.datasets import services as dataset_services
    from apps.tenants.scopes import DATASETS_READ

    file = SimpleUploadedFile("s.csv", "地区,金额\n华东,1\n".encode())
    upload = dataset_services.upload_receive(
        tenant=tenant_a, chunks=file.chunks(), original_name="s.csv", size=file.size
    )
    dataset = dataset_services.dataset_create(tenant=tenant_a, upload=upload, name="s").dataset
    client = api_client(make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE, DATASETS_READ]))
    conversation = client.post("/api/v1/conversations/", {"dataset": dataset.pk}, format="json").json()
    # The message is written, then the connection drops before its run is: the transaction is rolled back.
    monkeypatch.setattr(Run.objects, "create", _raise(InterfaceError("connection already closed")))
    resp = client.post(f"/api/v1/conversations/{conversation['id']}/messages/", {"question": "各地区？"}, format="json")
    assert resp.status_code == 503 and resp.json()["code"] == "database_unavailable"
    assert Message.objects.for_tenant(tenant_a).count() == 0 and Conversation.objects.for_tenant(tenant_a).count() == 1


@pytest.mark.slow
@pytest.mark.process
def test_a_server_whose_database_and_redis_are_gone(tmp_path):
    env = {
        **os.environ,
        "BA_DATA_DIR": str(tmp_path),
        "DATABASE_URL": DEAD_DATABASE,
        "REDIS_URL": DEAD_REDIS,
        "OPENAI_API_KEY": "",
        "LOG_FORMAT": "text",
    }
    with daphne(env, tmp_path / "daphne.log") as address:
        assert httpx.get(f"http://{address}/health/live", timeout=10).status_code == 200
        ready = httpx.get(f"http://{address}/health/ready", timeout=30)
        assert ready.status_code == 503
        assert ready.json()["failing"] == ["database", "channel_layer"], ready.json()

        headers = {"Authorization": "Bearer bap_" + "A" * 43, "Accept-Language": "en"}
        for method, path in (("GET", "/api/v1/conversations/"), ("POST", "/api/v1/conversations/1/messages/")):
            resp = httpx.request(method, f"http://{address}{path}", headers=headers, json={"question": "q"}, timeout=30)
            assert resp.status_code == 503, (path, resp.status_code, resp.text[:300])
            assert resp.json()["code"] == "database_unavailable", resp.text
