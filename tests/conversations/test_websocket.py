"""`ws/conversations/{id}/` with Channels' WebsocketCommunicator: event order, auth, tenancy, bad frames,
and disconnect-and-resume without losing or repeating an event."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from apps.conversations.models import Run
from apps.tenants import services as tenant_services
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE, Role
from apps.tenants.websocket import websocket_stack
from baplatform.routing import websocket_urlpatterns
from tests.conversations.conftest import good_turns
from tests.fakes import final

APP = websocket_stack(URLRouter(websocket_urlpatterns))
pytestmark = pytest.mark.django_db(transaction=True)


async def token_for(tenant, scopes=(CONVERSATIONS_READ, CONVERSATIONS_WRITE)):
    _token, raw = await database_sync_to_async(tenant_services.token_create)(
        tenant=tenant, name="ws", scopes=list(scopes)
    )
    return raw


async def open_socket(conversation_id, raw=None, headers=None):
    headers = list(headers or [])
    if raw:
        headers.append((b"authorization", f"Bearer {raw}".encode()))
    communicator = WebsocketCommunicator(APP, f"/ws/conversations/{conversation_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def stored_seq(trace_id):
    """The last event of the run that is stored (what a client joining now would be told)."""
    return Run.objects.unscoped_for_admin().get(trace_id=trace_id).last_seq


async def until(communicator, final=("run.finished", "run.failed"), timeout=20):
    """Every message up to and including the run's final event."""
    received = []
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        received.append(message)
        if message["type"] in final:
            return received


async def until_complete(communicator, held, timeout=10):
    """After a resume: messages until the final event and every seq before it are in (held + received);
    the replayed events may come after live ones sent while the client reconnected."""
    received = []
    while True:
        events = held + received
        last = next((e["seq"] for e in events if e["type"] in ("run.finished", "run.failed")), None)
        if last is not None and len({e["seq"] for e in events}) >= last:
            return received
        received.append(await communicator.receive_json_from(timeout=timeout))


async def test_ask_streams_every_step_in_order(tenant_a, conversation, script):
    await database_sync_to_async(script)(*good_turns())
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    ready = await ws.receive_json_from()
    assert ready == {"type": "conversation.ready", "conversation": conversation.pk, "active_run": None}
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    messages = await until(ws)
    types = [m["type"] for m in messages]
    assert types == [
        "ask.accepted",
        "run.started",
        "plan",
        "tool.started",
        "tool.finished",
        "plan",
        "tool.started",
        "tool.finished",
        "plan",
        "verify",
        "answer.delta",
        "run.finished",
    ]
    events = messages[1:]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert {e["trace_id"] for e in events} == {messages[0]["trace_id"]}
    assert events[1]["data"]["text"] == "先看字段" and events[3]["data"]["tool"] == "get_schema"
    response = events[-1]["data"]["response"]
    assert response["status"] == "answered" and response["answer"] == "最高的是 华东，160.5。"
    assert events[-2]["data"] == {"text": "最高的是 华东，160.5。"}
    await ws.disconnect()


@pytest.mark.parametrize("typing", [0, 0.2])
async def test_the_verified_answer_is_typed_out_after_the_verify_step(tenant_a, conversation, script, settings, typing):
    settings.ANSWER_STREAM_SECONDS = typing  # 0.2: the socket pauses before each live piece, losing none
    text = "In the East the sales were {{q1.销售额[0]}}, the highest of all; the North follows with {{q1.销售额[1]}}."
    await database_sync_to_async(script)(*good_turns(text))
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "Which region sold the most?"})
    events = (await until(ws))[1:]
    types = [e["type"] for e in events]
    deltas = [e["data"]["text"] for e in events if e["type"] == "answer.delta"]
    first_delta = types.index("answer.delta")
    assert types[first_delta - 1] == "verify" and events[first_delta - 1]["data"]["passed"]
    assert types[first_delta:] == ["answer.delta"] * len(deltas) + ["run.finished"] and len(deltas) > 2
    answer = events[-1]["data"]["response"]["answer"]
    assert "".join(deltas) == answer and answer.startswith("In the East the sales were 160.5,")
    await ws.disconnect()


async def test_an_intercepted_answer_sends_no_text(tenant_a, conversation, script):
    schema, query, _answer = good_turns()
    wrong = final("最高的是 华东，销售额 999999。")
    await database_sync_to_async(script)(schema, query, wrong, wrong)
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    messages = await until(ws)
    assert messages[-1]["data"]["response"]["status"] == "intercepted"
    assert [m["data"]["passed"] for m in messages if m["type"] == "verify"] == [False, False]
    assert not [m for m in messages if m["type"] == "answer.delta"]
    assert "999999" not in json.dumps(messages, ensure_ascii=False), "nothing of the rejected text reaches the client"
    await ws.disconnect()


