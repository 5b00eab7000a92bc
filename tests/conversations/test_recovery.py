"""Runs whose process stopped: failed with a final event wherever they are read, by recover_runs, at shutdown."""

from __future__ import annotations

import io
import logging
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.utils import timezone

from apps.agent.events import RunEvent as AgentEvent
from apps.conversations import events, recovery, services
from apps.conversations.models import Message, Run, RunEvent, RunStatus
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from tests.conversations.conftest import good_turns
from tests.conversations.test_websocket import open_socket, token_for

pytestmark = pytest.mark.django_db(transaction=True)
STOPPED = "the server running this question stopped; ask again"


@pytest.fixture
def client(tenant_a, make_token, api_client):
    return api_client(make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE]))


def stuck_run(conversation, *, worker="gone-host:4242", age_seconds=600, status=RunStatus.RUNNING, events=2):
    """A run as a process leaves it when it dies mid-run: active, with events, and a heartbeat that stopped."""
    tenant = conversation.tenant
    message = Message.objects.create(tenant=tenant, conversation=conversation, question="各地区销售额？")
    run = Run.objects.create(
        tenant=tenant,
        conversation=conversation,
        message=message,
        trace_id=f"{worker}-{age_seconds}".replace(":", "-").ljust(32, "0"),
        status=status,
        worker=worker,
        heartbeat_at=timezone.now() - timedelta(seconds=age_seconds),
        last_seq=events,
    )
    for seq in range(1, events + 1):
        RunEvent.objects.create(tenant=tenant, run=run, seq=seq, type="run.started" if seq == 1 else "plan", data={})
    return run


def assert_failed_as_stopped(run):
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.finished_at is not None
    final = RunEvent.objects.for_tenant(run.tenant).filter(run=run).order_by("seq").last()
    assert final.type == "run.failed" and final.seq == run.last_seq
    assert final.data["response"]["error"] == {"code": "worker_stopped", "message": STOPPED}
    message = Message.objects.for_tenant(run.tenant).get(pk=run.message_id)
    assert message.status == RunStatus.FAILED and message.response["error"]["code"] == "worker_stopped"


def test_polling_a_run_whose_process_stopped_reports_it_failed(client, conversation):
    run = stuck_run(conversation)
    body = client.get(f"/api/v1/runs/{run.trace_id}/").json()
    assert body["status"] == "failed" and body["last_seq"] == 3
    assert [e["seq"] for e in body["events"]] == [1, 2, 3]
    assert body["events"][-1]["type"] == "run.failed"
    assert body["events"][-1]["data"]["response"]["error"]["message"] == STOPPED
    assert_failed_as_stopped(run)
    again = client.get(f"/api/v1/runs/{run.trace_id}/").json()
    assert [e["seq"] for e in again["events"]] == [1, 2, 3], "failed once, not on every read"


def test_a_run_with_a_fresh_heartbeat_stays_under_way(client, conversation):
    run = stuck_run(conversation, age_seconds=5)
    assert client.get(f"/api/v1/runs/{run.trace_id}/").json()["status"] == "running"
    queued = stuck_run(conversation, worker="other:1", age_seconds=30, status=RunStatus.QUEUED)
    assert recovery.stale_runs_fail() == 0
    queued.refresh_from_db()
    assert queued.status == RunStatus.QUEUED


def test_the_stale_limit_comes_from_settings(client, conversation, settings):
    run = stuck_run(conversation, age_seconds=5)
    settings.RUN_STALE_SECONDS = 2
    assert client.get(f"/api/v1/runs/{run.trace_id}/").json()["status"] == "failed"


def test_asking_after_a_run_whose_process_stopped_is_not_blocked(client, conversation, script):
    run = stuck_run(conversation)
    script(*good_turns())
    resp = client.post(f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "各地区？"}, format="json")
    assert resp.status_code == 200 and resp.json()["status"] == "answered", resp.json()
    assert_failed_as_stopped(run)


async def test_a_socket_is_told_on_connect_and_on_resume(tenant_a, conversation):
    run = await database_sync_to_async(stuck_run)(conversation, events=3)
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    ready = await ws.receive_json_from()
    assert ready["type"] == "conversation.ready" and ready["active_run"] is None
    live = await ws.receive_json_from(timeout=5)  # the failure is broadcast to the conversation's sockets
    assert live["type"] == "run.failed" and live["seq"] == 4 and live["trace_id"] == run.trace_id
    assert live["data"]["response"]["error"]["message"] == STOPPED
    await ws.send_json_to({"type": "resume", "trace_id": run.trace_id, "after": 0})
    replayed = [await ws.receive_json_from() for _ in range(3)]
    assert [e["seq"] for e in replayed] == [1, 2, 3], "what the socket already sent is not sent again"
    await ws.disconnect()
    await database_sync_to_async(assert_failed_as_stopped)(run)


