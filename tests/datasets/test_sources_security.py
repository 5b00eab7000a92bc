"""SQL sources against misuse: managing sources is an admin power; a new destination needs the password
again (the stored one is never sent elsewhere); every failure to connect reads the same (no port scanning,
no remote bytes, no driver text, no password oracle); connection tests are limited per tenant; TLS is
asked for whenever the server offers it."""

from __future__ import annotations

import struct

import pytest
from rest_framework.test import APIClient

from apps.datasets.errors import SourceFailure
from apps.datasets.models import SqlSource
from apps.datasets.sources import queries as sources
from apps.datasets.sources import services as source_services
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE, SOURCES_MANAGE, TOKENS_MANAGE, Role
from baplatform.errors import InvalidInput
from tests.datasets import sources_support
from tests.datasets.sources_support import MY, PG, closed_port, fake_server, make_sqlite, mysql_greeting

pg_schema = sources_support.pg_schema
mysql_database = sources_support.mysql_database

PASSWORD = "Pa55-机密-word"
UNREACHABLE = "could not connect to the database; check the host, port, database name, user name and password"
BANNER = b"SSH-2.0-OpenSSH_9.9 SECRET-BANNER-7731\r\n"


@pytest.fixture
def folder(settings, tmp_path, tenant_a):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    make_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "shop.db")
    return settings.SQLITE_SOURCES_ROOT


def pg_fields(schema: str, **changes) -> dict:
    base = {"host": PG["host"], "port": PG["port"], "database": PG["dbname"], "schema": schema, "username": PG["user"]}
    return {**base, **changes}


@pytest.fixture
def pg_source(tenant_a, pg_schema):
    """A PostgreSQL source with a stored password (trust authentication accepts any)."""
    fields = pg_fields(pg_schema)
    return source_services.source_create(tenant=tenant_a, name="pg", kind="postgresql", password=PASSWORD, **fields)


def member_client(tenant, make_user, role: str) -> APIClient:
    user = make_user(tenant=tenant, role=role)
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


# --- who may manage sources ---------------------------------------------------------------------------


def test_analysts_and_their_tokens_cannot_register_change_test_or_delete_sources(
    tenant_a, make_user, make_token, api_client, folder
):
    admin = member_client(tenant_a, make_user, Role.ADMIN)
    body = {"name": "门店库", "kind": "sqlite", "database": "shop.db"}
    created = admin.post("/api/v1/sources/", body, format="json")
    assert created.status_code == 201, created.json()
    url = f"/api/v1/sources/{created.json()['id']}/"
    analyst = member_client(tenant_a, make_user, Role.ANALYST)
    analyst_token = api_client(make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE]))
    for client in (analyst, analyst_token):
        attempts = [
            client.post("/api/v1/sources/", {**body, "name": "x"}, format="json"),
            client.patch(url, {"name": "mine"}, format="json"),
            client.post(f"{url}test/"),
            client.delete(url),
        ]
        assert [(r.status_code, r.json()["code"]) for r in attempts] == [(403, "missing_scope")] * 4
        assert client.get(f"{url}tables/").status_code == 200, "reading a source stays an analyst's right"
    assert SqlSource.objects.for_tenant(tenant_a).get().name == "门店库"
    owner_token = api_client(make_token(tenant_a, [DATASETS_READ, SOURCES_MANAGE]))
    assert owner_token.post(f"{url}test/").json()["ok"] is True
    assert owner_token.delete(url).status_code == 204


def test_only_holders_of_the_source_scope_can_grant_it_to_a_token(tenant_a, make_user, make_token, api_client):
    analyst = member_client(tenant_a, make_user, Role.ANALYST)
    admin = member_client(tenant_a, make_user, Role.ADMIN)
    token_manager = api_client(make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE, TOKENS_MANAGE]))
    body = {"name": "bot", "scopes": [DATASETS_READ, SOURCES_MANAGE]}
    beyond = token_manager.post("/api/v1/tokens/", body, format="json")
    assert beyond.status_code == 403 and beyond.json()["code"] == "scope_not_allowed"
    granted = admin.post("/api/v1/tokens/", body, format="json")
    assert granted.status_code == 201 and SOURCES_MANAGE in granted.json()["scopes"]
    assert SOURCES_MANAGE in admin.get("/api/v1/me/").json()["scopes"]
    assert SOURCES_MANAGE not in analyst.get("/api/v1/me/").json()["scopes"]


