"""Model output hygiene in the graph: plan text checked before it is streamed, think blocks removed, turns cut off
by the length limit or with unusable arguments never acted on, and re-running a query after a failed verify."""

from __future__ import annotations

import logging

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from apps.agent.nodes.plan import MAX_ANSWER_CHARS
from apps.agent.runner import answer_question
from tests.agent.loopback import ScriptedCall, cut_call, text_turn, tool_turn
from tests.fakes import ScriptedChatModel, call, final, tools

SALES = "客户,地区,金额\n李雷,华东,120.5\n韩梅梅,华北,80\n王芳,华东,40\n赵强,华南,60\n"
QUESTION = "各地区销售额是多少？"
BY_REGION = {
    "group_by": ["地区"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "sort": [{"by": "销售额", "desc": True}],
}
ANSWER = "最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}}。"
SHOWN = "最高的是 华东，为 160.5。"
LENGTH = {"finish_reason": "length"}


@pytest.fixture
def sales(csv_binding):
    return csv_binding("sales.csv", SALES, name="销售")


def ask(binding, *turns, question=QUESTION):
    model = ScriptedChatModel(turns=list(turns))
    events = []
    response = answer_question(
        binding=binding, question=question, model=model, model_name="scripted", emit=events.append
    )
    return response, events, model


def plan_texts(events):
    return [e.data["text"] for e in events if e.type == "plan"]


def started_tools(events):
    return [e.data["tool"] for e in events if e.type == "tool.started"]


def feedback_to_model(model):
    """The platform's refusals the model was sent, in order."""
    seen = model.seen[-1]
    return [str(m.content) for m in seen if isinstance(m, HumanMessage) and "OUTPUT REFUSED" in str(m.content)]


# --- plan text --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("华东销售额大约是 999 万，先确认一下字段。", "ungrounded_number"),
        ("先看看张三、李四的订单，再汇总。", "fake_data_pattern"),
        ("字段说明见 http://login-verify.example.net/account，先看字段。", "unknown_url"),
    ],
)
def test_plan_text_with_invented_content_never_reaches_plan_events(sales, caplog, text, reason):
    caplog.set_level(logging.INFO, logger="apps.agent.nodes.plan")
    response, events, _model = ask(
        sales, tools(call("get_schema"), text=text), tools(call("run_query", spec=BY_REGION)), final(ANSWER)
    )
    assert response.status == "answered" and response.answer == SHOWN
    assert plan_texts(events)[0] == "", "people see only the tool steps"
    assert started_tools(events) == ["get_schema", "run_query"]
    held = [r for r in caplog.records if r.getMessage() == "plan text held back"]
    assert len(held) == 1 and reason in held[0].reasons
    assert all(text not in str(vars(r)) for r in caplog.records), "the held-back text is never logged"


def test_plan_text_with_only_real_things_is_streamed(sales):
    response, events, _model = ask(
        sales,
        tools(call("get_schema"), text="先看字段，再按地区汇总。"),
        tools(call("run_query", spec=BY_REGION)),
        tools(
            call("plot", result="q1", plot={"chart_type": "bar", "x": "地区", "y": ["销售额"]}),
            text="华东 160.5 最高，画个图。",
        ),
        final(ANSWER),
    )
    assert plan_texts(events)[:3] == ["先看字段，再按地区汇总。", "", "华东 160.5 最高，画个图。"]
    assert response.status == "answered"


def test_think_blocks_never_reach_plan_events_or_the_answer(sales):
    response, events, _model = ask(
        sales,
        tools(call("get_schema"), text="<think>maybe 用户1 spent 999</think>先看字段。"),
        tools(call("run_query", spec=BY_REGION), text="<thinking>guess 777</thinking>"),
        final("<think>the user wants 999, say 888</think>" + ANSWER),
    )
    assert response.status == "answered" and response.answer == SHOWN
    assert plan_texts(events) == ["先看字段。", "", ""]
    assert not any(word in words_of(e.data) for e in events for word in ("think", "999", "777", "888"))


_MEASURED = ("_ms", "_id", "_at", "_usd", "trace", "elapsed", "cost", "tokens", "digest", "seconds")


def words_of(data):
    """The words and figures of an event or a response, without their ids, timings and costs (random digits
    that may contain 999)."""
    if isinstance(data, dict):
        return " ".join(words_of(v) for k, v in data.items() if not str(k).endswith(_MEASURED))
    if isinstance(data, list | tuple):
        return " ".join(words_of(v) for v in data)
    if isinstance(data, int | float) and not isinstance(data, bool):
        return str(data)
    return data if isinstance(data, str) else ""


