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


def optional_tools() -> list[Tool]:
    if not getattr(settings, "TAVILY_API_KEY", ""):
        return []
    from apps.agent.search_web import SearchWebArgs

    return [Tool("search_web", SearchWebArgs, _search)]  # type: ignore[arg-type]
