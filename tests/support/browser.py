"""The portal in a real browser for tests: a server process, Debian's Chromium through Playwright, a logged-in
page, and axe-core's accessibility scan (installed by .ci/setup into tests/browser_tools/)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.live_server import ROOT, free_port, server_env
from tests.support.requirements import missing

CHROMIUM = Path("/usr/bin/chromium")
AXE = ROOT / "tests" / "browser_tools" / "node_modules" / "axe-core" / "axe.min.js"
WAIT_MS = 30_000
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def require_chromium() -> None:
    if not CHROMIUM.exists():
        missing("browser tests need Debian's Chromium at /usr/bin/chromium (.ci/packages installs it)")


@contextmanager
def portal_server(data_dir: Path) -> Iterator[str]:
    """`manage.py runserver --insecure --noreload` on a free port; yields the base URL."""
    port = free_port()
    log_path = data_dir / "server.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--insecure", "--noreload"],
            cwd=ROOT,
            env=server_env(data_dir),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(base + "/accounts/login/", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(log_path.read_text(errors="replace")) from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def open_page(
    browser: Browser, base: str, user: Any, *, locale: str = "zh-CN", viewport: dict[str, int] | None = None
) -> Page:
    """A new browser context logged in as `user` (password "pw-<username>"), on the home page."""
    context = browser.new_context(
        locale=locale, accept_downloads=True, viewport=viewport or {"width": 1280, "height": 900}
    )
    context.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", "pw-" + user.username)
    page.click("form button[type=submit]")
    page.wait_for_url(base + "/")
    return page


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's WCAG 2 A/AA violations of the given impacts on the current page, one line each."""
    if not AXE.exists():
        missing("the accessibility scan needs axe-core: run .ci/setup (npm ci in tests/browser_tools/)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const tags = ["wcag2a", "wcag2aa", "wcag21aa"];
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
            const where = n => n.target.join(" ") + " " + (n.failureSummary || "").slice(0, 160);
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(where)}));
        }"""
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} -> {v['nodes']}" for v in found if v["impact"] in impacts]


def page_overflow(page: Page) -> int:
    """Pixels the page is wider than the window (0: no horizontal scroll of the page)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))
