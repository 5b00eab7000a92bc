"""The home page: recent conversations and datasets, suggested questions that open a chat, the plan's use."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.audit.models import UsageKind, UsageRecord
from apps.conversations.models import Conversation
from apps.tenants.scopes import Role

pytestmark = pytest.mark.django_db


def logged_in(user, lang: str = "zh-hans") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


def test_home_lists_recent_work_and_suggests_questions(tenant_a, make_user, conversation):
    page = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST)).get("/").content.decode()
    recent = page[page.index('id="recent-conversations"') : page.index('id="recent-datasets"')]
    assert f"/conversations/{conversation.pk}/" in recent and "销售" in recent
    datasets = page[page.index('id="recent-datasets"') : page.index('id="quota-use"')]
    assert 'data-dataset="销售"' in datasets and "4 行" in datasets
    # From the profile: 金额 is the measure, 地区 the dimension with the fewest values (3); no column has more
    # than five values, so there is no top-five question.
    assert "各地区的金额合计是多少？" in datasets and "最高的 5 个" not in datasets


def test_a_suggested_question_starts_a_conversation_with_it_filled_in(tenant_a, make_user, dataset):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST))
    resp = client.post(
        "/conversations/start/",
        {
            "dataset": dataset.pk,
            "question": "各地区的金额合计是多少？",
        },
    )
    assert resp.status_code == 302
    started = Conversation.objects.for_tenant(tenant_a).get(dataset=dataset)
    assert resp["Location"].startswith(f"/conversations/{started.pk}/?question=")
    chat = client.get(resp["Location"]).content.decode()
    assert ">各地区的金额合计是多少？</textarea>" in chat
    assert not started.messages.exists()  # filled in, not sent: the user presses Ask


def test_a_viewer_sees_no_question_buttons(tenant_a, make_user, dataset):
    page = logged_in(make_user(tenant=tenant_a, role=Role.VIEWER)).get("/").content.decode()
    assert 'data-dataset="销售"' in page and "各地区的金额合计是多少？" not in page


def test_home_shows_the_months_use_against_the_plan(tenant_a, make_user, settings):
    settings.PLAN_QUOTAS = {
        **settings.PLAN_QUOTAS,
        "free": {"runs_per_month": 300, "tokens_per_month": None, "storage_bytes": 1024**3},
    }
    for _ in range(3):
        UsageRecord.objects.create(tenant=tenant_a, kind=UsageKind.RUN)
    page = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST), "en").get("/").content.decode()
    usage = page[page.index('id="quota-use"') :]
    runs = usage[usage.index('data-usage="runs"') : usage.index('data-usage="tokens"')]
    assert "3 / 300" in runs and 'value="1"' in runs
    tokens = usage[usage.index('data-usage="tokens"') : usage.index('data-usage="storage"')]
    assert "unlimited" in tokens
    assert "1.0\xa0GB" in usage[usage.index('data-usage="storage"') :]


def test_another_tenants_work_is_not_on_the_home_page(tenant_b, make_user, conversation):
    page = logged_in(make_user(tenant=tenant_b, role=Role.OWNER)).get("/").content.decode()
    assert f"/conversations/{conversation.pk}/" not in page and 'data-dataset="销售"' not in page
