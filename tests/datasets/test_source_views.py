"""Portal pages for SQL sources: register (tested first), see, test, edit (the password again for a new
destination), choose the exposed tables, delete after confirming, start a conversation; who may do what."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.audit.models import AdminChange
from apps.conversations.models import Conversation
from apps.datasets.models import SqlSource
from apps.datasets.sources import crypto
from apps.datasets.sources import services as source_services
from apps.tenants.scopes import Role
from tests.datasets import sources_support
from tests.datasets.sources_support import PG, make_sqlite

pg_schema = sources_support.pg_schema
PASSWORD = "Pa55-机密-word"


@pytest.fixture
def folder(settings, tmp_path, tenant_a):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    make_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "shop.db")
    return settings.SQLITE_SOURCES_ROOT


def logged_in(user, lang: str = "zh-hans") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


@pytest.fixture
def admin(tenant_a, make_user):
    return logged_in(make_user(tenant=tenant_a, role=Role.ADMIN))


def test_register_a_sqlite_file_then_choose_its_tables(tenant_a, admin, folder):
    page = admin.get("/sources/new/").content.decode()
    assert 'id="source-form"' in page and "数据库引擎" in page
    resp = admin.post("/sources/new/", {"name": "门店库", "kind": "sqlite", "database": "shop.db"})
    source = SqlSource.objects.for_tenant(tenant_a).get(name="门店库")
    assert resp["Location"] == f"/sources/{source.pk}/tables/" and source.tested_at is not None
    tables = admin.get(resp["Location"]).content.decode()
    assert 'value="订单"' in tables and 'value="机密"' in tables
    admin.post(resp["Location"], {"expose": "chosen", "table": ["订单"]})
    source.refresh_from_db()
    assert source.tables == ["订单"]  # 机密 is no longer readable by questions
    detail = admin.get(f"/sources/{source.pk}/").content.decode()
    assert 'id="exposed-tables">订单<' in detail and 'id="ask-about-source"' in detail
    refused = admin.post(resp["Location"], {"expose": "chosen"}, follow=True).content.decode()
    assert "请至少勾选一张表" in refused
    admin.post(resp["Location"], {"expose": "all"})
    source.refresh_from_db()
    assert source.tables == []
    changes = AdminChange.objects.for_tenant(tenant_a).filter(action__startswith="source.", target_id=source.pk)
    assert changes.count() == 3  # registered, then two changes of the exposed tables


def test_a_failing_connection_saves_nothing_and_says_why(tenant_a, admin, folder):
    page = admin.post("/sources/new/", {"name": "x", "kind": "sqlite", "database": "missing.db"}).content.decode()
    assert 'id="form-errors"' in page and "missing.db" not in page.split('id="form-errors"')[0][-200:]
    assert not SqlSource.objects.for_tenant(tenant_a).exists()
    refused = admin.post("/sources/new/", {"name": "y", "kind": "postgresql", "database": "test"}).content.decode()
    assert 'id="form-errors"' in refused and "host" in refused


def test_edit_asks_for_the_password_again_when_the_destination_changes(tenant_a, admin, pg_schema):
    fields = {"host": PG["host"], "port": PG["port"], "database": PG["dbname"], "username": PG["user"]}
    source = source_services.source_create(
        tenant=tenant_a, name="pg", kind="postgresql", password=PASSWORD, schema=pg_schema, **fields
    )
    form = admin.get(f"/sources/{source.pk}/edit/").content.decode()
    assert PASSWORD not in form and 'name="kind"' not in form
    moved = {"name": "pg", "host": "localhost", "port": PG["port"], "database": PG["dbname"], "schema": pg_schema}
    moved["username"] = PG["user"]
    refused = admin.post(f"/sources/{source.pk}/edit/", {**moved, "password": ""}).content.decode()
    assert 'id="form-errors"' in refused and "host" in refused.split('id="form-errors"')[1][:400]
    source.refresh_from_db()
    assert source.host == PG["host"]
    admin.post(f"/sources/{source.pk}/edit/", {**moved, "password": PASSWORD})
    source.refresh_from_db()
    assert source.host == "localhost" and crypto.decrypt(source.password_encrypted) == PASSWORD
    renamed = admin.post(f"/sources/{source.pk}/edit/", {**moved, "name": "生产库", "password": ""})
    assert renamed.status_code == 302
    source.refresh_from_db()
    assert source.name == "生产库" and crypto.decrypt(source.password_encrypted) == PASSWORD  # kept


def test_test_delete_after_confirming_and_ask_about_a_source(tenant_a, admin, folder):
    source = source_services.source_create(tenant=tenant_a, name="门店库", kind="sqlite", database="shop.db")
    tested = admin.post(f"/sources/{source.pk}/test/", follow=True).content.decode()
    assert "连接正常" in tested
    started = admin.post("/conversations/start/", {"source": source.pk})
    conversation = Conversation.objects.for_tenant(tenant_a).get(source=source)
    assert started["Location"] == f"/conversations/{conversation.pk}/"
    asked = admin.get(f"/sources/{source.pk}/delete/").content.decode()
    assert 'id="confirm-form"' in asked and "门店库" in asked
    assert SqlSource.objects.for_tenant(tenant_a).filter(pk=source.pk).exists()
    admin.post(f"/sources/{source.pk}/delete/")
    assert not SqlSource.objects.for_tenant(tenant_a).filter(pk=source.pk).exists()
    conversation.refresh_from_db()
    assert conversation.source is None  # the conversation stays


def test_analysts_read_sources_but_cannot_manage_them(tenant_a, tenant_b, make_user, folder):
    source = source_services.source_create(tenant=tenant_a, name="门店库", kind="sqlite", database="shop.db")
    analyst = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST))
    listing = analyst.get("/sources/").content.decode()
    assert 'data-source="门店库"' in listing and 'id="register-source"' not in listing
    detail = analyst.get(f"/sources/{source.pk}/").content.decode()
    assert 'id="ask-about-source"' in detail and 'id="edit-source"' not in detail
    for path in ("new/", f"{source.pk}/edit/", f"{source.pk}/tables/", f"{source.pk}/delete/", f"{source.pk}/test/"):
        assert analyst.post(f"/sources/{path}", {"name": "x"}).status_code == 403, path
    other = logged_in(make_user(tenant=tenant_b, role=Role.OWNER))
    assert other.get(f"/sources/{source.pk}/").status_code == 404
    assert other.post(f"/sources/{source.pk}/delete/").status_code == 404
    assert SqlSource.objects.for_tenant(tenant_a).get().name == "门店库"
