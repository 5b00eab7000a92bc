"""apps/agent/llm.py against a loopback OpenAI-compatible server: real HTTP through ChatOpenAI, no mocks."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel, ConfigDict, Field

from apps.agent import llm
from apps.agent.llm import LLMUnavailable, call_guarded, cost_usd, require_complete, translate_llm_errors, usage_of
from baplatform.errors import PlatformError
from tests.agent.loopback import (
    BAD_JSON,
    CLOSE,
    CUT_SHORT,
    HANG,
    LOOPBACK_OPENAI_KEY,
    STREAM_ERROR,
    TRUNCATE,
    Failure,
    OpenAIServer,
    http_error,
    text_turn,
    tool_turn,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the assertions read the English messages
        yield


class GetSchema(BaseModel):
    """Columns and types of the dataset."""

    model_config = ConfigDict(extra="forbid")

    dataset: str = Field(description="dataset name")


class RunQuery(BaseModel):
    """Run a QuerySpec."""

    model_config = ConfigDict(extra="forbid")

    group_by: list[str] = Field(default_factory=list)
    aggregations: list[dict[str, Any]] = Field(default_factory=list)
    limit: int | None = None


LIST_TABLES = {
    "type": "function",
    "function": {
        "name": "list_tables",
        "description": "Tables of the SQL source.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}

QUERY_ARGS = {
    "group_by": ["月份", "账号"],
    "aggregations": [{"name": "退货占比", "func": "ratio", "column": "退货数量", "column2": "销量"}],
    "limit": 12,
}


def _messages() -> list[Any]:
    return [SystemMessage("You are an analyst."), HumanMessage("2025 年各账号产品质量退货占比的月度趋势")]


# --- import cost and configuration ----------------------------------------------------------------


@pytest.mark.process
def test_importing_llm_and_search_web_does_not_import_the_openai_client() -> None:
    code = (
        "import sys, django; django.setup(); import apps.agent.llm, apps.agent.search_web; "
        "print(sorted(m for m in ('langchain_openai', 'openai') if m in sys.modules))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "baplatform.settings"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_openai_configured_follows_the_key(settings: Any) -> None:
    settings.OPENAI_API_KEY = ""
    assert not llm.openai_configured()
    settings.OPENAI_API_KEY = "   "
    assert not llm.openai_configured()
    settings.OPENAI_API_KEY = "sk-x"
    assert llm.openai_configured()


def test_without_a_key_building_the_model_says_what_to_configure(settings: Any) -> None:
    settings.OPENAI_API_KEY = ""
    with pytest.raises(LLMUnavailable) as caught:
        llm.openai_chat_model()
    assert caught.value.code == "llm_not_configured"
    assert caught.value.status == 503
    assert "OPENAI_API_KEY" in caught.value.message


def test_model_is_built_from_settings(use_openai_server: OpenAIServer) -> None:
    model: Any = llm.openai_chat_model(streaming=False)
    assert model.model_name == "gpt-4o-mini"
    assert model.openai_api_base == use_openai_server.base_url
    assert model.openai_api_key.get_secret_value() == LOOPBACK_OPENAI_KEY
    assert (model.request_timeout, model.max_retries) == (1.0, 0)
    assert (model.streaming, model.stream_usage, model.temperature) == (False, True, 0)
    assert llm.openai_chat_model().streaming is True  # type: ignore[attr-defined]


# --- requests and parsed answers ------------------------------------------------------------------


@pytest.mark.parametrize("interleave", [False, True], ids=["sequential", "interleaved"])
def test_streamed_parallel_tool_calls_are_parsed(use_openai_server: OpenAIServer, interleave: bool) -> None:
    server = use_openai_server
    server.interleave = interleave
    server.arg_piece = 5  # every argument string arrives in several chunks
    server.script = [
        tool_turn(
            ("GetSchema", {"dataset": "销售明细 2025"}),
            ("run_query", QUERY_ARGS),
            ("list_tables", {}),
            input_tokens=812,
            output_tokens=95,
        )
    ]
    model = llm.openai_chat_model().bind_tools([GetSchema, _as_tool("run_query", RunQuery), LIST_TABLES])

    reply = call_guarded(model.invoke, _messages())

    assert isinstance(reply, AIMessage)
    assert [(c["name"], c["args"]) for c in reply.tool_calls] == [
        ("GetSchema", {"dataset": "销售明细 2025"}),
        ("run_query", QUERY_ARGS),
        ("list_tables", {}),
    ]
    assert [c["id"] for c in reply.tool_calls] == ["call_chatcmpl-1_0", "call_chatcmpl-1_1", "call_chatcmpl-1_2"]
    assert reply.invalid_tool_calls == []
    assert reply.response_metadata["finish_reason"] == "tool_calls"
    assert usage_of(reply) == (812, 95)

    (request,) = server.chat_requests
    body = request.body
    assert request.headers["authorization"] == f"Bearer {LOOPBACK_OPENAI_KEY}"
    assert body["model"] == "gpt-4o-mini"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][1]["content"] == "2025 年各账号产品质量退货占比的月度趋势"
    tools = {t["function"]["name"]: t["function"] for t in body["tools"]}
    assert list(tools) == ["GetSchema", "run_query", "list_tables"]
    assert tools["GetSchema"]["description"] == "Columns and types of the dataset."
    assert tools["GetSchema"]["parameters"]["additionalProperties"] is False
    assert tools["GetSchema"]["parameters"]["required"] == ["dataset"]
    assert set(tools["run_query"]["parameters"]["properties"]) == {"group_by", "aggregations", "limit"}
    assert tools["list_tables"]["parameters"] == LIST_TABLES["function"]["parameters"]  # type: ignore[index]


def _as_tool(name: str, model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    return {
        "type": "function",
        "function": {"name": name, "description": schema.pop("description", ""), "parameters": schema},
    }


def test_tool_results_go_back_and_the_final_text_answer_is_parsed(use_openai_server: OpenAIServer) -> None:
    server = use_openai_server
    server.script = [text_turn("华东的销售额最高。", input_tokens=1500, output_tokens=42)]
    model = llm.openai_chat_model().bind_tools([GetSchema])
    earlier = AIMessage(
        content="",
        tool_calls=[{"name": "GetSchema", "args": {"dataset": "sales"}, "id": "call_a", "type": "tool_call"}],
    )
    history = [*_messages(), earlier, ToolMessage('{"columns": ["地区", "销售额"]}', tool_call_id="call_a")]

    reply = call_guarded(model.invoke, history)

    assert reply.content == "华东的销售额最高。"
    assert reply.tool_calls == []
    assert usage_of(reply) == (1500, 42)
    sent = server.chat_requests[0].body["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool"]
    assert sent[2]["tool_calls"][0]["id"] == "call_a"
    assert json.loads(sent[2]["tool_calls"][0]["function"]["arguments"]) == {"dataset": "sales"}
    assert sent[3] == {"role": "tool", "tool_call_id": "call_a", "content": '{"columns": ["地区", "销售额"]}'}


def test_stream_yields_chunks_that_add_up_to_the_tool_calls(use_openai_server: OpenAIServer) -> None:
    use_openai_server.script = [tool_turn(("GetSchema", {"dataset": "a"}), ("GetSchema", {"dataset": "b"}))]
    model = llm.openai_chat_model().bind_tools([GetSchema])

    with translate_llm_errors():
        chunks: list[Any] = list(model.stream(_messages()))  # AIMessageChunk, added up below

    assert sum(1 for c in chunks if c.tool_call_chunks) >= 4  # heads and argument pieces arrive separately
    whole = chunks[0]
    for chunk in chunks[1:]:
        whole += chunk
    require_complete(whole)
    assert [c["args"] for c in whole.tool_calls] == [{"dataset": "a"}, {"dataset": "b"}]
    assert usage_of(whole) == (100, 20)


def test_non_streaming_requests_parse_the_same(use_openai_server: OpenAIServer) -> None:
    use_openai_server.script = [tool_turn(("GetSchema", {"dataset": "x"}), ("run_query", QUERY_ARGS))]
    model = llm.openai_chat_model(streaming=False).bind_tools([GetSchema, _as_tool("run_query", RunQuery)])

    reply = call_guarded(model.invoke, _messages())

    assert not use_openai_server.chat_requests[0].body.get("stream")
    assert [(c["name"], c["args"]) for c in reply.tool_calls] == [
        ("GetSchema", {"dataset": "x"}),
        ("run_query", QUERY_ARGS),
    ]
    assert usage_of(reply) == (100, 20)


async def test_async_calls_are_guarded_too(use_openai_server: OpenAIServer) -> None:
    use_openai_server.script = [text_turn("done")]
    model = llm.openai_chat_model().bind_tools([GetSchema])
    reply = await llm.acall_guarded(model.ainvoke, _messages())
    assert reply.content == "done"

    use_openai_server.fail_next(http_error(401))
    with pytest.raises(LLMUnavailable) as caught:
        await llm.acall_guarded(model.ainvoke, _messages())
    assert caught.value.code == "llm_auth_failed"


def test_retries_follow_the_setting(settings: Any, use_openai_server: OpenAIServer) -> None:
    settings.LLM_MAX_RETRIES = 1
    use_openai_server.script = [text_turn("second time lucky")]
    use_openai_server.fail_next(http_error(503, **{"retry-after-ms": "10"}))

    reply = call_guarded(llm.openai_chat_model().invoke, _messages())

    assert reply.content == "second time lucky"
    assert len(use_openai_server.chat_requests) == 2


# --- usage and cost -------------------------------------------------------------------------------


def test_cost_from_the_price_table(settings: Any) -> None:
    assert cost_usd("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert cost_usd("gpt-4o", 2000, 500) == pytest.approx((2000 * 2.5 + 500 * 10) / 1e6)
    # dated and provider-prefixed names find their entry; the longest prefix wins (gpt-4o-mini, not gpt-4o)
    assert cost_usd("gpt-4o-mini-2024-07-18", 1_000_000, 0) == pytest.approx(0.15)
    assert cost_usd("openai/GPT-4o-mini", 1_000_000, 0) == pytest.approx(0.15)
    assert cost_usd("deepseek-chat", 1_000_000, 1_000_000) > 0
    assert cost_usd("qwen-plus", 1000, 1000) > 0
    assert cost_usd("offline-planner", 10_000, 10_000) == 0.0
    settings.LLM_PRICES = {**settings.LLM_PRICES, "house-model": {"input": 1, "output": 3}}
    assert cost_usd("house-model", 500_000, 100_000) == pytest.approx(0.8)


def test_unknown_model_costs_nothing_and_is_logged_once(settings: Any, caplog: pytest.LogCaptureFixture) -> None:
    settings.LLM_PRICES = {**settings.LLM_PRICES, "broken": {"input": "?"}}
    with caplog.at_level(logging.WARNING, logger="apps.agent.llm"):
        assert cost_usd("mystery-model-x1", 1000, 1000) == 0.0
        assert cost_usd("mystery-model-x1", 1000, 1000) == 0.0
        assert cost_usd("broken", 1000, 1000) == 0.0
    warnings = [r.getMessage() for r in caplog.records]
    assert sum("mystery-model-x1" in w for w in warnings) == 1
    assert sum("broken" in w for w in warnings) == 1


def test_usage_of_messages_without_usage() -> None:
    assert usage_of(AIMessage("hi")) == (0, 0)
    with_usage = AIMessage("hi", usage_metadata={"input_tokens": 7, "output_tokens": 3, "total_tokens": 10})
    assert usage_of(with_usage) == (7, 3)


# --- failures -------------------------------------------------------------------------------------

FAILURES: list[tuple[str, Failure, str, str]] = [
    ("500", http_error(500), "llm_server_error", "Try again"),
    ("502", http_error(502, "bad gateway"), "llm_server_error", "Try again"),
    ("401", http_error(401, f"Incorrect API key provided: {LOOPBACK_OPENAI_KEY}"), "llm_auth_failed", "OPENAI_API_KEY"),
    ("403", http_error(403, "key not allowed in region"), "llm_auth_failed", "administrator"),
    ("429", http_error(429, "slow down", code="rate_limit_exceeded"), "llm_rate_limited", "Wait a minute"),
    ("429-quota", http_error(429, "You exceeded your quota", code="insufficient_quota"), "llm_rate_limited", "quota"),
    ("404", http_error(404, "The model does not exist"), "llm_model_not_found", "OPENAI_MODEL"),
    ("400-context", http_error(400, "context_length_exceeded"), "llm_context_overflow", "new conversation"),
    ("400", http_error(400, "tools[0].function.name is invalid"), "llm_request_rejected", "tools[0]"),
    ("hang", HANG, "llm_timeout", "LLM_TIMEOUT_SECONDS"),
    ("close", CLOSE, "llm_unreachable", "OPENAI_BASE_URL"),
    ("bad-json", BAD_JSON, "llm_bad_response", "OPENAI_BASE_URL"),
]
STREAM_FAILURES: list[tuple[str, Failure, str, str]] = [
    ("truncated", TRUNCATE, "llm_unreachable", "Try again"),
    ("cut-short", CUT_SHORT, "llm_bad_response", "Try again"),
    ("error-event", STREAM_ERROR, "llm_server_error", "upstream model overloaded"),
]


def _assert_clear_and_keyless(error: LLMUnavailable, code: str, hint: str, caplog: pytest.LogCaptureFixture) -> None:
    assert isinstance(error, PlatformError)
    assert (error.status, error.code) == (503, code)
    assert hint in error.message
    assert LOOPBACK_OPENAI_KEY not in error.message
    assert LOOPBACK_OPENAI_KEY not in json.dumps(error.details)
    assert LOOPBACK_OPENAI_KEY not in str(error)
    assert LOOPBACK_OPENAI_KEY not in caplog.text
    assert error.__cause__ is None  # the upstream exception (which may quote the key) is not chained


@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "plain"])
@pytest.mark.parametrize(("failure", "code", "hint"), [f[1:] for f in FAILURES], ids=[f[0] for f in FAILURES])
def test_endpoint_failures_become_clear_errors(
    settings: Any,
    use_openai_server: OpenAIServer,
    caplog: pytest.LogCaptureFixture,
    streaming: bool,
    failure: Failure,
    code: str,
    hint: str,
) -> None:
    settings.LLM_TIMEOUT_SECONDS = 0.5
    use_openai_server.script = [text_turn("never shown")]
    use_openai_server.always = failure
    model = llm.openai_chat_model(streaming=streaming).bind_tools([GetSchema])

    started = time.monotonic()
    with caplog.at_level(logging.DEBUG), pytest.raises(LLMUnavailable) as caught:
        call_guarded(model.invoke, _messages())

    assert time.monotonic() - started < 5
    _assert_clear_and_keyless(caught.value, code, hint, caplog)


@pytest.mark.parametrize(
    ("failure", "code", "hint"), [f[1:] for f in STREAM_FAILURES], ids=[f[0] for f in STREAM_FAILURES]
)
def test_broken_streams_become_clear_errors(
    use_openai_server: OpenAIServer, caplog: pytest.LogCaptureFixture, failure: Failure, code: str, hint: str
) -> None:
    use_openai_server.script = [tool_turn(("GetSchema", {"dataset": "a long dataset name"}))]
    use_openai_server.fail_next(failure)
    model = llm.openai_chat_model().bind_tools([GetSchema])

    with caplog.at_level(logging.DEBUG), pytest.raises(LLMUnavailable) as caught:
        call_guarded(model.invoke, _messages())

    _assert_clear_and_keyless(caught.value, code, hint, caplog)


def test_unreachable_endpoint_names_the_host(settings: Any, use_openai_server: OpenAIServer) -> None:
    settings.OPENAI_BASE_URL = "http://user:secret@127.0.0.1:9/v1"  # nothing listens on port 9
    with pytest.raises(LLMUnavailable) as caught:
        call_guarded(llm.openai_chat_model().invoke, _messages())
    assert caught.value.code == "llm_unreachable"
    assert "127.0.0.1:9" in caught.value.message
    assert "secret" not in caught.value.message


def test_unrelated_exceptions_are_not_disguised() -> None:
    with pytest.raises(RuntimeError), translate_llm_errors():
        raise RuntimeError("a bug in our own code")
    with pytest.raises(ValueError, match="ours"), translate_llm_errors():
        raise ValueError("ours")


def test_messages_of_other_chat_models_pass_the_completeness_check() -> None:
    message = AIMessage("offline answer")
    assert require_complete(message) is message
    assert call_guarded(lambda: message) is message