async def test_a_socket_resuming_a_run_whose_process_stopped_gets_the_final_event(tenant_a, conversation, settings):
    run = await database_sync_to_async(stuck_run)(conversation, age_seconds=5)
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    ready = await ws.receive_json_from()
    assert ready["active_run"] == {"trace_id": run.trace_id, "last_seq": 2}
    settings.RUN_STALE_SECONDS = 1  # the process stops sending heartbeats now
    await ws.send_json_to({"type": "resume", "trace_id": run.trace_id, "after": 2})
    final = await ws.receive_json_from(timeout=5)
    assert final["type"] == "run.failed" and final["seq"] == 3
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}, "the live copy of the failure is not sent twice"
    await ws.disconnect()


def test_recover_runs_fails_stale_runs_and_a_dead_workers_runs(conversation, dataset, tenant_a):
    stale = stuck_run(conversation)
    out = io.StringIO()
    call_command("recover_runs", stdout=out)
    assert "1 stale run(s) marked failed" in out.getvalue()
    assert_failed_as_stopped(stale)

    fresh = stuck_run(conversation, worker="host-b:77", age_seconds=1)
    other = services.conversation_create(tenant=tenant_a, ctx=_ctx(tenant_a), dataset=dataset)
    elsewhere = stuck_run(other, worker="host-c:88", age_seconds=1)
    out = io.StringIO()
    call_command("recover_runs", worker="host-b:77", stdout=out)
    assert "1 run(s) of host-b:77 marked failed" in out.getvalue()
    assert_failed_as_stopped(fresh)
    elsewhere.refresh_from_db()
    assert elsewhere.status == RunStatus.RUNNING, "only the named worker's runs"


def _ctx(tenant):
    from apps.tenants.context import context_for_token
    from apps.tenants.services import token_create

    token, _raw = token_create(tenant=tenant, name="other", scopes=[CONVERSATIONS_READ])
    return context_for_token(token)


def test_a_run_failed_as_stopped_takes_no_more_events_and_keeps_its_outcome(conversation, script):
    script(*good_turns())
    run = services.ask_create(conversation=conversation, question="各地区？", actor="test")
    recorder = events.RunEvents(run)
    recorder(AgentEvent(type="run.started", trace_id=run.trace_id, seq=1, data={}))
    run.refresh_from_db()
    assert run.worker == recovery.worker_id() and run.heartbeat_at is not None
    assert recovery.worker_runs_fail(worker=recovery.worker_id()) == 1
    recorder(AgentEvent(type="plan", trace_id=run.trace_id, seq=2, data={}))  # the process was only slow
    assert_failed_as_stopped(run)
    assert list(RunEvent.objects.for_tenant(run.tenant).filter(run=run).values_list("seq", "type")) == [
        (1, "run.started"),
        (2, "run.failed"),
    ]
    fresh = Run.objects.for_tenant(run.tenant).select_related("message", "conversation", "tenant").get(pk=run.pk)
    assert services.run_execute(run=fresh)["error"]["code"] == "worker_stopped", "a failed run is not started"


def test_shutdown_fails_the_runs_in_flight_here_and_tells_other_processes(conversation):
    run = services.ask_create(conversation=conversation, question="各地区？", actor="test")
    Run.objects.unscoped_for_admin().filter(pk=run.pk).update(status=RunStatus.RUNNING, last_seq=1)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(events.group_name(conversation.pk), channel)
    recovery.in_flight.run_ids.add(run.pk)
    try:
        assert recovery.in_flight.fail_all(reason="shutdown") == 1
    finally:
        recovery.in_flight.discard(run.pk)
    assert_failed_as_stopped(run)
    message = async_to_sync(layer.receive)(channel)
    assert message["event"]["type"] == "run.failed" and message["event"]["seq"] == 2


def test_a_broken_channel_layer_does_not_fail_the_run(conversation, script, settings, caplog):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}
    }
    script(*good_turns())
    with caplog.at_level(logging.ERROR, logger="apps.conversations.services"):
        run, response = services.ask_sync(conversation=conversation, question="各地区销售额？", actor="test")
    assert response["status"] == "answered"
    stored = list(RunEvent.objects.for_tenant(run.tenant).filter(run=run).values_list("type", flat=True))
    assert stored[0] == "run.started" and stored[-1] == "run.finished"
    assert any("could not broadcast" in r.getMessage() for r in caplog.records), "each failure is logged"
