"""The ASGI app served by a real daphne process answers HTTP over loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from apps.tenants import services
from apps.tenants.scopes import DATASETS_READ

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def daphne_server(transactional_db, tmp_path):
    port = _free_port()
    env = {**os.environ, "BA_DATA_DIR": str(tmp_path)}
    # The server must see the test database: share it through DATABASE_URL (SQLite file or PostgreSQL).
    db = transactional_db_settings()
    env["DATABASE_URL"] = db
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "baplatform.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/accounts/login/", timeout=1)
            break
        except httpx.TransportError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stdout.read().decode()) from None
            time.sleep(0.2)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def transactional_db_settings() -> str:
    from django.db import connection

    params = connection.settings_dict
    if connection.vendor == "sqlite":
        name = params["NAME"]
        if "memory" in str(name) or not name:
            pytest.skip("the in-memory SQLite test database cannot be shared with a server process")
        return f"sqlite:///{name}"
    return f"postgres://{params['USER']}@{params['HOST']}:{params['PORT']}/{params['NAME']}"


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
