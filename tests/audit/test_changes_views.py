"""The portal's administrative changes page: changes made in the portal are listed with who and what changed,
only the tenant's own, filtered by action, paginated, in the user's language; viewers and analysts are refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.audit import views
from apps.audit.models import AdminChange, ChangeAction
from apps.tenants import services
from apps.tenants.models import ApiToken, Membership
from apps.tenants.scopes import DATASETS_READ, Role

PAGE = "/settings/audit/changes/"


def logged_in(user, lang: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


@pytest.fixture
def owner(tenant_a, make_user):
    return make_user("olga", tenant=tenant_a, role=Role.OWNER)


def rows(page: str) -> list[str]:
    table = page.split('id="changes"')[1].split("</table>")[0]
    return re.findall(r'<tr data-action="([^"]+)"', table)


def test_portal_changes_are_recorded_and_listed_newest_first(tenant_a, owner, make_user):
    client = logged_in(owner)
    make_user("mia")
    client.post("/settings/members/", {"action": "add", "login": "mia", "role": Role.VIEWER})
    mia = Membership.objects.for_tenant(tenant_a).get(user__username="mia")
    client.post("/settings/members/", {"action": "role", "member_id": mia.pk, "role": Role.ANALYST})
    client.post("/settings/tokens/", {"name": "etl", "scopes": [DATASETS_READ], "expires_in_days": 30})
    token = ApiToken.objects.for_tenant(tenant_a).get(name="etl")
    client.post("/settings/tokens/", {"action": "revoke", "token_id": token.pk, "confirmed": "1"})
    recorded = AdminChange.objects.for_tenant(tenant_a).filter(via="portal").order_by("id")
    assert [(c.action, c.actor) for c in recorded] == [
        ("member.add", "user:olga"),
        ("member.role", "user:olga"),
        ("token.create", "user:olga"),
        ("token.revoke", "user:olga"),
    ]
    assert recorded[0].actor_user == owner
    page = client.get(PAGE).content.decode()
    assert rows(page)[:4] == ["token.revoke", "token.create", "member.role", "member.add"]
    assert "Member&#x27;s role changed" in page and "viewer → analyst" in page and "user:olga" in page
    assert token.token_hash not in page


def test_the_page_filters_by_action_and_shows_only_the_tenants_changes(tenant_a, tenant_b, owner, make_user):
    make_user("ben", tenant=tenant_b, role=Role.ANALYST)
    services.token_create(tenant=tenant_b, name="beta-secret-bot", scopes=[DATASETS_READ])
    services.token_create(tenant=tenant_a, name="alpha-bot", scopes=[DATASETS_READ])
    client = logged_in(owner)
    everything = client.get(PAGE).content.decode()
    assert "alpha-bot" in everything and "beta-secret-bot" not in everything and "ben" not in everything
    tokens_only = client.get(PAGE, {"action": ChangeAction.TOKEN_CREATE}).content.decode()
    assert set(rows(tokens_only)) == {"token.create"} and 'value="token.create" selected' in tokens_only
    assert set(rows(client.get(PAGE, {"action": "nonsense"}).content.decode())) >= {"member.add", "token.create"}


def test_the_page_is_paginated_and_keeps_the_filter(tenant_a, owner, monkeypatch):
    monkeypatch.setattr(views, "CHANGES_PER_PAGE", 2)
    for name in ("one", "two", "three"):
        services.token_create(tenant=tenant_a, name=name, scopes=[DATASETS_READ])
    client = logged_in(owner)
    first = client.get(PAGE, {"action": "token.create"}).content.decode()
    assert len(rows(first)) == 2 and "?action=token.create&amp;page=2" in first
    second = client.get(PAGE, {"action": "token.create", "page": 2}).content.decode()
    assert len(rows(second)) == 1 and "one (" in second


def test_the_page_speaks_chinese(tenant_a, owner):
    services.token_create(tenant=tenant_a, name="etl", scopes=[DATASETS_READ])
    page = logged_in(owner, "zh-hans").get(PAGE).content.decode()
    assert "管理变更" in page and "创建 API 令牌" in page and "全部操作" in page


@pytest.mark.parametrize("role", [Role.VIEWER, Role.ANALYST])
def test_viewers_and_analysts_get_the_forbidden_page(tenant_a, make_user, role):
    resp = logged_in(make_user(tenant=tenant_a, role=role)).get(PAGE)
    assert resp.status_code == 403


def test_the_runs_page_links_to_the_changes(tenant_a, owner):
    assert f'href="{PAGE}"' in logged_in(owner).get("/settings/audit/").content.decode()
