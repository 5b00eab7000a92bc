"""What a test needs from the machine, and the tests that may stop the machine's services.

A missing tool or service skips the test with the reason; under CI=true it fails instead, because a
skipped test there would hide coverage the suite claims to have.

Tests marked `stops_services` stop and restart the machine's PostgreSQL or Redis. They run only when
BA_TEST_STOP_SERVICES=1 (.ci/run sets it); without it they are skipped with that name, under CI=true
too, since leaving the machine's services alone is the caller's explicit choice.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

STOP_SERVICES = "BA_TEST_STOP_SERVICES"


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def missing(reason: str) -> NoReturn:
    if under_ci():
        pytest.fail(f"{reason} (required under CI=true)", pytrace=False)
    pytest.skip(reason)


def stopping_services_allowed() -> bool:
    return os.environ.get(STOP_SERVICES, "") == "1"


def stopping_services_refused() -> str:
    return f"stops the machine's PostgreSQL or Redis: runs only with {STOP_SERVICES}=1 (.ci/run sets it)"
