"""Portal pages: login, language, tenant switcher, members and API tokens pages, role checks."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.tenants.models import ApiToken, Membership
from apps.tenants.scopes import DATASETS_READ, Role
from apps.tenants.selectors import token_authenticate


@pytest.fixture
def owner(tenant_a, make_user):
    return make_user("olga", tenant=tenant_a, role=Role.OWNER)


def logged_in(user, lang: str | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang) if lang else Client()
    client.force_login(user)
    return client


def test_login_page_is_chinese_by_default_and_english_on_request(db):
    assert "登录" in Client().get("/accounts/login/").content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/accounts/login/").content.decode()
    assert "Log in" in english and "登录" not in english


def test_login_with_wrong_password_says_so_in_chinese(owner):
    resp = Client().post("/accounts/login/", {"username": "olga", "password": "wrong"})
    assert "用户名或密码错误" in resp.content.decode()


def test_login_then_home_shows_tenant_and_role(owner):
    client = Client()
    resp = client.post("/accounts/login/", {"username": "olga", "password": "pw-olga"}, follow=True)
    page = resp.content.decode()
    assert "Alpha Co" in page and "所有者" in page


def test_anonymous_is_sent_to_login(db):
    resp = Client().get("/settings/tokens/")
    assert resp.status_code == 302 and resp["Location"].startswith("/accounts/login/")


def test_language_switch_persists(owner):
    client = logged_in(owner)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Your role: Owner" in client.get("/").content.decode()


def test_tenant_switcher(tenant_a, tenant_b, owner):
    Membership.objects.create(tenant=tenant_b, user=owner, role=Role.VIEWER)
    client = logged_in(owner, "en")
    home = client.get("/").content.decode()
    assert 'id="tenant-switcher"' in home and "Beta Co" in home
    client.post("/tenant/switch/", {"tenant_id": tenant_b.pk, "next": "/"})
    assert "Your role: Viewer" in client.get("/").content.decode()
    # A viewer in Beta may not manage tokens there, even though Olga owns Alpha.
    assert client.get("/settings/tokens/").status_code == 403


def test_switching_to_a_foreign_tenant_is_refused(tenant_a, tenant_b, owner):
    client = logged_in(owner, "en")
    resp = client.post("/tenant/switch/", {"tenant_id": tenant_b.pk, "next": "https://evil.example/"}, follow=True)
    assert "not a member of that tenant" in resp.content.decode()
    assert resp.redirect_chain[-1][0] == "/", "no open redirect"


def test_viewer_cannot_open_admin_pages_and_is_told_why(tenant_a, make_user):
    viewer = make_user(tenant=tenant_a, role=Role.VIEWER)
    resp = logged_in(viewer).get("/settings/members/")
    assert resp.status_code == 403
    assert "您的角色（查看者）无权执行此操作" in resp.content.decode()
    post = logged_in(viewer).post("/settings/members/", {"action": "add", "login": viewer.username, "role": "owner"})
    assert post.status_code == 403
    assert Membership.objects.for_tenant(tenant_a).get(user=viewer).role == Role.VIEWER


def test_tokens_page_creates_shows_once_and_revokes(tenant_a, owner):
    client = logged_in(owner, "en")
    resp = client.post(
        "/settings/tokens/", {"action": "create", "name": "bi", "scopes": [DATASETS_READ], "expires_in_days": 30}
    )
    page = resp.content.decode()
    assert "shown only once" in page
    token = ApiToken.objects.for_tenant(tenant_a).get(name="bi")
    raw = page.split('<code class="token">')[1].split("</code>")[0]
    assert token_authenticate(raw=raw) == token
    listing = client.get("/settings/tokens/").content.decode()
    assert raw not in listing and token.prefix in listing
    asked = client.post("/settings/tokens/", {"action": "revoke", "token_id": token.pk}).content.decode()
    assert 'id="confirm-form"' in asked and "Integrations using it stop working" in asked and token.prefix in asked
    token.refresh_from_db()
    assert token.revoked_at is None  # nothing happens before the confirmation
    client.post("/settings/tokens/", {"action": "revoke", "token_id": token.pk, "confirmed": "1"})
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_tokens_page_cannot_revoke_another_tenants_token(tenant_a, tenant_b, owner, make_token):
    make_token(tenant_b, [DATASETS_READ], name="theirs")
    theirs = ApiToken.objects.for_tenant(tenant_b).get()
    resp = logged_in(owner).post("/settings/tokens/", {"action": "revoke", "token_id": theirs.pk})
    assert resp.status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_members_page_add_change_remove(tenant_a, owner, make_user):
    make_user("newcomer")
    client = logged_in(owner, "en")
    client.post("/settings/members/", {"action": "add", "login": "newcomer", "role": "analyst"})
    membership = Membership.objects.for_tenant(tenant_a).get(user__username="newcomer")
    assert membership.role == Role.ANALYST
    client.post("/settings/members/", {"action": "role", "member_id": membership.pk, "role": "admin"})
    membership.refresh_from_db()
    assert membership.role == Role.ADMIN
    asked = client.post("/settings/members/", {"action": "remove", "member_id": membership.pk}).content.decode()
    assert 'id="confirm-form"' in asked and "Remove newcomer from" in asked
    assert Membership.objects.for_tenant(tenant_a).filter(user__username="newcomer").exists()
    client.post("/settings/members/", {"action": "remove", "member_id": membership.pk, "confirmed": "1"})
    assert not Membership.objects.for_tenant(tenant_a).filter(user__username="newcomer").exists()
    resp = client.post("/settings/members/", {"action": "add", "login": "ghost", "role": "analyst"}, follow=True)
    assert "No user with the username or email" in resp.content.decode()


def test_user_without_tenant_sees_explanation(db, make_user):
    resp = logged_in(make_user()).get("/")
    assert resp.status_code == 403
    assert "尚未加入租户" in resp.content.decode()


def test_unknown_page_is_a_friendly_404(db):
    resp = Client().get("/no-such-page/")
    assert resp.status_code == 404
    assert "页面不存在" in resp.content.decode()


def test_token_scopes_are_explained_in_the_users_language(owner):
    page = logged_in(owner).get("/settings/tokens/").content.decode()
    assert "datasets:read · 读取并查询数据集和 SQL 数据源" in page
    assert "conversations:write · 发起对话并提问（并读取自己发起的）" in page
