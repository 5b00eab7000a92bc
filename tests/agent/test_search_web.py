"""apps/agent/search_web.py against a loopback Tavily-compatible server: real HTTP, no mocks."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from pydantic import ValidationError

from apps.agent.search_web import SearchWebArgs, search_web
from tests.agent.loopback import (
    BAD_JSON,
    CLOSE,
    HANG,
    LOOPBACK_TAVILY_KEY,
    Failure,
    TavilyServer,
    http_error,
    tavily_result,
)

KEY = LOOPBACK_TAVILY_KEY


def _search(server: TavilyServer, query: str = "2025 年国庆节放假安排", **kwargs: Any) -> dict[str, Any]:
    return search_web(query, api_key=KEY, base_url=server.url, **kwargs)


def test_request_shape(tavily_server: TavilyServer) -> None:
    _search(tavily_server, "  2025 年国庆节\n放假安排 ")

    (request,) = tavily_server.requests
    assert (request.method, request.path) == ("POST", "/search")
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"] == "application/json"
    assert request.body == {
        "query": "2025 年国庆节 放假安排",
        "search_depth": "basic",
        "max_results": 3,
        "include_answer": False,
        "include_raw_content": False,
        "include_images": False,
    }


def test_a_base_url_with_a_trailing_slash(tavily_server: TavilyServer) -> None:
    assert "results" in search_web("x", api_key=KEY, base_url=tavily_server.url + "/")
    assert tavily_server.requests[0].path == "/search"


def test_at_most_three_results_with_short_content(tavily_server: TavilyServer) -> None:
    tavily_server.results = [tavily_result(n, content_chars=5000) for n in range(1, 7)]

    found = _search(tavily_server)

    assert list(found) == ["results"]
    assert len(found["results"]) == 3
    for n, result in enumerate(found["results"], start=1):
        assert set(result) == {"title", "url", "content"}
        assert (result["title"], result["url"]) == (f"Result {n}", f"https://example.com/{n}")
        assert len(result["content"]) <= 1000
        assert result["content"].endswith("…")


def test_malformed_items_are_skipped(tavily_server: TavilyServer) -> None:
    tavily_server.results = [
        "not an object",
        {"title": "no url"},
        {"url": "https://example.com/a", "title": None, "content": 42},
        tavily_result(2),
    ]

    found = _search(tavily_server)

    assert found["results"][0] == {"title": "", "url": "https://example.com/a", "content": ""}
    assert [r["url"] for r in found["results"]] == ["https://example.com/a", "https://example.com/2"]


def test_no_results_is_an_empty_list(tavily_server: TavilyServer) -> None:
    tavily_server.results = []
    assert _search(tavily_server) == {"results": []}


FAILURES: list[tuple[str, Failure, str]] = [
    ("401", http_error(401, "Unauthorized: missing or invalid API key."), "API key"),
    ("403", http_error(403, "forbidden"), "API key"),
    ("429", http_error(429, "rate limit"), "rate limit"),
    ("432", http_error(432, "plan limit exceeded"), "quota"),
    ("500", http_error(500, "boom"), "HTTP 500"),
    ("400", http_error(400, f"query is too long for key {KEY}"), "query is too long"),
    ("hang", HANG, "timed out"),
    ("close", CLOSE, "could not be reached"),
    ("bad-json", BAD_JSON, "not JSON"),
]


@pytest.mark.parametrize(("failure", "hint"), [f[1:] for f in FAILURES], ids=[f[0] for f in FAILURES])
def test_failures_come_back_as_error_results(
    tavily_server: TavilyServer, caplog: pytest.LogCaptureFixture, failure: Failure, hint: str
) -> None:
    tavily_server.always = failure

    started = time.monotonic()
    with caplog.at_level(logging.DEBUG):
        found = _search(tavily_server, timeout_s=0.5)

    assert time.monotonic() - started < 3
    assert list(found) == ["error"]
    assert hint in found["error"]
    assert "without web results" in found["error"]  # tells the model how to go on
    assert KEY not in found["error"]
    assert KEY not in caplog.text
    assert len(tavily_server.requests) == 1  # no retry loop


def test_unreachable_server_is_an_error_result() -> None:
    started = time.monotonic()
    found = search_web("x", api_key=KEY, base_url="http://127.0.0.1:9", timeout_s=0.5)
    assert time.monotonic() - started < 3
    assert "could not be reached" in found["error"]


def test_a_nonsense_base_url_is_an_error_result() -> None:
    assert "error" in search_web("x", api_key=KEY, base_url="not a url")


def test_without_a_key_or_a_usable_query_nothing_is_sent(tavily_server: TavilyServer) -> None:
    assert "not configured" in search_web("x", api_key="", base_url=tavily_server.url)["error"]
    assert "1 to 400" in _search(tavily_server, "   ")["error"]
    assert "1 to 400" in _search(tavily_server, "x" * 401)["error"]
    assert tavily_server.requests == []


def test_arguments_model() -> None:
    assert SearchWebArgs(query="天气").query == "天气"
    for bad in ({"query": ""}, {"query": "x" * 401}, {"query": "x", "tenant": "other"}, {}):
        with pytest.raises(ValidationError):
            SearchWebArgs.model_validate(bad)
    schema = SearchWebArgs.model_json_schema()
    assert schema["additionalProperties"] is False
    assert schema["properties"]["query"]["maxLength"] == 400
