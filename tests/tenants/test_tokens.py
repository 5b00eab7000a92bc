"""API tokens: hashed at rest, shown once, expiry, revocation, scopes, throttling."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from apps.tenants import services
from apps.tenants.models import ApiToken
from apps.tenants.scopes import DATASETS_READ, TOKENS_MANAGE
from apps.tenants.tokens import hash_token


def test_plaintext_token_is_never_stored(tenant_a, make_token):
    raw = make_token(tenant_a, [DATASETS_READ])
    with connection.cursor() as cur:
        cur.execute(f"SELECT * FROM {ApiToken._meta.db_table}")  # noqa: S608 (table name from the model)
        rows = cur.fetchall()
    assert rows, "the token row exists"
    flat = " ".join(str(value) for row in rows for value in row)
    assert raw not in flat
    assert raw[12:] not in flat, "not even the secret part"
    token = ApiToken.objects.for_tenant(tenant_a).get()
    assert token.token_hash == hash_token(raw)
    assert raw.startswith(token.prefix) and len(token.prefix) == 12


def test_me_reports_tenant_and_scopes(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [DATASETS_READ, TOKENS_MANAGE])
    resp = api_client(raw).get("/api/v1/me/")
    assert resp.status_code == 200
    body = resp.json()
    assert body["tenant"]["slug"] == "alpha"
    assert body["scopes"] == [DATASETS_READ, TOKENS_MANAGE]
    assert body["actor"]["type"] == "token"
    assert "token_hash" not in body["token"]


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("Bearer", "token_malformed"),
        ("Bearer a b", "token_malformed"),
        ("Bearer not-a-token", "token_malformed"),
        ("Bearer bap_" + "x" * 43, "token_unknown"),
    ],
)
def test_bad_tokens_get_401_with_reason(db, api_client, header, code):
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=header)
    resp = client.get("/api/v1/me/")
    assert resp.status_code == 401
    assert resp.json()["code"] == code
    assert resp.json()["message"]
    assert resp["WWW-Authenticate"].startswith("Bearer")


def test_no_credentials_is_401(db, api_client):
    resp = api_client().get("/api/v1/me/")
    assert resp.status_code == 401
    assert resp.json()["code"] == "not_authenticated"


def test_revoked_token_is_rejected_and_says_so(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [DATASETS_READ])
    assert api_client(raw).get("/api/v1/me/").status_code == 200
    token = ApiToken.objects.for_tenant(tenant_a).get()
    services.token_revoke(tenant=tenant_a, token_id=token.pk)
    resp = api_client(raw).get("/api/v1/me/")
    assert resp.status_code == 401
    assert resp.json()["code"] == "token_revoked"


def test_expired_token_is_rejected_and_says_so(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [DATASETS_READ], expires_in_days=1)
    assert api_client(raw).get("/api/v1/me/").status_code == 200
    ApiToken.objects.for_tenant(tenant_a).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    resp = api_client(raw).get("/api/v1/me/")
    assert resp.status_code == 401
    assert resp.json()["code"] == "token_expired"


def test_token_of_inactive_tenant_is_rejected(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [DATASETS_READ])
    tenant_a.active = False
    tenant_a.save()
    resp = api_client(raw).get("/api/v1/me/")
    assert resp.status_code == 401
    assert resp.json()["code"] == "tenant_inactive"


def test_default_expiry_and_never_expiring_tokens(tenant_a):
    with override_settings(API_TOKEN_DEFAULT_DAYS=30):
        token, _raw = services.token_create(tenant=tenant_a, name="a", scopes=[DATASETS_READ])
    assert dt.timedelta(days=29) < token.expires_at - timezone.now() <= dt.timedelta(days=30)
    forever, _raw = services.token_create(tenant=tenant_a, name="b", scopes=[DATASETS_READ], expires_in_days=0)
    assert forever.expires_at is None


def test_last_used_is_recorded(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [DATASETS_READ])
    assert ApiToken.objects.for_tenant(tenant_a).get().last_used_at is None
    api_client(raw).get("/api/v1/me/")
    assert ApiToken.objects.for_tenant(tenant_a).get().last_used_at is not None


def test_missing_scope_is_403_naming_the_scope(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [DATASETS_READ])
    resp = api_client(raw).get("/api/v1/tokens/")
    assert resp.status_code == 403
    assert resp.json()["code"] == "missing_scope"
    assert TOKENS_MANAGE in resp.json()["message"]


def test_token_cannot_grant_scopes_it_lacks(tenant_a, make_token, api_client):
    raw = make_token(tenant_a, [TOKENS_MANAGE])
    resp = api_client(raw).post("/api/v1/tokens/", {"name": "x", "scopes": ["audit:read"]}, format="json")
    assert resp.status_code == 403
    assert resp.json()["code"] == "scope_not_allowed"
    assert ApiToken.objects.for_tenant(tenant_a).count() == 1


def test_create_token_via_api_shows_plaintext_once(tenant_a, make_token, api_client):
    admin_raw = make_token(tenant_a, [TOKENS_MANAGE, DATASETS_READ])
    client = api_client(admin_raw)
    resp = client.post("/api/v1/tokens/", {"name": "etl", "scopes": [DATASETS_READ]}, format="json")
    assert resp.status_code == 201
    new_raw = resp.json()["token"]
    assert api_client(new_raw).get("/api/v1/me/").json()["scopes"] == [DATASETS_READ]
    listing = client.get("/api/v1/tokens/").json()
    assert listing["count"] == 2
    assert all("token" not in item for item in listing["results"])
    detail = client.get(f"/api/v1/tokens/{resp.json()['id']}/").json()
    assert "token" not in detail and detail["prefix"] == new_raw[:12]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"name": "x", "scopes": ["nope:read"]}, "invalid_scope"),
        ({"name": "x", "scopes": []}, "invalid"),
        ({"name": " ", "scopes": [DATASETS_READ]}, "invalid"),
        ({"name": "x", "scopes": [DATASETS_READ], "expires_in_days": -1}, "invalid_expiry"),
    ],
)
def test_bad_token_requests_change_nothing(tenant_a, make_token, api_client, payload, code):
    raw = make_token(tenant_a, [TOKENS_MANAGE, DATASETS_READ])
    resp = api_client(raw).post("/api/v1/tokens/", payload, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == code
    assert resp.json()["message"]
    assert ApiToken.objects.for_tenant(tenant_a).count() == 1


def test_revoke_via_api(tenant_a, make_token, api_client):
    admin_raw = make_token(tenant_a, [TOKENS_MANAGE])
    victim_raw = make_token(tenant_a, [DATASETS_READ], name="victim")
    victim = ApiToken.objects.for_tenant(tenant_a).get(name="victim")
    resp = api_client(admin_raw).delete(f"/api/v1/tokens/{victim.pk}/")
    assert resp.status_code == 200 and resp.json()["status"] == "revoked"
    assert api_client(victim_raw).get("/api/v1/me/").json()["code"] == "token_revoked"


def test_throttling_per_token(tenant_a, make_token, api_client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"token": "3/min"}}
    first = make_token(tenant_a, [DATASETS_READ], name="first")
    second = make_token(tenant_a, [DATASETS_READ], name="second")
    codes = [api_client(first).get("/api/v1/me/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    throttled = api_client(first).get("/api/v1/me/")
    assert throttled.json()["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0
    assert api_client(second).get("/api/v1/me/").status_code == 200, "another token has its own budget"
