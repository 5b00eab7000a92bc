"""How often a tenant may make the platform connect to a database it names (register, change, test again).

Every connection test reaches out to a host chosen by the tenant, so tests are counted per tenant and
minute in the cache (Redis when REDIS_URL is set). Without a reachable cache the tests are let through,
like the API's own rate limits.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from apps.datasets.errors import TooManyConnectionTests
from apps.tenants.models import Tenant

log = logging.getLogger(__name__)
WINDOW_SECONDS = 60


def connection_test_take(*, tenant: Tenant) -> None:
    """Count one connection test for the tenant; TooManyConnectionTests (429) past the limit."""
    limit = int(settings.SOURCE_CONNECTION_TESTS_PER_MINUTE)
    if limit <= 0:
        return
    key = f"srctests:{tenant.pk}:{int(time.time() // WINDOW_SECONDS)}"
    try:
        cache.add(key, 0, timeout=WINDOW_SECONDS * 2)
        count = cache.incr(key)
    except Exception as exc:
        log.warning("connection tests not counted: the cache is unavailable", extra={"error": type(exc).__name__})
        return
    if count > limit:
        raise TooManyConnectionTests(
            _("too many connection tests for this workspace (at most %(limit)s a minute); wait a minute and try again")
            % {"limit": limit}
        )
