"""The tenant boundary cannot be forgotten: every model, every API URL and every edge module is checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count
from django.test.utils import isolate_apps
from django.urls import get_resolver, path
from rest_framework.views import APIView

from apps.conversations.models import Conversation, Message
from apps.tenants.api_base import TenantAPIView
from apps.tenants.boundaries import (
    UNSCOPED_MANAGER_MODULES,
    api_view_violations,
    edge_modules,
    manager_checked_modules,
    model_violations,
    raw_get_violations,
    unscoped_manager_violations,
)
from apps.tenants.scopes import DATASETS_READ
from apps.tenants.scoping import TenantOwnedModel, UnscopedQuery

APPS_DIR = Path(__file__).resolve().parent.parent / "apps"


def test_every_model_is_tenant_scoped_or_allowlisted():
    assert model_violations(apps.get_models()) == []


def test_every_api_url_uses_the_tenant_base_and_declares_scopes():
    assert api_view_violations(get_resolver().url_patterns) == []


def test_edge_modules_never_fetch_by_raw_id():
    modules = edge_modules(APPS_DIR)
    assert any(p.name == "api.py" for p in modules), "the walker finds the API modules"
    assert any(p.relative_to(APPS_DIR).as_posix() == "datasets/outputs/api.py" for p in modules), (
        "and those in sub-packages"
    )
    assert raw_get_violations(modules) == []


def _tenant_model_names() -> set[str]:
    return {m.__name__ for m in apps.get_models() if issubclass(m, TenantOwnedModel)}


def test_tenant_owned_managers_are_scoped_outside_selectors_and_services():
    modules = manager_checked_modules(APPS_DIR)
    assert any(p.name == "consumers.py" for p in modules) and any(p.name == "tools.py" for p in modules)
    assert not any(p.name == "selectors.py" for p in modules), "selectors and services are where rows are read"
    assert unscoped_manager_violations(modules, _tenant_model_names()) == []


def test_unscoped_manager_exceptions_exist():
    assert [m for m in UNSCOPED_MANAGER_MODULES if not (APPS_DIR / m).is_file()] == []


# The checks above must be able to fail: each is shown failing on a deliberately unscoped example.


@isolate_apps("apps.tenants")
def test_meta_test_catches_an_unscoped_model():
    class LeakyNote(models.Model):
        text = models.TextField()

        class Meta:
            app_label = "tenants"

        def __str__(self):  # pragma: no cover
            return self.text

    assert model_violations([LeakyNote]) == [
        "tenants.LeakyNote is neither tenant-owned nor on the UNSCOPED_MODELS allowlist"
    ]


def test_meta_test_catches_an_unscoped_view_and_an_unscoped_method():
    class RawView(APIView):
        def get(self, request):  # pragma: no cover - never served
            return None

    class HalfScoped(TenantAPIView):
        scope_map = {"GET": DATASETS_READ}

        def get(self, request):  # pragma: no cover
            return None

        def delete(self, request):  # pragma: no cover
            return None

    patterns = [path("api/v1/raw/", RawView.as_view()), path("api/v1/half/", HalfScoped.as_view())]
    assert api_view_violations(patterns) == [
        "/api/v1/raw/ is not served by a TenantAPIView",
        "/api/v1/half/ serves DELETE without a scope in scope_map",
    ]


def test_meta_test_catches_a_raw_get(tmp_path):
    bad = tmp_path / "api.py"
    bad.write_text("def view(request, pk):\n    return Dataset.objects.get(pk=pk)\n")
    assert raw_get_violations([bad]) == [f"{bad}:2 calls .objects.get(); use get_for_tenant_or_404"]


def test_api_views_may_not_override_queryset_access():
    with pytest.raises(TypeError, match="overrides get_queryset"):

        class Sneaky(TenantAPIView):  # noqa: F841
            def get_queryset(self):  # pragma: no cover
                return None


def test_for_tenant_refuses_a_missing_tenant(db):
    from apps.tenants.models import ApiToken

    with pytest.raises(ValueError, match="saved tenant"):
        ApiToken.objects.for_tenant(None)


def test_meta_test_catches_an_unscoped_manager(tmp_path):
    bad = tmp_path / "consumers.py"
    bad.write_text(
        "def f(tenant, pk):\n"
        "    Run.objects.filter(pk=pk).update(status='failed')\n"
        "    Run.objects.unscoped_for_admin().count()\n"
        "    Run.objects.for_tenant(tenant).filter(pk=pk)\n"
        "    RunEvent.objects.create(tenant=tenant, seq=1)\n"
        "    RunEvent.objects.create(seq=2)\n"
    )
    assert unscoped_manager_violations([bad], {"Run", "RunEvent"}) == [
        f"{bad}:2 uses Run.objects.filter without for_tenant()",
        f"{bad}:3 uses Run.objects.unscoped_for_admin without for_tenant()",
        f"{bad}:6 uses RunEvent.objects.create without for_tenant()",
    ]


def test_meta_test_catches_every_way_around_the_scoped_manager(tmp_path):
    bad = tmp_path / "tools.py"
    bad.write_text(
        "def f(self, tenant):\n"
        "    manager = Dataset.objects\n"
        "    self.model.objects.unscoped_for_admin().count()\n"
        "    Dataset._default_manager.all()\n"
        "    type(self)._base_manager.count()\n"
        "    Dataset.objects.for_tenant(tenant).count()\n"
        "    return manager\n"
    )
    assert unscoped_manager_violations([bad], {"Dataset"}) == [
        f"{bad}:2 holds Dataset.objects without for_tenant()",
        f"{bad}:3 reaches around the scoped manager with .unscoped_for_admin",
        f"{bad}:4 reaches around the scoped manager with ._default_manager",
        f"{bad}:5 reaches around the scoped manager with ._base_manager",
    ]


# At run time the manager fails closed: a tenant-owned query that was never scoped raises instead of reading.
UNSCOPED_READS = {
    "iterate": lambda rows: list(rows),
    "get": lambda rows: rows.get(title="mine"),
    "first": lambda rows: rows.first(),
    "count": lambda rows: rows.count(),
    "exists": lambda rows: rows.exists(),
    "values": lambda rows: list(rows.values_list("title", flat=True)),
    "aggregate": lambda rows: rows.aggregate(n=Count("id")),
    "iterator": lambda rows: list(rows.iterator()),
    "in_bulk": lambda rows: rows.in_bulk(),
    "update": lambda rows: rows.update(title="changed"),
    "delete": lambda rows: rows.delete(),
    "subquery": lambda rows: list(Conversation.objects.unscoped_for_admin().filter(pk__in=rows.values("pk"))),
}


@pytest.mark.parametrize("read", UNSCOPED_READS.values(), ids=list(UNSCOPED_READS))
def test_an_unscoped_query_fails_closed(tenant_a, tenant_b, read):
    Conversation.objects.create(tenant=tenant_a, title="mine")
    Conversation.objects.create(tenant=tenant_b, title="theirs")
    for rows in (Conversation.objects.all(), Conversation.objects.filter(title="mine")):
        with pytest.raises(UnscopedQuery, match="for_tenant"):
            read(rows)
    assert sorted(Conversation.objects.unscoped_for_admin().values_list("title", flat=True)) == ["mine", "theirs"]


def test_scoped_queries_and_the_named_escape_hatch_read(tenant_a, tenant_b):
    mine = Conversation.objects.create(tenant=tenant_a, title="mine")
    Conversation.objects.create(tenant=tenant_b, title="theirs")
    scoped = Conversation.objects.for_tenant(tenant_a)
    assert list(scoped.values_list("title", flat=True)) == ["mine"] and scoped.filter(title="theirs").count() == 0
    assert scoped.order_by("id").get(title="mine") == mine
    assert Conversation.objects.unscoped_for_admin().count() == 2
    message = Message.objects.create(tenant=tenant_a, conversation=mine, question="q")
    assert list(mine.messages.all()) == [message], "rows reached through a scoped parent are scoped by it"


def test_django_uniqueness_checks_still_see_clashes(tenant_a, make_user):
    from apps.tenants.models import Membership, Role

    user = make_user("nina", tenant=tenant_a)
    with pytest.raises(ValidationError) as clash:  # the check of forms and the admin, not UnscopedQuery
        Membership(tenant=tenant_a, user=user, role=Role.VIEWER).full_clean()
    assert list(clash.value.message_dict) == ["__all__"]  # the (tenant, user) constraint
