"""The graph with scripted models: correct answers pass untouched; every misbehaviour is intercepted or stopped."""

from __future__ import annotations

import pytest

from apps.agent.runner import answer_question
from apps.audit.models import InterceptionLog
from baplatform.errors import InvalidInput
from tests.fakes import ScriptedChatModel, call, final, tool_results, tools
from tests.support.sales import BY_REGION, FOLLOW_UP, ask, schema_then_query


def test_a_correct_answer_with_references_passes_with_provenance(binding):
    response, events, model = ask(
        binding,
        *schema_then_query(),
        final("销售额最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}}；{{q1.地区[1]}} 为 {{q1.销售额[1]}}。\n" + FOLLOW_UP),
    )
    assert response.status == "answered", response.verification
    assert response.answer == "销售额最高的是 华东，为 160.5；华北 为 80。"
    assert response.recommended_questions == ["各地区的客户数是多少？"]
    assert response.tables[0].columns == ["地区", "销售额"] and response.tables[0].rows[0] == ["华东", 160.5]
    grounding = {g.text: (g.step, g.row, g.column) for g in response.verification.grounding}
    assert grounding["160.5"] == (2, 0, "销售额") and grounding["80"] == (2, 1, "销售额")
    assert [e.type for e in events] == [
        "run.started",
        "plan",
        "tool.started",
        "tool.finished",
        "plan",
        "tool.started",
        "tool.finished",
        "plan",
        "verify",
        *["answer.delta"] * (len(events) - 10),
        "run.finished",
    ]
    assert "".join(e.data["text"] for e in events if e.type == "answer.delta") == response.answer
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert {t["function"]["name"] for t in model.bound_tools} == {
        "get_schema",
        "sample_rows",
        "run_query",
        "plot",
        "resolve_fields",
    }
    assert response.audit.llm.calls == 3 and response.audit.llm.input_tokens == 360
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query"]
    assert not InterceptionLog.objects.for_tenant(binding.tenant).exists()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("各地区销售额是多少？", ("数据集 销售", ["按 地区 分组"], "按 销售额 降序排序")),
        ("What are the sales by region?", ("dataset 销售", ["by 地区"], "sorted by 销售额 descending")),
    ],
)
def test_an_answer_says_how_it_was_computed_in_the_questions_language(binding, question, expected):
    response, _events, _model = ask(
        binding, *schema_then_query(), final("{{q1.地区[0]}}: {{q1.销售额[0]}}"), question=question
    )
    assert response.status == "answered", response.verification
    [explanation] = response.explanation
    source, grouping, sort_limit = expected
    assert explanation.ref == "q1" and explanation.rows == 3 and not explanation.truncated
    assert (explanation.source, explanation.grouping, explanation.sort_limit) == (source, grouping, sort_limit)
    assert [m.model_dump() for m in explanation.measures] == [{"name": "销售额", "formula": "sum(金额)"}]
    assert explanation.text == f"{grouping[0]} · 销售额 = sum(金额)"
    assert response.model_dump(mode="json")["explanation"][0]["ref"] == "q1", "part of the stored response"


def test_a_real_customer_named_zhang_san_is_not_intercepted(binding):
    spec = {"columns": ["客户", "金额"], "sort": [{"by": "金额", "desc": True}], "limit": 1}
    response, _events, _model = ask(
        binding,
        tools(call("get_schema")),
        tools(call("run_query", spec=spec)),
        final("金额最高的客户是张三（{{q1.金额[0]}}）。"),
        question="金额最高的客户是谁？",
    )
    assert response.status == "answered" and "张三" in response.answer


def _intercepted(binding, *turns, reason, question="各地区销售额是多少？"):
    response, events, _model = ask(binding, *turns, question=question)
    assert response.status == "intercepted" and response.answer == "" and response.tables == []
    expected = "held back" if question.isascii() else "拦截"
    assert response.error.code == "intercepted" and expected in response.error.message, "in the question's language"
    log = InterceptionLog.objects.for_tenant(binding.tenant).get()
    assert log.reason == reason, log.reasons
    assert log.trace_id == response.audit.trace_id and log.question == question
    verifies = [e for e in events if e.type == "verify"]
    assert [v.data["retry"] for v in verifies] == [True, False], "one corrective retry, then interception"
    return log


def test_answering_without_tools_is_intercepted(binding):
    log = _intercepted(
        binding,
        final("2025 年销售额为 1,234,567 元。"),
        final("2025 年销售额约为 1,234,567 元。"),
        reason="required_tools_missing",
    )
    assert any(r["code"] == "ungrounded_number" for r in log.reasons)


def test_numbered_placeholder_users_are_intercepted(binding):
    log = _intercepted(
        binding,
        *schema_then_query(),
        final("消费最多的是用户1、用户2、用户3。"),
        final("前三名：用户1、用户2、用户3。"),
        reason="fake_data_pattern",
    )
    assert {m["text"] for m in log.matched_patterns} >= {"用户1、用户2、用户3"}


