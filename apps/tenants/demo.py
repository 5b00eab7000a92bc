"""The demo tenant, user and token (idempotent). Datasets are added by the data engine's seeding."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from apps.tenants import services
from apps.tenants.models import Membership, Plan, Tenant
from apps.tenants.scopes import ALL_SCOPES, PLATFORM_SCOPES, Role
from apps.tenants.selectors import TokenRejected, tenant_by_slug, token_authenticate

DEMO_SLUG = "demo"
DEMO_USERNAME = "demo"


@dataclass
class DemoCredentials:
    tenant: Tenant
    username: str
    password: str
    token: str


def _credentials_file() -> Path:
    return Path(settings.DATA_DIR) / "demo_credentials.json"


def _load_saved() -> dict[str, str]:
    path = _credentials_file()
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _save(data: dict[str, str]) -> None:
    path = _credentials_file()
    path.write_text(json.dumps(data))
    path.chmod(0o600)


def _token_still_valid(raw: str) -> bool:
    try:
        token_authenticate(raw=raw)
    except TokenRejected:
        return False
    return True


@transaction.atomic
def demo_seed() -> DemoCredentials:
    """Create (or reuse) the demo tenant, a second tenant for the switcher, the demo user and a token.

    The demo password and token are kept in the data directory (mode 0600) so repeated runs print the
    same working credentials; this is for the local demo only.
    """
    saved = _load_saved()
    tenant = tenant_by_slug(slug=DEMO_SLUG) or services.tenant_create(
        name="演示公司 Demo Co", slug=DEMO_SLUG, plan=Plan.TEAM
    )
    second = tenant_by_slug(slug="demo-retail") or services.tenant_create(
        name="零售样例 Retail Sample", slug="demo-retail", plan=Plan.FREE
    )
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    password = saved.get("password") or secrets.token_urlsafe(9)
    if user is None:
        user = user_model.objects.create_user(username=DEMO_USERNAME, email="demo@example.com", password=password)
    elif not user.check_password(password):
        user.set_password(password)
        user.save(update_fields=["password"])
    services.owner_ensure(tenant=tenant, user=user)
    if not Membership.objects.for_tenant(second).filter(user=user).exists():
        services.membership_add(tenant=second, user=user, role=Role.ANALYST)
    raw = saved.get("token", "")
    if not raw or not _token_still_valid(raw):
        _token, raw = services.token_create(
            tenant=tenant,
            name="demo",
            scopes=[s for s in ALL_SCOPES if s not in PLATFORM_SCOPES],
            created_by=user,
            expires_in_days=0,
        )
    _save({"password": password, "token": raw})
    return DemoCredentials(tenant=tenant, username=DEMO_USERNAME, password=password, token=raw)
