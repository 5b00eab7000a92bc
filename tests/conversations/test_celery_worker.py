"""Runs on real Celery workers: a web process stores and enqueues the run, a worker process executes it, and the
events reach the socket through Redis. A worker process killed mid-run gives its run back (acknowledged late);
the run ends with run.failed at once, and the other runs are answered. A large upload is read by a worker too.

Needs PostgreSQL and Redis shared by the processes (the suite's PostgreSQL + Redis pass).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from channels.db import database_sync_to_async
from django.db import connection
from websockets.asyncio.client import ClientConnection, connect

from apps.conversations import services
from apps.conversations.models import Run
from apps.datasets import selectors as dataset_selectors
from apps.datasets import services as dataset_services
from apps.datasets.demo import ORDERS, demo_datasets_seed
from apps.datasets.models import DatasetVersion
from apps.tenants.context import context_for_token
from apps.tenants.scopes import ALL_SCOPES, CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.services import token_create
from tests.live_server import ROOT, daphne, server_env, silent_model_endpoint
from tests.support.requirements import missing

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.process,
    pytest.mark.postgres,
    pytest.mark.redis,
]

WAIT_SECONDS = 60
STALE_SECONDS = 60  # far above what the kill test allows: the run is failed by redelivery, not by staleness
REDIS_DB = 13  # a database of its own on the machine's Redis: broker and channel layer of these processes


@pytest.fixture
def redis_url() -> str:
    base = os.environ.get("REDIS_URL", "")
    if not base or connection.vendor != "postgresql":
        pytest.skip("workers share PostgreSQL and Redis with the web process: set DATABASE_URL and REDIS_URL")
    url = f"{base.rsplit('/', 1)[0]}/{REDIS_DB}"
    try:
        redis.Redis.from_url(url, socket_timeout=5).ping()
    except redis.RedisError:
        missing(f"Redis does not answer at {url}")
    return url


@pytest.fixture
def demo(make_tenant) -> dict[str, Any]:
    tenant = make_tenant("workers")
    demo_datasets_seed(tenant=tenant)
    token, raw = token_create(tenant=tenant, name="live", scopes=[CONVERSATIONS_READ, CONVERSATIONS_WRITE])
    orders = dataset_selectors.dataset_get(tenant=tenant, key=ORDERS)
    ctx = context_for_token(token)
    conversations = [services.conversation_create(tenant=tenant, ctx=ctx, dataset=orders).pk for _ in range(3)]
    return {"token": raw, "conversations": conversations}


@pytest.fixture
def queue_env(redis_url, tmp_path):
    """The environment of the web process and the workers: one Redis database, a queue of this test's own."""
    queue_name = f"test-runs-{uuid.uuid4().hex[:8]}"

    def env(**extra: str) -> dict[str, str]:
        return server_env(
            tmp_path,
            REDIS_URL=redis_url,
            TASK_QUEUE="celery",
            CELERY_QUEUE=queue_name,
            CELERY_INGEST_QUEUE=f"{queue_name}-ingest",
            RUN_STALE_SECONDS=str(STALE_SECONDS),
            PLAN_FREE_CONCURRENT_RUNS="10",
            **extra,
        )

    return env


@contextmanager
def celery_worker(env: dict[str, str], log_path: Path, *, ingest: bool = False) -> Iterator[subprocess.Popen[bytes]]:
    """A Celery worker as deploy/run starts it: runs on a prefork pool (one process here), or ingests on threads."""
    command = [sys.executable, "-m", "celery", "-A", "baplatform", "worker", "--concurrency", "1"]
    command += ["--pool", "threads", "-Q", env["CELERY_INGEST_QUEUE"]] if ingest else ["--pool", "prefork"]
    command += ["--hostname", f"test-{uuid.uuid4().hex[:8]}@%h", "--without-gossip", "--without-mingle", "-l", "INFO"]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


async def open_socket(address: str, token: str, conversation_id: int) -> ClientConnection:
    ws = await connect(
        f"ws://{address}/ws/conversations/{conversation_id}/",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=WAIT_SECONDS,
    )
    assert (await receive(ws))["type"] == "conversation.ready"
    return ws


async def receive(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), WAIT_SECONDS))


async def ask(ws: ClientConnection, question: str) -> str:
    await ws.send(json.dumps({"type": "ask", "question": question}))
    accepted = await receive(ws)
    assert accepted["type"] == "ask.accepted", accepted
    return accepted["trace_id"]


async def events_until_final(ws: ClientConnection, trace_id: str) -> list[dict[str, Any]]:
    events = []
    while True:
        event = await receive(ws)
        if event.get("trace_id") == trace_id:
            events.append(event)
            if event["type"] in ("run.finished", "run.failed"):
                return events


def assert_each_event_once(events: list[dict[str, Any]]) -> None:
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), [(e["seq"], e["type"]) for e in events]


def parent_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))


def run_row(trace_id: str) -> Run:
    return Run.objects.unscoped_for_admin().get(trace_id=trace_id)


