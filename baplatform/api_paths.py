"""API paths without their trailing slash: `POST /api/v1/conversations` is served as `/api/v1/conversations/`,
never answered with a redirect (a client following a 301 turns a POST into a GET and loses the body)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt  # the API views themselves enforce CSRF for session users (DRF's SessionAuthentication)
def without_slash(request: HttpRequest, path: str) -> HttpResponse:
    slashed = f"{request.path_info}/"
    try:
        match = resolve(slashed)
    except Resolver404:
        raise Http404(path) from None
    if match.func is without_slash:
        raise Http404(path)
    request.path_info = slashed
    response: Any = match.func(request, *match.args, **match.kwargs)
    return response
