"""The API writes date-times in the platform's time zone, with the offset, as the portal and the exports do."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from apps.tenants.scopes import ALL_SCOPES, Role

pytestmark = pytest.mark.django_db


def test_api_times_carry_the_platform_zone_the_portal_names(tenant_a, make_token, api_client, make_user, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    client = api_client(make_token(tenant_a, list(ALL_SCOPES)))
    [token] = client.get("/api/v1/tokens/").json()["results"]
    created = dt.datetime.fromisoformat(token["created_at"])
    assert token["created_at"].endswith("+08:00") and created.utcoffset() == dt.timedelta(hours=8)
    portal = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    portal.force_login(make_user(tenant=tenant_a, role=Role.OWNER))
    assert "Asia/Shanghai" in portal.get("/").content.decode().split('id="time-zone-note"')[1][:200]
