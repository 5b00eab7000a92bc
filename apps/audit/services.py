"""Writes to the audit tables."""

from __future__ import annotations

from typing import Any

from apps.audit.models import InterceptionLog
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
    )
