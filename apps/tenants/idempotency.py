"""`Idempotency-Key` for API POSTs that create something (runs, datasets): a client that retries after a
timeout gets the first response again instead of a second run or a second dataset.

The same key with the same body within IDEMPOTENCY_SECONDS returns the stored first response (marked with
`Idempotent-Replayed: true`); the same key with another body is a 422; the same key while the first request
is still being served is a 409. Keys belong to the caller (tenant and user or token). Only successful
responses are kept: a request that failed may be retried with the same key. Stored in the cache (Redis when
REDIS_URL is set, so every process sees them).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from baplatform.errors import Conflict, PlatformError

IDEMPOTENCY_SECONDS = 24 * 3600
HEADER = "Idempotency-Key"
MAX_KEY_CHARS = 255


KEY_PARAMETER = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Optional, up to 255 characters (a UUID). Retrying with the same key and body within 24 hours returns the "
        "first response (header Idempotent-Replayed: true) instead of doing the work twice; the same key with "
        "another body is 422 idempotency_key_reused; while the first is still being served, 409."
    ),
)


class IdempotencyKeyReused(PlatformError):
    status = 422
    code = "idempotency_key_reused"


def _fingerprint(request: Request) -> str:
    """What makes two requests the same: method, path, and the body (form fields and files by content)."""
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    if request.FILES:
        fields = {k: request.data.getlist(k) for k in request.data if k not in request.FILES}
        digest.update(json.dumps(fields, sort_keys=True, default=str).encode())
        for name in sorted(request.FILES):
            upload = request.FILES[name]
            digest.update(f"\n{name}:{upload.name}:{upload.size}:".encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    else:
        digest.update(json.dumps(request.data, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def _key(request: Request, view: Any) -> str | None:
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    key = raw.strip()
    if not key or len(key) > MAX_KEY_CHARS or not key.isprintable():
        raise PlatformError(
            _("The Idempotency-Key header must be 1 to %(max)s printable characters (a UUID is a good choice).")
            % {"max": MAX_KEY_CHARS},
            code="invalid_idempotency_key",
        )
    ctx = view.tenant_ctx
    who = hashlib.sha256(f"{ctx.tenant.pk}\n{ctx.actor_label}\n{key}".encode()).hexdigest()
    return f"idempotency:{who}"


def _replay(stored: dict[str, Any], fingerprint: str) -> Response:
    if stored["fingerprint"] != fingerprint:
        raise IdempotencyKeyReused(
            _(
                "This Idempotency-Key was used in the last 24 hours for a different request; "
                "use a new key for a new request."
            )
        )
    if stored.get("pending"):
        raise Conflict(
            _("A request with this Idempotency-Key is still being served; retry when it has finished."),
            code="idempotency_key_in_progress",
        )
    return Response(stored["body"], status=stored["status"], headers={"Idempotent-Replayed": "true"})


def idempotent(post: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a TenantAPIView's `post` (authentication and scope are checked before it runs)."""

    @wraps(post)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = _key(request, view)
        if key is None:
            return post(view, request, *args, **kwargs)
        fingerprint = _fingerprint(request)
        if not cache.add(key, {"fingerprint": fingerprint, "pending": True}, IDEMPOTENCY_SECONDS):
            stored = cache.get(key)
            if stored is not None:
                return _replay(stored, fingerprint)
        try:
            response = post(view, request, *args, **kwargs)
        except BaseException:
            cache.delete(key)
            raise
        if 200 <= response.status_code < 300:
            body = {"fingerprint": fingerprint, "status": response.status_code, "body": response.data}
            cache.set(key, body, IDEMPOTENCY_SECONDS)
        else:
            cache.delete(key)
        return response

    documented = extend_schema(parameters=[KEY_PARAMETER])(wrapper)
    return documented
