"""Errors as users see them: JSON `{code, message}` under /api/, the portal's templates elsewhere."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler

from apps.tenants.errors import PlatformError, error_body


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Any = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"code": "not_found", "message": _("Not found.")}, status=404)
    return render(request, "portal/404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
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
    if isinstance(exc, Http404):
        exc = drf.NotFound(_("Not found."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, drf.APIException):
        return response
    if isinstance(exc, drf.ValidationError):
        body = error_body("invalid", _first_message(exc.detail), exc.detail)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        body = error_body(code, str(exc.detail))
    response.data = body
    return response
