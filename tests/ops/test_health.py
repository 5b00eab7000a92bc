"""/health/live and /health/ready: open to probes; ready names the failing component with a 503."""

from __future__ import annotations

from django.db import OperationalError

from apps.observability import health


def test_live_needs_nothing(client):
    response = client.get("/health/live")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_ready_checks_each_component(db, client, settings, tmp_path):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    response = client.get("/health/ready")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "channel_layer", "storage"}
    assert all(c["status"] == "ok" and c["latency_ms"] >= 0 for c in body["checks"].values())
    assert list((tmp_path / "tenants").iterdir()) == [], "the storage probe leaves nothing behind"


def test_unwritable_storage_is_named(db, client, settings, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    settings.TENANT_DATA_ROOT = blocker / "tenants"  # cannot be created, even by root
    response = client.get("/health/ready")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["storage"] and body["checks"]["storage"]["status"] == "fail"
    assert body["checks"]["database"]["status"] == "ok"


class _BrokenConnection:
    def cursor(self):
        raise OperationalError("server closed the connection unexpectedly")


def test_a_broken_database_is_named(db, client, monkeypatch, settings, tmp_path):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    monkeypatch.setattr(health, "connection", _BrokenConnection())
    response = client.get("/health/ready")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"] and body["checks"]["database"]["error"] == "OperationalError"


def test_a_broken_channel_layer_is_named(db, client, settings, tmp_path):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}
    }
    response = client.get("/health/ready")
    assert response.status_code == 503
    assert response.json()["failing"] == ["channel_layer"]