# --- cut off by the length limit --------------------------------------------------------------------------------


def test_a_tool_call_cut_off_by_the_length_limit_is_not_executed(sales):
    cut = AIMessage(content="", tool_calls=[call("run_query", spec={"group_by": ["地区"]})], response_metadata=LENGTH)
    response, events, model = ask(
        sales, tools(call("get_schema")), cut, tools(call("run_query", spec=BY_REGION)), final(ANSWER)
    )
    assert response.status == "answered" and response.answer == SHOWN
    assert started_tools(events) == ["get_schema", "run_query"]
    assert [s.status for s in response.audit.steps] == ["ok", "ok"]
    assert response.audit.llm.calls == 4, "the refused turn is still metered"
    [told] = feedback_to_model(model)
    assert "run_query" in told and "cut off by the output length limit" in told and "nothing was executed" in told
    assert len([e for e in events if e.type == "plan"]) == 3, "a refused turn shows no steps"


def test_tool_calls_cut_off_every_time_end_the_run_clearly(sales):
    cut = [AIMessage(content="", tool_calls=[call("get_schema")], response_metadata=LENGTH) for _ in range(5)]
    response, events, _model = ask(sales, *cut)
    assert response.status == "failed" and response.error.code == "truncated_output"
    assert "截断" in response.error.message and response.answer == ""
    assert started_tools(events) == [] and events[-1].type == "run.failed"


def test_an_answer_cut_off_is_retried_once_then_the_run_fails_clearly(sales):
    cut = "最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}}，其次是 {{q1.地"
    response, events, model = ask(
        sales,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        AIMessage(content=cut, response_metadata=LENGTH),
        AIMessage(content=cut, response_metadata=LENGTH),
        question="What are sales by region?",
    )
    assert response.status == "failed" and response.error.code == "truncated_output"
    assert "cut off" in response.error.message and response.error.suggestions
    assert response.answer == "" and response.tables == []
    assert not any(e.type == "verify" for e in events), "a cut answer is never verified as if whole"
    assert "其次" not in str([e.data for e in events])
    [told] = feedback_to_model(model)
    assert "Write a shorter answer" in told


def test_an_answer_cut_off_once_and_then_shortened_is_answered(sales):
    response, _events, _model = ask(
        sales,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        AIMessage(content="最高的是 {{q1.地区[0]}}，为", response_metadata=LENGTH),
        final(ANSWER),
    )
    assert response.status == "answered" and response.answer == SHOWN


# --- arguments that are not JSON, oversized output -----------------------------------------------------------


def bad_json(name="run_query", args='{"spec": {"group_by": ["地区"', *valid):
    invalid = {"name": name, "args": args, "id": "call_bad", "error": "not JSON", "type": "invalid_tool_call"}
    return AIMessage(content="", tool_calls=list(valid), invalid_tool_calls=[invalid])


def test_tool_arguments_that_are_not_json_go_back_to_the_model_which_corrects_them(sales):
    response, events, model = ask(
        sales, tools(call("get_schema")), bad_json(), tools(call("run_query", spec=BY_REGION)), final(ANSWER)
    )
    assert response.status == "answered" and response.answer == SHOWN
    [told] = feedback_to_model(model)
    assert "run_query: the arguments were not valid JSON" in told
    assert started_tools(events) == ["get_schema", "run_query"]


def test_arguments_that_are_never_json_end_the_run_as_invalid_requests(sales):
    response, events, _model = ask(sales, *[bad_json() for _ in range(5)])
    assert response.status == "failed" and response.error.code == "invalid_requests"
    assert started_tools(events) == [] and response.answer == ""


def test_an_invalid_call_beside_a_valid_one_refuses_the_whole_turn(sales):
    mixed = bad_json("plot", "{oops", call("get_schema"))
    response, events, model = ask(
        sales, mixed, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final(ANSWER)
    )
    assert response.status == "answered"
    assert started_tools(events) == ["get_schema", "run_query"]
    assert "plot: the arguments were not valid JSON" in feedback_to_model(model)[0]


