"""Waiting for something to happen in another thread or process: a condition polled until a deadline.

A test that must wait checks the state it waits for (a run finished, a server answering, a service
stopped) instead of sleeping for a time it hopes is long enough.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(check: Callable[[], T], *, timeout: float, what: str, interval: float = 0.05) -> T:
    """Call `check` until it returns something truthy, and return that; AssertionError naming `what`
    (what should have happened) once `timeout` seconds have passed without it."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(interval)
