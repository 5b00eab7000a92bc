"""Portal pages for SQL sources: list, register, see, test, edit, choose the exposed tables, delete.

Every write goes through sources/services.py, as the API's do: a connection is tested before anything is
saved, and a new host, port, database or user name needs the password again.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from apps.audit.changes import VIA_PORTAL, Actor
from apps.datasets.models import SourceKind, SqlSource
from apps.datasets.sources import selectors, services
from apps.tenants.context import TenantContext
from apps.tenants.portal import portal_view
from apps.tenants.scopes import CONVERSATIONS_WRITE, DATASETS_READ, SOURCES_MANAGE
from baplatform.errors import PlatformError


class SourceForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    kind = forms.ChoiceField(label=gettext_lazy("Database engine"), choices=SourceKind.choices)
    host = forms.CharField(label=gettext_lazy("Host"), max_length=255, required=False)
    port = forms.IntegerField(
        label=gettext_lazy("Port (empty: the engine's default)"), min_value=1, max_value=65535, required=False
    )
    database = forms.CharField(
        label=gettext_lazy("Database (for SQLite: the file name in your folder)"), max_length=255
    )
    schema = forms.CharField(label=gettext_lazy("Schema (PostgreSQL; empty: public)"), max_length=255, required=False)
    username = forms.CharField(label=gettext_lazy("User name"), max_length=255, required=False)
    password = forms.CharField(
        label=gettext_lazy("Password"), max_length=255, required=False, widget=forms.PasswordInput(render_value=False)
    )


class SourceEditForm(SourceForm):
    """The kind never changes; an empty password keeps the stored one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["kind"]
        self.fields["password"].label = _("Password (empty: keep the stored one; needed when the destination changes)")


def _actor(ctx: TenantContext) -> Actor:
    return Actor.of(ctx, via=VIA_PORTAL)


@require_http_methods(["GET"])
@portal_view(scope=DATASETS_READ)
def source_list(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    context = {"sources": selectors.source_list(tenant=ctx.tenant), "can_manage": SOURCES_MANAGE in ctx.scopes}
    return render(request, "datasets/sources/list.html", context)


@require_http_methods(["GET", "POST"])
@portal_view(scope=SOURCES_MANAGE, write_scope=SOURCES_MANAGE)
def source_create(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    form = SourceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        fields = {k: v for k, v in form.cleaned_data.items() if v not in (None, "")}
        try:
            source = services.source_create(tenant=ctx.tenant, created_by=ctx.user, actor=_actor(ctx), **fields)
        except PlatformError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Source %(name)s registered: the connection works.") % {"name": source.name})
            return redirect("source_tables", source_id=source.pk)
    return render(request, "datasets/sources/form.html", {"form": form, "source": None})


@require_http_methods(["GET"])
@portal_view(scope=DATASETS_READ)
def source_detail(request: HttpRequest, ctx: TenantContext, source_id: int) -> HttpResponse:
    source = selectors.source_get(tenant=ctx.tenant, source_id=source_id)
    context = {
        "source": source,
        "can_manage": SOURCES_MANAGE in ctx.scopes,
        "can_ask": CONVERSATIONS_WRITE in ctx.scopes,
    }
    return render(request, "datasets/sources/detail.html", context)


@require_POST
@portal_view(scope=SOURCES_MANAGE, write_scope=SOURCES_MANAGE)
def source_test(request: HttpRequest, ctx: TenantContext, source_id: int) -> HttpResponse:
    source = selectors.source_get(tenant=ctx.tenant, source_id=source_id)
    try:
        report = services.source_test(source=source)
    except PlatformError as exc:
        messages.error(request, _("The connection test failed: %(reason)s") % {"reason": exc.message})
    else:
        messages.success(
            request,
            _("The connection works (%(server)s, %(count)s tables).")
            % {"server": report.server, "count": len(report.tables)},
        )
    return redirect("source_detail", source_id=source.pk)


def _initial(source: SqlSource) -> dict[str, Any]:
    fields = ("name", "host", "port", "database", "schema", "username")
    return {f: getattr(source, f) for f in fields}


@require_http_methods(["GET", "POST"])
@portal_view(scope=SOURCES_MANAGE, write_scope=SOURCES_MANAGE)
def source_edit(request: HttpRequest, ctx: TenantContext, source_id: int) -> HttpResponse:
    source = selectors.source_get(tenant=ctx.tenant, source_id=source_id)
    form = SourceEditForm(request.POST or None, initial=_initial(source))
    if request.method == "POST" and form.is_valid():
        values = dict(form.cleaned_data)
        password = values.pop("password") or None  # empty: keep the stored password
        try:
            services.source_update(source=source, password=password, actor=_actor(ctx), **values)
        except PlatformError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Source %(name)s saved.") % {"name": source.name})
            return redirect("source_detail", source_id=source.pk)
    return render(request, "datasets/sources/form.html", {"form": form, "source": source})


@require_http_methods(["GET", "POST"])
@portal_view(scope=SOURCES_MANAGE, write_scope=SOURCES_MANAGE)
def source_tables(request: HttpRequest, ctx: TenantContext, source_id: int) -> HttpResponse:
    """The tables the database has (read live), ticked when exposed; 'all' also exposes tables added later."""
    source = selectors.source_get(tenant=ctx.tenant, source_id=source_id)
    if request.method == "POST":
        chosen = [] if request.POST.get("expose") == "all" else request.POST.getlist("table")
        if request.POST.get("expose") != "all" and not chosen:
            messages.error(request, _("Tick at least one table, or choose all tables."))
            return redirect("source_tables", source_id=source.pk)
        try:
            services.source_update(source=source, tables=chosen, actor=_actor(ctx))
        except PlatformError as exc:
            messages.error(request, exc.message)
            return redirect("source_tables", source_id=source.pk)
        messages.success(request, _("Exposed tables saved."))
        return redirect("source_detail", source_id=source.pk)
    try:
        available = services.source_test(source=source).tables
    except PlatformError as exc:
        messages.error(request, _("The tables cannot be read: %(reason)s") % {"reason": exc.message})
        return redirect("source_detail", source_id=source.pk)
    context = {"source": source, "available": available, "exposed": set(source.tables), "all": not source.tables}
    return render(request, "datasets/sources/tables.html", context)


@require_http_methods(["GET", "POST"])
@portal_view(scope=SOURCES_MANAGE, write_scope=SOURCES_MANAGE)
def source_delete(request: HttpRequest, ctx: TenantContext, source_id: int) -> HttpResponse:
    source = selectors.source_get(tenant=ctx.tenant, source_id=source_id)
    if request.method == "GET":
        context = {
            "title": _("Delete a SQL source"),
            "question": _("Delete the source %(name)s? Its conversations stay, but can no longer ask about it.")
            % {"name": source.name},
            "warning": _("Your database itself is not touched. This cannot be undone."),
            "confirm_label": _("Delete"),
            "cancel_url": reverse("source_detail", args=[source.pk]),
        }
        return render(request, "portal/confirm.html", context)
    services.source_delete(source=source, actor=_actor(ctx))
    messages.success(request, _("Source %(name)s deleted.") % {"name": source.name})
    return redirect("sources")
