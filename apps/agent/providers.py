"""Which chat model answers, and which optional tools exist: decided by settings, never by a request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from langchain_core.language_models import BaseChatModel

from apps.agent import llm
from apps.agent.tools import DataBinding, Tool, ToolInputError, ToolOutcome

OFFLINE_MODEL = "offline-planner"


def default_chat_model() -> tuple[BaseChatModel, str]:
    """An OpenAI-compatible endpoint when a key is set; otherwise the embedded offline planner."""
    if llm.openai_configured():
        return llm.openai_chat_model(), settings.OPENAI_MODEL
    from apps.agent.offline import OfflinePlanner

    return OfflinePlanner(), OFFLINE_MODEL


def _search(binding: DataBinding, args: Any, previous: Sequence[ToolOutcome]) -> dict[str, Any]:
    from apps.agent.search_web import search_web

    found = search_web(args.query, api_key=settings.TAVILY_API_KEY, base_url=settings.TAVILY_BASE_URL)
    if "error" in found:  # the model hears about it and may go on without the web
        raise ToolInputError(str(found["error"]), code="search_failed")
    return {"payload": found}


def reader_limits() -> Any:
    from apps.agent.web_reader import ReaderLimits, networks

    return ReaderLimits(
        max_bytes=settings.WEB_READER_MAX_BYTES,
        max_chars=settings.WEB_READER_MAX_CHARS,
        timeout_s=settings.WEB_READER_TIMEOUT_SECONDS,
        max_redirects=settings.WEB_READER_MAX_REDIRECTS,
        allowed=networks(settings.WEB_READER_ALLOWED_NETWORKS),
    )


def _read(binding: DataBinding, args: Any, previous: Sequence[ToolOutcome]) -> dict[str, Any]:
    from apps.agent.web_reader import read_page

    found = read_page(args.url, limits=reader_limits())
    if "error" in found:  # the model hears why and may go on without the page
        raise ToolInputError(str(found["error"]), code="web_read_failed")
    return {"payload": found}


def optional_tools() -> list[Tool]:
    """search_web with a Tavily key; web_reader when web access is enabled (by default: with the key)."""
    tools = []
    if getattr(settings, "TAVILY_API_KEY", ""):
        from apps.agent.search_web import SearchWebArgs

        tools.append(Tool("search_web", SearchWebArgs, _search))  # type: ignore[arg-type]
    if getattr(settings, "WEB_READER_ENABLED", False):
        from apps.agent.web_reader import WebReaderArgs

        tools.append(Tool("web_reader", WebReaderArgs, _read))  # type: ignore[arg-type]
    return tools