async def test_a_question_is_answered_by_a_worker_process_over_the_socket(demo, queue_env, tmp_path):
    env = queue_env(OPENAI_API_KEY="")  # the offline planner answers
    with daphne(env, tmp_path / "daphne.log") as address, celery_worker(env, tmp_path / "worker.log") as worker:
        ws = await open_socket(address, demo["token"], demo["conversations"][0])
        trace_id = await ask(ws, "各地区的销售额是多少？")
        events = await events_until_final(ws, trace_id)
        await ws.close()
        assert events[0]["type"] == "run.started"
        assert events[-1]["type"] == "run.finished", events[-1]
        assert events[-1]["data"]["response"]["status"] == "answered"
        assert_each_event_once(events)
        run = await database_sync_to_async(run_row)(trace_id)
        assert run.status == "answered" and run.last_seq == len(events) and run.attempts == 1
        assert run.worker and run.worker.rsplit(":", 1)[1] != str(worker.pid), "a pool process of the worker ran it"

        # The REST ask that waits for its answer is executed by the worker too, the web process only waits.
        async with httpx.AsyncClient(
            base_url=f"http://{address}", headers={"Authorization": f"Bearer {demo['token']}"}, timeout=WAIT_SECONDS
        ) as http:
            url = f"/api/v1/conversations/{demo['conversations'][1]}/messages/"
            asked = await http.post(url, json={"question": "各地区的订单数是多少？"})
        assert asked.status_code == 200 and asked.json()["status"] == "answered", asked.text
        rest_run = await database_sync_to_async(run_row)(asked.json()["trace_id"])
        assert parent_of(int(rest_run.worker.rsplit(":", 1)[1])) == worker.pid, "a pool process of the worker ran it"


async def test_a_worker_process_killed_mid_run_fails_that_run_and_the_others_are_answered(demo, queue_env, tmp_path):
    token, (first, second, third) = demo["token"], demo["conversations"]
    with silent_model_endpoint() as thinking_model:
        thinking = queue_env(
            OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=thinking_model, LLM_TIMEOUT_SECONDS="120", LLM_MAX_RETRIES="0"
        )
        answering = queue_env(OPENAI_API_KEY="")
        with (
            daphne(answering, tmp_path / "daphne.log") as address,
            celery_worker(thinking, tmp_path / "thinking.log") as thinker,
        ):
            stuck_ws = await open_socket(address, token, first)
            stuck = await ask(stuck_ws, "各账号的销售额是多少？")
            assert (await receive(stuck_ws))["type"] == "run.started"  # the model is thinking now
            with celery_worker(answering, tmp_path / "answering.log"):
                # The thinking worker holds one unacknowledged run and takes no other: this one goes elsewhere.
                other_ws = await open_socket(address, token, second)
                other = await events_until_final(other_ws, await ask(other_ws, "各地区的订单数是多少？"))
                assert other[-1]["type"] == "run.finished" and other[-1]["data"]["response"]["status"] == "answered"

                pool_pid = int((await database_sync_to_async(run_row)(stuck)).worker.rsplit(":", 1)[1])
                assert pool_pid != thinker.pid
                killed_at = time.monotonic()
                os.kill(pool_pid, signal.SIGKILL)
                rest = await events_until_final(stuck_ws, stuck)
                waited = time.monotonic() - killed_at
                final = rest[-1]
                assert final["type"] == "run.failed", final
                assert final["data"]["response"]["error"]["code"] == "worker_stopped"
                assert waited < STALE_SECONDS / 2, f"told after {waited:.1f}s: the run was given back, not left stale"
                assert [e["seq"] for e in rest] == [2], "run.started was sent, the failure follows it once"
                thinker.terminate()  # its new pool process would think for ever on the next run
                thinker.wait(timeout=30)

                after_ws = await open_socket(address, token, third)
                after = await events_until_final(after_ws, await ask(after_ws, "哪个产品销售额最高？"))
                assert after[-1]["type"] == "run.finished", after[-1]
                assert_each_event_once(after)
            for ws in (stuck_ws, other_ws, after_ws):
                await ws.close()
    run = await database_sync_to_async(run_row)(stuck)
    assert run.status == "failed" and run.finished_at is not None


async def test_a_large_upload_is_ingested_by_a_worker_process(make_tenant, queue_env, tmp_path):
    tenant = await database_sync_to_async(make_tenant)("uploads")
    _token, raw = await database_sync_to_async(token_create)(tenant=tenant, name="up", scopes=list(ALL_SCOPES))
    rows = 120_000  # over SYNC_INGEST_BYTES: read in the background
    body = "客户,地区,金额\n" + "".join(f"c{i},{'华东' if i % 2 else '华北'},{i}.5\n" for i in range(rows))
    assert len(body.encode()) > dataset_services.SYNC_INGEST_BYTES
    env = queue_env(OPENAI_API_KEY="")
    with (
        daphne(env, tmp_path / "daphne.log") as address,
        celery_worker(env, tmp_path / "worker.log", ingest=True) as worker,
    ):
        async with httpx.AsyncClient(
            base_url=f"http://{address}", headers={"Authorization": f"Bearer {raw}"}, timeout=WAIT_SECONDS
        ) as http:
            created = await http.post("/api/v1/datasets/", files={"file": ("big.csv", body.encode(), "text/csv")})
            assert created.status_code in (201, 202), created.text
            dataset_id = created.json()["id"]
            deadline = time.monotonic() + WAIT_SECONDS
            while True:
                version = (await http.get(f"/api/v1/datasets/{dataset_id}/versions/1/")).json()
                if version["status"] in ("ready", "failed") or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
        assert version["status"] == "ready" and version["row_count"] == rows, version
        recorded = await database_sync_to_async(version_worker)(dataset_id)
        assert recorded.rsplit(":", 1)[1] == str(worker.pid), "the ingest worker read the file (in a child process)"


def version_worker(dataset_id: int) -> str:
    return DatasetVersion.objects.unscoped_for_admin().get(dataset_id=dataset_id, number=1).worker
