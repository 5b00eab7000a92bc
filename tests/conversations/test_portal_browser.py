"""Every portal page in Chromium: axe-core finds no serious or critical accessibility problem, the chat works
from the keyboard alone, the chat and dataset pages fit a phone, and conversations are renamed and deleted.

The server is a real process on the test database (tests/support/browser.py); the offline planner answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import global_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from playwright.sync_api import Browser, Page, expect, sync_playwright

from apps.conversations import services
from apps.conversations.models import Conversation
from apps.datasets import services as dataset_services
from apps.datasets.demo import orders_csv
from apps.datasets.sources import services as source_services
from apps.tenants.context import context_for_token
from apps.tenants.scopes import ALL_SCOPES, Role
from apps.tenants.services import token_create
from tests.datasets.sources_support import make_sqlite
from tests.live_server import ROOT
from tests.support.browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    axe_violations,
    open_page,
    page_overflow,
    portal_server,
    require_chromium,
)

QUESTION = "2025 年各账号的销售额是多少？"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.process]


@pytest.fixture
def server(tmp_path, settings) -> Iterator[str]:
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # users log in through the server's form
    with portal_server(tmp_path) as base:
        yield base


@pytest.fixture
def browser(monkeypatch) -> Iterator[Browser]:
    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the test's ORM calls run between browser steps
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
        connections.close_all()


@pytest.fixture
def orders(tenant_a) -> Any:
    file = SimpleUploadedFile("orders.csv", orders_csv(rows=300))
    upload = dataset_services.upload_receive(
        tenant=tenant_a, chunks=file.chunks(), original_name=file.name, size=file.size
    )
    return dataset_services.dataset_create(tenant=tenant_a, upload=upload, name="订单").dataset


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"portal-{name}"


def new_conversation(tenant, dataset) -> Conversation:
    token, _raw = token_create(tenant=tenant, name="setup", scopes=list(ALL_SCOPES))
    return services.conversation_create(tenant=tenant, ctx=context_for_token(token), dataset=dataset)


def ask_with_the_keyboard(page: Page, question: str) -> None:
    """Reach the question box with Tab only, type, and send with Enter."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id") == "question":
            break
    else:
        raise AssertionError("the question box cannot be reached with Tab")
    page.keyboard.type(question)
    page.keyboard.press("Enter")


def test_the_chat_works_from_the_keyboard_and_traced_numbers_are_one_tab_stop(
    browser, server, tenant_a, make_user, orders
):
    conversation = new_conversation(tenant_a, orders)
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST))
    page.goto(f"{server}/conversations/{conversation.pk}/")
    ask_with_the_keyboard(page, QUESTION)
    answer = page.locator("article.turn .reply .answer:not(.draft)").first
    expect(answer).to_contain_text("抖音小店")
    traced = answer.locator(".grounded")
    assert traced.count() >= 3
    focusable = answer.evaluate("a => [...a.querySelectorAll('.grounded')].filter(e => e.tabIndex >= 0).length")
    assert focusable <= 1, "the answer's traced numbers are one tab stop, not one each"
    assert page.errors == []  # type: ignore[attr-defined]


def test_every_portal_page_has_no_serious_accessibility_problem(
    browser, server, tenant_a, make_user, orders, settings, tmp_path
):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"  # where the server (BA_DATA_DIR=tmp_path) looks
    make_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "shop.db")
    source = source_services.source_create(tenant=tenant_a, name="门店库", kind="sqlite", database="shop.db")
    owner = make_user(tenant=tenant_a, role=Role.OWNER)
    make_user(tenant=tenant_a, role=Role.VIEWER)
    conversation = new_conversation(tenant_a, orders)
    page = open_page(browser, server, owner)
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    expect(page.locator("article.turn .reply .answer:not(.draft)").first).to_contain_text("抖音小店")
    trace = conversation.runs.get().trace_id  # the one run this test made
    pages = [
        "/",
        "/datasets/",
        "/datasets/upload/",
        f"/datasets/{orders.pk}/",
        "/conversations/",
        f"/conversations/{conversation.pk}/",
        f"/conversations/{conversation.pk}/delete/",
        "/settings/members/",
        "/settings/tokens/",
        "/settings/audit/",
        f"/settings/audit/{trace}/",
        "/settings/audit/changes/",
        "/settings/billing/",
        "/sources/",
        "/sources/new/",
        f"/sources/{source.pk}/",
        f"/sources/{source.pk}/edit/",
        f"/sources/{source.pk}/tables/",
        f"/sources/{source.pk}/delete/",
    ]
    problems = {}
    anonymous = browser.new_page(locale="zh-CN")
    anonymous.goto(server + "/accounts/login/")
    if found := axe_violations(anonymous):
        problems["/accounts/login/"] = found
    anonymous.close()
    for path in [*pages, "/conversations/999999/"]:  # the last: the not-found page
        page.goto(server + path)
        page.screenshot(path=str(artifact("page" + re.sub(r"[^a-z0-9]+", "-", path).rstrip("-") + ".png")))
        found = axe_violations(page)
        if found:
            problems[path] = found
    assert problems == {}, "\n".join(f"{path}: {line}" for path, lines in problems.items() for line in lines)
    assert page.errors == []  # type: ignore[attr-defined]


def test_chat_and_dataset_pages_fit_a_phone(browser, server, tenant_a, make_user, orders):
    conversation = new_conversation(tenant_a, orders)
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST), viewport=PHONE)
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    expect(page.locator("article.turn .reply .answer:not(.draft)").first).to_contain_text("抖音小店")
    expect(page.locator("article.turn .chart canvas").first).to_be_visible()
    page.screenshot(path=str(artifact("phone-chat.png")), full_page=True)
    assert page_overflow(page) == 0
    for control in ("#question", "#ask-button"):
        box = page.locator(control).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], control
    for path in ("/", f"/datasets/{orders.pk}/", "/datasets/", "/conversations/"):
        page.goto(server + path)
        page.screenshot(path=str(artifact(f"phone{path.replace('/', '-').rstrip('-')}.png")), full_page=True)
        assert page_overflow(page) == 0, path
    assert page.errors == []  # type: ignore[attr-defined]


def test_rename_then_delete_a_conversation_after_confirming(browser, server, tenant_a, make_user, orders):
    conversation = new_conversation(tenant_a, orders)
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST))
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.click("#manage-conversation summary")
    page.fill("#conversation-title", "华东复盘")
    page.click("#rename-form button")
    expect(page.locator("h1")).to_have_text("华东复盘")
    page.click("#manage-conversation summary")
    page.click("#delete-link")
    expect(page.locator("#confirm")).to_contain_text("华东复盘")
    page.click("#cancel-link")
    expect(page.locator("h1")).to_have_text("华东复盘")
    page.goto(f"{server}/conversations/{conversation.pk}/delete/")
    page.click("#confirm-button")
    page.wait_for_url(server + "/conversations/")
    expect(page.locator(".messages")).to_contain_text("已删除")
    assert not Conversation.objects.for_tenant(tenant_a).filter(pk=conversation.pk).exists()
