"""Portal pages for conversations: list, chat page with its history, starting one from a dataset; roles, tenancy."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from apps.conversations import services
from apps.conversations.models import Conversation
from apps.tenants.context import context_for_token
from apps.tenants.scopes import Role
from apps.tenants.services import token_create
from tests.conversations.conftest import good_turns
from tests.fakes import final


def logged_in(user, lang: str = "zh-hans") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


@pytest.fixture
def answered(conversation, script):
    script(*good_turns())
    services.ask_sync(conversation=conversation, question="哪个地区销售额最高？", actor="user:test")
    return conversation


def chat_config(page: str) -> dict:
    start = page.index('id="chat-config"')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body)


def test_list_and_chat_pages_in_chinese(tenant_a, make_user, answered):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST))
    listing = client.get("/conversations/").content.decode()
    assert "对话" in listing and f"/conversations/{answered.pk}/" in listing and "销售" in listing
    assert 'id="start-conversation"' in listing
    page = client.get(f"/conversations/{answered.pk}/").content.decode()
    assert "哪个地区销售额最高？" in page and "最高的是 华东" in page
    assert 'id="ask-form"' in page and "提问" in page
    assert "vendor/echarts.min.js" in page and "js/chat.js" in page
    config = chat_config(page)
    assert config["ws_path"] == f"/ws/conversations/{answered.pk}/"
    [turn] = config["history"]
    assert turn["status"] == "answered" and turn["trace_id"] and turn["response"]["tables"][0]["ref"] == "q1"
    strings = page[page.index('id="chat-strings"') :]
    assert "\\u6b65\\u9aa4" in strings  # "步骤" (json_script escapes non-ASCII)


def test_chat_page_in_english(tenant_a, make_user, answered):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST), "en")
    assert "Conversations" in client.get("/conversations/").content.decode()
    page = client.get(f"/conversations/{answered.pk}/").content.decode()
    assert "Ask" in page and "Your question" in page and "Download %(name)s (%(format)s)" in page


def test_answer_text_is_escaped(tenant_a, make_user, conversation, script):
    script(*good_turns("<img src=x onerror=alert(1)> {{q1.地区[0]}}"))
    services.ask_sync(conversation=conversation, question="<b>hi</b> 哪个地区？", actor="user:test")
    page = logged_in(make_user(tenant=tenant_a)).get(f"/conversations/{conversation.pk}/").content.decode()
    assert "<img src=x" not in page and "<b>hi</b>" not in page
    assert "&lt;b&gt;hi&lt;/b&gt;" in page


def test_an_intercepted_answer_shows_why_and_no_number(tenant_a, make_user, conversation, script):
    script(final("2025 年销售额为 1,234,567 元。"), final("2025 年销售额约为 1,234,567 元。"))
    services.ask_sync(conversation=conversation, question="2025 年销售额是多少？", actor="user:test")
    page = logged_in(make_user(tenant=tenant_a)).get(f"/conversations/{conversation.pk}/").content.decode()
    assert 'class="notice run-error intercepted"' in page and "已被拦截" in page
    shown = page[page.index('id="turns"') : page.index('id="chat-config"')]
    assert "1,234,567" not in shown  # the held-back draft is not rendered
    [turn] = chat_config(page)["history"]
    assert turn["status"] == "intercepted" and turn["response"]["error"]["suggestions"]


def test_another_tenants_conversation_is_a_404(tenant_b, make_user, answered):
    client = logged_in(make_user(tenant=tenant_b, role=Role.OWNER))
    assert client.get(f"/conversations/{answered.pk}/").status_code == 404
    assert f"/conversations/{answered.pk}/" not in client.get("/conversations/").content.decode()


def test_viewer_reads_but_cannot_start_or_ask(tenant_a, make_user, answered, dataset):
    client = logged_in(make_user(tenant=tenant_a, role=Role.VIEWER), "en")
    assert 'id="ask-about-dataset"' not in client.get(f"/datasets/{dataset.pk}/").content.decode()
    assert 'id="start-conversation"' not in client.get("/conversations/").content.decode()
    page = client.get(f"/conversations/{answered.pk}/").content.decode()
    assert 'id="ask-form"' not in page and 'id="read-only"' in page
    before = Conversation.objects.for_tenant(tenant_a).count()
    resp = client.post("/conversations/start/", {"dataset": dataset.pk})
    assert resp.status_code == 403 and "does not allow" in resp.content.decode()
    assert Conversation.objects.for_tenant(tenant_a).count() == before


def test_start_from_the_dataset_page(tenant_a, make_user, dataset):
    user = make_user(tenant=tenant_a, role=Role.ANALYST)
    client = logged_in(user)
    detail = client.get(f"/datasets/{dataset.pk}/").content.decode()
    assert 'id="ask-about-dataset"' in detail and 'action="/conversations/start/"' in detail and "向数据提问" in detail
    resp = client.post("/conversations/start/", {"dataset": dataset.pk})
    conversation = Conversation.objects.for_tenant(tenant_a).get()
    assert resp.status_code == 302 and resp["Location"] == f"/conversations/{conversation.pk}/"
    assert conversation.dataset == dataset and conversation.title == "销售" and conversation.created_by == user
    page = client.get(resp["Location"]).content.decode()
    assert 'id="no-turns"' in page and chat_config(page)["history"] == []


def test_start_needs_post_csrf_and_an_own_dataset(tenant_a, tenant_b, make_user, dataset):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST))
    assert client.get("/conversations/start/").status_code == 405
    assert client.post("/conversations/start/", {"dataset": "x"}).status_code == 404
    outsider = logged_in(make_user(tenant=tenant_b, role=Role.OWNER))
    assert outsider.post("/conversations/start/", {"dataset": dataset.pk}).status_code == 404
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(make_user(tenant=tenant_a, role=Role.ANALYST))
    assert strict.post("/conversations/start/", {"dataset": dataset.pk}).status_code == 403
    assert not Conversation.objects.for_tenant(tenant_a).exists()


def test_anonymous_is_sent_to_log_in(answered):
    resp = Client().get(f"/conversations/{answered.pk}/")
    assert resp.status_code == 302 and resp["Location"].startswith("/accounts/login/")


def test_list_is_newest_first_with_same_titles_told_apart(tenant_a, make_user, dataset, conversation):
    second = services.conversation_create(tenant=tenant_a, ctx=_token_ctx(tenant_a), dataset=dataset)
    third = services.conversation_create(tenant=tenant_a, ctx=_token_ctx(tenant_a), dataset=dataset, title="月度复盘")
    page = logged_in(make_user(tenant=tenant_a)).get("/conversations/").content.decode()
    rows = page[page.index('id="conversations"') :]
    order = [rows.index(f'data-conversation="{c.pk}"') for c in (third, second, conversation)]
    assert order == sorted(order)  # the newest first
    assert f">{conversation.title} · " in rows and f"#{second.pk}<" in rows  # same title and minute: the number
    assert ">月度复盘<" in rows  # a unique title is shown as it is


def test_search_finds_a_title_or_a_question(tenant_a, make_user, dataset, answered):
    other = services.conversation_create(tenant=tenant_a, ctx=_token_ctx(tenant_a), dataset=dataset, title="库存")
    client = logged_in(make_user(tenant=tenant_a))
    by_question = client.get("/conversations/", {"q": "销售额最高"}).content.decode()
    assert f'data-conversation="{answered.pk}"' in by_question and f'data-conversation="{other.pk}"' not in by_question
    by_title = client.get("/conversations/", {"q": "库存"}).content.decode()
    assert f'data-conversation="{other.pk}"' in by_title and f'data-conversation="{answered.pk}"' not in by_title
    assert "没有与“不存在”匹配的对话" in client.get("/conversations/", {"q": "不存在"}).content.decode()


def test_rename_and_delete_after_confirmation(tenant_a, make_user, answered):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST))
    client.post(f"/conversations/{answered.pk}/rename/", {"title": "  华东  复盘 "})
    answered.refresh_from_db()
    assert answered.title == "华东 复盘"
    refused = client.post(f"/conversations/{answered.pk}/rename/", {"title": "  "}, follow=True).content.decode()
    assert "请输入对话的标题" in refused
    asked = client.get(f"/conversations/{answered.pk}/delete/").content.decode()
    assert 'id="confirm-form"' in asked and "华东 复盘" in asked and "无法撤销" in asked
    assert Conversation.objects.for_tenant(tenant_a).filter(pk=answered.pk).exists()
    done = client.post(f"/conversations/{answered.pk}/delete/", follow=True)
    assert done.redirect_chain[-1][0] == "/conversations/"
    assert not Conversation.objects.for_tenant(tenant_a).filter(pk=answered.pk).exists()


def test_a_viewer_cannot_rename_or_delete(tenant_a, make_user, answered):
    client = logged_in(make_user(tenant=tenant_a, role=Role.VIEWER))
    assert client.post(f"/conversations/{answered.pk}/rename/", {"title": "x"}).status_code == 403
    assert client.post(f"/conversations/{answered.pk}/delete/").status_code == 403
    assert Conversation.objects.for_tenant(tenant_a).filter(pk=answered.pk).exists()


def test_another_tenants_conversation_cannot_be_deleted(tenant_b, make_user, answered):
    client = logged_in(make_user(tenant=tenant_b, role=Role.OWNER))
    assert client.post(f"/conversations/{answered.pk}/delete/").status_code == 404
    assert Conversation.objects.for_tenant(answered.tenant).filter(pk=answered.pk).exists()


def _token_ctx(tenant):
    token, _raw = token_create(tenant=tenant, name="t", scopes=["conversations:write"])
    return context_for_token(token)
