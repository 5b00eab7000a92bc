"""A server process stopped in the middle of a run, on real daphne processes: clients are told, never left waiting.

The model is an endpoint that never answers, so the run is under way (after run.started) when the
process stops. Killed (SIGKILL): another process fails the run once its heartbeat is stale. Stopped
(SIGTERM): the process fails its runs in flight on the way out.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from apps.conversations import services
from apps.datasets import selectors as dataset_selectors
from apps.datasets.demo import ORDERS, demo_datasets_seed
from apps.tenants.context import context_for_token
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.services import token_create
from tests.live_server import daphne_process, server_env, silent_model_endpoint

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.process]

WAIT_SECONDS = 30
STALE_SECONDS = 3
STOPPED = "the server running this question stopped; ask again"


@pytest.fixture
def demo(make_tenant, tmp_path) -> tuple[str, int]:
    tenant = make_tenant("stops")
    demo_datasets_seed(tenant=tenant)
    token, raw = token_create(tenant=tenant, name="live", scopes=[CONVERSATIONS_READ, CONVERSATIONS_WRITE])
    orders = dataset_selectors.dataset_get(tenant=tenant, key=ORDERS)
    conversation = services.conversation_create(tenant=tenant, ctx=context_for_token(token), dataset=orders)
    return raw, conversation.pk


@pytest.fixture
def thinking_env(demo, tmp_path):
    with silent_model_endpoint() as base_url:
        yield lambda stale: server_env(
            tmp_path,
            OPENAI_API_KEY="sk-test",
            OPENAI_BASE_URL=base_url,
            LLM_TIMEOUT_SECONDS="120",
            LLM_MAX_RETRIES="0",
            RUN_STALE_SECONDS=str(stale),
        )


async def open_socket(address: str, demo: tuple[str, int]) -> tuple[ClientConnection, dict[str, Any]]:
    token, conversation_id = demo
    ws = await connect(
        f"ws://{address}/ws/conversations/{conversation_id}/",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=WAIT_SECONDS,
    )
    return ws, await receive(ws)


async def receive(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), WAIT_SECONDS))


async def run_of(address: str, demo: tuple[str, int], trace_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {demo[0]}"}, timeout=WAIT_SECONDS) as client:
        response = await client.get(f"http://{address}/api/v1/runs/{trace_id}/")
    assert response.status_code == 200, response.text
    return response.json()


async def start_a_run(address: str, demo: tuple[str, int]) -> tuple[ClientConnection, str]:
    ws, _ready = await open_socket(address, demo)
    await ws.send(json.dumps({"type": "ask", "question": "各账号的销售额是多少？"}))
    accepted = await receive(ws)
    assert accepted["type"] == "ask.accepted", accepted
    started = await receive(ws)
    assert started["type"] == "run.started", started  # now waiting for the model
    return ws, accepted["trace_id"]


async def final_event(ws: ClientConnection, trace_id: str) -> dict[str, Any]:
    while True:
        event = await receive(ws)
        if event.get("trace_id") == trace_id and event["type"] in ("run.finished", "run.failed"):
            return event


def assert_stopped(event: dict[str, Any]) -> None:
    assert event["type"] == "run.failed", event
    assert event["data"]["response"]["error"] == {"code": "worker_stopped", "message": STOPPED}


async def test_a_killed_process_run_is_failed_by_another_after_the_stale_limit(demo, thinking_env, tmp_path):
    env = thinking_env(STALE_SECONDS)
    with (
        daphne_process(env, tmp_path / "a.log") as (first, first_proc),
        daphne_process(env, tmp_path / "b.log") as (second, _),
    ):
        asker, trace_id = await start_a_run(first, demo)
        watcher, ready = await open_socket(second, demo)
        assert ready["active_run"]["trace_id"] == trace_id, "alive: its heartbeat is fresh"
        await asyncio.sleep(STALE_SECONDS + 1)
        assert (await run_of(second, demo, trace_id))["status"] == "running", "the heartbeat outlives quiet spells"

        killed_at = time.monotonic()
        first_proc.send_signal(signal.SIGKILL)
        first_proc.wait(timeout=10)
        final = await final_event(watcher, trace_id)
        waited = time.monotonic() - killed_at
        assert_stopped(final)
        assert waited < STALE_SECONDS + 8, f"told after {waited:.1f}s"
        run = await run_of(second, demo, trace_id)
        assert run["status"] == "failed" and run["events"][-1] == final
        assert [e["seq"] for e in run["events"]] == list(range(1, final["seq"] + 1))

        # The conversation is free again: the next question is accepted.
        await watcher.send(json.dumps({"type": "ask", "question": "各地区的订单数是多少？"}))
        assert (await receive(watcher))["type"] == "ask.accepted"
        await watcher.close()
        await asker.close()


async def test_a_stopped_process_fails_its_runs_on_the_way_out(demo, thinking_env, tmp_path):
    env = thinking_env(120)  # no stale limit within the test: the stopping process itself reports
    with (
        daphne_process(env, tmp_path / "a.log") as (first, first_proc),
        daphne_process(env, tmp_path / "b.log") as (second, _),
    ):
        asker, trace_id = await start_a_run(first, demo)
        watcher, _ready = await open_socket(second, demo)
        first_proc.send_signal(signal.SIGTERM)
        first_proc.wait(timeout=20)
        run = await run_of(second, demo, trace_id)
        assert run["status"] == "failed", "failed when the process stopped, not after a timeout"
        assert_stopped(run["events"][-1])
        assert_stopped(await final_event(watcher, trace_id))
        await watcher.close()
        await asker.close()
