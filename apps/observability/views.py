"""/metrics (staff, a metrics:read token or METRICS_TOKEN) and /health/live, /health/ready (open)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from apps.observability import health, metrics
from apps.tenants.authentication import authenticate_bearer, parse_bearer
from apps.tenants.scopes import METRICS_READ
from apps.tenants.selectors import TokenRejected


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    response = JsonResponse({"code": code, "message": message}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
    return response


def _metrics_refusal(request: HttpRequest) -> JsonResponse | None:
    """None when the caller may read metrics, else the 401/403 to send."""
    header = request.headers.get("Authorization", "")
    if header:
        try:
            raw = parse_bearer(header)
            if raw is not None and settings.METRICS_TOKEN and hmac.compare_digest(raw, settings.METRICS_TOKEN):
                return None
            token = authenticate_bearer(header)
        except TokenRejected as exc:
            return _refusal(401, exc.code, exc.message)
        if token is None:
            return _refusal(401, "unauthenticated", "Send “Authorization: Bearer <token>”.")
        if METRICS_READ not in token.scopes:
            return _refusal(403, "missing_scope", f"This token lacks the “{METRICS_READ}” scope.")
        return None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return _refusal(401, "unauthenticated", "Sign in as staff, or send a token with the metrics:read scope.")
    if not user.is_staff:
        return _refusal(403, "forbidden", "Metrics are for platform staff.")
    return None


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    if refusal := _metrics_refusal(request):
        return refusal
    return HttpResponse(metrics.render(), content_type=CONTENT_TYPE_LATEST)


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    ok, body = health.readiness()
    return JsonResponse(body, status=200 if ok else 503)