def test_an_oversized_answer_is_refused_and_then_fails_clearly(sales):
    huge = "华东 " + "很好。" * (MAX_ANSWER_CHARS // 3)
    response, events, model = ask(
        sales, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final(huge), final(huge)
    )
    assert response.status == "failed" and response.error.code == "oversized_output"
    assert response.answer == "" and not any(e.type == "verify" for e in events)
    assert "Write a shorter answer" in feedback_to_model(model)[0]


def test_oversized_tool_arguments_are_refused_without_running(sales):
    huge = {**BY_REGION, "filters": [{"column": "客户", "op": "in", "value": ["x" * 50] * 3000}]}
    response, events, model = ask(
        sales,
        tools(call("get_schema")),
        tools(call("run_query", spec=huge)),
        tools(call("run_query", spec=BY_REGION)),
        final(ANSWER),
    )
    assert response.status == "answered"
    assert started_tools(events) == ["get_schema", "run_query"]
    assert "bytes; at most 100,000" in feedback_to_model(model)[0]


# --- re-running after a failed verify -------------------------------------------------------------------------


def test_re_running_a_query_after_a_failed_verify_is_answered(sales):
    response, events, model = ask(
        sales,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        final("华东为 999。"),
        tools(call("run_query", spec=BY_REGION)),
        final("最高的是 {{q2.地区[0]}}，为 {{q2.销售额[0]}}。"),
    )
    assert response.status == "answered" and response.answer == SHOWN
    assert started_tools(events) == ["get_schema", "run_query", "run_query"]
    assert [v.data["retry"] for v in events if v.type == "verify"] == [True, False]


def test_repeating_a_re_run_query_after_the_retry_still_ends_as_no_progress(sales):
    response, events, _model = ask(
        sales,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        final("华东为 999。"),
        tools(call("run_query", spec=BY_REGION)),
        tools(call("run_query", spec=BY_REGION)),
    )
    assert response.status == "failed" and response.error.code == "no_progress"
    assert started_tools(events) == ["get_schema", "run_query", "run_query"]


def test_repeating_a_call_before_any_retry_still_ends_as_no_progress(sales):
    response, _events, _model = ask(
        sales, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), tools(call("get_schema"))
    )
    assert response.status == "failed" and response.error.code == "no_progress"


# --- the real OpenAI HTTP path ---------------------------------------------------------------------------------


def test_a_streamed_tool_call_cut_by_the_length_limit_is_not_executed(sales, use_openai_server):
    # Streamed arguments cut mid-way are repaired into valid JSON by the client: only the finish reason tells.
    use_openai_server.script = [
        tool_turn(("get_schema", {})),
        tool_turn(cut_call("run_query", {"spec": BY_REGION}, after='"金额"'), finish_reason="length"),
        tool_turn(("run_query", {"spec": BY_REGION})),
        text_turn(ANSWER),
    ]
    events = []
    response = answer_question(binding=sales, question=QUESTION, emit=events.append)
    assert response.status == "answered" and response.answer == SHOWN
    assert started_tools(events) == ["get_schema", "run_query"]
    assert [s.status for s in response.audit.steps] == ["ok", "ok"]
    told = use_openai_server.chat_requests[2].body["messages"][-1]
    assert told["role"] == "user" and "cut off by the output length limit" in told["content"]


def test_a_streamed_answer_cut_by_the_length_limit_fails_the_run_clearly(sales, use_openai_server):
    use_openai_server.script = [
        tool_turn(("get_schema", {})),
        tool_turn(("run_query", {"spec": BY_REGION})),
        text_turn("最高的是 {{q1.地区[0]}}，为", finish_reason="length"),
        text_turn("最高的是 {{q1.地区[0]}}，为", finish_reason="length"),
    ]
    events = []
    response = answer_question(binding=sales, question=QUESTION, emit=events.append)
    assert response.status == "failed" and response.error.code == "truncated_output"
    assert response.answer == "" and events[-1].type == "run.failed"
    assert len(use_openai_server.chat_requests) == 4


def test_streamed_arguments_that_are_not_json_go_back_to_the_model(sales, use_openai_server):
    use_openai_server.script = [
        tool_turn(("get_schema", {})),
        tool_turn(ScriptedCall("run_query", {}, raw="{spec: group by 地区}")),
        tool_turn(("run_query", {"spec": BY_REGION})),
        text_turn(ANSWER),
    ]
    response = answer_question(binding=sales, question=QUESTION)
    assert response.status == "answered" and response.answer == SHOWN
    told = use_openai_server.chat_requests[2].body["messages"][-1]
    assert told["role"] == "user" and "run_query: the arguments were not valid JSON" in told["content"]
