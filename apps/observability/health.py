"""Readiness checks: the database, the channel layer and tenant storage, each timed, none raising."""

from __future__ import annotations

import asyncio
import logging
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

CHANNEL_TIMEOUT_SECONDS = 2.0


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 did not return 1")


async def _channel_round_trip() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel("health.")
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError("the channel layer returned another message")


async def _channel_round_trip_with_timeout() -> None:
    await asyncio.wait_for(_channel_round_trip(), CHANNEL_TIMEOUT_SECONDS)


def check_channel_layer() -> None:
    async_to_sync(_channel_round_trip_with_timeout)()


def check_storage() -> None:
    root = Path(settings.TENANT_DATA_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=root, prefix=".health-") as probe:
        probe.write(b"ok")
        probe.flush()


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "storage": check_storage,
}


def readiness() -> tuple[bool, dict[str, Any]]:
    """(all ok, body): each check's status and latency; a failing one names the error's class only."""
    results: dict[str, dict[str, Any]] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        result: dict[str, Any] = {"status": "ok"}
        try:
            check()
        except Exception as exc:  # a check reports its failure, it never breaks the probe
            log.warning("readiness check failed", extra={"component": name, "error": type(exc).__name__})
            result = {"status": "fail", "error": type(exc).__name__}
        result["latency_ms"] = round((time.perf_counter() - started) * 1000, 3)
        results[name] = result
    failing = [name for name, result in results.items() if result["status"] != "ok"]
    body = {"status": "fail" if failing else "ok", "failing": failing, "checks": results}
    return not failing, body
