"""REST endpoints for tenant admins: the audit trail, administrative changes, interceptions, replays, billing."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import HttpResponse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit import selectors
from apps.audit.models import AdminChange, AuditEvent, ChangeAction, InterceptionLog
from apps.audit.replay import replay
from apps.tenants.api_base import TenantAPIView
from apps.tenants.scopes import AUDIT_READ, BILLING_READ


def event_out(event: AuditEvent) -> dict[str, Any]:
    return {
        "trace_id": event.trace_id,
        "step": event.step,
        "tool": event.tool,
        "called_as": event.called_as or event.tool,
        "arguments": event.arguments,
        "status": event.status,
        "error": event.error,
        "rows": event.rows,
        "rows_scanned": event.rows_scanned,
        "latency_ms": event.latency_ms,
        "result_digest": event.result_digest,
        "result_size": event.result_size,
        "actor": event.actor,
        "prompt_version": event.prompt_version,
        "dataset_version": event.dataset_version_id,
        "source": event.source_id,
        "created_at": event.created_at,
    }


def change_out(change: AdminChange) -> dict[str, Any]:
    return {
        "id": change.pk,
        "action": change.action,
        "action_label": str(change.get_action_display()),
        "actor": change.actor,
        "actor_type": "token" if change.actor_token_id else ("user" if change.actor_user_id else "system"),
        "via": change.via,
        "target_id": change.target_id,
        "target": change.target,
        "changes": change.changes,
        "secrets_changed": change.secrets_changed,
        "created_at": change.created_at,
    }


class AdminChangeOut(serializers.Serializer):
    """One administrative change (documents the response of GET audit/changes/)."""

    id = serializers.IntegerField()
    action = serializers.ChoiceField(choices=ChangeAction.choices)
    action_label = serializers.CharField(help_text="the action in the caller's language")
    actor = serializers.CharField(help_text="user:NAME, token:PREFIX, staff:NAME, command:NAME or system")
    actor_type = serializers.ChoiceField(choices=["user", "token", "system"])
    via = serializers.ChoiceField(choices=["api", "portal", "admin", "command", "system"])
    target_id = serializers.CharField()
    target = serializers.CharField(help_text="the changed object's name at the time")
    changes = serializers.DictField(
        child=serializers.ListField(min_length=2, max_length=2),
        help_text="{field: [before, after]} of the non-secret fields changed (null: created or deleted)",
    )
    secrets_changed = serializers.ListField(
        child=serializers.CharField(), help_text="secret fields that changed; their values are never recorded"
    )
    created_at = serializers.DateTimeField()


class AdminChangePage(serializers.Serializer):
    """A page of changes (limit/offset pagination, like every list)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = AdminChangeOut(many=True)


class AdminChangeListView(TenantAPIView):
    """Administrative changes (tokens, members, SQL sources, synonyms, verify rules), newest first;
    `?action=token.create` keeps one action, `?action=token` a family."""

    scope_map = {"GET": AUDIT_READ}

    def get(self, request: Request) -> Response:
        action = request.query_params.get("action") or None
        return self.paginate(selectors.admin_changes(tenant=self.tenant, action=action), change_out)


def interception_out(log: InterceptionLog) -> dict[str, Any]:
    return {
        "id": log.pk,
        "trace_id": log.trace_id,
        "question": log.question,
        "draft": log.draft,
        "reason": log.reason,
        "reasons": log.reasons,
        "matched_patterns": log.matched_patterns,
        "ungrounded": log.ungrounded,
        "model": log.model,
        "actor": log.actor,
        "false_positive": log.false_positive,
        "created_at": log.created_at,
    }


class AuditEventListView(TenantAPIView):
    """Every tool call (?trace_id= for one run), newest first."""

    scope_map = {"GET": AUDIT_READ}

    def get(self, request: Request) -> Response:
        trace_id = request.query_params.get("trace_id") or None
        return self.paginate(selectors.audit_events(tenant=self.tenant, trace_id=trace_id), event_out)


class InterceptionListView(TenantAPIView):
    scope_map = {"GET": AUDIT_READ}

    def get(self, request: Request) -> Response:
        return self.paginate(selectors.interceptions(tenant=self.tenant), interception_out)


class ReplayView(TenantAPIView):
    """Re-execute a run's tool calls (`?current=1`: against the datasets' current versions)."""

    scope_map = {"POST": AUDIT_READ}

    def post(self, request: Request, trace_id: str) -> Response:
        current = request.query_params.get("current") in ("1", "true")
        report = replay(trace_id=trace_id, tenant=self.tenant, against_current=current)
        steps = [asdict(s) for s in report.steps]
        return Response(
            {
                "trace_id": trace_id,
                "against": report.against,
                "differences": len(report.differences),
                "not_replayable": len(report.not_replayable),
                "steps": steps,
            }
        )


class BillingView(TenantAPIView):
    """The month's usage (?month=YYYY-MM): totals, by day, by user/token, by model; quotas and storage."""

    scope_map = {"GET": BILLING_READ}

    def get(self, request: Request) -> Response:
        return Response(selectors.billing_summary(tenant=self.tenant, month=request.query_params.get("month")))


class BillingExportView(TenantAPIView):
    scope_map = {"GET": BILLING_READ}

    def get(self, request: Request) -> HttpResponse:
        month = request.query_params.get("month")
        content = selectors.billing_csv(tenant=self.tenant, month=month)
        name = f"usage-{self.tenant.slug}-{selectors.month_bounds(month)[0]:%Y-%m}.csv"
        response = HttpResponse(content, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        response["Cache-Control"] = "private, no-store"
        return response
