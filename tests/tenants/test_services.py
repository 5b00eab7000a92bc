"""Tenant and membership services: validation and conflicts change nothing."""

from __future__ import annotations

import pytest

from apps.tenants import services
from apps.tenants.models import Tenant
from baplatform.errors import Conflict, InvalidInput


def test_duplicate_slug_is_a_conflict(make_tenant):
    make_tenant("acme")
    with pytest.raises(Conflict) as err:
        services.tenant_create(name="Other", slug="acme")
    assert err.value.code == "slug_taken"
    assert Tenant.objects.filter(slug="acme").count() == 1


@pytest.mark.parametrize("slug", ["", "Has Space", "-lead", "trail-", "x" * 65, "中文"])
def test_invalid_slugs_are_refused(db, slug):
    with pytest.raises(InvalidInput) as err:
        services.tenant_create(name="N", slug=slug)
    assert err.value.code == "invalid_slug"
    assert not Tenant.objects.exists()


def test_unknown_plan_is_refused(db):
    with pytest.raises(InvalidInput) as err:
        services.tenant_create(name="N", slug="n", plan="platinum")
    assert err.value.code == "invalid_plan"


def test_membership_add_by_email(tenant_a, make_user):
    make_user("carol")
    membership = services.membership_add_by_login(tenant=tenant_a, login="CAROL@example.com", role="viewer")
    assert membership.user.username == "carol"
