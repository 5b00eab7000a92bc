"""Client of the `search_web` tool (Tavily), offered to the model only when TAVILY_API_KEY is set.

Every failure comes back as `{"error": "..."}` for the model to read, never as an exception: a web
search is optional, so the run goes on without it. The key is sent in a header and never logged.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

logger = logging.getLogger(__name__)

MAX_RESULTS = 3
MAX_CONTENT_CHARS = 1000
MAX_TITLE_CHARS = 300
MAX_QUERY_CHARS = 400
# Tavily's own statuses for an exhausted plan (432) or pay-as-you-go limit (433).
_QUOTA_STATUSES = (432, 433)


class SearchWebArgs(BaseModel):
    """Search the public web. Use only for facts that are not in the user's data (e.g. a holiday's date)."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to search for, in plain words.")


def search_web(query: str, *, api_key: str, base_url: str, timeout_s: float = 10) -> dict[str, Any]:
    """Up to 3 results `{"results": [{"title", "url", "content"}, ...]}`, or `{"error": message}`."""
    query = " ".join(query.split())
    if not api_key:
        return _error("web search is not configured on this platform; answer without web results")
    if not query or len(query) > MAX_QUERY_CHARS:
        return _error(f"the search query must be 1 to {MAX_QUERY_CHARS} characters; shorten it and try again")

    import httpx

    body = {
        "query": query,
        "search_depth": "basic",
        "max_results": MAX_RESULTS,
        "include_answer": False,
        "include_raw_content": False,
        "include_images": False,
    }
    try:
        response = httpx.post(
            f"{base_url.rstrip('/')}/search",
            json=body,
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=httpx.Timeout(timeout_s),
        )
    except httpx.TimeoutException:
        return _error(f"web search timed out after {timeout_s:g} s; answer without web results or try once more later")
    except (httpx.TransportError, httpx.InvalidURL) as exc:
        return _error(f"web search service could not be reached ({type(exc).__name__}); answer without web results")
    except Exception as exc:  # the tool contract: a failed search is a result, never a crash of the run
        logger.exception("search_web: unexpected failure")
        return _error(f"web search failed ({type(exc).__name__}); answer without web results")
    if not response.is_success:
        return _error(_status_message(response.status_code, _detail(response, api_key)))
    return _results(response)


def _results(response: Any) -> dict[str, Any]:
    try:
        payload = response.json()
    except ValueError:
        return _error("web search answered with something that is not JSON; answer without web results")
    items = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        return _error("web search answered without a list of results; answer without web results")
    results: list[dict[str, str]] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("url"), str) or not item["url"]:
            continue
        results.append(
            {
                "title": _clip(item.get("title"), MAX_TITLE_CHARS),
                "url": item["url"][:2000],
                "content": _clip(item.get("content"), MAX_CONTENT_CHARS),
            }
        )
        if len(results) == MAX_RESULTS:
            break
    return {"results": results}


def _clip(value: object, limit: int) -> str:
    text = value if isinstance(value, str) else ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _detail(response: Any, api_key: str) -> str:
    """Tavily's own error text (`{"detail": {"error": ...}}`), short and without the key."""
    try:
        payload = response.json()
    except ValueError:
        return ""
    detail = payload.get("detail") if isinstance(payload, dict) else None
    if isinstance(detail, dict):
        detail = detail.get("error")
    if not isinstance(detail, str):
        return ""
    return " ".join(detail.replace(api_key, "***").split())[:200]


def _status_message(status: int, detail: str) -> str:
    suffix = f" ({detail})" if detail else ""
    if status in (401, 403):
        return f"web search refused the platform's API key (HTTP {status}); answer without web results"
    if status == 429:
        return (
            "web search rate limit reached (HTTP 429); do not search again in this answer, answer without web results"
        )
    if status in _QUOTA_STATUSES:
        return f"web search quota used up (HTTP {status}); answer without web results"
    if status == 400:
        return f"web search refused the query (HTTP 400){suffix}; rephrase it or answer without web results"
    if status >= 500:
        return f"web search service failed (HTTP {status}); answer without web results"
    return f"web search failed (HTTP {status}){suffix}; answer without web results"


def _error(message: str) -> dict[str, Any]:
    logger.warning("search_web: %s", message)
    return {"error": message}
