"""The tenant boundary as checkable rules, used by the meta-test that walks every model and API URL.

A model is tenant-scoped (subclasses TenantOwnedModel) or listed in UNSCOPED_MODELS with the reason.
An API URL resolves to a TenantAPIView subclass that declares a scope for every method it serves.
API, consumer and tool modules never call `.objects.get(` (use get_for_tenant_or_404).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from django.db import models
from django.urls import URLPattern, URLResolver

from apps.tenants.scoping import TenantOwnedModel

UNSCOPED_MODELS: dict[str, str] = {
    "tenants.Tenant": "the root of scoping",
    "auth.User": "a person may belong to several tenants through Membership",
    "auth.Group": "framework table, staff only",
    "auth.Permission": "framework table, staff only",
    "contenttypes.ContentType": "framework table",
    "sessions.Session": "framework table, keyed by the session cookie",
    "admin.LogEntry": "the Django admin's own log, staff only",
    "audit.DetectionPattern": "platform-wide verify rule, edited by staff",
    "audit.WhitelistPattern": "platform-wide verify rule, edited by staff",
    "audit.RequiredToolRule": "platform-wide verify rule, edited by staff",
}

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def model_violations(model_classes: Iterable[type[models.Model]]) -> list[str]:
    problems = []
    for model in model_classes:
        label = model._meta.label
        if model._meta.abstract or model._meta.proxy:
            continue
        if issubclass(model, TenantOwnedModel) or label in UNSCOPED_MODELS:
            continue
        problems.append(f"{label} is neither tenant-owned nor on the UNSCOPED_MODELS allowlist")
    return problems


def iter_url_views(patterns: Iterable[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from iter_url_views(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern.callback


def api_view_violations(patterns: Iterable[Any], api_prefix: str = "api/v1/") -> list[str]:
    from apps.tenants.api_base import TenantAPIView

    problems = []
    for route, callback in iter_url_views(patterns):
        if not route.startswith(api_prefix):
            continue
        view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if view_class is None or not issubclass(view_class, TenantAPIView):
            problems.append(f"/{route} is not served by a TenantAPIView")
            continue
        for method in HTTP_METHODS:
            if hasattr(view_class, method) and method.upper() not in view_class.scope_map:
                problems.append(f"/{route} serves {method.upper()} without a scope in scope_map")
    return problems


def raw_get_violations(paths: Iterable[Path]) -> list[str]:
    """`X.objects.get(...)` calls in the given modules (they must use get_for_tenant_or_404)."""
    problems = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "objects"
            ):
                problems.append(f"{path}:{node.lineno} calls .objects.get(); use get_for_tenant_or_404")
    return problems


def edge_modules(apps_dir: Path) -> list[Path]:
    """Modules at the edges, where tenant input arrives: API, views, consumers, agent tools."""
    names = ("views.py", "consumers.py", "tools.py")
    found = [
        p
        for p in apps_dir.rglob("*.py")
        if p.name in names or p.name.startswith("api") or p.parent.name in ("tools", "api")
    ]
    return sorted(found)
