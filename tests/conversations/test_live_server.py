"""`ws/conversations/{id}/` on real daphne processes over loopback, with the offline planner answering.

The test writes the tenant, token, demo datasets and conversation into the test database and the
test's data directory; the servers are started on the same database (DATABASE_URL) and the same
BA_DATA_DIR, so they see both. With REDIS_URL set, two servers share the channel layer.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from apps.conversations import services
from apps.datasets import selectors as dataset_selectors
from apps.datasets.demo import ORDERS, demo_datasets_seed
from apps.tenants.context import context_for_token
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.services import token_create
from tests.live_server import daphne, server_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.process]

WAIT_SECONDS = 30
FINAL = ("run.finished", "run.failed")
IDLE_SECONDS = 7  # longer than channels_redis's 5 s blocking read of a consumer's channel


@dataclass(frozen=True)
class Demo:
    token: str
    conversation_id: int


@pytest.fixture
def demo(make_tenant, settings, tmp_path) -> Demo:
    # The server's BA_DATA_DIR is tmp_path, so its TENANT_DATA_ROOT is this one (set by the package conftest).
    assert settings.TENANT_DATA_ROOT == tmp_path / "tenants"
    tenant = make_tenant("live")
    demo_datasets_seed(tenant=tenant)
    token, raw = token_create(tenant=tenant, name="live", scopes=[CONVERSATIONS_READ, CONVERSATIONS_WRITE])
    orders = dataset_selectors.dataset_get(tenant=tenant, key=ORDERS)
    conversation = services.conversation_create(tenant=tenant, ctx=context_for_token(token), dataset=orders)
    return Demo(token=raw, conversation_id=conversation.pk)


@pytest.fixture
def server(demo, tmp_path):
    with daphne(server_env(tmp_path), tmp_path / "daphne.log") as address:
        yield address


@pytest.fixture
def two_servers(demo, tmp_path):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two processes share events only through Redis: set REDIS_URL")
    env = server_env(tmp_path)
    with daphne(env, tmp_path / "daphne-1.log") as first, daphne(env, tmp_path / "daphne-2.log") as second:
        yield first, second


async def open_socket(address: str, demo: Demo) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(
        f"ws://{address}/ws/conversations/{demo.conversation_id}/",
        additional_headers={"Authorization": f"Bearer {demo.token}"},
        open_timeout=WAIT_SECONDS,
    )
    ready = await receive(ws)
    assert ready["type"] == "conversation.ready", ready
    return ws, ready


async def receive(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), WAIT_SECONDS))


async def until_final(ws: ClientConnection) -> list[dict[str, Any]]:
    received = []
    while not received or received[-1]["type"] not in FINAL:
        received.append(await receive(ws))
    return received


async def until_complete(ws: ClientConnection, held: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """After a resume: events until the final one and every seq before it are in (held + received)."""
    received: list[dict[str, Any]] = []
    while True:
        events = held + received
        last = next((e["seq"] for e in events if e["type"] in FINAL), None)
        if last is not None and len({e["seq"] for e in events}) >= last:
            return received
        try:
            received.append(await receive(ws))
        except TimeoutError:
            pytest.fail(f"the run did not complete on this socket: seqs {sorted(e['seq'] for e in events)}")


async def ask(ws: ClientConnection, question: str) -> str:
    await ws.send(json.dumps({"type": "ask", "question": question}))
    accepted = await receive(ws)
    assert accepted["type"] == "ask.accepted", accepted
    return accepted["trace_id"]


async def stored_events(address: str, demo: Demo, trace_id: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {demo.token}"}, timeout=WAIT_SECONDS) as client:
        run = await client.get(f"http://{address}/api/v1/runs/{trace_id}/")
    assert run.status_code == 200, run.text
    return run.json()["events"]


def in_seq_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A resumed stream: the replayed events may follow live ones sent while the client reconnected."""
    return sorted(events, key=lambda e: e["seq"])


def assert_one_whole_run(events: list[dict[str, Any]], trace_id: str) -> dict[str, Any]:
    """Every event of the run once, in order; returns the response carried by run.finished."""
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), [(e["seq"], e["type"]) for e in events]
    assert {e["trace_id"] for e in events} == {trace_id}
    assert events[0]["type"] == "run.started" and events[-1]["type"] == "run.finished", [e["type"] for e in events]
    assert {"plan", "tool.started", "tool.finished", "verify"} <= {e["type"] for e in events}
    return events[-1]["data"]["response"]


