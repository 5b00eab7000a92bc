"""Rate limits per API token (and per user for session requests)."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from apps.tenants.models import ApiToken

log = logging.getLogger(__name__)


class PerTokenRateThrottle(SimpleRateThrottle):
    scope = "token"

    def get_rate(self) -> str | None:
        # Read at request time (not import time) so the rate follows settings changes.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        # The counts live in the cache (Redis when REDIS_URL is set): with it unreachable, requests are
        # let through unthrottled rather than failed, so the API keeps answering while Redis is down.
        try:
            return super().allow_request(request, view)
        except Exception as exc:
            log.warning("rate limit not checked: the cache is unavailable", extra={"error": type(exc).__name__})
            return True

    def get_cache_key(self, request: Request, view: Any) -> str:
        if isinstance(request.auth, ApiToken):
            ident = f"t{request.auth.pk}"
        elif request.user is not None and request.user.is_authenticated:
            ident = f"u{request.user.pk}"
        else:
            ident = f"ip{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
