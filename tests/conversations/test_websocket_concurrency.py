"""Asks arriving together on one conversation, from two sockets: they are stored side by side (each on a thread
and database connection of its own), and the conversation's row lock still lets only one of them start a run."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from apps.conversations.models import Run
from tests.conversations.conftest import good_turns
from tests.conversations.test_websocket import open_socket, token_for, until

pytestmark = pytest.mark.django_db(transaction=True)


async def test_two_sockets_asking_at_once_on_one_conversation_start_one_run(tenant_a, conversation, script, gates):
    """Asks are stored side by side: the conversation's row lock still lets only one of them start a run."""
    [thinking] = gates(1)
    first, *rest = good_turns()
    await database_sync_to_async(script)(thinking.hold(first), *rest)
    raw = await token_for(tenant_a)
    sockets = [await open_socket(conversation.pk, raw) for _ in range(2)]
    for ws in sockets:
        await ws.receive_json_from()  # conversation.ready
    await asyncio.gather(*(ws.send_json_to({"type": "ask", "question": "各地区销售额？"}) for ws in sockets))
    answers = [(await until(ws, final=("ask.accepted", "error")))[-1] for ws in sockets]
    assert sorted(a["type"] for a in answers) == ["ask.accepted", "error"], answers
    assert next(a for a in answers if a["type"] == "error")["code"] == "run_in_progress"
    runs = await database_sync_to_async(
        lambda: Run.objects.unscoped_for_admin().filter(conversation=conversation).count()
    )()
    assert runs == 1
    thinking.open()
    for ws in sockets:
        assert (await until(ws))[-1]["type"] == "run.finished"
        await ws.disconnect()
