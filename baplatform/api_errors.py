"""Errors as users see them: JSON `{code, message}` under /api/, the portal's templates elsewhere."""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler

from baplatform.errors import PlatformError, error_body

log = logging.getLogger(__name__)

# The database refused or lost the connection (not a bad query): a 503 the client may retry. No partial
# writes follow from it: writes run in transactions (services), which the failure rolls back.
DATABASE_DOWN = (OperationalError, InterfaceError)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Any = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"code": "not_found", "message": _("Not found.")}, status=404)
    return render(request, "portal/404.html", status=404)


def _database_unavailable_body() -> dict[str, Any]:
    return error_body("database_unavailable", _("The database is unavailable; nothing was changed. Try again shortly."))


def _database_unavailable() -> JsonResponse:
    return JsonResponse(_database_unavailable_body(), status=503, headers={"Retry-After": "5"})


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this while handling the exception, so a database failure raised outside a DRF view
    # (middleware, authentication) is still answered as such.
    if _is_api(request) and isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return _database_unavailable()
    if _is_api(request):
        return JsonResponse(
            {"code": "server_error", "message": _("Internal error; the request was not completed. Try again.")},
            status=500,
        )
    return render(request, "portal/500.html", status=500)


def _first_message(detail: Any) -> str:
    """A one-line summary of a DRF validation detail (dict/list/str)."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            inner = _first_message(value)
            return inner if field == "non_field_errors" else f"{field}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, PlatformError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
    if isinstance(exc, DATABASE_DOWN):
        log.error("database unavailable: %s", type(exc).__name__, exc_info=exc)
        return Response(_database_unavailable_body(), status=503, headers={"Retry-After": "5"})
    if isinstance(exc, SuspiciousOperation):  # too many form fields, a body over the size limit...
        log.warning("request refused: %s", type(exc).__name__)
        message = _("The request is too large or has too many fields; send a smaller body.")
        return Response(error_body("request_too_large", message), status=400)
    if isinstance(exc, Http404):
        exc = drf.NotFound(_("Not found."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, drf.APIException):
        return response
    if isinstance(exc, drf.ValidationError):
        body = error_body("invalid", _first_message(exc.detail), exc.detail)
    elif isinstance(exc, drf.ParseError):
        # The parser's own text is English and names its internals: say what to fix, in the caller's language.
        body = error_body("parse_error", _("The request body could not be read: send valid JSON (or a form)."))
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        body = error_body(code, str(exc.detail))
    response.data = body
    return response
