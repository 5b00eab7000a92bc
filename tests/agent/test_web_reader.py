"""apps/agent/web_reader.py against real local HTTP servers: pages are read as text only from allowed addresses,
every private, local or metadata address is refused (redirects included), and the size and time caps hold."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from apps.agent.web_reader import ReaderLimits, networks, read_page
from apps.audit.models import AuditEvent
from apps.audit.replay import replay
from tests.agent.loopback import HANG, Page, PageServer, tavily_result
from tests.fakes import call, final, tool_results, tools
from tests.support.sales import BY_REGION, ask

ARTICLE = """<!doctype html><html><head><title>2025 年国庆节放假安排</title>
<style>body { color: red }</style><script>var secret = "do not read";</script></head>
<body><nav>首页</nav><h1>国庆节放假</h1><p>10 月 1 日至 8 日放假调休，共 8 天。</p>
<noscript>enable scripts</noscript><ul><li>9 月 28 日上班</li><li>10 月 11 日上班</li></ul></body></html>"""
LOCAL = networks(["127.0.0.1/32"])


def limits(**kwargs) -> ReaderLimits:
    return ReaderLimits(**{"allowed": LOCAL, "timeout_s": 3.0, **kwargs})


@pytest.fixture
def pages(page_server: PageServer) -> PageServer:
    page_server.pages.update(
        {
            "/article": Page(ARTICLE.encode()),
            "/notes.txt": Page("第一行\n\n\n  第二行  ".encode(), "text/plain; charset=utf-8"),
            "/gbk": Page("<html><body><p>华东销售</p></body></html>".encode("gbk"), "text/html; charset=gbk"),
            "/moved": Page(status=302, location="/article"),
            "/to-private": Page(status=302, location="http://10.0.0.7/admin"),
            "/to-metadata": Page(status=301, location="http://169.254.169.254/latest/meta-data/"),
            "/to-ipv6-loopback": Page(status=307, location="http://[::1]/"),
            "/loop": Page(status=302, location="/loop"),
            "/image": Page(b"\x89PNG\r\n\x1a\n\x00\x00", "image/png"),
            "/octets": Page(b"\x00\x01\x02", "application/octet-stream"),
            "/untyped-binary": Page(b"ab\x00cd", ""),
            "/big": Page(b"<p>" + b"x" * 5000 + b"</p>"),
            "/big-unsized": Page(b"<p>" + b"y" * 200_000 + b"</p>", unsized=True),
        }
    )
    return page_server


def test_an_allow_listed_page_is_read_as_text_without_scripts_or_styles(pages):
    found = read_page(f"{pages.url}/article", limits=limits())
    assert found["title"] == "2025 年国庆节放假安排" and found["truncated"] is False
    assert found["content"] == "首页\n国庆节放假\n10 月 1 日至 8 日放假调休，共 8 天。\n9 月 28 日上班\n10 月 11 日上班"
    assert "secret" not in found["content"] and "color" not in found["content"] and "enable" not in found["content"]
    (request,) = pages.requests
    assert request.headers["host"] == pages.url.removeprefix("http://")


def test_plain_text_other_charsets_and_long_pages(pages):
    assert read_page(f"{pages.url}/notes.txt", limits=limits())["content"] == "第一行\n\n第二行"
    assert read_page(f"{pages.url}/gbk", limits=limits())["content"] == "华东销售"
    cut = read_page(f"{pages.url}/big", limits=limits(max_chars=100))
    assert cut["truncated"] is True and cut["content"] == "x" * 100 + "…"


def test_a_redirect_on_the_allowed_server_is_followed_and_reported(pages):
    found = read_page(f"{pages.url}/moved", limits=limits())
    assert found["url"] == f"{pages.url}/article" and found["title"].startswith("2025")
    assert [r.path for r in pages.requests] == ["/moved", "/article"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/article",
        "http://localhost:{port}/article",  # a host name that resolves to loopback
        "http://[::ffff:127.0.0.1]:{port}/article",  # IPv4-mapped IPv6
        "http://2130706433:{port}/article",  # 127.0.0.1 written as one number
    ],
)
def test_loopback_is_refused_without_the_allow_list(pages, url):
    port = pages.url.rsplit(":", 1)[1]
    found = read_page(url.format(port=port), limits=ReaderLimits(timeout_s=3.0))
    assert "private, local or reserved" in found["error"]
    assert pages.requests == [], "refused before any connection"


@pytest.mark.parametrize(
    "url",
    [
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",  # AWS / GCP / Azure metadata
        "http://100.100.100.200/latest/meta-data/",  # Alibaba metadata (CGNAT)
        "http://192.0.0.192/",  # Oracle metadata
        "http://[::1]/",
        "http://[fd00:ec2::254]/",  # AWS IPv6 metadata
        "http://[fe80::1]/",
        "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 of 169.254.169.254
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://[ff02::1]/",
    ],
)
def test_private_link_local_metadata_and_reserved_addresses_are_refused(url):
    found = read_page(url, limits=limits(timeout_s=1.0))
    assert "private, local or reserved" in found["error"]


@pytest.mark.parametrize("path", ["/to-private", "/to-metadata", "/to-ipv6-loopback"])
def test_a_redirect_to_a_private_address_is_refused(pages, path):
    found = read_page(f"{pages.url}{path}", limits=limits())
    assert "private, local or reserved" in found["error"]
    assert [r.path for r in pages.requests] == [path], "the redirect's target is never contacted"


def test_redirects_stop_at_the_hop_limit(pages):
    found = read_page(f"{pages.url}/loop", limits=limits(max_redirects=3))
    assert "redirected more than 3 times" in found["error"] and len(pages.requests) == 4


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1/", "javascript:alert(1)", "not a url"]
)
def test_only_http_and_https_are_read(url):
    assert "error" in read_page(url, limits=limits())


def test_addresses_with_credentials_are_refused(pages):
    found = read_page(pages.url.replace("http://", "http://user:pw@") + "/article", limits=limits())
    assert "user name or password" in found["error"] and pages.requests == []


@pytest.mark.parametrize(("path", "kind"), [("/image", "image/png"), ("/octets", "application/octet-stream")])
def test_binary_content_types_are_refused(pages, path, kind):
    assert read_page(f"{pages.url}{path}", limits=limits())["error"].startswith(f"the page is not text ({kind})")


def test_binary_bytes_without_a_content_type_are_refused(pages):
    assert "binary content" in read_page(f"{pages.url}/untyped-binary", limits=limits())["error"]


def test_oversized_pages_are_refused_by_their_length_or_while_streaming(pages):
    declared = read_page(f"{pages.url}/big", limits=limits(max_bytes=1000))
    assert "larger than 1,000 bytes" in declared["error"]
    streamed = read_page(f"{pages.url}/big-unsized", limits=limits(max_bytes=50_000))
    assert "larger than 50,000 bytes" in streamed["error"]


def test_a_page_that_does_not_answer_is_given_up_within_the_time_cap(pages):
    pages.fail_next(HANG)
    found = read_page(f"{pages.url}/article", limits=limits(timeout_s=0.5))
    assert "did not answer within 0.5 s" in found["error"]


def test_a_host_is_resolved_once_and_the_connection_goes_to_that_address(pages, monkeypatch):
    """DNS rebinding: the first answer is the allowed address, any later one a private address. The page is
    read from the first, with the page's own Host header, and the name is never resolved again."""
    real = socket.getaddrinfo
    asked: list[str] = []
    port = int(pages.url.rsplit(":", 1)[1])

    def rebinding(host, *args, **kwargs):
        if host != "pages.test":
            return real(host, *args, **kwargs)
        asked.append(host)
        address = "127.0.0.1" if len(asked) == 1 else "10.0.0.9"
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    found = read_page(f"http://pages.test:{port}/article", limits=limits())
    assert found["title"].startswith("2025") and asked == ["pages.test"]
    assert pages.requests[0].headers["host"] == f"pages.test:{port}"


