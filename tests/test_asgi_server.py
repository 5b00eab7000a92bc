"""The ASGI app served by a real daphne process answers HTTP over loopback."""

from __future__ import annotations

import httpx
import pytest

from apps.tenants import services
from apps.tenants.scopes import DATASETS_READ
from tests.live_server import daphne, server_env

pytestmark = [pytest.mark.slow, pytest.mark.process]


@pytest.fixture
def daphne_server(transactional_db, tmp_path):
    # The server must see the test database: shared through DATABASE_URL (SQLite file or PostgreSQL).
    with daphne(server_env(tmp_path), tmp_path / "daphne.log") as address:
        yield f"http://{address}"


def test_daphne_serves_the_api_and_the_portal(daphne_server, make_tenant):
    tenant = make_tenant("served")
    _token, raw = services.token_create(tenant=tenant, name="srv", scopes=[DATASETS_READ])
    me = httpx.get(daphne_server + "/api/v1/me/", headers={"Authorization": f"Bearer {raw}"}, timeout=10)
    assert me.status_code == 200
    assert me.json()["tenant"]["slug"] == "served"
    bad = httpx.get(daphne_server + "/api/v1/me/", headers={"Authorization": "Bearer nope"}, timeout=10)
    assert bad.status_code == 401 and bad.json()["code"] == "token_malformed"
    login = httpx.get(daphne_server + "/accounts/login/", timeout=10)
    assert login.status_code == 200 and "登录" in login.text
