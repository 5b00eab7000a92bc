"""Per HTTP request: a trace id (the caller's X-Request-ID when safe) in the log context and the response."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from apps.observability import context

log = logging.getLogger("apps.observability.http")

TRACE_HEADERS = ("HTTP_X_REQUEST_ID", "HTTP_X_TRACE_ID")
RESPONSE_HEADER = "X-Request-ID"
_QUIET_PATHS = ("/health/", "/metrics", "/static/")  # probes and scrapes, every few seconds


class TraceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = next((request.META[h] for h in TRACE_HEADERS if request.META.get(h)), None)
        trace_id = context.safe_trace_id(incoming)
        started = time.perf_counter()
        with context.bind(trace_id=trace_id):
            response = self.get_response(request)
            response[RESPONSE_HEADER] = trace_id
            if not request.path.startswith(_QUIET_PATHS):
                log.info(
                    "request finished",
                    extra={
                        "method": request.method,
                        "path": request.path,  # the query string may carry values; it is left out
                        "status": response.status_code,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                    },
                )
        return response