async def test_auth_failures_are_explained_then_closed(tenant_a, tenant_b, conversation):
    ws = await open_socket(conversation.pk, headers=[(b"origin", b"http://localhost")])
    assert (await ws.receive_json_from())["code"] == "unauthenticated"
    assert (await ws.receive_output())["code"] == 4401
    ws = await open_socket(conversation.pk, "bap_not-a-real-token")
    assert (await ws.receive_json_from())["code"] in ("token_unknown", "token_malformed")
    other = await open_socket(conversation.pk, await token_for(tenant_b))
    refused = await other.receive_json_from()
    assert refused["code"] == "not_found" and (await other.receive_output())["code"] == 4404
    missing = await open_socket(999_999, await token_for(tenant_a))
    assert (await missing.receive_json_from())["code"] == "not_found", "the same answer as another tenant's"


async def test_a_reader_may_watch_but_not_ask(tenant_a, conversation):
    ws = await open_socket(conversation.pk, await token_for(tenant_a, scopes=[CONVERSATIONS_READ]))
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "q"})
    assert (await ws.receive_json_from())["code"] == "missing_scope"
    await ws.disconnect()


async def test_bad_frames_get_an_error_and_the_socket_stays_usable(tenant_a, conversation):
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    await ws.receive_json_from()
    for frame, code in [
        ("not json", "malformed_json"),
        ("[1, 2]", "malformed_frame"),
        ('{"type": "shout"}', "unknown_type"),
        ('{"type": "ask", "question": 42}', "invalid"),
        ('{"type": "ask", "question": "' + "长" * 2100 + '"}', "question_too_long"),
        ('{"type": "resume", "trace_id": "nope", "after": 0}', "not_found"),
    ]:
        await ws.send_to(text_data=frame)
        assert (await ws.receive_json_from())["code"] == code, frame[:30]
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    assert not await database_sync_to_async(Run.objects.for_tenant(tenant_a).exists)()
    await ws.disconnect()


async def test_a_message_over_the_size_limit_is_answered_then_closed_with_4413(tenant_a, conversation, settings):
    settings.WS_MAX_MESSAGE_BYTES = 1000
    ws = await open_socket(conversation.pk, await token_for(tenant_a), headers=[(b"accept-language", b"zh-hans")])
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "长" * 400})  # 400 characters, 1200 bytes as UTF-8
    refused = await ws.receive_json_from()
    assert refused["code"] == "frame_too_large" and "1000" in refused["message"] and "消息过大" in refused["message"]
    assert (await ws.receive_output())["code"] == 4413
    assert not await database_sync_to_async(Run.objects.for_tenant(tenant_a).exists)()


async def test_asks_over_the_per_user_limit_get_a_rate_limited_error(tenant_a, conversation, script, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"token": "600/min", "ask": "1/min", "ask_tenant": "100/min"},
    }
    await database_sync_to_async(script)(*good_turns())
    ws = await open_socket(conversation.pk, await token_for(tenant_a), headers=[(b"accept-language", b"zh-hans")])
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    assert (await ws.receive_json_from())["type"] == "ask.accepted"
    await ws.send_json_to({"type": "ask", "question": "再问一个"})
    seen = await until(ws, final=("error",))
    refused = seen[-1]
    assert refused["code"] == "rate_limited" and 0 < refused["retry_after"] <= 60
    assert "提问过于频繁" in refused["message"], "in the user's language"
    if "run.finished" not in [m["type"] for m in seen]:
        await until(ws)
    await ws.send_json_to({"type": "ping"})
    assert (await until(ws, final=("pong",)))[-1] == {"type": "pong"}, "the socket stays open"
    assert await database_sync_to_async(Run.objects.for_tenant(tenant_a).count)() == 1
    other = await open_socket(conversation.pk, await token_for(tenant_a))
    await other.receive_json_from()
    await other.send_json_to({"type": "ask", "question": "另一个令牌"})
    assert (await until(other, final=("ask.accepted", "error")))[-1]["type"] == "ask.accepted", "limits are per token"
    await ws.disconnect()
    await other.disconnect()


async def test_asks_over_the_per_tenant_limit_are_refused_for_every_user(tenant_a, conversation, script, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"token": "600/min", "ask": "100/min", "ask_tenant": "1/min"},
    }
    await database_sync_to_async(script)(*good_turns())
    first = await open_socket(conversation.pk, await token_for(tenant_a))
    await first.receive_json_from()
    await first.send_json_to({"type": "ask", "question": "各地区销售额？"})
    assert (await first.receive_json_from())["type"] == "ask.accepted"
    second = await open_socket(conversation.pk, await token_for(tenant_a))
    await second.receive_json_from()
    await second.send_json_to({"type": "ask", "question": "再问一个"})
    refused = (await until(second, final=("error",)))[-1]
    assert refused["code"] == "rate_limited" and "提问过于频繁" in refused["message"]
    assert (await until(first))[-1]["type"] == "run.finished", "the run within the limit is answered"
    await first.disconnect()
    await second.disconnect()


