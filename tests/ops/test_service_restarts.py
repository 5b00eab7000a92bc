"""The machine's Redis and PostgreSQL really stopped under a running server, then started again.

A daphne server runs on a scratch PostgreSQL database (created and dropped here, never the suite's) and
Redis. Stopping Redis: readiness names the channel layer, a synchronous ask still answers (its events
are stored; the failed broadcasts are logged); Redis back, ready again. Stopping PostgreSQL: readiness
names the database, the API answers 503 database_unavailable and writes nothing; PostgreSQL back, every
earlier message is there exactly once. Each service is started again in a `finally`, with the commands
of .ci/services, and the tests wait until it answers before going on.

Runs only with BA_TEST_STOP_SERVICES=1 (.ci/run sets it; .ci/test alone never stops a service), and only
when the suite itself uses neither: stopping PostgreSQL or Redis under the suite's own connection would
break the tests after these (so it runs in the SQLite pass of .ci/run). Tools or root missing there is a
skip locally and a failure under CI=true.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings

from tests.live_server import ROOT, daphne
from tests.support.requirements import missing
from tests.support.waiting import wait_until

SERVER_URL = os.environ.get("CI_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test").rpartition("/")[0]
ADMIN_URL = f"{SERVER_URL}/postgres"
REDIS_URL = "redis://127.0.0.1:6379/15"  # a database of its own on the machine's Redis
COMMAND_SECONDS = 30
RECOVERY_SECONDS = 30


def _suite_uses_postgresql() -> bool:
    return "postgresql" in settings.DATABASES["default"]["ENGINE"]


pytestmark = [
    pytest.mark.stops_services,
    pytest.mark.slow,
    pytest.mark.process,
    pytest.mark.skipif(
        _suite_uses_postgresql(),
        reason="the suite's own database is PostgreSQL: stopping PostgreSQL would break its connection",
    ),
    pytest.mark.skipif(
        bool(os.environ.get("REDIS_URL")),
        reason="the suite uses Redis (REDIS_URL is set): stopping Redis would break its channel layer and cache",
    ),
]
TOOLS = ("pg_ctlcluster", "pg_isready", "redis-server", "redis-cli")


@pytest.fixture(scope="module", autouse=True)
def _tools_and_root() -> None:
    """Before the module's server starts: the service commands are there and may be run."""
    absent = [tool for tool in TOOLS if not shutil.which(tool)]
    if absent:
        missing(f"needs the machine's PostgreSQL and Redis tools ({', '.join(absent)} not found)")
    if os.geteuid() != 0:
        missing("stopping and starting the machine's services needs root")


# --- the machine's services: the exact commands of .ci/services ------------------------------------


def _run(*command: str) -> bool:
    return subprocess.run(command, capture_output=True, timeout=COMMAND_SECONDS, check=False).returncode == 0


def _until(check: Callable[[], bool], what: str, seconds: float = RECOVERY_SECONDS) -> None:
    wait_until(check, timeout=seconds, what=what, interval=0.2)


def _redis_up() -> bool:
    return (
        subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"], capture_output=True, text=True, check=False
        ).stdout.strip()
        == "PONG"
    )


def _postgresql_up() -> bool:
    return _run("pg_isready", "-h", "127.0.0.1", "-p", "5432")


def _stop_redis() -> None:
    _run("redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave")
    _until(lambda: not _redis_up(), "Redis did not stop")


def _start_redis() -> None:
    if not _redis_up():
        Path("/var/lib/redis").mkdir(parents=True, exist_ok=True)
        Path("/var/log/redis").mkdir(parents=True, exist_ok=True)
        _run(
            "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
            "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
        )  # fmt: skip
    _until(_redis_up, "Redis did not answer PING after starting it")


def _cluster_version() -> str:
    return sorted(os.listdir("/etc/postgresql"))[-1]


def _stop_postgresql() -> None:
    _run("pg_ctlcluster", "--skip-systemctl-redirect", _cluster_version(), "main", "stop")
    _until(lambda: not _postgresql_up(), "PostgreSQL did not stop")


def _start_postgresql() -> None:
    if not _postgresql_up():
        _run("pg_ctlcluster", "--skip-systemctl-redirect", _cluster_version(), "main", "start")
    _until(_postgresql_up, "pg_isready did not succeed after starting PostgreSQL")


# --- a server on a scratch database -----------------------------------------------------------------

