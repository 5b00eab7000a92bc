"""A token that may ask (conversations:write) reads what it created: its conversations, its runs, their result
files and its conversation's socket; another caller's stay not found. conversations:read reads everything."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.websocket import websocket_stack
from baplatform.routing import websocket_urlpatterns
from tests.conversations.conftest import good_turns

APP = websocket_stack(URLRouter(websocket_urlpatterns))


def start_and_ask(client, dataset) -> tuple[int, dict]:
    conversation = client.post("/api/v1/conversations/", {"dataset": dataset.pk}, format="json").json()["id"]
    answer = client.post(
        f"/api/v1/conversations/{conversation}/messages/", {"question": "各地区销售额？"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return conversation, answer.json()


@pytest.mark.django_db
def test_a_writer_reads_its_own_runs_and_results_but_not_anothers(tenant_a, make_token, api_client, dataset, script):
    script(*good_turns(), *good_turns())
    writer = api_client(make_token(tenant_a, [CONVERSATIONS_WRITE]))
    other = api_client(make_token(tenant_a, [CONVERSATIONS_WRITE]))
    mine, answer = start_and_ask(writer, dataset)
    theirs, their_answer = start_and_ask(other, dataset)
    run = writer.get(f"/api/v1/runs/{answer['trace_id']}/")
    assert run.status_code == 200 and run.json()["status"] == "answered"
    [link] = [u for u in answer["download_links"] if u.endswith(".csv")]
    assert writer.get(link).status_code == 200 and writer.get(link)["Content-Type"].startswith("text/csv")
    assert writer.get(f"/api/v1/conversations/{mine}/").status_code == 200
    assert writer.get(f"/api/v1/conversations/{mine}/messages/").status_code == 200
    for url in (f"/api/v1/runs/{their_answer['trace_id']}/", f"/api/v1/conversations/{theirs}/"):
        refused = writer.get(url)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found", url
    reader = api_client(make_token(tenant_a, [CONVERSATIONS_READ]))
    assert reader.get(f"/api/v1/runs/{their_answer['trace_id']}/").status_code == 200
    assert reader.get(f"/api/v1/runs/{answer['trace_id']}/").status_code == 200


@pytest.mark.django_db
def test_a_token_without_conversation_scopes_reads_nothing(tenant_a, make_token, api_client, conversation):
    nobody = api_client(make_token(tenant_a, ["datasets:read"]))
    resp = nobody.get(f"/api/v1/conversations/{conversation.pk}/")
    assert resp.status_code == 403 and resp.json()["code"] == "missing_scope"


@pytest.mark.django_db(transaction=True)
async def test_a_writer_opens_the_socket_of_its_own_conversation_only(tenant_a, make_token, dataset, api_client):
    raw = await database_sync_to_async(make_token)(tenant_a, [CONVERSATIONS_WRITE])
    client = api_client(raw)
    mine = await database_sync_to_async(client.post)("/api/v1/conversations/", {"dataset": dataset.pk}, format="json")
    theirs_raw = await database_sync_to_async(make_token)(tenant_a, [CONVERSATIONS_WRITE])
    theirs = await database_sync_to_async(api_client(theirs_raw).post)(
        "/api/v1/conversations/", {"dataset": dataset.pk}, format="json"
    )
    headers = [(b"authorization", f"Bearer {raw}".encode())]
    own = WebsocketCommunicator(APP, f"/ws/conversations/{mine.json()['id']}/", headers=headers)
    assert (await own.connect())[0]
    assert (await own.receive_json_from(timeout=5))["type"] == "conversation.ready"
    await own.disconnect()
    other = WebsocketCommunicator(APP, f"/ws/conversations/{theirs.json()['id']}/", headers=headers)
    assert (await other.connect())[0]
    refused = await other.receive_json_from(timeout=5)
    assert refused["type"] == "error" and refused["code"] == "not_found"
    await other.disconnect()
