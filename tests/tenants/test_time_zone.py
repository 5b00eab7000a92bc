"""Each tenant sees times in its own zone, labelled: the same stored instant is 12:30 in Shanghai and 23:30 the
evening before in New York, on a portal page, in an API response and in the billing export. Owners change the zone
in the Members page; a name that is not a zone is refused in the user's language; each change is audited."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.audit.models import AdminChange, ChangeAction, UsageKind, UsageRecord
from apps.tenants.models import Tenant
from apps.tenants.scopes import ALL_SCOPES, Role
from apps.tenants.zones import zone_label

pytestmark = pytest.mark.django_db

MEMBERS = "/settings/members/"
INSTANT = dt.datetime(2026, 3, 1, 4, 30, tzinfo=dt.UTC)  # 12:30 in Shanghai; 23:30 on 28 February in New York
LOCAL = {
    "Asia/Shanghai": ("2026-03-01 12:30:00", "2026-03-01T12:30:00+08:00", "2026-03"),
    "America/New_York": ("2026-02-28 23:30:00", "2026-02-28T23:30:00-05:00", "2026-02"),
}


def logged_in(user, lang: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


def footer(page: str) -> str:
    return page.split('id="time-zone-note"')[1].split("</footer>")[0]


@pytest.fixture
def tenants(tenant_a, tenant_b, make_user):
    """(tenant, owner's portal client) for a tenant in Shanghai and one in New York, each zone set in the portal."""
    out = []
    for tenant, zone in ((tenant_a, "Asia/Shanghai"), (tenant_b, "America/New_York")):
        owner = make_user(f"owner-{tenant.slug}", tenant=tenant, role=Role.OWNER)
        client = logged_in(owner)
        resp = client.post(MEMBERS, {"action": "time_zone", "time_zone": zone}, follow=True)
        assert zone_label(zone) in resp.content.decode()  # the confirmation names the new zone
        tenant.refresh_from_db()
        assert tenant.time_zone == zone
        out.append((tenant, client))
    return out


def test_new_tenants_use_the_platform_zone(tenant_a, settings):
    assert tenant_a.time_zone == settings.TIME_ZONE
    assert zone_label("Asia/Shanghai") == "UTC+08:00 Asia/Shanghai"
    assert zone_label("America/New_York", at=INSTANT) == "UTC-05:00 America/New_York"
    assert zone_label("America/New_York", at=dt.datetime(2026, 7, 1, tzinfo=dt.UTC)) == "UTC-04:00 America/New_York"


def test_each_tenant_sees_the_same_instant_in_its_own_zone_on_a_page(tenants):
    for tenant, client in tenants:
        AdminChange.objects.for_tenant(tenant).update(created_at=INSTANT)
        page = client.get("/settings/audit/changes/").content.decode()
        table = page.split('id="changes"')[1].split("</table>")[0]
        local, _iso, _month = LOCAL[tenant.time_zone]
        assert local in table
        assert zone_label(tenant.time_zone) in footer(page)
    assert "12:30" not in table  # New York's page does not show Shanghai's time


def test_each_tenant_sees_the_same_instant_in_its_own_zone_in_the_api(tenants, make_token, api_client):
    for tenant, _client in tenants:
        api = api_client(make_token(tenant, list(ALL_SCOPES)))
        AdminChange.objects.for_tenant(tenant).update(created_at=INSTANT)
        resp = api.get("/api/v1/audit/changes/")
        change = resp.json()["results"][0]
        assert change["created_at"] == LOCAL[tenant.time_zone][1]
        assert dt.datetime.fromisoformat(change["created_at"]) == INSTANT
        assert resp["X-Time-Zone"] == tenant.time_zone
        me = api.get("/api/v1/me/").json()["tenant"]
        assert me["time_zone"] == tenant.time_zone and me["time_zone_label"] == zone_label(tenant.time_zone)


def test_each_tenant_sees_the_same_instant_in_its_own_zone_in_the_billing_export(tenants, make_token, api_client):
    for tenant, _client in tenants:
        UsageRecord.objects.create(tenant=tenant, kind=UsageKind.RUN, actor="user:x")
        UsageRecord.objects.for_tenant(tenant).update(created_at=INSTANT)
        _local, iso, month = LOCAL[tenant.time_zone]
        api = api_client(make_token(tenant, list(ALL_SCOPES)))
        text = api.get(f"/api/v1/billing/export/?month={month}").content.decode("utf-8-sig")
        header, row = text.splitlines()[:2]
        assert header.startswith(f"time ({zone_label(tenant.time_zone)}),kind")
        assert row.startswith(f"{iso},run,user:x")


def test_an_unknown_zone_is_refused_in_the_users_language_and_nothing_changes(tenant_a, make_user):
    owner = make_user("olga", tenant=tenant_a, role=Role.OWNER)
    before = tenant_a.time_zone
    page = logged_in(owner, "zh-hans").post(MEMBERS, {"action": "time_zone", "time_zone": "Mars/Olympus"}, follow=True)
    text = page.content.decode()
    assert "“Mars/Olympus”不是时区名称" in text and "Asia/Shanghai" in text
    assert Tenant.objects.get(pk=tenant_a.pk).time_zone == before
    assert not AdminChange.objects.for_tenant(tenant_a).filter(action=ChangeAction.TENANT_TIME_ZONE).exists()


def test_a_zone_change_is_audited_with_who_and_before_after(tenant_a, make_user, settings):
    owner = make_user("olga", tenant=tenant_a, role=Role.OWNER)
    client = logged_in(owner)
    client.post(MEMBERS, {"action": "time_zone", "time_zone": "Europe/London"})
    client.post(MEMBERS, {"action": "time_zone", "time_zone": "Europe/London"})  # no change: not recorded again
    [change] = AdminChange.objects.for_tenant(tenant_a).filter(action=ChangeAction.TENANT_TIME_ZONE)
    assert (change.actor, change.via) == ("user:olga", "portal")
    assert change.changes == {"time_zone": [settings.TIME_ZONE, "Europe/London"]}


def test_analysts_cannot_change_the_zone(tenant_a, make_user):
    analyst = make_user("ana", tenant=tenant_a, role=Role.ANALYST)
    resp = logged_in(analyst).post(MEMBERS, {"action": "time_zone", "time_zone": "Europe/London"})
    assert resp.status_code == 403
    assert Tenant.objects.get(pk=tenant_a.pk).time_zone != "Europe/London"


def test_staff_zone_changes_in_the_admin_site_are_audited_and_checked(tenant_a):
    staff = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff)
    fields = {"name": tenant_a.name, "slug": tenant_a.slug, "plan": tenant_a.plan, "active": "on"}
    url = f"/admin/tenants/tenant/{tenant_a.pk}/change/"
    refused = client.post(url, {**fields, "time_zone": "Mars/Olympus"})
    assert refused.status_code == 200 and "is not a time zone name" in refused.content.decode()
    assert client.post(url, {**fields, "time_zone": "Asia/Tokyo"}).status_code == 302
    [change] = AdminChange.objects.for_tenant(tenant_a).filter(action=ChangeAction.TENANT_TIME_ZONE)
    assert (change.actor, change.via, change.changes["time_zone"][1]) == ("staff:root", "admin", "Asia/Tokyo")
    assert Tenant.objects.get(pk=tenant_a.pk).time_zone == "Asia/Tokyo"
