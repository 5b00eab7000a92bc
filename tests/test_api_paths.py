"""The API answers a wrong method with 405 (and what is allowed), and a path without its trailing slash as if
it had one: no 403 for a method, no redirect that would turn a POST into a GET."""

from __future__ import annotations

import pytest

from apps.tenants.scopes import ALL_SCOPES, DATASETS_READ

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "url"),
    [("put", "/api/v1/conversations/"), ("delete", "/api/v1/datasets/"), ("post", "/api/v1/runs/0123abcd/")],
)
def test_a_method_an_endpoint_does_not_have_is_405_with_what_it_allows(tenant_a, make_token, api_client, method, url):
    for scopes in (list(ALL_SCOPES), [DATASETS_READ]):
        resp = getattr(api_client(make_token(tenant_a, scopes)), method)(url, HTTP_ACCEPT_LANGUAGE="en")
        assert resp.status_code == 405, resp.content
        assert resp.json()["code"] == "method_not_allowed" and method.upper() in resp.json()["message"]
        assert "GET" in resp["Allow"]


def test_a_path_without_its_slash_is_served_not_redirected(tenant_a, make_token, api_client):
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    created = client.post("/api/v1/tokens", {"name": "无斜杠", "scopes": [DATASETS_READ]}, format="json")
    assert created.status_code == 201 and created.json()["name"] == "无斜杠"
    listed = client.get("/api/v1/tokens")
    assert listed.status_code == 200 and "无斜杠" in [t["name"] for t in listed.json()["results"]]
    missing = client.post("/api/v1/no-such-thing", {}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_an_unauthenticated_wrong_method_is_still_401(api_client):
    assert api_client().put("/api/v1/conversations/").status_code == 401


def test_a_huge_page_size_is_capped_not_a_server_error(tenant_a, make_token, api_client):
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    resp = client.get("/api/v1/tokens/", {"limit": "586190286668348715433984", "offset": "-5"})
    assert resp.status_code == 200 and resp.json()["count"] == 1
