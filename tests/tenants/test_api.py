"""Tenant-owned API endpoints: cross-tenant access is a 404, roles and scopes gate writes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.tenants.models import ApiToken, Membership
from apps.tenants.scopes import ALL_SCOPES, DATASETS_READ, MEMBERS_MANAGE, Role


@pytest.fixture
def foreign_objects(tenant_b, make_user, make_token):
    """A member and a token that belong to tenant B."""
    make_user("bob_b", tenant=tenant_b, role=Role.OWNER)
    make_token(tenant_b, [DATASETS_READ], name="b-token")
    return {
        "member": Membership.objects.for_tenant(tenant_b).get(),
        "token": ApiToken.objects.for_tenant(tenant_b).get(),
    }


@pytest.mark.parametrize(
    ("method", "url", "kind", "payload"),
    [
        ("get", "/api/v1/tokens/{id}/", "token", None),
        ("delete", "/api/v1/tokens/{id}/", "token", None),
        ("get", "/api/v1/members/{id}/", "member", None),
        ("patch", "/api/v1/members/{id}/", "member", {"role": "viewer"}),
        ("delete", "/api/v1/members/{id}/", "member", None),
    ],
)
def test_another_tenants_object_is_a_404_like_a_missing_one(
    tenant_a, make_token, api_client, foreign_objects, method, url, kind, payload
):
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    target = foreign_objects[kind]
    foreign = getattr(client, method)(url.format(id=target.pk), payload, format="json")
    missing = getattr(client, method)(url.format(id=999_999), payload, format="json")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == missing.json() == {"code": "not_found", "message": "Not found."}
    target.refresh_from_db()  # still there, unchanged
    if kind == "token":
        assert target.revoked_at is None
    else:
        assert target.role == Role.OWNER


def test_lists_show_only_own_tenant(tenant_a, make_token, make_user, api_client, foreign_objects):
    make_user("ann_a", tenant=tenant_a, role=Role.OWNER)
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    members = client.get("/api/v1/members/").json()
    assert [m["username"] for m in members["results"]] == ["ann_a"]
    tokens = client.get("/api/v1/tokens/").json()
    assert "b-token" not in [t["name"] for t in tokens["results"]]


def _session_client(user, tenant=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    if tenant is not None:
        session = client.session
        session["tenant_id"] = tenant.pk
        session.save()
    return client


@pytest.mark.parametrize(
    ("role", "can_manage"), [(Role.VIEWER, False), (Role.ANALYST, False), (Role.ADMIN, True), (Role.OWNER, True)]
)
def test_roles_gate_member_management(tenant_a, make_user, role, can_manage):
    make_user("owner_a", tenant=tenant_a, role=Role.OWNER)
    actor = make_user(tenant=tenant_a, role=role)
    make_user("newbie")
    resp = _session_client(actor).post("/api/v1/members/", {"login": "newbie", "role": "viewer"}, format="json")
    if can_manage:
        assert resp.status_code == 201
        assert Membership.objects.for_tenant(tenant_a).filter(user__username="newbie").exists()
    else:
        assert resp.status_code == 403
        assert resp.json()["code"] == "missing_scope"
        assert MEMBERS_MANAGE in resp.json()["message"]
        assert not Membership.objects.for_tenant(tenant_a).filter(user__username="newbie").exists()


def test_viewer_session_reads_me_with_role_scopes(tenant_a, make_user):
    viewer = make_user(tenant=tenant_a, role=Role.VIEWER)
    body = _session_client(viewer).get("/api/v1/me/").json()
    assert body["role"] == "viewer"
    assert "datasets:write" not in body["scopes"] and DATASETS_READ in body["scopes"]


def test_session_tenant_follows_the_chosen_membership(tenant_a, tenant_b, make_user):
    user = make_user(tenant=tenant_a, role=Role.VIEWER)
    Membership.objects.create(tenant=tenant_b, user=user, role=Role.ADMIN)
    assert _session_client(user, tenant_b).get("/api/v1/me/").json()["tenant"]["slug"] == "beta"
    assert _session_client(user, tenant_a).get("/api/v1/me/").json()["tenant"]["slug"] == "alpha"


def test_session_cannot_choose_a_tenant_it_is_not_member_of(tenant_a, tenant_b, make_user):
    user = make_user(tenant=tenant_a)
    assert _session_client(user, tenant_b).get("/api/v1/me/").json()["tenant"]["slug"] == "alpha"


def test_user_without_membership_gets_clear_error(db, make_user):
    lonely = make_user()
    resp = _session_client(lonely).get("/api/v1/me/")
    assert resp.status_code == 403
    assert resp.json()["code"] == "no_tenant"


def test_tenant_in_request_body_is_ignored(tenant_a, tenant_b, make_token, make_user, api_client):
    make_user("target_user")
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    resp = client.post(
        "/api/v1/members/", {"login": "target_user", "role": "viewer", "tenant": tenant_b.pk}, format="json"
    )
    assert resp.status_code == 201
    assert Membership.objects.for_tenant(tenant_a).filter(user__username="target_user").exists()
    assert not Membership.objects.for_tenant(tenant_b).exists()


def test_member_errors(tenant_a, make_user, make_token, api_client):
    owner = make_user("solo_owner", tenant=tenant_a, role=Role.OWNER)
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    unknown = client.post("/api/v1/members/", {"login": "ghost", "role": "viewer"}, format="json")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "unknown_user")
    dup = client.post("/api/v1/members/", {"login": "solo_owner", "role": "viewer"}, format="json")
    assert (dup.status_code, dup.json()["code"]) == (409, "already_member")
    bad_role = client.post("/api/v1/members/", {"login": "solo_owner", "role": "king"}, format="json")
    assert (bad_role.status_code, bad_role.json()["code"]) == (400, "invalid")
    membership = Membership.objects.for_tenant(tenant_a).get(user=owner)
    demote = client.patch(f"/api/v1/members/{membership.pk}/", {"role": "viewer"}, format="json")
    assert (demote.status_code, demote.json()["code"]) == (403, "last_owner")
    remove = client.delete(f"/api/v1/members/{membership.pk}/")
    assert (remove.status_code, remove.json()["code"]) == (403, "last_owner")
    membership.refresh_from_db()
    assert membership.role == Role.OWNER


def test_unknown_api_path_is_json_404(db, api_client):
    resp = api_client().get("/api/v1/nothing-here/")
    assert resp.status_code == 404
    assert resp.json()["code"] == "not_found"
