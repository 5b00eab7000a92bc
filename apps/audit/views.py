"""Portal pages for tenant admins: the month's billing and quotas, the audit trail of runs, replays, and the
administrative changes (tokens, members, SQL sources, synonyms, verify rules)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apps.audit import selectors
from apps.audit.models import AuditEvent, ChangeAction
from apps.audit.replay import replay
from apps.tenants.context import TenantContext
from apps.tenants.portal import portal_view
from apps.tenants.scopes import AUDIT_READ, BILLING_READ
from baplatform.errors import InvalidInput, PlatformError

RUNS_PER_PAGE = 25
CHANGES_PER_PAGE = 50
RECENT_INTERCEPTIONS = 10
ARGUMENTS_SHOWN = 120


def quota_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Each monthly quota beside what the month used; a limit of None is unlimited."""
    totals, quotas = summary["totals"], summary["quotas"]
    used = {
        "runs_per_month": totals["runs"],
        "tokens_per_month": totals["input_tokens"] + totals["output_tokens"],
        "storage_bytes": summary["storage_bytes"],
    }
    labels = {"runs_per_month": _("Questions"), "tokens_per_month": _("LLM tokens"), "storage_bytes": _("Storage")}
    rows = []
    for key, label in labels.items():
        limit = quotas.get(key)
        percent = None if limit is None else (100 if limit <= 0 else min(100, round(100 * used[key] / limit)))
        rows.append(
            {"key": key, "label": label, "used": used[key], "limit": limit, "percent": percent, "bytes": "bytes" in key}
        )
    return rows


def breakdowns(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The by-day, by-actor and by-model tables, each row's grouping value under "key"."""
    tables = (
        ("by-day", "by_day", "day", _("By day"), _("Day")),
        ("by-actor", "by_actor", "actor", _("By user or token"), _("User or token")),
        ("by-model", "by_model", "model", _("By model"), _("Model")),
    )
    return [
        {"id": html_id, "title": title, "key_label": label, "rows": [{**r, "key": str(r[key])} for r in summary[name]]}
        for html_id, name, key, title, label in tables
    ]


@portal_view(scope=BILLING_READ)
def billing(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    try:
        summary = selectors.billing_summary(tenant=ctx.tenant, month=request.GET.get("month") or None)
    except InvalidInput as exc:
        messages.error(request, exc.message)
        summary = selectors.billing_summary(tenant=ctx.tenant)
    context = {
        "summary": summary,
        "totals": summary["totals"],
        "quotas": quota_rows(summary),
        "breakdowns": breakdowns(summary),
        "months": selectors.recent_months(selected=summary["month"]),
    }
    return render(request, "audit/billing.html", context)


@portal_view(scope=AUDIT_READ)
def audit_runs(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    page = Paginator(selectors.audit_runs(tenant=ctx.tenant), RUNS_PER_PAGE).get_page(request.GET.get("page"))
    runs = list(page.object_list)
    questions = selectors.run_questions(tenant=ctx.tenant, trace_ids=[r["trace_id"] for r in runs])
    for run in runs:
        run["question"] = questions.get(run["trace_id"], "")
    recent = list(selectors.interceptions(tenant=ctx.tenant)[:RECENT_INTERCEPTIONS])
    return render(request, "audit/runs.html", {"page": page, "runs": runs, "interceptions": recent})


@portal_view(scope=AUDIT_READ)
def admin_changes(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    """Who changed what and when, newest first; `?action=` keeps one kind of change."""
    action = request.GET.get("action", "")
    if action not in ChangeAction.values:
        action = ""
    rows = selectors.admin_changes(tenant=ctx.tenant, action=action or None)
    page = Paginator(rows, CHANGES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"page": page, "changes": page.object_list, "action": action, "actions": ChangeAction.choices}
    return render(request, "audit/changes.html", context)


def _arguments_summary(arguments: Any) -> str:
    text = json.dumps(arguments or {}, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return text if len(text) <= ARGUMENTS_SHOWN else text[: ARGUMENTS_SHOWN - 1] + "…"


def _step_row(event: AuditEvent) -> dict[str, Any]:
    return {
        "step": event.step,
        "tool": event.tool,
        "called_as": event.called_as,
        "arguments": _arguments_summary(event.arguments),
        "status": event.status,
        "error": event.error,
        "rows": event.rows,
        "latency_ms": event.latency_ms,
        "digest": event.result_digest[:12],
    }


@require_http_methods(["GET", "POST"])
@portal_view(scope=AUDIT_READ, write_scope=AUDIT_READ)
def audit_run(request: HttpRequest, ctx: TenantContext, trace_id: str) -> HttpResponse:
    """One run's steps; POST replays them (against the recorded versions, or `against=current`)."""
    events = list(selectors.audit_events(tenant=ctx.tenant, trace_id=trace_id))
    interception = selectors.interceptions(tenant=ctx.tenant).filter(trace_id=trace_id).first()
    if not events and interception is None:
        raise Http404  # another tenant's run looks exactly like one that does not exist
    report = None
    against_current = request.POST.get("against") == "current"
    if request.method == "POST" and events:
        try:
            report = replay(trace_id=trace_id, tenant=ctx.tenant, against_current=against_current)
        except PlatformError as exc:
            messages.error(request, exc.message)
    question = selectors.run_questions(tenant=ctx.tenant, trace_ids=[trace_id]).get(trace_id, "")
    context = {
        "trace_id": trace_id,
        "question": question,
        "steps": [_step_row(e) for e in events],
        "interception": interception,
        "report": report,
        "against_current": against_current,
        "actor": events[0].actor if events else (interception.actor if interception else ""),
        "started_at": events[0].created_at if events else (interception.created_at if interception else None),
    }
    return render(request, "audit/run.html", context)