async def test_asking_while_a_run_is_in_progress_is_refused(tenant_a, conversation, script, gates):
    [thinking] = gates(1)
    first, *rest = good_turns()
    await database_sync_to_async(script)(thinking.hold(first), *rest)
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    assert (await ws.receive_json_from())["type"] == "ask.accepted"
    await thinking.until_reached()  # the run is under way, waiting for its model
    await ws.send_json_to({"type": "ask", "question": "再问一个"})
    seen = await until(ws, final=("error",))
    assert seen[-1]["code"] == "run_in_progress"
    thinking.open()
    assert (await until(ws))[-1]["type"] == "run.finished", "the first run still finishes"
    await ws.disconnect()


async def test_disconnect_and_resume_gets_every_missed_event_once(tenant_a, conversation, script, gates):
    second, third = gates(2)
    schema, query, answer = good_turns()
    await database_sync_to_async(script)(schema, second.hold(query), third.hold(answer))
    raw = await token_for(tenant_a)
    ws = await open_socket(conversation.pk, raw)
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    trace_id = (await ws.receive_json_from())["trace_id"]
    first = [await ws.receive_json_from(timeout=10) for _ in range(2)]  # run.started, plan
    await ws.disconnect()
    second.open()  # the run goes on without any client ...
    await third.until_reached()  # ... storing the second turn's events, until it waits for the last turn
    stored = await stored_seq(trace_id)
    assert stored > first[-1]["seq"] + 1, "events were missed while no client listened"

    again = await open_socket(conversation.pk, raw)
    ready = await again.receive_json_from()
    assert ready["active_run"]["trace_id"] == trace_id and ready["active_run"]["last_seq"] == stored
    await again.send_json_to({"type": "resume", "trace_id": trace_id, "after": first[-1]["seq"]})
    missed = [await again.receive_json_from(timeout=10) for _ in range(stored - first[-1]["seq"])]
    third.open()  # the rest of the run arrives live after the missed events
    rest = missed + await until(again)
    seqs = [e["seq"] for e in first + rest]
    assert seqs == list(range(1, len(seqs) + 1)), "nothing lost, nothing repeated"
    assert rest[-1]["type"] == "run.finished" and rest[-1]["data"]["response"]["status"] == "answered"
    await again.disconnect()


async def test_live_events_before_the_resume_do_not_hide_the_missed_ones(tenant_a, conversation, script, gates):
    [second] = gates(1)
    schema, query, answer = good_turns()
    await database_sync_to_async(script)(schema, second.hold(query), answer)
    raw = await token_for(tenant_a)
    ws = await open_socket(conversation.pk, raw)
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    trace_id = (await ws.receive_json_from())["trace_id"]
    first = [await ws.receive_json_from(timeout=10)]  # run.started
    await ws.disconnect()
    await second.until_reached()  # the first turn's events are stored while no client listens

    again = await open_socket(conversation.pk, raw)
    ready = await again.receive_json_from()
    assert ready["active_run"]["trace_id"] == trace_id and ready["active_run"]["last_seq"] > 1
    second.open()
    live = await again.receive_json_from(timeout=10)  # the run goes on before the client resumes
    assert live["seq"] == ready["active_run"]["last_seq"] + 1, "a socket joining a run follows it from last_seq"
    await again.send_json_to({"type": "resume", "trace_id": trace_id, "after": first[-1]["seq"]})
    received = [live, *await until_complete(again, [*first, live])]
    seqs = sorted(e["seq"] for e in first + received)
    assert seqs == list(range(1, len(seqs) + 1)), "nothing lost, nothing repeated"
    await again.send_json_to({"type": "resume", "trace_id": trace_id, "after": 0})
    await again.send_json_to({"type": "ping"})
    assert await again.receive_json_from() == {"type": "pong"}, "nothing is sent twice on one socket"
    await again.disconnect()


async def test_events_the_channel_layer_drops_still_arrive(tenant_a, conversation, script, monkeypatch):
    from apps.conversations import consumers, events

    real_publish = events.publish

    def lossy(conversation_id, event):
        if event["seq"] == 3 or event["type"] == "run.finished":
            return  # as a full or broken channel layer would
        real_publish(conversation_id, event)

    monkeypatch.setattr(events, "publish", lossy)
    monkeypatch.setattr(consumers, "CATCH_UP_SECONDS", 0.2)
    await database_sync_to_async(script)(*good_turns())
    ws = await open_socket(conversation.pk, await token_for(tenant_a))
    await ws.receive_json_from()
    await ws.send_json_to({"type": "ask", "question": "各地区销售额？"})
    messages = await until(ws)
    events = messages[1:]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), "a gap is filled from the store"
    assert events[-1]["type"] == "run.finished", "a lost final event is read from the store once the run is quiet"
    await ws.disconnect()


async def test_portal_session_connects_with_an_allowed_origin(tenant_a, conversation):
    def session_cookie():
        user = get_user_model().objects.create_user("wsuser", password="pw")
        tenant_services.membership_add(tenant=tenant_a, user=user, role=Role.VIEWER)
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    cookie = await database_sync_to_async(session_cookie)()
    headers = [(b"origin", b"http://localhost"), (b"cookie", f"sessionid={cookie}".encode())]
    ws = await open_socket(conversation.pk, headers=headers)
    assert (await ws.receive_json_from())["type"] == "conversation.ready"
    await ws.disconnect()
