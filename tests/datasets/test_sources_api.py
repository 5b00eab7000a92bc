"""SQL sources API: register (tested first, nothing saved on failure), passwords never shown nor stored
in plaintext, SQLite files confined to the tenant's folder, every endpoint, and tenancy (404)."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest
from django.db import connection

from apps.datasets.models import SqlSource
from apps.datasets.sources import connectors, crypto
from apps.datasets.sources import services as source_services
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE, SOURCES_MANAGE
from baplatform.errors import InvalidInput
from tests.datasets import sources_support
from tests.datasets.sources_support import MY, PG, SECRET, make_sqlite

pg_schema = sources_support.pg_schema  # fixtures: real customer databases, created once per session
mysql_database = sources_support.mysql_database

PASSWORD = "S3cr3t-口令-!%'\""


@pytest.fixture
def folder(settings, tmp_path, tenant_a):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    make_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "shop.db")
    return settings.SQLITE_SOURCES_ROOT


@pytest.fixture
def shop(source_admin, folder):
    resp = source_admin.post(
        "/api/v1/sources/", {"name": "门店库", "kind": "sqlite", "database": "shop.db"}, format="json"
    )
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_register_browse_and_query_a_sqlite_source(source_admin, shop):
    assert shop["kind"] == "sqlite" and shop["database"] == "shop.db" and shop["tested_at"]
    assert [s["name"] for s in source_admin.get("/api/v1/sources/").json()["results"]] == ["门店库"]
    base = f"/api/v1/sources/{shop['id']}"
    assert source_admin.get(f"{base}/tables/").json() == {"tables": ["数字", "机密", "订单"]}
    schema = source_admin.get(f"{base}/tables/订单/").json()
    assert schema["table"] == "订单" and schema["row_count"] == 80
    assert {c["name"]: c["role"] for c in schema["columns"]}["金额"] == "measure"
    rows = source_admin.get(f"{base}/tables/订单/rows/?n=2&columns=地区,金额").json()
    assert rows["columns"] == ["地区", "金额"] and rows["row_count"] == 2 and "sql" not in rows
    assert source_admin.get(f"{base}/tables/订单/rows/?n=51").json()["code"] == "invalid_sample_size"
    spec = {"group_by": ["地区"], "aggregations": [{"name": "单数", "func": "count"}]}
    query = source_admin.post(f"{base}/query/", {"table": "订单", "spec": spec}, format="json").json()
    assert query["columns"] == ["地区", "单数"] and sum(r[1] for r in query["rows"]) == 80
    sql = source_admin.post(
        f"{base}/sql/", {"sql": "SELECT COUNT(*) AS n FROM 订单 WHERE id <= :k", "params": {"k": 7}}, format="json"
    )
    assert sql.json()["rows"] == [[7]] and sql.json()["params"] == {"k": 7}
    test = source_admin.post(f"{base}/test/").json()
    assert test["ok"] is True and test["server"].startswith("SQLite") and test["tables"] == 3


def test_sample_columns_may_be_listed_with_spaces(source_admin, shop):
    rows = source_admin.get(f"/api/v1/sources/{shop['id']}/tables/订单/rows/?n=2&columns=地区, 金额").json()
    assert rows["columns"] == ["地区", "金额"] and rows["row_count"] == 2


def test_bad_requests_are_400_with_a_reason(source_admin, shop):
    base = f"/api/v1/sources/{shop['id']}"
    bad_spec = source_admin.post(f"{base}/query/", {"table": "订单", "spec": {"columns": ["区域"]}}, format="json")
    assert bad_spec.status_code == 400 and bad_spec.json()["code"] == "unknown_column"
    assert "地区" in bad_spec.json()["message"]
    drop = source_admin.post(f"{base}/sql/", {"sql": "DROP TABLE 订单"}, format="json")
    assert drop.status_code == 400 and drop.json()["code"] == "sql_not_select"
    assert "nothing was executed" in drop.json()["message"]
    unknown_table = source_admin.get(f"{base}/tables/订货/")
    assert unknown_table.status_code == 400 and "'订单'" in unknown_table.json()["message"]
    assert source_admin.get(f"{base}/tables/").status_code == 200, "the source still works"


def test_allow_list_and_rename(source_admin, shop):
    url = f"/api/v1/sources/{shop['id']}/"
    changed = source_admin.patch(url, {"name": "门店", "tables": ["订单"]}, format="json").json()
    assert changed["name"] == "门店" and changed["tables"] == ["订单"]
    assert source_admin.get(f"{url}tables/").json() == {"tables": ["订单"]}
    hidden = source_admin.post(f"{url}sql/", {"sql": "SELECT 口令 FROM 机密"}, format="json").json()
    assert hidden["code"] == "sql_table_refused" and SECRET not in json.dumps(hidden, ensure_ascii=False)
    typo = source_admin.patch(url, {"tables": ["定单"]}, format="json")
    assert typo.status_code == 400 and typo.json()["code"] == "unknown_table" and "'订单'" in typo.json()["message"]
    assert source_admin.get(url).json()["tables"] == ["订单"], "a refused change saves nothing"
    assert source_admin.patch(url, {"kind": "mysql"}, format="json").json()["code"] == "invalid_source"


def test_a_source_that_stopped_working(source_admin, shop, folder, tenant_a):
    (folder / tenant_a.slug / "shop.db").unlink()
    test = source_admin.post(f"/api/v1/sources/{shop['id']}/test/").json()
    assert test["ok"] is False and test["code"] == "source_unreachable" and "no file 'shop.db'" in test["message"]
    tables = source_admin.get(f"/api/v1/sources/{shop['id']}/tables/")
    assert tables.status_code == 503 and tables.json()["code"] == "source_unreachable"


def test_delete(source_admin, shop, tenant_a):
    assert source_admin.delete(f"/api/v1/sources/{shop['id']}/").status_code == 204
    assert source_admin.get(f"/api/v1/sources/{shop['id']}/").status_code == 404
    assert not SqlSource.objects.for_tenant(tenant_a).exists()


def test_reader_token_cannot_register(tenant_a, make_token, api_client, folder):
    reader = api_client(make_token(tenant_a, [DATASETS_READ]))
    resp = reader.post("/api/v1/sources/", {"name": "x", "kind": "sqlite", "database": "shop.db"}, format="json")
    assert resp.status_code == 403 and resp.json()["code"] == "missing_scope"


def test_another_tenants_source_is_a_404_like_a_missing_one(shop, tenant_b, make_token, api_client):
    other = api_client(make_token(tenant_b, [DATASETS_READ, DATASETS_WRITE, SOURCES_MANAGE]))

    def attempts(source_id):
        base = f"/api/v1/sources/{source_id}"
        return [
            other.get(f"{base}/"),
            other.patch(f"{base}/", {"name": "mine"}, format="json"),
            other.post(f"{base}/test/"),
            other.get(f"{base}/tables/"),
            other.get(f"{base}/tables/订单/"),
            other.get(f"{base}/tables/订单/rows/"),
            other.post(f"{base}/query/", {"table": "订单", "spec": {"columns": ["id"]}}, format="json"),
            other.post(f"{base}/sql/", {"sql": "SELECT 1"}, format="json"),
            other.delete(f"{base}/"),
        ]

    theirs, missing = attempts(shop["id"]), attempts(987654321)
    assert [r.status_code for r in theirs] == [404] * len(theirs)
    assert [(r.status_code, r.json()) for r in theirs] == [(r.status_code, r.json()) for r in missing]
    assert other.get("/api/v1/sources/").json()["results"] == []
    assert SqlSource.objects.unscoped_for_admin().filter(pk=shop["id"], name="门店库").exists()


@pytest.mark.parametrize(
    ("database", "code"),
    [
        ("/etc/passwd", "sqlite_path_not_allowed"),
        ("../beta/shop.db", "sqlite_path_not_allowed"),
        ("../../../../../../etc/hosts", "sqlite_path_not_allowed"),
        ("escape.db", "sqlite_path_not_allowed"),
        ("notes.txt", "sqlite_not_a_database"),
        ("missing.db", "sqlite_not_found"),
    ],
)
def test_sqlite_files_outside_the_tenant_folder_are_refused(source_admin, folder, tenant_a, tmp_path, database, code):
    make_sqlite(folder / "beta" / "shop.db")  # another tenant's file
    outside = make_sqlite(tmp_path / "elsewhere" / "private.db")
    os.symlink(outside, folder / tenant_a.slug / "escape.db")
    (folder / tenant_a.slug / "notes.txt").write_text("not a database", encoding="utf-8")
    resp = source_admin.post("/api/v1/sources/", {"name": "x", "kind": "sqlite", "database": database}, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == code, resp.json()
    assert not SqlSource.objects.for_tenant(tenant_a).exists()


def test_the_platform_database_is_not_a_source(folder, tenant_a, settings):
    own = settings.DATA_DIR / "db.sqlite3"
    with pytest.raises(InvalidInput) as refused:
        source_services.source_create(tenant=tenant_a, name="own", kind="sqlite", database=str(own))
    assert refused.value.code == "sqlite_path_not_allowed" and "outside this workspace" in refused.value.message
    assert str(folder) not in refused.value.message, "server paths are not shown"
    inside = folder / tenant_a.slug / "shop.db"
    source = source_services.source_create(tenant=tenant_a, name="abs", kind="sqlite", database=str(inside))
    assert source.database == "shop.db", "stored relative to the tenant's folder"


def test_the_platform_database_server_is_not_a_source_either(source_admin, tenant_a, monkeypatch):
    own = {"ENGINE": "django.db.backends.postgresql", "NAME": "baplatform", "HOST": "127.0.0.1", "PORT": "5432"}
    monkeypatch.setattr(connectors, "_platform_database", lambda: own)
    body = {"name": "own", "kind": "postgresql", "host": "localhost", "database": "BAplatform", "username": "x"}
    resp = source_admin.post("/api/v1/sources/", body, format="json")
    assert resp.status_code == 400 and "the platform's own database" in resp.json()["message"]
    assert not SqlSource.objects.for_tenant(tenant_a).exists()


def test_sqlite_file_stays_unchanged(source_admin, shop, folder, tenant_a):
    path = folder / tenant_a.slug / "shop.db"
    before = path.read_bytes()
    source_admin.post(f"/api/v1/sources/{shop['id']}/sql/", {"sql": "SELECT * FROM 订单"}, format="json")
    source_admin.get(f"/api/v1/sources/{shop['id']}/tables/订单/")
    assert path.read_bytes() == before
    with sqlite3.connect(path) as conn:
        assert conn.execute('SELECT COUNT(*) FROM "订单"').fetchone() == (80,)


def test_password_is_encrypted_and_never_returned(source_admin, tenant_a, pg_schema):
    body = {
        "name": "pg",
        "kind": "postgresql",
        "host": PG["host"],
        "port": PG["port"],
        "database": PG["dbname"],
        "schema": pg_schema,
        "username": PG["user"],
        "password": PASSWORD,  # trust authentication: accepted, and must still be protected
    }
    created = source_admin.post("/api/v1/sources/", body, format="json")
    assert created.status_code == 201, created.json()
    responses = [
        created,
        source_admin.get("/api/v1/sources/"),
        source_admin.get(f"/api/v1/sources/{created.json()['id']}/"),
    ]
    for resp in responses:
        text = resp.content.decode()
        assert "S3cr3t" not in text and '"password"' not in text
    assert created.json()["has_password"] is True
    with connection.cursor() as cur:
        cur.execute("SELECT * FROM datasets_sqlsource")
        stored = json.dumps([list(map(str, row)) for row in cur.fetchall()], ensure_ascii=False)
    assert "S3cr3t" not in stored and "口令" not in stored
    source = SqlSource.objects.for_tenant(tenant_a).get()
    assert crypto.decrypt(source.password_encrypted) == PASSWORD


def test_bad_connection_is_a_clear_error_and_nothing_is_saved(source_admin, tenant_a):
    body = {"name": "pg", "kind": "postgresql", "host": "127.0.0.1", "port": 1, "database": "x", "username": "u"}
    resp = source_admin.post("/api/v1/sources/", {**body, "password": PASSWORD}, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == "connection_failed"
    message = resp.json()["message"]
    assert "could not connect to the database" in message and "check the host" in message
    assert "127.0.0.1" not in message and "refused" not in message, "no address, no driver text"
    assert "S3cr3t" not in resp.content.decode()
    missing_host = source_admin.post("/api/v1/sources/", {**body, "host": ""}, format="json")
    assert missing_host.status_code == 400 and "host is required" in missing_host.json()["message"]
    assert not SqlSource.objects.for_tenant(tenant_a).exists()


def test_wrong_password_is_refused_without_echoing_it(source_admin, tenant_a, mysql_database):
    body = {"name": "my", "kind": "mysql", "host": MY["host"], "port": MY["port"], "database": mysql_database}
    resp = source_admin.post("/api/v1/sources/", {**body, "username": "root", "password": PASSWORD}, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == "connection_failed"
    assert "could not connect to the database" in resp.json()["message"], "the same message as any other failure"
    assert "Access denied" not in resp.json()["message"] and "S3cr3t" not in resp.content.decode()
    assert not SqlSource.objects.for_tenant(tenant_a).exists()
    ok = source_admin.post("/api/v1/sources/", {**body, "username": "root"}, format="json")
    assert ok.status_code == 201 and ok.json()["has_password"] is False
    tables = source_admin.get(f"/api/v1/sources/{ok.json()['id']}/tables/").json()["tables"]
    assert sorted(tables) == sorted(["订单", "机密", "数字"])


def test_source_results_download_as_csv_and_xlsx(source_admin, shop, tenant_b, make_token, api_client):
    import csv
    import io

    import openpyxl

    url = f"/api/v1/sources/{shop['id']}/export/"
    spec = {"group_by": ["地区"], "aggregations": [{"name": "单数", "func": "count"}]}
    shown = source_admin.post(
        f"/api/v1/sources/{shop['id']}/query/", {"table": "订单", "spec": spec}, format="json"
    ).json()
    as_csv = source_admin.post(url + "?format=csv", {"table": "订单", "spec": spec}, format="json")
    assert as_csv.status_code == 200 and "attachment" in as_csv["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(as_csv.content.decode("utf-8-sig"))))
    assert rows[0] == shown["columns"]
    assert [[r[0] or None, int(r[1])] for r in rows[1:]] == shown["rows"], "a missing region is an empty cell"
    sql = {"sql": "SELECT id FROM 订单 WHERE id <= :k ORDER BY id", "params": {"k": 3}}
    as_xlsx = source_admin.post(url + "?format=xlsx", sql, format="json")
    sheet = openpyxl.load_workbook(io.BytesIO(as_xlsx.content)).active
    assert [list(r) for r in sheet.iter_rows(values_only=True)] == [["id"], [1], [2], [3]]
    bad = source_admin.post(url, {"sql": "DELETE FROM 订单"}, format="json")
    assert bad.status_code == 400 and "nothing was executed" in bad.json()["message"]
    other = api_client(make_token(tenant_b, [DATASETS_READ]))
    assert other.post(url, {"table": "订单", "spec": spec}, format="json").status_code == 404
