"""Management commands: create_tenant, create_token (prints once), seed_demo (idempotent)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from apps.datasets.models import Dataset
from apps.tenants.models import ApiToken, Membership, Tenant
from apps.tenants.selectors import token_authenticate


def run(*args):
    """Run a command as an operator with an English locale would (messages are translated)."""
    out, err = io.StringIO(), io.StringIO()
    with translation.override("en"):
        call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_create_tenant_and_duplicate(db, make_user):
    make_user("boss")
    out, _ = run("create_tenant", "acme", "--name", "Acme", "--plan", "team", "--owner", "boss")
    assert "Created tenant acme" in out
    tenant = Tenant.objects.get(slug="acme")
    assert Membership.objects.for_tenant(tenant).get().role == "owner"
    with pytest.raises(CommandError, match="already taken"):
        run("create_tenant", "acme")
    with pytest.raises(CommandError, match="No user named"):
        run("create_tenant", "other", "--owner", "nobody")
    assert not Tenant.objects.filter(slug="other").exists(), "nothing half-created"


def test_create_token_prints_a_working_token_once(tenant_a):
    out, err = run("create_token", "--tenant", "alpha", "--scopes", "datasets:read,conversations:write")
    raw = out.strip()
    token = token_authenticate(raw=raw)
    assert token.tenant == tenant_a
    assert token.scopes == ["conversations:write", "datasets:read"]
    assert "shown once" in err


def test_create_token_errors(tenant_a):
    with pytest.raises(CommandError, match="Unknown tenant slug"):
        run("create_token", "--tenant", "nope", "--scopes", "datasets:read")
    with pytest.raises(CommandError, match="Unknown scopes: root"):
        run("create_token", "--tenant", "alpha", "--scopes", "root")
    assert not ApiToken.objects.for_tenant(tenant_a).exists()


def test_seed_demo_is_idempotent(db, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    first, _ = run("seed_demo")
    second, _ = run("seed_demo")
    assert first == second, "same credentials printed each time"
    assert Tenant.objects.filter(slug="demo").count() == 1
    creds = json.loads((tmp_path / "demo_credentials.json").read_text())
    assert creds["password"] in first and creds["token"] in first
    token = token_authenticate(raw=creds["token"])
    assert token.tenant.slug == "demo"
    from django.contrib.auth import authenticate

    assert authenticate(username="demo", password=creds["password"]) is not None
    assert Membership.objects.unscoped_for_admin().filter(user__username="demo").count() == 2
    datasets = Dataset.objects.for_tenant(token.tenant).select_related("current_version")
    assert {d.name: d.current_version.row_count for d in datasets} == {"销售订单": 3000, "年度目标": 16}
    assert "天猫旗舰店" in first, "the first query over the demo orders is printed"