def test_web_reader_is_offered_only_when_web_access_is_enabled(binding, settings, pages):
    _response, _events, model = ask(binding, final("你好"), question="你好")
    assert "web_reader" not in {t["function"]["name"] for t in model.bound_tools}

    settings.WEB_READER_ENABLED = True
    settings.WEB_READER_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    response, _events, model = ask(
        binding,
        tools(call("web_reader", url=f"{pages.url}/article"), call("web_reader", url="http://169.254.169.254/")),
        final("据《2025 年国庆节放假安排》，国庆放假调休。"),
        question="今年国庆怎么放假？",
    )
    assert "web_reader" in {t["function"]["name"] for t in model.bound_tools}
    page, metadata = tool_results(model.seen[-1])
    assert page["ok"] and page["data"]["title"] == "2025 年国庆节放假安排"
    assert not metadata["ok"] and "private, local or reserved" in metadata["error"]["message"]
    assert [(s.tool, s.status) for s in response.audit.steps] == [
        ("web_reader", "ok"),
        ("web_reader", "validation_error"),
    ]


def test_replay_reports_web_steps_as_not_replayable_unless_live(binding, settings, pages, tavily_server):
    settings.TAVILY_API_KEY = "tvly-test-key"
    settings.TAVILY_BASE_URL = tavily_server.url
    settings.WEB_READER_ENABLED = True
    settings.WEB_READER_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    tavily_server.results = [tavily_result(1)]
    response, _events, _model = ask(
        binding,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        tools(call("web_search", query="国庆 放假", num_results=10), call("web_reader", url=f"{pages.url}/article")),
        final("{{q1.地区[0]}} 最高。"),
    )
    trace = response.audit.trace_id
    recorded = AuditEvent.objects.unscoped_for_admin().filter(trace_id=trace).order_by("step", "id")
    assert [(e.tool, e.called_as, e.status) for e in recorded] == [
        ("get_schema", "get_schema", "ok"),
        ("run_query", "run_query", "ok"),
        ("search_web", "web_search", "ok"),
        ("web_reader", "web_reader", "ok"),
    ]

    report = replay(trace_id=trace, tenant=binding.tenant)
    assert report.differences == [] and [s.tool for s in report.not_replayable] == ["search_web", "web_reader"]
    assert {s.replayed_status for s in report.not_replayable} == {"not_replayable"}
    out = io.StringIO()
    call_command("replay", trace, stdout=out)
    text = out.getvalue()
    assert "step 3 search_web (called as web_search): not replayable" in text and "DIFFERS" not in text
    assert "2 web step(s) not replayable" in text

    live = replay(trace_id=trace, tenant=binding.tenant, live=True)
    assert live.not_replayable == [] and live.differences == [] and len(live.steps) == 4
    pages.pages["/article"] = Page(ARTICLE.replace("8 天", "7 天").encode())
    changed = replay(trace_id=trace, tenant=binding.tenant, live=True)
    assert [s.tool for s in changed.differences] == ["web_reader"]
    out = io.StringIO()
    call_command("replay", trace, "--live", stdout=out)
    assert "step 3 web_reader: DIFFERS" in out.getvalue()


@pytest.mark.process
def test_the_documented_vite_variable_configures_web_search():
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("TAVILY_API_KEY", "WEB_READER_ENABLED")}
    env.update(VITE_TAVILY_API_KEY="tvly-from-vite", DJANGO_SETTINGS_MODULE="baplatform.settings")
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "from apps.agent.providers import optional_tools; "
        "print(settings.TAVILY_API_KEY, [t.name for t in optional_tools()])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "tvly-from-vite ['search_web', 'web_reader']"
