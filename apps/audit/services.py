"""Writes to the audit tables: interceptions and their review, one AuditEvent per tool call, the usage ledger."""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.audit.changes import Actor
from apps.audit.models import AuditEvent, InterceptionLog, UsageKind, UsageRecord, WhitelistPattern
from apps.audit.rule_services import rule_save
from apps.tenants.models import Tenant


def interception_record(
    *,
    tenant: Tenant,
    trace_id: str,
    question: str,
    draft: str,
    reasons: list[dict[str, Any]],
    matched_patterns: list[dict[str, Any]],
    ungrounded: list[dict[str, Any]],
    tool_calls: list[dict[str, Any]],
    source_type: str,
    source_name: str,
    model: str,
    prompt_version: str,
    actor: str,
) -> InterceptionLog:
    return InterceptionLog.objects.create(
        tenant=tenant,
        trace_id=trace_id,
        question=question,
        draft=draft,
        reason=reasons[0]["code"] if reasons else "unknown",
        reasons=reasons,
        matched_patterns=matched_patterns,
        ungrounded=ungrounded,
        tool_calls=tool_calls,
        source_type=source_type,
        source_name=source_name[:255],
        model=model[:100],
        prompt_version=prompt_version,
        actor=actor[:200],
        pattern_codes=",".join(sorted({str(m.get("pattern", "")) for m in matched_patterns}))[:500],
    )


def result_digest(*, columns: list[str], rows: list[list[Any]], row_count: int, payload: Any) -> tuple[str, int]:
    """A stable fingerprint of a tool result (and its size as JSON): replays compare these."""
    body = json.dumps(
        {"columns": columns, "rows": rows, "row_count": row_count, "payload": payload},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
        separators=(",", ":"),
    ).encode()
    return hashlib.sha256(body).hexdigest(), len(body)


def tool_call_record(
    *,
    tenant: Tenant,
    trace_id: str,
    actor: str,
    prompt_version: str,
    source_type: str,
    dataset_version_id: int | None,
    source_id: int | None,
    outcome: Any,
    rows_scanned: int,
) -> AuditEvent:
    """The tool call's audit row and, for queries, its usage row: both or neither."""
    digest, size = ("", 0)
    if outcome.status == "ok":
        digest, size = result_digest(
            columns=outcome.columns, rows=outcome.rows, row_count=outcome.row_count, payload=outcome.payload
        )
    with transaction.atomic():
        event = AuditEvent.objects.create(
            tenant=tenant,
            trace_id=trace_id,
            step=outcome.step,
            call_id=outcome.call_id[:100],
            actor=actor[:200],
            tool=outcome.name[:40],
            called_as=(outcome.called_as or outcome.name)[:40],
            arguments=outcome.arguments,
            called_arguments=outcome.called_arguments,
            status=outcome.status,
            error=outcome.detail or outcome.error,  # admins read the technical text; people never do
            result_digest=digest,
            result_size=size,
            rows=outcome.row_count,
            rows_scanned=rows_scanned,
            latency_ms=outcome.latency_ms,
            prompt_version=prompt_version,
            source_type=source_type,
            dataset_version_id=dataset_version_id,
            source_id=source_id,
            table=str(outcome.arguments.get("table") or "")[:255] if isinstance(outcome.arguments, dict) else "",
        )
        if outcome.status == "ok" and outcome.name in ("run_query", "execute_sql_safe", "sample_rows"):
            UsageRecord.objects.create(
                tenant=tenant, kind=UsageKind.QUERY, trace_id=trace_id, actor=actor[:200], rows=rows_scanned
            )
    return event


def llm_call_record(
    *, tenant: Tenant, trace_id: str, actor: str, model: str, input_tokens: int, output_tokens: int, cost_usd: float
) -> UsageRecord:
    return UsageRecord.objects.create(
        tenant=tenant,
        kind=UsageKind.LLM_CALL,
        trace_id=trace_id,
        actor=actor[:200],
        model=model[:100],
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cost_usd=Decimal(str(round(cost_usd, 8))),
    )


def run_record(*, tenant: Tenant, trace_id: str, actor: str, model: str) -> UsageRecord:
    return UsageRecord.objects.create(
        tenant=tenant, kind=UsageKind.RUN, trace_id=trace_id, actor=actor[:200], model=model[:100]
    )


def interception_mark_false_positive(*, log: InterceptionLog, actor: Actor | None = None) -> list[WhitelistPattern]:
    """A reviewer's verdict "this was legitimate": whitelist each matched text (escaped, so it matches only
    itself) and mark the interception reviewed. The next run reads the whitelist and lets the same text through.
    Returns the whitelist rows created (texts already whitelisted are not added twice); each is recorded in
    the administrative trail of the interception's tenant."""
    texts = sorted({str(m.get("text", "")).strip() for m in log.matched_patterns} - {""})
    created = []
    with transaction.atomic():
        for text in texts:
            regex = re.escape(text)
            if WhitelistPattern.objects.filter(regex=regex, active=True).exists():
                continue
            note = f"false positive of interception #{log.pk} ({log.tenant.slug}, trace {log.trace_id[:12]})"
            pattern = WhitelistPattern(regex=regex, note=note[:255])
            rule_save(rule=pattern, actor=actor, tenant=log.tenant)
            created.append(pattern)
        log.false_positive = True
        log.reviewed_at = timezone.now()
        log.save(update_fields=["false_positive", "reviewed_at"])
    return created


def interceptions_mark_reviewed(*, logs: QuerySet[InterceptionLog]) -> int:
    """Mark interceptions reviewed (the first review's time is kept); returns how many were newly marked."""
    return logs.filter(reviewed_at__isnull=True).update(reviewed_at=timezone.now())