async def test_a_question_is_answered_live_step_by_step(server, demo):
    ws, ready = await open_socket(server, demo)
    assert ready["active_run"] is None
    trace_id = await ask(ws, "各账号的销售额是多少？")
    events = await until_final(ws)
    await ws.close()

    response = assert_one_whole_run(events, trace_id)
    assert response["status"] == "answered", response
    assert "抖音小店" in response["answer"] and "297,091.86" in response["answer"]
    assert response["tables"] and response["audit"]["trace_id"] == trace_id
    assert events == await stored_events(server, demo, trace_id), "what was sent is what was stored"


async def test_a_client_that_drops_mid_run_resumes_without_loss_or_repeat(server, demo):
    ws, _ready = await open_socket(server, demo)
    trace_id = await ask(ws, "各地区的订单数是多少？")
    before = [await receive(ws)]  # run.started: the run is under way when the client goes
    await ws.close()

    again, ready = await open_socket(server, demo)
    if ready["active_run"] is not None:
        assert ready["active_run"]["trace_id"] == trace_id
    await again.send(json.dumps({"type": "resume", "trace_id": trace_id, "after": before[-1]["seq"]}))
    after = await until_complete(again, before)
    await again.send(json.dumps({"type": "resume", "trace_id": trace_id, "after": 0}))
    await again.send(json.dumps({"type": "ping"}))
    assert await receive(again) == {"type": "pong"}, "events already sent on this socket are not sent again"
    await again.close()

    events = in_seq_order(before + after)
    response = assert_one_whole_run(events, trace_id)
    assert response["status"] == "answered" and "华北" in response["answer"]
    assert events == await stored_events(server, demo, trace_id)


@pytest.mark.redis
async def test_an_idle_socket_outlives_the_redis_layers_blocking_read(server, demo):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the in-memory layer has no blocking read: set REDIS_URL")
    ws, _ready = await open_socket(server, demo)
    await asyncio.sleep(IDLE_SECONDS)
    await ws.send(json.dumps({"type": "ping"}))
    assert await receive(ws) == {"type": "pong"}
    await ws.close()


@pytest.mark.redis
async def test_events_of_a_run_on_one_process_reach_a_socket_on_another(two_servers, demo):
    asking_server, watching_server = two_servers
    watcher, _ready = await open_socket(watching_server, demo)
    asker, _ready = await open_socket(asking_server, demo)
    trace_id = await ask(asker, "各产品的退货率是多少？")
    asked, watched = await asyncio.gather(until_final(asker), until_final(watcher))
    assert watched == asked, "the other process forwarded every event once, in order"
    assert assert_one_whole_run(watched, trace_id)["status"] == "answered"

    # A client that drops on one process resumes on the other.
    trace_id = await ask(asker, "哪个产品销售额最高？")
    before = [await receive(asker)]
    await asker.close()
    again, _ready = await open_socket(watching_server, demo)
    await again.send(json.dumps({"type": "resume", "trace_id": trace_id, "after": before[-1]["seq"]}))
    resumed = in_seq_order(before + await until_complete(again, before))
    watched = await until_final(watcher)
    for socket in (again, watcher):
        await socket.close()
    assert assert_one_whole_run(resumed, trace_id)["status"] == "answered"
    assert resumed == watched == await stored_events(asking_server, demo, trace_id)


@pytest.mark.parametrize(
    ("size", "close_code", "who"),
    [
        (200 * 1024, 4413, "the application (over WS_MAX_MESSAGE_BYTES)"),
        (8 * 1024 * 1024, 1009, "the server (over daphne's cap, answered by baplatform.serve)"),
    ],
)
async def test_an_oversized_message_is_answered_then_closed(server, demo, size, close_code, who):
    ws = await connect(
        f"ws://{server}/ws/conversations/{demo.conversation_id}/",
        additional_headers={"Authorization": f"Bearer {demo.token}", "Accept-Language": "en"},
        open_timeout=WAIT_SECONDS,
        max_size=None,
    )
    assert (await receive(ws))["type"] == "conversation.ready"
    await ws.send(json.dumps({"type": "ask", "question": "x" * size}))
    refused = await receive(ws)
    assert refused["code"] == "frame_too_large" and "too large" in refused["message"], who
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), WAIT_SECONDS)
    assert ws.close_code == close_code, f"{who}: closed with {ws.close_code}"
