"""The whole graph on the OpenAI-compatible path: real HTTP to a loopback chat-completions server
(streamed tool calls), real tools, verification, metering; and search_web against a loopback Tavily."""

from __future__ import annotations

import json

import pytest

from apps.agent.runner import answer_question
from tests.agent.loopback import STREAM_ERROR, http_error, text_turn, tool_turn
from tests.fakes import ScriptedChatModel, call, final, tool_results, tools
from tests.support.sales import BY_REGION


def test_a_streamed_tool_calling_run_is_answered_and_metered(binding, use_openai_server, settings):
    use_openai_server.script = [
        tool_turn(("get_schema", {}), content="先看字段。", input_tokens=900, output_tokens=30),
        tool_turn(("run_query", {"spec": BY_REGION}), input_tokens=1500, output_tokens=60),
        text_turn(
            "最高的是 {{q1.地区[0]}}（{{q1.销售额[0]}}）。\n>> 各地区客户数？", input_tokens=2100, output_tokens=40
        ),
    ]
    events = []
    response = answer_question(binding=binding, question="各地区销售额？", emit=events.append)
    assert response.status == "answered" and response.answer == "最高的是 华东（160.5）。"
    assert response.audit.llm.model == "gpt-4o-mini" and response.audit.llm.calls == 3
    assert (response.audit.llm.input_tokens, response.audit.llm.output_tokens) == (4500, 130)
    prices = settings.LLM_PRICES["gpt-4o-mini"]
    expected = (4500 * prices["input"] + 130 * prices["output"]) / 1e6
    assert response.audit.llm.cost_usd == pytest.approx(expected)
    requests = use_openai_server.chat_requests
    assert len(requests) == 3 and all(r.body["stream"] for r in requests)
    assert {t["function"]["name"] for t in requests[0].body["tools"]} >= {"get_schema", "run_query", "plot"}
    last = requests[-1].body["messages"]
    assert last[0]["role"] == "system" and "No data without tools" in last[0]["content"]
    assert last[-1]["role"] == "tool" and "UNTRUSTED DATA" in last[-1]["content"] and "华东" in last[-1]["content"]
    assert events[-1].type == "run.finished"


def test_an_endpoint_failure_fails_the_run_with_a_clear_message(binding, use_openai_server):
    use_openai_server.script = [tool_turn(("get_schema", {}))]
    use_openai_server.fail_next(STREAM_ERROR)
    events = []
    response = answer_question(binding=binding, question="What are sales by region?", emit=events.append)
    assert response.status == "failed" and response.error.code == "llm_unavailable"
    assert "language model" in response.error.message and response.answer == ""
    assert events[-1].type == "run.failed"


def test_search_web_is_offered_only_with_a_key_and_its_failure_goes_back_to_the_model(binding, settings, tavily_server):
    model = ScriptedChatModel(
        turns=[tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final("{{q1.地区[0]}}")]
    )
    answer_question(binding=binding, question="各地区销售额？", model=model)
    assert "search_web" not in {t["function"]["name"] for t in model.bound_tools}

    settings.TAVILY_API_KEY = "tvly-test-key"
    settings.TAVILY_BASE_URL = tavily_server.url
    tavily_server.fail_next(http_error(429, "rate limited"))

    def after_failed_search(messages):
        assert tool_results(messages)[-1]["ok"] is False  # told, not crashed
        return tools(call("search_web", query="华东 市场 行业 趋势"))

    def after_search(messages):
        assert tool_results(messages)[-1]["data"]["results"][0]["url"].startswith("https://")
        return tools(call("get_schema"))

    model = ScriptedChatModel(
        turns=[
            tools(call("search_web", query="华东 市场 趋势")),
            after_failed_search,
            after_search,
            tools(call("run_query", spec=BY_REGION)),
            final("{{q1.地区[0]}} 最高。"),
        ]
    )
    response = answer_question(binding=binding, question="各地区销售额？结合行业趋势。", model=model)
    assert "search_web" in {t["function"]["name"] for t in model.bound_tools}
    assert response.status == "answered"
    assert [s.status for s in response.audit.steps][:2] == ["validation_error", "ok"]
    sent = tavily_server.requests[-1]
    assert sent.headers["authorization"] == "Bearer tvly-test-key" and sent.body["max_results"] == 3


def test_a_structured_json_reply_over_http_runs_its_calls_and_shows_only_its_content(binding, use_openai_server):
    def reply(kind, content, round_, **action):
        body = {
            "task_analysis": "用户要比较各地区销售额：1. 看字段；2. 分组汇总。",
            "execution_plan": "R1: 查看字段；R2: 汇总；R3: 结论",
            "current_round": round_,
            "action": {"type": kind, "content": content, **action},
        }
        return "```json\n" + json.dumps(body, ensure_ascii=False) + "\n```"

    schema = [{"tool_name": "inspect_file", "tool_call_id": "call_s1", "arguments": {}}]
    query = [{"tool_name": "run_query", "tool_call_id": "call_q1", "arguments": {"spec": BY_REGION}}]
    use_openai_server.script = [
        text_turn(reply("tool_call", schema, 1)),
        text_turn(reply("tool_call", query, 2)),
        text_turn(
            reply(
                "complete",
                "最高的是 {{q1.地区[0]}}（{{q1.销售额[0]}}）。<script>chart.setOption({series: [1]})</script>",
                3,
                recommended_questions=["各地区客户数？"],
            )
        ),
    ]
    events = []
    response = answer_question(binding=binding, question="各地区销售额？", emit=events.append)
    assert response.status == "answered", response.error
    assert response.answer == "最高的是 华东（160.5）。" and response.recommended_questions == ["各地区客户数？"]
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query"]
    assert response.current_round == 3 and response.execution_plan == "R1: 查看字段；R2: 汇总；R3: 结论"
    plans = [e.data for e in events if e.type == "plan"]
    assert plans[0]["task_analysis"] == "用户要比较各地区销售额：\n1. 看字段；\n2. 分组汇总。"
    # The endpoint was answered in its own protocol: the turn's calls as tool_calls, one tool message per id.
    second = use_openai_server.chat_requests[1].body["messages"]
    assistant = next(m for m in second if m["role"] == "assistant")
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_s1"]
    assert assistant["tool_calls"][0]["function"]["name"] == "inspect_file"
    assert [m["tool_call_id"] for m in second if m["role"] == "tool"] == ["call_s1"]
    shown = json.dumps(response.model_dump(mode="json"), ensure_ascii=False)
    assert "tool_call_id" not in shown and "<script" not in shown and '"action"' not in shown
