"""Staff views of the audit trail (with replays), the administrative changes and the usage ledger
(with platform billing). All are read-only here, across every tenant.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.audit import selectors
from apps.audit.models import AdminChange, AuditEvent, UsageRecord
from apps.audit.replay import ReplayReport, replay
from baplatform.errors import InvalidInput, PlatformError

log = logging.getLogger(__name__)

MAX_REPLAYS = 20  # runs replayed by one admin action: each re-executes every query of its run
TOTAL_KEYS = ("runs", "llm_calls", "queries", "input_tokens", "output_tokens", "cost_usd")


class ReadOnlyTenantAdmin(admin.ModelAdmin):
    """Every tenant's rows, viewable by staff, never edited here."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.model.objects.unscoped_for_admin().select_related("tenant")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def replay_message(report: ReplayReport) -> tuple[str, int]:
    """What one replay found, in a line, and the message level to show it with."""
    trace = report.trace_id[:12]
    if not report.differences:
        text = _("Run %(trace)s: no difference (%(steps)s step(s) identical).")
        return text % {"trace": trace, "steps": len(report.steps) - len(report.not_replayable)}, messages.SUCCESS
    details = "; ".join(f"{_('step')} {s.step} {s.tool}: {s.detail}" for s in report.differences)
    text = _("Run %(trace)s: %(count)s of %(steps)s step(s) differ — %(details)s")
    values = {"trace": trace, "count": len(report.differences), "steps": len(report.steps), "details": details}
    return text % values, messages.WARNING


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyTenantAdmin):
    list_display = (
        "created_at",
        "tenant",
        "trace_id",
        "step",
        "tool",
        "called_as",
        "status",
        "rows",
        "latency_ms",
        "actor",
    )
    list_filter = ("tenant", "tool", "status", "created_at")
    date_hierarchy = "created_at"
    search_fields = ("trace_id",)
    actions = ("replay_runs",)

    @admin.action(description=gettext_lazy("Replay these runs"), permissions=["view"])
    def replay_runs(self, request: HttpRequest, queryset: QuerySet[AuditEvent]) -> None:
        traces = list(queryset.order_by("trace_id").values_list("trace_id", flat=True).distinct()[: MAX_REPLAYS + 1])
        if len(traces) > MAX_REPLAYS:
            text = _("Only the first %(max)s runs were replayed; select fewer to replay the rest.")
            self.message_user(request, text % {"max": MAX_REPLAYS}, messages.WARNING)
        for trace in traces[:MAX_REPLAYS]:
            try:
                report = replay(trace_id=trace, tenant=None)
            except PlatformError as exc:
                self.message_user(request, f"{trace[:12]}: {exc.message}", messages.ERROR)
                continue
            except Exception:  # one broken run must not hide the others' reports
                log.exception("replay of %s failed", trace)
                failed = _("Run %(trace)s: the replay failed.") % {"trace": trace[:12]}
                self.message_user(request, failed, messages.ERROR)
                continue
            self.message_user(request, *replay_message(report))


def _platform_totals(lines: list[dict[str, Any]]) -> dict[str, Any]:
    totals: dict[str, Any] = dict.fromkeys(TOTAL_KEYS, 0)
    totals["cost_usd"] = Decimal(0)
    for line in lines:
        for key in TOTAL_KEYS:
            totals[key] += line[key] or 0
    return totals


@admin.register(AdminChange)
class AdminChangeAdmin(ReadOnlyTenantAdmin):
    """Administrative changes of every tenant, and the platform-wide ones (no tenant: verify rules)."""

    list_display = ("created_at", "tenant", "action", "actor", "via", "target", "changes")
    list_filter = ("action", "via", "tenant", "created_at")
    search_fields = ("actor", "target", "tenant__slug")


@admin.register(UsageRecord)
class UsageRecordAdmin(ReadOnlyTenantAdmin):
    list_display = ("created_at", "tenant", "kind", "model", "actor", "input_tokens", "output_tokens", "cost_usd")
    list_filter = ("tenant", "kind", "model", "created_at")
    date_hierarchy = "created_at"
    search_fields = ("trace_id", "actor")
    change_list_template = "admin/audit/usagerecord/change_list.html"

    def get_urls(self) -> list[URLPattern]:
        billing = path(
            "platform-billing/",
            self.admin_site.admin_view(self.platform_billing_view),
            name="audit_platform_billing",
        )
        return [billing, *super().get_urls()]

    def platform_billing_view(self, request: HttpRequest) -> HttpResponse:
        """Every tenant's usage for a month (?month=YYYY-MM), as a table or (?format=csv) a download."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        month = request.GET.get("month") or None
        try:
            start, _end = selectors.month_bounds(month)
        except InvalidInput as exc:
            self.message_user(request, exc.message, messages.ERROR)
            start, _end = selectors.month_bounds(None)
        label = start.strftime("%Y-%m")
        if request.GET.get("format") == "csv":
            response = HttpResponse(selectors.platform_billing_csv(month=label), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="platform-usage-{label}.csv"'
            response["Cache-Control"] = "private, no-store"
            return response
        lines = selectors.platform_billing(month=label)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Platform billing"),
            "opts": self.model._meta,
            "month": label,
            "months": selectors.recent_months(selected=label),
            "lines": lines,
            "totals": _platform_totals(lines),
        }
        return TemplateResponse(request, "admin/audit/platform_billing.html", context)