def test_invented_test_names_are_intercepted(binding):
    _intercepted(
        binding,
        *schema_then_query(),
        final("Top customers: Alice and Bob."),
        final("Top customers: Alice, Bob."),
        reason="fake_data_pattern",
        question="Who are the top customers?",
    )


def test_a_number_no_tool_returned_is_intercepted(binding):
    log = _intercepted(
        binding,
        *schema_then_query(),
        final("华东销售额为 170.5。"),
        final("华东销售额为 170.5，占比 53%。"),
        reason="ungrounded_number",
    )
    assert [u["text"] for u in log.ungrounded] == ["170.5", "53%"]
    assert log.tool_calls[1]["name"] == "run_query" and log.tool_calls[1]["rows"][0] == ["华东", 160.5]


def test_obeying_an_instruction_planted_in_a_cell_is_intercepted(binding):
    def obey(messages):
        cells = [row for body in tool_results(messages) for row in body.get("data", {}).get("rows", [])]
        assert any("888888" in str(cell) for row in cells for cell in row), "the planted text reached the model"
        return final("销售额是 888888。")

    spec = {"columns": ["客户", "备注"], "limit": 10}
    log = _intercepted(
        binding, tools(call("get_schema")), tools(call("run_query", spec=spec)), obey, obey, reason="ungrounded_number"
    )
    assert "888888" in log.draft


def test_a_wrong_draft_corrected_on_the_retry_is_answered(binding):
    response, events, model = ask(
        binding, *schema_then_query(), final("华东为 999。"), final("华东为 {{q1.销售额[0]}}。")
    )
    assert response.status == "answered" and response.answer == "华东为 160.5。"
    types = [e.type for e in events]
    assert types[-3:] == ["verify", "answer.delta", "run.finished"] and types.count("answer.delta") == 1
    assert events[-2].data == {"text": "华东为 160.5。"}, "only the verified text is sent, never the rejected one"
    feedback = model.seen[-1][-1].content
    assert feedback.startswith("VERIFY FAILED") and "999" in feedback


def test_repeating_the_same_call_ends_the_run(binding):
    response, events, _model = ask(binding, tools(call("get_schema")), tools(call("get_schema")))
    assert response.status == "failed" and response.error.code == "no_progress"
    assert events[-1].type == "run.failed" and response.answer == ""


def test_a_bad_argument_goes_back_to_the_model_which_corrects_it(binding):
    bad = {"group_by": ["区域"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}

    def corrected(messages):
        error = tool_results(messages)[-1]["error"]
        assert error["code"] == "unknown_column" and "地区" in error["message"]
        return tools(call("run_query", spec=BY_REGION))

    response, _events, _model = ask(
        binding,
        tools(call("get_schema")),
        tools(call("run_query", spec=bad)),
        corrected,
        final("最高：{{q1.地区[0]}} {{q1.销售额[0]}}"),
    )
    assert response.status == "answered" and response.answer == "最高：华东 160.5"
    assert [s.status for s in response.audit.steps] == ["ok", "validation_error", "ok"]


def test_a_system_error_stops_the_run_without_an_answer(binding):
    binding.version.storage_name = "missing.duckdb"  # the data file is gone: the source cannot answer
    response, events, _model = ask(
        binding, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final("华东 160.5")
    )
    assert response.status == "failed" and response.error.code == "tool_failed" and response.answer == ""
    assert "检查数据源" in " ".join(response.error.suggestions)
    assert not any(e.type == "verify" for e in events) and events[-1].type == "run.failed"


def test_at_most_eight_steps(binding):
    turns = [tools(call("sample_rows", n=i)) for i in range(1, 10)]
    response, _events, _model = ask(binding, *turns)
    assert response.status == "failed" and response.error.code == "too_many_steps"
    assert len(response.audit.steps) == 8


def test_at_most_six_parallel_calls_per_step(binding):
    calls = [call("sample_rows", n=i) for i in range(1, 8)]
    response, events, model = ask(
        binding,
        tools(*calls),
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        final("{{q7.地区[0]}}"),
    )
    assert [e.type for e in events].count("tool.started") == 6 + 2
    skipped = [m for m in model.seen[1] if getattr(m, "status", "") == "error"]
    assert len(skipped) == 1 and "at most 6" in skipped[0].content
    assert response.status == "answered"


def test_tenant_and_dataset_come_from_the_binding_not_the_arguments(binding):
    response, _events, model = ask(
        binding,
        tools(call("get_schema", table="other_tenant.secret")),
        tools(call("get_schema")),
        *schema_then_query()[1:],
        final("{{q1.地区[0]}}"),
    )
    first = response.audit.steps[0]
    assert first.status == "validation_error" and "omit 'table'" in first.error


def test_empty_and_oversized_questions_are_refused(binding):
    with pytest.raises(InvalidInput) as empty:
        answer_question(binding=binding, question="  ", model=ScriptedChatModel())
    assert empty.value.code == "empty_question"
    with pytest.raises(InvalidInput) as long:
        answer_question(binding=binding, question="x" * 2001, model=ScriptedChatModel())
    assert long.value.code == "question_too_long"
