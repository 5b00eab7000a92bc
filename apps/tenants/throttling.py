"""Rate limits per API token (and per user for session requests), and on questions asked (REST and WebSocket)."""

from __future__ import annotations

import logging
import math
from typing import Any

from django.utils.translation import ngettext
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from apps.tenants.context import TenantContext
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


class AskRateThrottle(PerTokenRateThrottle):
    """Questions asked, per user or token (scope "ask") and per tenant (scope "ask_tenant"): each question
    starts a run, so the REST ask and the WebSocket ask count against the same limits."""

    scope = "ask"

    def __init__(self, ctx: TenantContext | None = None) -> None:
        super().__init__()
        self.ctx = ctx

    def allow_request(self, request: Request, view: Any) -> bool:
        if request is not None and request.method != "POST":
            return True
        return super().allow_request(request, view)

    def ident(self, request: Request | None) -> str:
        ctx = self.ctx if self.ctx is not None else request.tenant_ctx  # type: ignore[union-attr]
        return f"t{ctx.token.pk}" if ctx.token is not None else f"u{getattr(ctx.user, 'pk', '?')}"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident(request)}


class TenantAskRateThrottle(AskRateThrottle):
    scope = "ask_tenant"

    def ident(self, request: Request | None) -> str:
        ctx = self.ctx if self.ctx is not None else request.tenant_ctx  # type: ignore[union-attr]
        return f"tenant{ctx.tenant.pk}"


ASK_THROTTLES = (AskRateThrottle, TenantAskRateThrottle)


def ask_wait_seconds(ctx: TenantContext) -> int | None:
    """None when `ctx` may ask now (the ask is counted); else the seconds until it may.
    For askers without a request (the WebSocket consumer); the REST ask uses the same classes as throttles."""
    waits = []
    for throttle in (cls(ctx) for cls in ASK_THROTTLES):
        if not throttle.allow_request(None, None):
            waits.append(throttle.wait() or 1)
    return math.ceil(max(waits)) if waits else None


def ask_refusal(wait: int) -> str:
    """What an asker over the limit reads, in their language."""
    return ngettext(
        "Too many questions in a short time: wait %(seconds)d second before asking again.",
        "Too many questions in a short time: wait %(seconds)d seconds before asking again.",
        wait,
    ) % {"seconds": wait}


class AskThrottled(exceptions.Throttled):
    default_code = "rate_limited"

    def __init__(self, wait: float | None) -> None:
        seconds = max(1, math.ceil(wait or 1))
        super().__init__(wait=seconds, detail=ask_refusal(seconds), code="rate_limited")
