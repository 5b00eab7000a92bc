"""The tenant boundary as checkable rules, used by the meta-test that walks every model and API URL.

A model is tenant-scoped (subclasses TenantOwnedModel) or listed in UNSCOPED_MODELS with the reason.
An API URL resolves to a TenantAPIView subclass that declares a scope for every method it serves.
API, consumer and tool modules never call `.objects.get(` (use get_for_tenant_or_404).
Outside selectors, services, admin, migrations and management commands, a tenant-owned model's manager is used
only through `.objects.for_tenant(` (or `.objects.create(` with the tenant given): no other `.objects.` use, no
manager held in a variable, no `.unscoped_for_admin()` however it is reached, no `_default_manager` or
`_base_manager`, except in the modules named in UNSCOPED_MANAGER_MODULES. At run time the manager fails closed
as well (apps/tenants/scoping.py): a query never scoped raises UnscopedQuery.
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


# API routes served by a function that only hands the request to another API route's TenantAPIView, and why.
API_DISPATCHERS: dict[str, str] = {
    "baplatform.api_paths.without_slash": "serves a path without its trailing slash by the view of the path with it",
}


def api_view_violations(patterns: Iterable[Any], api_prefix: str = "api/v1/") -> list[str]:
    from apps.tenants.api_base import TenantAPIView

    problems = []
    for route, callback in iter_url_views(patterns):
        if not route.startswith(api_prefix):
            continue
        if f"{callback.__module__}.{callback.__name__}" in API_DISPATCHERS:
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


# Modules that may use a tenant-owned model's manager without for_tenant(), and why. Everything else outside
# selectors, services, admin, migrations and management commands goes through the scoped manager.
UNSCOPED_MANAGER_MODULES: dict[str, str] = {
    "conversations/recovery.py": "fails stopped runs of every tenant (start-up and the sweeper)",
    "datasets/ingest/recovery.py": "fails stopped ingests of every tenant (start-up and the sweeper)",
    "audit/replay.py": "staff replay any tenant's run by trace id (admin action, manage.py replay)",
    "observability/metrics.py": "the /metrics collector counts platform-wide, with no tenant label",
}


def _may_use_managers(path: Path, apps_dir: Path) -> bool:
    relative = path.relative_to(apps_dir)
    name, parts = path.name, relative.parts
    return (
        name.startswith(("selectors", "services", "admin"))
        or name.endswith(("_selectors.py", "_services.py"))
        or "migrations" in parts
        or ("management" in parts and "commands" in parts)
        or relative.as_posix() in UNSCOPED_MANAGER_MODULES
    )


def manager_checked_modules(apps_dir: Path) -> list[Path]:
    """Modules whose use of tenant-owned managers must be scoped (see the module docstring)."""
    return sorted(p for p in apps_dir.rglob("*.py") if not _may_use_managers(p, apps_dir))


def _creates_with_tenant(node: ast.Call) -> bool:
    return any(k.arg in ("tenant", "tenant_id") for k in node.keywords)


UNSCOPED_ATTRIBUTES = ("unscoped_for_admin", "_default_manager", "_base_manager")


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def unscoped_manager_violations(paths: Iterable[Path], tenant_models: Iterable[str]) -> list[str]:
    """Every use of a tenant-owned model's manager (by class name) other than `Model.objects.for_tenant(` and
    `Model.objects.create(tenant=...)` (scoped by construction) in the given modules, and every way around the
    scoped manager whatever the receiver: `.unscoped_for_admin()`, `_default_manager`, `_base_manager`."""
    names = set(tenant_models)
    problems = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        parents = _parents(tree)
        scoped_creates = {
            id(node.func)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _creates_with_tenant(node)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            if node.attr == "objects" and isinstance(node.value, ast.Name) and node.value.id in names:
                use = parents.get(id(node))
                if not isinstance(use, ast.Attribute):
                    problems.append(f"{path}:{node.lineno} holds {node.value.id}.objects without for_tenant()")
                elif use.attr != "for_tenant" and not (use.attr == "create" and id(use) in scoped_creates):
                    problems.append(
                        f"{path}:{node.lineno} uses {node.value.id}.objects.{use.attr} without for_tenant()"
                    )
            elif node.attr in UNSCOPED_ATTRIBUTES and not (
                node.attr == "unscoped_for_admin"
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "objects"
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id in names  # already reported above, by model name
            ):
                problems.append(f"{path}:{node.lineno} reaches around the scoped manager with .{node.attr}")
    return sorted(problems)