SEED = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baplatform.settings")
import django
django.setup()
from django.core.management import call_command
from apps.conversations.services import conversation_create
from apps.datasets.demo import ORDERS, demo_datasets_seed
from apps.datasets.selectors import dataset_get
from apps.tenants.context import context_for_token
from apps.tenants.demo import demo_seed
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.services import token_create
call_command("migrate", verbosity=0)
tenant = demo_seed().tenant
demo_datasets_seed(tenant=tenant)
token, raw = token_create(tenant=tenant, name="restarts", scopes=[CONVERSATIONS_READ, CONVERSATIONS_WRITE])
orders = dataset_get(tenant=tenant, key=ORDERS)
conversation = conversation_create(tenant=tenant, ctx=context_for_token(token), dataset=orders, title="restarts")
print(json.dumps({"token": raw, "conversation": conversation.pk}))
"""


@dataclass
class Server:
    address: str
    token: str
    conversation_id: int
    log_path: Path

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"http://{self.address}{path}", headers=self._headers(), timeout=30)

    def ask(self, question: str) -> httpx.Response:
        url = f"http://{self.address}/api/v1/conversations/{self.conversation_id}/messages/"
        return httpx.post(url, headers=self._headers(), json={"question": question, "wait": True}, timeout=60)

    def ready(self) -> httpx.Response:
        return httpx.get(f"http://{self.address}/health/ready", timeout=30)

    def messages(self) -> list[dict[str, Any]]:
        resp = self.get(f"/api/v1/conversations/{self.conversation_id}/")
        assert resp.status_code == 200, resp.text[:300]
        return list(resp.json()["messages"])

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "Accept-Language": "en"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    import psycopg
    from psycopg import sql

    if not _postgresql_up() or not _redis_up():
        missing("the machine's PostgreSQL and Redis must be running (.ci/services starts them)")
    data_dir = tmp_path_factory.mktemp("restarts")
    name = f"restarts_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    env = {
        **os.environ,
        "BA_DATA_DIR": str(data_dir),
        "DATABASE_URL": f"{SERVER_URL}/{name}",
        "REDIS_URL": REDIS_URL,
        "TASK_QUEUE": "local",  # one process that executes its runs: Redis carries only events and the cache
        "OPENAI_API_KEY": "",  # the offline planner answers
        "TAVILY_API_KEY": "",
        "LOG_FORMAT": "text",
    }
    try:
        seeded = subprocess.run(
            [sys.executable, "-c", SEED], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert seeded.returncode == 0, seeded.stderr[-3000:]
        demo = json.loads(seeded.stdout.strip().splitlines()[-1])
        log_path = data_dir / "daphne.log"
        with daphne(env, log_path) as address:
            yield Server(address, demo["token"], demo["conversation"], log_path)
    finally:
        _start_postgresql()  # whatever happened above, the database is dropped on a running server
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _until_ready(server: Server) -> httpx.Response:
    last: list[httpx.Response] = []

    def ready() -> bool:
        last[:] = [server.ready()]
        return last[0].status_code == 200

    _until(ready, "the server was not ready again")
    return last[0]


def _answered(resp: httpx.Response) -> dict[str, Any]:
    assert resp.status_code == 200, resp.text[:500]
    body: dict[str, Any] = resp.json()
    assert body["status"] == "answered", body
    return body


# --- the tests (in order: the second checks the messages asked in the first) ------------------------


def test_redis_stopped_readiness_names_the_channel_layer_and_asks_still_answer(server: Server) -> None:
    _until_ready(server)
    _answered(server.ask("各地区的订单数是多少？"))
    _stop_redis()
    try:
        ready = server.ready()
        assert ready.status_code == 503 and ready.json()["failing"] == ["channel_layer"], ready.text
        body = _answered(server.ask("各账号的销售额是多少？"))
        run = server.get(f"/api/v1/runs/{body['trace_id']}/").json()
        seqs = [event["seq"] for event in run["events"]]
        assert run["status"] == "answered" and seqs == list(range(1, run["last_seq"] + 1)), run
    finally:
        _start_redis()
    assert "could not broadcast an event of run " + body["trace_id"] in server.log_path.read_text(errors="replace")
    assert _until_ready(server).json()["failing"] == []


def test_postgresql_stopped_readiness_names_the_database_and_the_api_writes_nothing(server: Server) -> None:
    _until_ready(server)
    _answered(server.ask("每月销售额趋势如何？"))
    before = server.messages()
    _stop_postgresql()
    try:
        ready = server.ready()
        assert ready.status_code == 503 and ready.json()["failing"] == ["database"], ready.text
        for resp in (server.get("/api/v1/conversations/"), server.ask("哪个产品销售额最高？")):
            assert resp.status_code == 503, resp.text[:300]
            assert resp.json()["code"] == "database_unavailable", resp.text
    finally:
        _start_postgresql()
    assert _until_ready(server).json()["failing"] == []
    after = server.messages()
    assert [m["id"] for m in after] == [m["id"] for m in before]  # nothing of the refused ask was written
    questions = [m["question"] for m in after]
    assert sorted(questions) == sorted(["各地区的订单数是多少？", "各账号的销售额是多少？", "每月销售额趋势如何？"])
    assert len(set(questions)) == len(questions)
