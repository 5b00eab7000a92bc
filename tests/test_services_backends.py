"""The same code runs on the embedded defaults and on real services (PostgreSQL, Redis) when configured."""

from __future__ import annotations

import os

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection


def test_database_backend_matches_configuration(db):
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    if url and not url.startswith(("postgres", "sqlite")):
        pytest.skip(f"unrecognised DATABASE_URL scheme {url.split(':')[0]}")
    assert connection.vendor == expected


async def test_channel_layer_delivers_group_messages():
    layer = get_channel_layer()
    if os.environ.get("REDIS_URL"):
        assert type(layer).__module__.startswith("channels_redis")
    channel = await layer.new_channel()
    await layer.group_add("run-test", channel)
    await layer.group_send("run-test", {"type": "run.event", "n": 1})
    assert await layer.receive(channel) == {"type": "run.event", "n": 1}
    await layer.group_discard("run-test", channel)


def test_cache_backend_matches_configuration():
    backend = settings.CACHES["default"]["BACKEND"]
    assert ("redis" in backend) == bool(os.environ.get("REDIS_URL"))
    cache.set("probe", {"x": 1}, 5)
    assert cache.get("probe") == {"x": 1}
