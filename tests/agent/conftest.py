"""Loopback servers for agent tests: an OpenAI-compatible chat endpoint, a Tavily search endpoint and web pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.agent.loopback import LOOPBACK_OPENAI_KEY, OpenAIServer, PageServer, TavilyServer


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def tavily_server() -> Iterator[TavilyServer]:
    server = TavilyServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def page_server() -> Iterator[PageServer]:
    server = PageServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def use_openai_server(settings: Any, openai_server: OpenAIServer) -> OpenAIServer:
    """Point the OPENAI_* settings at the loopback server: no retries, a short timeout."""
    settings.OPENAI_API_KEY = LOOPBACK_OPENAI_KEY
    settings.OPENAI_BASE_URL = openai_server.base_url
    settings.OPENAI_MODEL = "gpt-4o-mini"
    settings.LLM_TIMEOUT_SECONDS = 1.0
    settings.LLM_MAX_RETRIES = 0
    return openai_server
