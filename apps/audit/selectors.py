"""Reads for admins: a tenant's audit trail, interceptions and billing (sums of the usage ledger)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from apps.audit.models import AdminChange, AuditEvent, InterceptionLog, UsageKind, UsageRecord
from apps.audit.questions import questions_from_registered
from apps.audit.quotas import month_start, quotas_of, storage_used
from apps.tenants.models import Tenant
from apps.tenants.zones import current_zone_label
from baplatform.errors import InvalidInput


def audit_events(*, tenant: Tenant, trace_id: str | None = None) -> QuerySet[AuditEvent]:
    rows = AuditEvent.objects.for_tenant(tenant)
    return rows.filter(trace_id=trace_id) if trace_id else rows.order_by("-created_at")


def admin_changes(*, tenant: Tenant, action: str | None = None) -> QuerySet[AdminChange]:
    """A tenant's administrative changes, newest first; `action` keeps one kind (token.create) or a family (token)."""
    rows = AdminChange.objects.for_tenant(tenant).select_related("actor_user", "actor_token")
    if action:
        rows = rows.filter(action=action) if "." in action else rows.filter(action__startswith=f"{action}.")
    return rows.order_by("-created_at", "-id")


def interceptions(*, tenant: Tenant) -> QuerySet[InterceptionLog]:
    return InterceptionLog.objects.for_tenant(tenant).order_by("-created_at")


def audit_runs(*, tenant: Tenant) -> QuerySet[Any]:
    """One row per run (trace id) of the tenant's audit trail, newest first: steps, failures, rows, latency."""
    return (
        AuditEvent.objects.for_tenant(tenant)
        .values("trace_id")
        .annotate(
            started_at=Min("created_at"),
            steps=Count("id"),
            failed=Count("id", filter=~Q(status="ok")),
            rows=Sum("rows"),
            latency_ms=Sum("latency_ms"),
            actor=Max("actor"),
        )
        .order_by("-started_at", "trace_id")
    )


def run_questions(*, tenant: Tenant, trace_ids: list[str]) -> dict[str, str]:
    """The question each run answered, where it is known (a conversation's message, or the interception)."""
    found = dict(
        InterceptionLog.objects.for_tenant(tenant).filter(trace_id__in=trace_ids).values_list("trace_id", "question")
    )
    found.update(questions_from_registered(tenant=tenant, trace_ids=trace_ids))
    return found


def month_bounds(month: str | None) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of a calendar month given as YYYY-MM (default: this month), in the current time zone
    (the tenant's, in its pages and API requests; the platform's in the staff admin)."""
    if month:
        try:
            first = dt.datetime.strptime(month, "%Y-%m")  # noqa: DTZ007 - made aware just below
        except ValueError:
            raise InvalidInput("month must look like 2025-03", code="invalid_month") from None
        start = timezone.make_aware(first)
    else:
        start = month_start()
    naive = timezone.localtime(start).replace(tzinfo=None)
    return start, timezone.make_aware((naive + dt.timedelta(days=32)).replace(day=1))


def recent_months(*, count: int = 12, selected: str | None = None) -> list[str]:
    """The last `count` months as YYYY-MM, newest first (plus `selected` if older): a month picker's choices."""
    months: list[str] = []
    cursor = timezone.localtime(month_start()).replace(tzinfo=None)
    for _i in range(count):
        months.append(cursor.strftime("%Y-%m"))
        cursor = (cursor - dt.timedelta(days=1)).replace(day=1)
    if selected and selected not in months:
        months.append(selected)
        months.sort(reverse=True)
    return months


def _sums(rows: QuerySet[UsageRecord]) -> dict[str, Any]:
    totals = rows.aggregate(
        runs=Count("id", filter=Q(kind=UsageKind.RUN)),
        llm_calls=Count("id", filter=Q(kind=UsageKind.LLM_CALL)),
        queries=Count("id", filter=Q(kind=UsageKind.QUERY)),
        input_tokens=Sum("input_tokens"),
        output_tokens=Sum("output_tokens"),
        cost_usd=Sum("cost_usd"),
        rows_scanned=Sum("rows"),
    )
    return {k: (v if v is not None else (Decimal(0) if k == "cost_usd" else 0)) for k, v in totals.items()}


def _grouped(rows: QuerySet[UsageRecord], key: str) -> list[dict[str, Any]]:
    grouped = rows.values(key).annotate(
        runs=Count("id", filter=Q(kind=UsageKind.RUN)),
        llm_calls=Count("id", filter=Q(kind=UsageKind.LLM_CALL)),
        queries=Count("id", filter=Q(kind=UsageKind.QUERY)),
        input_tokens=Sum("input_tokens"),
        output_tokens=Sum("output_tokens"),
        cost_usd=Sum("cost_usd"),
    )
    return [{**g, key: g[key] if g[key] is not None else ""} for g in grouped.order_by(key)]


def billing_summary(*, tenant: Tenant, month: str | None = None) -> dict[str, Any]:
    start, end = month_bounds(month)
    rows = UsageRecord.objects.for_tenant(tenant).filter(created_at__gte=start, created_at__lt=end)
    quotas = quotas_of(tenant)
    return {
        "tenant": tenant.slug,
        "plan": tenant.plan,
        "month": start.strftime("%Y-%m"),
        "totals": _sums(rows),
        "storage_bytes": storage_used(tenant),
        "quotas": quotas,
        "by_day": _grouped(rows.annotate(day=TruncDate("created_at")), "day"),
        "by_actor": _grouped(rows, "actor"),
        "by_model": _grouped(rows.filter(kind__in=[UsageKind.LLM_CALL, UsageKind.RUN]), "model"),
    }


def billing_csv(*, tenant: Tenant, month: str | None = None) -> bytes:
    """Every usage record of the month, one line each (UTF-8 with BOM, for Excel)."""
    start, end = month_bounds(month)
    rows = (
        UsageRecord.objects.for_tenant(tenant).filter(created_at__gte=start, created_at__lt=end).order_by("created_at")
    )
    out = io.StringIO()
    writer = csv.writer(out)
    # The times are in the tenant's zone (activated for the request); the header names it.
    writer.writerow(
        [
            f"time ({current_zone_label()})",
            "kind",
            "actor",
            "model",
            "input_tokens",
            "output_tokens",
            "cost_usd",
            "rows",
            "trace_id",
        ]
    )
    for r in rows:
        writer.writerow(
            [
                timezone.localtime(r.created_at).isoformat(timespec="seconds"),
                r.kind,
                r.actor,
                r.model,
                r.input_tokens,
                r.output_tokens,
                f"{r.cost_usd:.8f}",
                r.rows,
                r.trace_id,
            ]
        )
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def platform_billing(*, month: str | None = None) -> list[dict[str, Any]]:
    """Staff only: one line per tenant for the month."""
    start, end = month_bounds(month)
    rows = UsageRecord.objects.unscoped_for_admin().filter(created_at__gte=start, created_at__lt=end)
    return _grouped(rows, "tenant__slug")


PLATFORM_COLUMNS = ("tenant__slug", "runs", "llm_calls", "queries", "input_tokens", "output_tokens", "cost_usd")


def platform_billing_csv(*, month: str | None = None) -> bytes:
    """Staff only: the platform billing table as CSV (UTF-8 with BOM, for Excel)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["tenant", *PLATFORM_COLUMNS[1:]])
    for line in platform_billing(month=month):
        writer.writerow([f"{line[c]:.8f}" if c == "cost_usd" else line[c] for c in PLATFORM_COLUMNS])
    return ("\ufeff" + out.getvalue()).encode("utf-8")