# --- the stored password never goes to a new destination ---------------------------------------------


def test_moving_a_source_to_another_host_needs_the_password_again(pg_source, source_admin):
    url = f"/api/v1/sources/{pg_source.pk}/"
    with fake_server() as attacker:
        moved = source_admin.patch(url, {"host": "127.0.0.1", "port": attacker.port}, format="json")
        assert moved.status_code == 400 and moved.json()["code"] == "password_required", moved.json()
        assert "password again" in moved.json()["message"]
        assert not attacker.accepted.is_set(), "nothing was sent to the new host"
        for change in ({"database": "postgres"}, {"username": "someone"}):
            refused = source_admin.patch(url, change, format="json")
            assert refused.json()["code"] == "password_required", change
        stored = SqlSource.objects.unscoped_for_admin().get(pk=pg_source.pk)
        assert (stored.host, stored.port) == (PG["host"], PG["port"]), "nothing changed"
        with_password = source_admin.patch(url, {"port": attacker.port, "password": "typed-again"}, format="json")
        assert with_password.json()["code"] == "connection_failed", "the new password is tested there"
        assert PASSWORD.encode() not in b"".join(attacker.received)
    assert source_admin.patch(url, {"name": "pg2", "port": PG["port"]}, format="json").status_code == 200


def test_a_source_without_password_can_move_without_one(tenant_a, mysql_database):
    fields = {"host": MY["host"], "port": MY["port"], "database": mysql_database, "username": "root"}
    source = source_services.source_create(tenant=tenant_a, name="my", kind="mysql", **fields)
    changed = source_services.source_update(source=source, host="localhost")
    assert changed.host == "localhost"


# --- one message for every failure to connect ---------------------------------------------------------


def _register_error(tenant, kind: str, **fields) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        source_services.source_create(tenant=tenant, name="probe", kind=kind, password=PASSWORD, **fields)
    return refused.value


@pytest.mark.parametrize("kind", ["postgresql", "mysql"])
def test_closed_open_foreign_and_database_ports_all_read_the_same(kind, tenant_a, request):
    database = request.getfixturevalue("pg_schema" if kind == "postgresql" else "mysql_database")
    real = {"host": "127.0.0.1", "port": PG["port"] if kind == "postgresql" else MY["port"], "username": "nobody"}
    db_name = PG["dbname"] if kind == "postgresql" else database
    messages = {}
    with fake_server() as silent, fake_server(banner=BANNER) as foreign:
        probes = {
            "closed": {"host": "127.0.0.1", "port": closed_port()},
            "accepts and hangs up": {"host": "127.0.0.1", "port": silent.port},
            "another protocol": {"host": "127.0.0.1", "port": foreign.port},
            "wrong database": {**real, "username": "root" if kind == "mysql" else "postgres"},
            "wrong user": real,
        }
        for label, target in probes.items():
            name = "no_such_db_42" if label == "wrong database" else db_name
            error = _register_error(tenant_a, kind, database=name, **{"username": "u", **target})
            messages[label] = (error.code, error.message)
    assert len(set(messages.values())) == 1, messages
    code, message = messages["closed"]
    assert code == "connection_failed" and UNREACHABLE in message
    for leak in ("SECRET-BANNER", "SSH", "127.0.0.1", str(PG["port"]), str(MY["port"]), "refused", "no_such_db"):
        assert leak not in message


@pytest.mark.parametrize("kind", ["postgresql", "mysql"])
def test_no_password_oracle_through_other_fields(kind, tenant_a, request):
    """A guess of the password placed in the database name used to come back masked when right."""
    request.getfixturevalue("pg_schema" if kind == "postgresql" else "mysql_database")
    port = PG["port"] if kind == "postgresql" else MY["port"]
    user = PG["user"] if kind == "postgresql" else "root"
    right = _register_error(tenant_a, kind, host="127.0.0.1", port=port, username=user, database=PASSWORD)
    wrong = _register_error(tenant_a, kind, host="127.0.0.1", port=port, username=user, database="guess-" + PASSWORD)
    assert right.message == wrong.message and "***" not in right.message
    assert PASSWORD not in right.message


