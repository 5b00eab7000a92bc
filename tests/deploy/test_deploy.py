"""deploy/run end to end: nginx in front of two daphne processes on PostgreSQL and Redis, a question
asked over the WebSocket through nginx, static files from nginx, then a clean stop."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.live_server import ROOT, free_port, free_port_run
from tests.support.requirements import missing

PG_HOST, PG_PORT = "127.0.0.1", 5432
DATABASE = "ba_deploy_test"
# deploy/run itself waits up to 60 s for each of its 2 daphne processes and 30 s for nginx before giving up: the
# test waits longer than that, so a loaded machine's slow start is reported by deploy/run, not cut short here
WAIT_SECONDS = 180

pytestmark = [pytest.mark.slow, pytest.mark.process]


def _listening(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((host, port)) == 0


def _skip_reason() -> str | None:
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        return "nginx is not installed (.ci/packages installs it); deploy/run puts it in front of daphne"
    if not _listening(PG_HOST, PG_PORT):
        return "no PostgreSQL on 127.0.0.1:5432 (.ci/services starts it)"
    if not _listening("127.0.0.1", 6379):
        return "no Redis on 127.0.0.1:6379 (.ci/services starts it)"
    return None


@pytest.fixture(autouse=True)
def _needs_nginx_postgres_redis() -> None:
    reason = _skip_reason()
    if reason is not None:
        missing(reason)


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(host=PG_HOST, port=PG_PORT, user="postgres", dbname="postgres", autocommit=True) as conn:
        conn.execute(sql)


@pytest.fixture
def database():
    _admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    _admin(f"CREATE DATABASE {DATABASE}")
    yield f"postgres://postgres@{PG_HOST}:{PG_PORT}/{DATABASE}"
    _admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


@pytest.fixture
def deployment(database, tmp_path):
    port, backend = free_port(), free_port_run(2)  # deploy/run's 2 daphne processes take backend and backend + 1
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_", "DEPLOY_"))},
        "PYTHON": sys.executable,
        "DATABASE_URL": database,
        "REDIS_URL": "redis://127.0.0.1:6379/6",
        # Queues of this deployment's own: a worker of another one on the same Redis never takes its runs.
        "CELERY_QUEUE": f"deploy-test-{port}-runs",
        "CELERY_INGEST_QUEUE": f"deploy-test-{port}-ingest",
        "SECRET_KEY": "deploy-test-secret-key-" + "x" * 40,
        "BA_DATA_DIR": str(tmp_path / "data"),
        "DEPLOY_PORT": str(port),
        "DEPLOY_BACKEND_PORT": str(backend),
        "OPENAI_API_KEY": "",
        "TAVILY_API_KEY": "",
        "LOG_FORMAT": "text",
    }
    log_path = tmp_path / "deploy.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [str(ROOT / "deploy" / "run")],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while "serving http://" not in log_path.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"deploy/run did not start:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.3)
        yield env, f"127.0.0.1:{port}", [backend, backend + 1], proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        subprocess.run(["pkill", "-KILL", "-s", str(proc.pid)], check=False)  # anything of its session left


def _seed(env: dict[str, str]) -> tuple[str, int]:
    """The demo tenant, token and conversation, written by manage.py against the deployment's database."""
    out = subprocess.run(
        [sys.executable, "manage.py", "demo", "--no-serve"],
        cwd=ROOT,
        env={**env, "BA_READ_DOTENV": "false"},
        capture_output=True,
        text=True,
        timeout=WAIT_SECONDS,
        check=True,
    ).stdout
    token = re.search(r"Bearer (\S+?)'", out)
    conversation = re.search(r"conversations/(\d+)/", out)
    assert token and conversation, out
    return token.group(1), int(conversation.group(1))


async def _ask_over_websocket(address: str, token: str, conversation_id: int) -> list[dict]:
    async with connect(
        f"ws://{address}/ws/conversations/{conversation_id}/",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=30,
    ) as ws:
        ready = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert ready["type"] == "conversation.ready", ready
        await ws.send(json.dumps({"type": "ask", "question": "各账号的销售额是多少？"}))
        events = [json.loads(await asyncio.wait_for(ws.recv(), 30))]
        while events[-1]["type"] not in ("run.finished", "run.failed"):
            events.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
    return events


def test_deploy_serves_the_platform_through_nginx_and_stops_cleanly(deployment):
    env, address, backends, proc = deployment
    ready = httpx.get(f"http://{address}/health/ready", timeout=10)
    assert ready.status_code == 200 and ready.json()["status"] == "ok", ready.text
    assert ready.headers["server"].startswith("nginx")

    static = httpx.get(f"http://{address}/static/admin/css/base.css", timeout=10)
    assert static.status_code == 200 and "text/css" in static.headers["content-type"]
    assert httpx.get(f"http://127.0.0.1:{backends[0]}/static/admin/css/base.css", timeout=10).status_code == 404, (
        "static files come from nginx, not from the application"
    )

    token, conversation_id = _seed(env)
    events = asyncio.run(_ask_over_websocket(address, token, conversation_id))
    assert events[0]["type"] == "ask.accepted" and events[-1]["type"] == "run.finished", [e["type"] for e in events]
    assert events[-1]["data"]["response"]["status"] == "answered"
    assert [e["seq"] for e in events[1:]] == list(range(1, len(events)))
    state = Path(env["BA_DATA_DIR"]) / "deploy"
    assert "conversations.execute_run" in (state / "worker-0.log").read_text(), "a Celery worker answered it"
    status = subprocess.run([str(ROOT / "deploy" / "run"), "status"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert "worker-0: running" in status.stdout and "ingest: running" in status.stdout, status.stdout
    workers = [int((state / name).read_text()) for name in ("worker-0.pid", "ingest.pid")]
    # Runs take the CPU at a lower priority than the web processes, so sockets are answered while workers are busy.
    own = os.getpriority(os.PRIO_PROCESS, 0)
    pool = subprocess.run(["pgrep", "-P", str(workers[0])], capture_output=True, text=True).stdout.split()
    assert pool, "the worker has its pool processes"
    for pid in [*workers, *map(int, pool)]:
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, own + 10), f"worker process {pid} is not niced"
    assert os.getpriority(os.PRIO_PROCESS, int((state / "daphne-0.pid").read_text())) == own

    subprocess.run([str(ROOT / "deploy" / "run"), "stop"], cwd=ROOT, env=env, check=True, timeout=60)
    proc.wait(timeout=30)
    for port in [int(address.rsplit(":", 1)[1]), *backends]:
        assert not _listening("127.0.0.1", port), f"port {port} still open after stop"
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists(), f"worker {pid} still running after stop"
