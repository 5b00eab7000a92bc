"""The portal in a real browser (Debian's Chromium through Playwright) against a real server process.

The server is `manage.py runserver --insecure` (daphne, serving the static files as `manage.py demo` does)
on the test database and the test's data directory; the embedded offline planner answers. Screenshots of
each major step go to test-artifacts/.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import global_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from playwright.sync_api import Browser, Page, WebSocketRoute, expect, sync_playwright

from apps.conversations import services
from apps.datasets import selectors as dataset_selectors
from apps.datasets import services as dataset_services
from apps.datasets.demo import orders_csv
from apps.tenants.context import context_for_token
from apps.tenants.scopes import ALL_SCOPES, Role
from apps.tenants.services import token_create
from tests.live_server import ROOT
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, open_page, portal_server, require_chromium

ARTIFACTS = ROOT / "test-artifacts"
QUESTION = "2025 年各账号的销售额是多少？"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.process]


@pytest.fixture
def server(tmp_path, settings) -> Iterator[str]:
    # The server's BA_DATA_DIR is tmp_path: its TENANT_DATA_ROOT is the test's (set by the package conftest).
    assert settings.TENANT_DATA_ROOT == tmp_path / "tenants"
    assert (ROOT / "static" / "vendor" / "echarts.min.js").exists(), "run .ci/setup: it installs ECharts"
    # Users log in through the server's form: their passwords must use a hasher the server knows.
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    with portal_server(tmp_path) as base:
        yield base


@pytest.fixture
def browser(monkeypatch) -> Iterator[Browser]:
    # Playwright's sync API keeps an event loop on this thread; the test's own ORM calls run between
    # browser steps, never inside that loop, so Django's async-context guard does not apply to them.
    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
        # ORM calls made while Playwright's loop was set got their own connections: close them here,
        # or PostgreSQL refuses to drop the test database at the end of the session.
        connections.close_all()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"browser-{name}.png"), full_page=True)


def painted_pixels(page: Page, selector: str) -> int:
    """Pixels the chart drew (ECharts' canvas starts transparent)."""
    return page.eval_on_selector(
        selector,
        """canvas => {
            const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
            let painted = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
            return painted;
        }""",
    )


def dataset_for(tenant, name: str = "订单") -> Any:
    file = SimpleUploadedFile("orders.csv", orders_csv(rows=400))
    upload = dataset_services.upload_receive(
        tenant=tenant, chunks=file.chunks(), original_name=file.name, size=file.size
    )
    return dataset_services.dataset_create(tenant=tenant, upload=upload, name=name).dataset


def conversation_for(tenant, dataset) -> Any:
    token, _raw = token_create(tenant=tenant, name="setup", scopes=list(ALL_SCOPES))
    return services.conversation_create(tenant=tenant, ctx=context_for_token(token), dataset=dataset)


class HeldFinals:
    """Passes the socket through but holds each run's final event until released (steps arrive first)."""

    def __init__(self) -> None:
        self.held: list[str] = []
        self.pages: list[WebSocketRoute] = []
        self.releasing = False

    def __call__(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.pages.append(ws)
        ws.on_message(lambda message: server.send(message))
        server.on_message(lambda message: self.from_server(ws, message))

    def from_server(self, ws: WebSocketRoute, message: str | bytes) -> None:
        if not self.releasing and json.loads(message).get("type") in ("run.finished", "run.failed"):
            self.held.append(str(message))
        else:
            ws.send(message)

    def release(self) -> None:
        self.releasing = True
        for message in self.held:
            self.pages[-1].send(message)


def test_upload_ask_live_steps_chart_download_and_follow_up(browser, server, tenant_a, make_user, tmp_path):
    user = make_user(tenant=tenant_a, role=Role.ANALYST)
    csv_path = tmp_path / "orders-2025.csv"
    csv_path.write_bytes(orders_csv(rows=800))
    page = open_page(browser, server, user)

    page.goto(server + "/datasets/upload/")
    page.set_input_files("#file", str(csv_path))
    page.click("#upload-button")
    expect(page.locator(".progress-row.ready progress")).to_have_attribute("value", "100")
    shot(page, "01-upload-finished")
    page.locator(".progress-row.ready a").click()
    expect(page.locator("#schema")).to_contain_text("账号")
    shot(page, "02-dataset-page")

    held = HeldFinals()
    page.route_web_socket("**/ws/conversations/**", held)
    page.click("#ask-about-dataset button")
    page.wait_for_url("**/conversations/*/")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    turn = page.locator("article.turn").first
    expect(turn.locator("li.step-tool.ok[data-tool=run_query]")).to_have_count(1)
    expect(turn.locator("li.step-verify.ok")).to_have_count(1)
    draft = turn.locator(".reply .answer.draft")  # the verified answer typed out before the final event
    expect(draft).to_contain_text("抖音小店")
    expect(page.locator("#ask-button")).to_be_disabled()
    while not held.held:  # the final event comes after the last piece of the answer
        page.wait_for_timeout(50)
    final_answer = json.loads(held.held[0])["data"]["response"]["answer"]
    expect(draft).to_have_text(final_answer)
    assert draft.locator("span.grounded").count() == 0, "provenance comes with the final answer"
    shot(page, "03-steps-streaming")

    held.release()
    answer = turn.locator(".reply .answer")
    expect(answer.locator("span.grounded").first).to_be_visible()
    expect(answer).to_have_count(1)  # the rendered answer replaced the typed one
    expect(answer).to_have_text(final_answer)
    expect(page.locator("#ask-button")).to_be_enabled()
    grounded = answer.locator("span.grounded[data-provenance*=run_query]")
    assert grounded.count() == 5  # one amount per account, and the number of accounts (the rows returned)
    first_row = answer.locator("span.grounded[data-provenance*=run_query][data-provenance*='第 1 行']").first
    first_row.hover()
    expect(turn.locator("td.highlight")).to_have_count(1)
    popover = answer.locator(".provenance")
    expect(popover).to_be_visible()  # the provenance with the row it came from, not a title tooltip
    expect(popover).to_contain_text("第 1 行")
    expect(popover.locator(".provenance-row dt")).not_to_have_count(0)
    chart = turn.locator(".chart canvas").first
    expect(chart).to_be_visible()
    page.wait_for_timeout(1200)  # the bars' entry animation
    assert painted_pixels(page, "article.turn .chart canvas") > 5_000
    assert len(chart.evaluate("c => c.toDataURL()")) > 10_000
    shot(page, "04-answer-with-chart")

    with page.expect_download() as download_info:
        turn.locator("a.download", has_text="CSV").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    rows = list(csv.reader(io.StringIO(Path(download.path()).read_text(encoding="utf-8-sig"))))
    shown = turn.locator(".result-table table").first
    assert rows[0] == shown.locator("thead th").all_inner_texts()
    assert [row[0] for row in rows[1:]] == shown.locator("tbody td:first-child").all_inner_texts()
    amounts = [float(v.replace(",", "")) for v in shown.locator("tbody td.num").all_inner_texts()]
    assert [float(row[1]) for row in rows[1:]] == pytest.approx(amounts, abs=0.005)  # shown to 2 decimals

    chip = turn.locator("button.chip").first
    follow_up = chip.inner_text()
    chip.click()
    second = page.locator("article.turn").nth(1)
    expect(second.locator(".question")).to_have_text(follow_up)
    expect(second.locator(".reply .answer:not(.draft)")).to_be_visible()
    expect(second.locator("li.step-tool.ok")).not_to_have_count(0)
    expect(page.locator("#ask-button")).to_be_enabled()
    second.scroll_into_view_if_needed()
    shot(page, "05-follow-up-answer")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_dropped_socket_resumes_without_showing_an_event_twice(browser, server, tenant_a, make_user):
    conversation = conversation_for(tenant_a, dataset_for(tenant_a))
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST), locale="en-US")
    sockets: list[WebSocketRoute] = []

    def twice_and_drop_once(ws: WebSocketRoute) -> None:
        server_side = ws.connect_to_server()
        sockets.append(ws)
        first = len(sockets) == 1
        ws.on_message(lambda message: server_side.send(message))

        def from_server(message: str | bytes) -> None:
            ws.send(message)
            ws.send(message)  # every frame twice: the page must show each event once
            if first and json.loads(message).get("type") == "tool.finished":
                ws.close()
                server_side.close()

        server_side.on_message(from_server)

    page.route_web_socket("**/ws/conversations/**", twice_and_drop_once)
    page.goto(f"{server}/conversations/{conversation.pk}/")
    expect(page.locator("#ask-button")).to_have_text("Ask")
    page.fill("#question", "What is the total 金额 by 账号?")
    page.keyboard.press("Enter")
    turn = page.locator("article.turn").first
    expect(turn.locator(".reply .answer span.grounded").first).to_be_visible()
    assert len(sockets) == 2, "one reconnect after the drop"
    seqs = turn.locator("ol.timeline li").evaluate_all("items => items.map(li => Number(li.dataset.seq))")
    assert seqs == sorted(set(seqs)) and seqs[0] == 1, seqs
    assert turn.locator("li.step-verify").count() == 1 and turn.locator("li[data-tool=run_query]").count() == 1
    assert turn.locator(".reply .answer").count() == 1 and turn.locator(".chart").count() == 1
    assert page.locator("article.turn").count() == 1
    expect(turn.locator(".reply .verified")).to_contain_text("numbers bound to their result rows")
    shot(page, "06-resumed-after-drop")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_answer_says_how_it_was_computed_and_what_was_checked(browser, server, tenant_a, make_user):
    conversation = conversation_for(tenant_a, dataset_for(tenant_a))
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST))
    warning = {"code": "stale_filter", "message": "沿用了上一个问题的筛选条件，请确认是否仍需要。"}
    status = {"message": "数字与口径已核对。", "reasons": [{"code": "x", "message": "text meant for the model"}]}

    def with_a_warning(ws: WebSocketRoute) -> None:
        """The run's own events, plus one warning in the response (every warning must be shown, in its own
        words) and a verify step whose short status must be shown instead of any reason text."""
        server_side = ws.connect_to_server()
        ws.on_message(lambda message: server_side.send(message))

        def from_server(message: str | bytes) -> None:
            body = json.loads(message)
            if body.get("type") == "run.finished":
                body["data"]["response"]["verification"]["warnings"].append(warning)
            elif body.get("type") == "verify":
                body["data"].update(status)
            ws.send(json.dumps(body, ensure_ascii=False))

        server_side.on_message(from_server)

    page.route_web_socket("**/ws/conversations/**", with_a_warning)
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    turn = page.locator("article.turn").first
    expect(turn.locator("li.step-verify")).to_have_text(status["message"])
    badge = turn.locator(".reply .verified")
    bound = re.compile(r"^[1-9][0-9]* 个数字已对应到其结果行$")
    expect(badge.locator("li.check.numbers")).to_have_text(bound)
    expect(badge.locator("li.warning[data-code=stale_filter]")).to_have_text("请注意：" + warning["message"])
    assert badge.locator("strong").inner_text() in ("数字与口径已核对", "数字已核对")
    assert "✓" not in badge.inner_text() and "✔" not in badge.inner_text(), "says what was checked, not a tick"

    disclosure = turn.locator("details.explanation")
    expect(disclosure.locator("summary")).to_have_text("计算方式 (1)")
    query = disclosure.locator(".explain-item[data-ref=q1]")
    expect(query).to_be_hidden()
    disclosure.locator("summary").click()
    expect(query).to_be_visible()
    expect(query.locator(".explain-text")).to_contain_text("下单日期（按年） = 2025")
    expect(query.locator("dd", has_text="sum(金额)")).to_be_visible()
    expect(query.locator("dt", has_text="返回行数")).to_be_visible()
    shot(page, "09-how-it-was-computed")

    page.reload()  # the stored response: the same disclosure and badge, without the injected warning
    stored = page.locator("article.turn").first
    stored.locator("details.explanation summary").click()
    expect(stored.locator(".explain-item[data-ref=q1] .explain-text")).to_contain_text("下单日期（按年） = 2025")
    expect(stored.locator(".reply .verified li.check.numbers")).to_have_text(bound)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_failed_run_and_a_refused_question_are_explained(browser, server, tenant_a, make_user):
    dataset = dataset_for(tenant_a, "丢失文件的订单")
    conversation = conversation_for(tenant_a, dataset)
    # The stored file is gone (lost storage): the run fails when its query reads the data.
    dataset_selectors.version_file(dataset_selectors.ready_version(dataset=dataset)).unlink()
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST))
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    failure = page.locator("article.turn .run-error.failed")
    expect(failure).to_contain_text("重新上传")
    expect(failure.locator(".suggestions li")).not_to_have_count(0)
    expect(page.locator("article.turn li.step-tool.bad[data-tool=run_query]")).to_have_count(1)
    expect(page.locator("#ask-button")).to_be_enabled()
    shot(page, "07-failed-run")

    dataset_services.dataset_delete(tenant=tenant_a, dataset=dataset)
    page.reload()  # a new socket: the server refuses the question before any run starts
    expect(page.locator("h1 + p .error")).to_be_visible()
    page.fill("#question", "每月销售额趋势")
    page.click("#ask-button")
    refused = page.locator("article.turn.not-sent")
    expect(refused).to_contain_text("conversation_without_data")  # the socket's error code and message
    expect(refused.locator(".question")).to_have_text("每月销售额趋势")
    expect(page.locator("#question")).to_have_value("每月销售额趋势")  # given back, to ask again elsewhere
    expect(page.locator("#ask-button")).to_be_enabled()
    shot(page, "08-refused-question")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_clarification_offers_choices_and_a_chosen_one_is_answered(browser, server, tenant_a, make_user):
    places = ["华东", "华北"]
    rows = "".join(f"2025-0{1 + i % 9}-1{i % 9},{places[i % 2]},{5 + i % 4},{30 * (5 + i % 4)}\n" for i in range(24))
    file = SimpleUploadedFile("shipments.csv", ("日期,发货地区,销售数量,销售金额\n" + rows).encode())
    upload = dataset_services.upload_receive(
        tenant=tenant_a, chunks=file.chunks(), original_name=file.name, size=file.size
    )
    dataset = dataset_services.dataset_create(tenant=tenant_a, upload=upload, name="发货").dataset
    conversation = conversation_for(tenant_a, dataset)
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST))
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.fill("#question", "各发货地区的销售是多少")  # 销售: 销售数量 or 销售金额?
    page.click("#ask-button")
    turn = page.locator("article.turn").first
    reply = turn.locator(".reply[data-clarification=true]")
    expect(reply.locator(".clarification-label")).to_have_text("需要确认")
    expect(reply.locator(".clarification .answer")).to_contain_text("“销售”可以指这几列：销售数量、销售金额")
    assert reply.locator(".verified").count() == 0, "a question back has no numbers to check"
    expect(turn.locator("li.step-verify")).to_have_text("需要你确认：尚未计算任何数字。")
    assert reply.locator("details.explanation").count() == 0 and reply.locator(".result-table").count() == 0
    chips = reply.locator(".chips button.chip")
    expect(chips).to_have_text(["各发货地区的销售数量是多少", "各发货地区的销售金额是多少"])
    expect(reply.locator(".chips .muted")).to_have_text("你指的是哪一种？点选即可提问：")
    shot(page, "10-clarification")

    chips.nth(1).click()
    second = page.locator("article.turn").nth(1)
    expect(second.locator(".question")).to_have_text("各发货地区的销售金额是多少")
    expect(second.locator(".reply .answer span.grounded").first).to_be_visible()
    expect(second.locator(".reply .verified")).to_be_visible()
    expect(second.locator(".result-table th")).to_have_text(["发货地区", "销售金额合计"])
    assert second.locator(".reply[data-clarification]").count() == 0
    expect(page.locator("#ask-button")).to_be_enabled()
    shot(page, "11-clarification-answered")

    page.reload()  # the stored clarification is shown the same way
    stored = page.locator("article.turn").first
    expect(stored.locator(".clarification-label")).to_have_text("需要确认")
    expect(stored.locator(".chips button.chip")).to_have_count(2)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_timeline_shows_each_steps_task_analysis_and_plan(browser, server, tenant_a, make_user):
    conversation = conversation_for(tenant_a, dataset_for(tenant_a))
    page = open_page(browser, server, make_user(tenant=tenant_a, role=Role.ANALYST))
    page.goto(f"{server}/conversations/{conversation.pk}/")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    turn = page.locator("article.turn").first
    expect(turn.locator(".reply .answer:not(.draft)")).to_be_visible()
    outlines = turn.locator("ol.timeline li.step-plan .plan-outline")
    expect(outlines.first.locator(".plan-round")).to_have_text("第 1 轮")
    expect(outlines.first.locator(".task-analysis")).to_contain_text("任务分析先读取数据的列")
    expect(outlines.first.locator(".execution-plan")).to_contain_text("R1：读取数据的列和取值（当前）")
    query_step = outlines.nth(1)
    expect(query_step.locator(".task-analysis")).to_contain_text("这个问题可以用一条查询回答")
    expect(query_step.locator(".task-analysis")).to_contain_text("sum(金额)")
    assert "<" not in outlines.first.inner_html().split("</strong>", 1)[1].split("</p>", 1)[0], "text, not markup"
    shot(page, "12-plan-in-timeline")

    page.reload()  # the stored response: its last round's plan heads the steps
    stored = page.locator("article.turn").first
    stored.locator("details.steps summary").click()
    last = stored.locator("details.steps > .plan-outline")
    expect(last.locator(".execution-plan")).to_contain_text("（当前）")
    expect(last.locator(".task-analysis")).to_contain_text("查询结果已得到")
    assert page.errors == []  # type: ignore[attr-defined]