def test_an_outage_shows_neither_address_nor_driver_text(pg_source, source_admin):
    SqlSource.objects.unscoped_for_admin().filter(pk=pg_source.pk).update(port=closed_port())
    resp = source_admin.get(f"/api/v1/sources/{pg_source.pk}/tables/")
    assert resp.status_code == 503 and resp.json()["code"] == "source_unreachable"
    message = resp.json()["message"]
    assert UNREACHABLE in message and PG["host"] not in message and "refused" not in message.lower()
    tested = source_admin.post(f"/api/v1/sources/{pg_source.pk}/test/").json()
    assert tested == {"ok": False, "code": "source_unreachable", "message": message}


def test_query_errors_are_worded_by_the_platform_not_the_driver(pg_source, source_admin):
    resp = source_admin.post(f"/api/v1/sources/{pg_source.pk}/sql/", {"sql": "SELECT nosuch FROM 订单"}, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == "source_rejected"
    message = resp.json()["message"]
    assert message == "PostgreSQL rejected the query: a column it names does not exist", message


# --- connection tests are counted per tenant -----------------------------------------------------------


def test_connection_tests_are_rate_limited_per_tenant(settings, tenant_a, tenant_b, folder, make_token, api_client):
    settings.SOURCE_CONNECTION_TESTS_PER_MINUTE = 3
    make_sqlite(folder / tenant_b.slug / "shop.db")
    clients = {}
    for tenant in (tenant_a, tenant_b):
        clients[tenant.slug] = api_client(make_token(tenant, [DATASETS_READ, SOURCES_MANAGE]))
    body = {"name": "门店库", "kind": "sqlite", "database": "shop.db"}
    alpha = clients[tenant_a.slug]
    url = f"/api/v1/sources/{alpha.post('/api/v1/sources/', body, format='json').json()['id']}/test/"
    assert [alpha.post(url).status_code for _ in range(2)] == [200, 200]
    limited = alpha.post(url)
    assert limited.status_code == 429 and limited.json()["code"] == "too_many_connection_tests"
    assert "wait a minute" in limited.json()["message"]
    again = alpha.post("/api/v1/sources/", {**body, "name": "second"}, format="json")
    assert again.status_code == 429, "registering is a connection test too"
    assert clients[tenant_b.slug].post("/api/v1/sources/", body, format="json").status_code == 201


# --- TLS whenever the server offers it --------------------------------------------------------------------

PG_SSL_REQUEST = struct.pack("!ii", 8, 80877103)
CLIENT_SSL = 0x800
CLIENT_PROTOCOL_41 = 0x200
CLIENT_SECURE_CONNECTION = 0x8000
CLIENT_PLUGIN_AUTH = 0x80000


def test_postgres_sessions_ask_for_tls_first_whatever_the_environment_says(tenant_a, monkeypatch):
    monkeypatch.setenv("PGSSLMODE", "disable")
    with fake_server(reply=lambda _data: b"N") as server:
        source = SqlSource(
            tenant=tenant_a, kind="postgresql", host="127.0.0.1", port=server.port, database="d", username="u"
        )
        with pytest.raises(SourceFailure):
            sources.connection_check(source)
    assert server.received and server.received[0] == PG_SSL_REQUEST, server.received[:1]


def test_mysql_sessions_ask_for_tls_when_the_server_offers_it(tenant_a):
    offered = CLIENT_SSL | CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | CLIENT_PLUGIN_AUTH
    with fake_server(banner=mysql_greeting(offered)) as server:
        source = SqlSource(
            tenant=tenant_a, kind="mysql", host="127.0.0.1", port=server.port, database="d", username="u"
        )
        with pytest.raises(SourceFailure):
            sources.connection_check(source)
    assert server.received, "the client answered the greeting"
    reply = server.received[0]
    (flags,) = struct.unpack("<I", reply[4:8])
    assert flags & CLIENT_SSL, "the answer is a TLS request, not a login in clear text"
    assert b"u\x00" not in reply[36:], "no user name before TLS"
