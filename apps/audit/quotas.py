"""Monthly plan quotas (runs, LLM tokens) and storage, checked before the work starts.

Limits come from settings.PLAN_QUOTAS per plan; `None` means unlimited. The month is the calendar
month in the platform's time zone.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.models import UsageKind, UsageRecord
from apps.tenants.models import Tenant
from baplatform.errors import PlatformError


class QuotaExceeded(PlatformError):
    status = 429
    code = "quota_exceeded"


def quotas_of(tenant: Tenant) -> dict[str, int | None]:
    return settings.PLAN_QUOTAS.get(tenant.plan, settings.PLAN_QUOTAS["free"])


def month_start(now: dt.datetime | None = None) -> dt.datetime:
    local = timezone.localtime(now or timezone.now())
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def month_usage(tenant: Tenant) -> dict[str, int]:
    with timezone.override(tenant.time_zone):  # the tenant's month, whether asked from a page, the API or a socket
        start = month_start()
    rows = UsageRecord.objects.for_tenant(tenant).filter(created_at__gte=start)
    runs = rows.filter(kind=UsageKind.RUN).count()
    tokens = rows.filter(kind=UsageKind.LLM_CALL).aggregate(i=Sum("input_tokens"), o=Sum("output_tokens"))
    return {"runs": runs, "tokens": (tokens["i"] or 0) + (tokens["o"] or 0)}


def storage_used(tenant: Tenant) -> int:
    """Bytes of the tenant's uploads and columnar files on disk."""
    root = Path(settings.TENANT_DATA_ROOT) / str(int(tenant.pk))
    if not root.exists():
        return 0
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _human(size: int) -> str:
    return f"{size / 1024**3:.1f} GB" if size >= 1024**3 else f"{size / 1024**2:.0f} MB"


def check_run_allowed(tenant: Tenant) -> None:
    quotas, used = quotas_of(tenant), month_usage(tenant)
    runs, tokens = quotas.get("runs_per_month"), quotas.get("tokens_per_month")
    if runs is not None and used["runs"] >= runs:
        raise QuotaExceeded(
            _(
                "Your plan's limit of %(limit)s questions this month is used up (%(used)s asked). "
                "It resets on the 1st; an admin can upgrade the plan."
            )
            % {"limit": f"{runs:,}", "used": f"{used['runs']:,}"}
        )
    if tokens is not None and used["tokens"] >= tokens:
        raise QuotaExceeded(
            _(
                "Your plan's limit of %(limit)s language-model tokens this month is used up. "
                "It resets on the 1st; an admin can upgrade the plan."
            )
            % {"limit": f"{tokens:,}"}
        )


def check_storage_allowed(tenant: Tenant, incoming_bytes: int) -> None:
    limit = quotas_of(tenant).get("storage_bytes")
    if limit is None:
        return
    used = storage_used(tenant)
    if used + incoming_bytes > limit:
        raise QuotaExceeded(
            _(
                "This upload would take your storage to %(total)s, over your plan's %(limit)s; "
                "delete datasets you no longer need or ask an admin to upgrade the plan."
            )
            % {"total": _human(used + incoming_bytes), "limit": _human(limit)},
            code="storage_quota_exceeded",
        )


def concurrent_runs_limit(tenant: Tenant) -> int | None:
    """How many of the tenant's runs may execute at once (its plan's PLAN_CONCURRENT_RUNS; None: unbounded)."""
    limits = settings.PLAN_CONCURRENT_RUNS
    return limits.get(tenant.plan, limits.get("free"))
