"""The administrative audit trail: every change to tokens, members, SQL sources, synonyms and the verify rules is
recorded by its service, in its transaction, with who did it and what changed (never a secret), whatever the path
(API, portal, admin site, command); tenant admins read their tenant's trail over the API, paginated and filtered."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from apps.audit.models import AdminChange, ChangeAction, DetectionPattern, InterceptionLog, RequiredToolRule
from apps.datasets.models import FieldSynonym, SqlSource
from apps.tenants import services
from apps.tenants.models import ApiToken, Membership
from apps.tenants.scopes import (
    AUDIT_READ,
    DATASETS_READ,
    DATASETS_WRITE,
    Role,
)
from apps.tenants.selectors import tenant_by_slug
from tests.datasets import sources_support
from tests.datasets.sources_support import PG, make_sqlite

pg_schema = sources_support.pg_schema  # a real PostgreSQL schema, created once per session

PASSWORD = "S3cr3t-口令-42"
CHANGES = "/api/v1/audit/changes/"


def trail(tenant, *actions):
    rows = AdminChange.objects.for_tenant(tenant).order_by("id")
    return list(rows.filter(action__in=actions) if actions else rows)


def stored_text(tenant) -> str:
    return json.dumps([[c.actor, c.target, c.changes, c.secrets_changed] for c in trail(tenant)], ensure_ascii=False)


@pytest.fixture
def admin_token(tenant_a, make_token):
    return make_token(tenant_a, name="admin-bot")  # every scope


@pytest.fixture
def admin(api_client, admin_token):
    return api_client(admin_token)


@pytest.fixture
def folder(settings, tmp_path, tenant_a):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    make_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "shop.db")
    return settings.SQLITE_SOURCES_ROOT


def test_tokens_created_and_revoked_over_the_api_are_recorded_without_their_secret(tenant_a, admin, admin_token):
    created = admin.post("/api/v1/tokens/", {"name": "etl", "scopes": [DATASETS_READ]}, format="json").json()
    admin.delete(f"/api/v1/tokens/{created['id']}/")
    create, revoke = trail(tenant_a, ChangeAction.TOKEN_CREATE, ChangeAction.TOKEN_REVOKE)[-2:]
    acting = ApiToken.objects.for_tenant(tenant_a).get(name="admin-bot")
    for change in (create, revoke):
        assert change.actor == f"token:{acting.prefix}" and change.actor_token == acting and change.via == "api"
        assert change.target_id == str(created["id"]) and change.target.startswith("etl")
    assert create.changes["name"] == [None, "etl"] and create.changes["scopes"] == [None, [DATASETS_READ]]
    assert revoke.changes["revoked_at"][0] is None and revoke.changes["revoked_at"][1]
    token = ApiToken.objects.for_tenant(tenant_a).get(pk=created["id"])
    text = stored_text(tenant_a)
    assert created["token"] not in text and token.token_hash not in text and admin_token not in text
    admin.delete(f"/api/v1/tokens/{created['id']}/")
    assert len(trail(tenant_a, ChangeAction.TOKEN_REVOKE)) == 1, "revoking a revoked token changes nothing"


def test_members_added_role_changed_and_removed_over_the_api_are_recorded(tenant_a, admin, make_user):
    make_user("mia")
    added = admin.post("/api/v1/members/", {"login": "mia", "role": Role.VIEWER}, format="json").json()
    admin.patch(f"/api/v1/members/{added['id']}/", {"role": Role.ADMIN}, format="json")
    admin.delete(f"/api/v1/members/{added['id']}/")
    add, role, remove = trail(tenant_a, ChangeAction.MEMBER_ADD, ChangeAction.MEMBER_ROLE, ChangeAction.MEMBER_REMOVE)[
        -3:
    ]
    assert (add.action, add.target, add.changes) == (
        "member.add",
        "mia",
        {"user": [None, "mia"], "role": [None, "viewer"]},
    )
    assert (role.action, role.changes) == ("member.role", {"role": ["viewer", "admin"]})
    assert (remove.action, remove.changes) == ("member.remove", {"user": ["mia", None], "role": ["admin", None]})


def test_a_refused_change_leaves_no_record(tenant_a, admin, make_user):
    owner = make_user("olga", tenant=tenant_a, role=Role.OWNER)
    membership = Membership.objects.for_tenant(tenant_a).get(user=owner)
    before = len(trail(tenant_a))
    resp = admin.patch(f"/api/v1/members/{membership.pk}/", {"role": Role.VIEWER}, format="json")
    assert resp.status_code == 403 and resp.json()["code"] == "last_owner"
    assert len(trail(tenant_a)) == before


def test_the_change_and_its_record_are_saved_together_or_not_at_all(tenant_a, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the audit table is unavailable")

    monkeypatch.setattr(AdminChange.objects, "create", broken)
    with pytest.raises(RuntimeError):
        services.token_create(tenant=tenant_a, name="lost", scopes=[DATASETS_READ])
    assert not ApiToken.objects.for_tenant(tenant_a).filter(name="lost").exists()


def test_synonyms_added_and_deleted_over_the_api_are_recorded(tenant_a, admin):
    created = admin.post("/api/v1/synonyms/", {"term": "营收", "column": "金额"}, format="json")
    assert created.status_code == 201, created.json()
    assert admin.delete(f"/api/v1/synonyms/{created.json()['id']}/").status_code == 204
    assert not FieldSynonym.objects.for_tenant(tenant_a).exists()
    add, delete = trail(tenant_a, ChangeAction.SYNONYM_CREATE, ChangeAction.SYNONYM_DELETE)
    assert add.changes == {"term": [None, "营收"], "column": [None, "金额"]} and add.target == "营收"
    assert delete.changes == {"term": ["营收", None], "column": ["金额", None]}


def test_sqlite_sources_registered_changed_and_deleted_over_the_api_are_recorded(tenant_a, admin, folder):
    body = {"name": "门店库", "kind": "sqlite", "database": "shop.db"}
    source = admin.post("/api/v1/sources/", body, format="json").json()
    admin.patch(f"/api/v1/sources/{source['id']}/", {"name": "门店", "tables": ["订单"]}, format="json")
    admin.patch(f"/api/v1/sources/{source['id']}/", {"name": "门店"}, format="json")
    admin.delete(f"/api/v1/sources/{source['id']}/")
    create, update, delete = trail(
        tenant_a, ChangeAction.SOURCE_CREATE, ChangeAction.SOURCE_UPDATE, ChangeAction.SOURCE_DELETE
    )
    assert create.changes["name"] == [None, "门店库"] and create.changes["kind"] == [None, "sqlite"]
    assert update.changes == {"name": ["门店库", "门店"], "tables": [[], ["订单"]]}, "an unchanged PATCH adds nothing"
    assert delete.changes["name"] == ["门店", None] and delete.target == "门店"


def test_a_source_password_is_named_as_changed_but_never_recorded(tenant_a, admin, pg_schema):
    body = {
        "name": "pg",
        "kind": "postgresql",
        "host": PG["host"],
        "port": PG["port"],
        "database": PG["dbname"],
        "schema": pg_schema,
        "username": PG["user"],
        "password": PASSWORD,  # trust authentication: accepted, and must still never be recorded
    }
    source = admin.post("/api/v1/sources/", body, format="json").json()
    admin.patch(f"/api/v1/sources/{source['id']}/", {"password": PASSWORD + "-new"}, format="json")
    create, update = trail(tenant_a, ChangeAction.SOURCE_CREATE, ChangeAction.SOURCE_UPDATE)
    assert create.secrets_changed == ["password"] and update.secrets_changed == ["password"]
    assert update.changes == {}
    encrypted = SqlSource.objects.for_tenant(tenant_a).get().password_encrypted
    listed = admin.get(CHANGES).content.decode()
    for text in (stored_text(tenant_a), listed):
        assert "S3cr3t" not in text and "口令" not in text and encrypted not in text


def test_the_api_lists_the_tenants_changes_newest_first_paginated_and_filtered(
    tenant_a, tenant_b, admin, make_token, api_client
):
    for name in ("one", "two", "three"):
        admin.post("/api/v1/tokens/", {"name": name, "scopes": [DATASETS_READ]}, format="json")
    services.token_create(tenant=tenant_b, name="theirs", scopes=[DATASETS_READ])
    page = admin.get(CHANGES, {"action": "token.create", "limit": 2}).json()
    assert page["count"] == 4, "the admin's own token (made by the fixture) and three more"
    assert [c["target"].split(" ")[0] for c in page["results"]] == ["three", "two"] and page["next"]
    first = page["results"][0]
    assert first["action"] == "token.create" and first["action_label"] == "API token created"
    assert first["actor_type"] == "token" and first["via"] == "api" and first["changes"]["name"] == [None, "three"]
    family = admin.get(CHANGES, {"action": "token"}).json()
    assert {c["action"] for c in family["results"]} == {"token.create"}
    assert "theirs" not in json.dumps(admin.get(CHANGES, {"limit": 100}).json(), ensure_ascii=False)
    chinese = APIClient(HTTP_ACCEPT_LANGUAGE="zh-hans")
    chinese.credentials(HTTP_AUTHORIZATION=f"Bearer {make_token(tenant_a, [AUDIT_READ])}")
    assert chinese.get(CHANGES).json()["results"][0]["action_label"] == "创建 API 令牌"


def test_only_admins_read_the_trail(tenant_a, make_token, api_client, make_user):
    analyst = api_client(make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE]))
    refused = analyst.get(CHANGES)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    session = Client(HTTP_ACCEPT_LANGUAGE="en")
    session.force_login(make_user(tenant=tenant_a, role=Role.ANALYST))
    assert session.get(CHANGES).status_code == 403
    session.force_login(make_user(tenant=tenant_a, role=Role.ADMIN))
    assert session.get(CHANGES).status_code == 200


def test_commands_record_themselves_as_the_actor(tenant_a, make_user, capsys):
    call_command("create_token", "--tenant", tenant_a.slug, "--scopes", DATASETS_READ, "--name", "cron")
    raw = capsys.readouterr().out.strip()
    change = trail(tenant_a, ChangeAction.TOKEN_CREATE)[-1]
    assert (change.actor, change.via, change.target.split(" ")[0]) == ("command:create_token", "command", "cron")
    assert raw not in stored_text(tenant_a)
    make_user("root")
    call_command("create_tenant", "gamma", "--owner", "root")
    gamma = tenant_by_slug(slug="gamma")
    assert [(c.action, c.actor) for c in trail(gamma)] == [("member.add", "command:create_tenant")]


@pytest.fixture
def staff_client(db):
    staff = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff)
    return client


def test_staff_changes_in_the_admin_site_are_recorded(tenant_a, staff_client, make_user, make_token):
    member = make_user("mia", tenant=tenant_a, role=Role.VIEWER)
    membership = Membership.objects.for_tenant(tenant_a).get(user=member)
    resp = staff_client.post(f"/admin/tenants/membership/{membership.pk}/change/", {"role": Role.ANALYST})
    assert resp.status_code == 302
    make_token(tenant_a, [DATASETS_READ], name="old")
    token = ApiToken.objects.for_tenant(tenant_a).get(name="old")
    staff_client.post("/admin/tenants/apitoken/", {"action": "revoke", "_selected_action": [token.pk], "index": 0})
    role, revoke = trail(tenant_a, ChangeAction.MEMBER_ROLE, ChangeAction.TOKEN_REVOKE)
    assert role.changes == {"role": ["viewer", "analyst"]} and role.actor == "staff:root" and role.via == "admin"
    assert revoke.target_id == str(token.pk) and revoke.actor == "staff:root"
    staff_client.post(f"/admin/tenants/membership/{membership.pk}/delete/", {"post": "yes"})
    assert trail(tenant_a, ChangeAction.MEMBER_REMOVE)[-1].changes["user"] == ["mia", None]


def test_verify_rules_edited_by_staff_are_recorded_platform_wide(tenant_a, staff_client):
    add = {"code": "fake_phone", "regex": r"1\d{10}", "description": "", "active": "on"}
    assert staff_client.post("/admin/audit/detectionpattern/add/", add).status_code == 302
    pattern = DetectionPattern.objects.get(code="fake_phone")
    staff_client.post(f"/admin/audit/detectionpattern/{pattern.pk}/change/", {**add, "active": ""})
    staff_client.post(f"/admin/audit/detectionpattern/{pattern.pk}/delete/", {"post": "yes"})
    rule = RequiredToolRule.objects.get(source_type="sql")
    change = {"source_type": "sql", "all_of": '["get_schema"]', "any_of": '["execute_sql_safe"]'}
    assert staff_client.post(f"/admin/audit/requiredtoolrule/{rule.pk}/change/", change).status_code == 302
    platform = AdminChange.objects.unscoped_for_admin().filter(tenant=None).order_by("id")
    assert [c.action for c in platform] == [
        "detection_pattern.create",
        "detection_pattern.update",
        "detection_pattern.delete",
        "tool_rule.update",
    ]
    assert platform[1].changes == {"active": [True, False]} and platform[0].actor == "staff:root"
    assert platform[3].changes["all_of"][1] == ["get_schema"]
    assert not trail(tenant_a, ChangeAction.DETECTION_CREATE), "a platform change is in no tenant's trail"


def test_a_false_positive_whitelisted_by_staff_is_in_the_tenants_trail(tenant_a, staff_client):
    log = InterceptionLog.objects.create(
        tenant=tenant_a,
        trace_id="t-1",
        question="q",
        draft="Sample Kit",
        reason="fake_data",
        matched_patterns=[{"pattern": "sample", "text": "Sample Kit"}],
        source_type="file",
    )
    staff_client.post(
        "/admin/audit/interceptionlog/",
        {"action": "whitelist_false_positive", "_selected_action": [log.pk], "index": 0},
    )
    (change,) = trail(tenant_a, ChangeAction.WHITELIST_CREATE)
    assert change.changes["regex"] == [None, r"Sample\ Kit"] and change.actor == "staff:root"
