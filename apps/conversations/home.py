"""The portal's home page: recent conversations and datasets, questions to start with, and the plan's use.

It sits with conversations (the top part) because it reads datasets, conversations and audit's quotas.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.audit import quotas
from apps.conversations import selectors
from apps.conversations.suggestions import suggested_questions
from apps.conversations.views import distinct_titles
from apps.datasets import selectors as dataset_selectors
from apps.datasets.models import VersionStatus
from apps.tenants.context import TenantContext
from apps.tenants.portal import portal_view
from apps.tenants.scopes import BILLING_READ, CONVERSATIONS_READ, CONVERSATIONS_WRITE, DATASETS_READ

RECENT = 5


def _recent_datasets(ctx: TenantContext) -> list[dict[str, Any]]:
    datasets = dataset_selectors.dataset_list(tenant=ctx.tenant).order_by("-updated_at", "-id")[:RECENT]
    rows = []
    for dataset in datasets:
        version = dataset.current_version
        ready = version is not None and version.status == VersionStatus.READY and version.profile
        questions = suggested_questions(dataset_selectors.schema_of(version)) if ready and version else []
        rows.append({"dataset": dataset, "ready": ready, "questions": questions})
    return rows


def _usage(ctx: TenantContext) -> list[dict[str, Any]]:
    """Each quota with its use this month (storage: now), as numbers and a percentage for the meter."""
    limits, used = quotas.quotas_of(ctx.tenant), quotas.month_usage(ctx.tenant)
    rows = [
        ("runs", used["runs"], limits.get("runs_per_month")),
        ("tokens", used["tokens"], limits.get("tokens_per_month")),
        ("storage", quotas.storage_used(ctx.tenant), limits.get("storage_bytes")),
    ]
    return [
        {
            "kind": kind,
            "used": value,
            "limit": limit,
            "percent": min(100, round(100 * value / limit)) if limit else None,
        }
        for kind, value, limit in rows
    ]


@require_GET
@portal_view()
def home(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    context: dict[str, Any] = {"ctx": ctx, "can_ask": CONVERSATIONS_WRITE in ctx.scopes}
    if CONVERSATIONS_READ in ctx.scopes:
        recent = list(selectors.conversation_list(tenant=ctx.tenant)[:RECENT])
        labels = distinct_titles(recent)
        context["conversations"] = [(c, labels[c.pk]) for c in recent]
    if DATASETS_READ in ctx.scopes:
        context["datasets"] = _recent_datasets(ctx)
    context["usage"] = _usage(ctx)
    context["show_billing"] = BILLING_READ in ctx.scopes
    return render(request, "portal/home.html", context)
