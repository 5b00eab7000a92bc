"""Models that answer in the requirements' structured JSON (task_analysis, execution_plan, current_round, action):
their tool calls run and are audited, their final content is verified like any answer, the JSON never reaches
people, more than 6 calls are refused beyond the sixth, and model-written HTML/script charts are not rendered."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from apps.agent.runner import answer_question
from apps.audit.models import AuditEvent, InterceptionLog
from tests.agent.test_graph_hygiene import words_of
from tests.fakes import ScriptedChatModel, final, structured, structured_call, tool_results
from tests.support.sales import BY_REGION, SALES

QUESTION = "各地区销售额是多少？"
ANALYSIS = "用户想比较各地区的销售额。1. 识别为分组汇总；2. 风险：地区名称需与数据一致；3. 先看字段再汇总。"
PLAN = "R1: 查看字段；R2: 按地区汇总销售额；R3: 生成结论"
# As shown: the inline enumeration one item per line.
SHOWN_ANALYSIS = "用户想比较各地区的销售额。\n1. 识别为分组汇总；\n2. 风险：地区名称需与数据一致；\n3. 先看字段再汇总。"
ECHARTS_BLOB = (
    "数据分析显示：\n\n<div class='chart-wrapper'>\n    <div id='chart-sales' style='width:600px;height:400px;'>"
    "</div>\n</div>\n<script>\n(function(){\n    const chart = echarts.init(document.getElementById('chart-sales'));\n"
    "    chart.setOption({xAxis: {type: 'category', data: ['华东', '华北']}, yAxis: {type: 'value'},\n"
    "        series: [{type: 'bar', data: [999, 520]}]});\n})();\n</script>\n"
)


@pytest.fixture
def binding(csv_binding):
    return csv_binding("sales.csv", SALES, name="销售")


def ask(binding, *turns, question=QUESTION):
    model = ScriptedChatModel(turns=list(turns))
    events = []
    response = answer_question(
        binding=binding, question=question, model=model, model_name="scripted", emit=events.append
    )
    return response, events, model


def schema_then_query(*, fenced=False):
    return [
        structured(
            "tool_call",
            [structured_call("get_schema")],
            task_analysis=ANALYSIS,
            execution_plan=PLAN,
            current_round=1,
            fenced=fenced,
        ),
        structured(
            "tool_call",
            [structured_call("run_query", spec=BY_REGION)],
            task_analysis="字段已知：按 地区 分组，对 金额 求和。",
            execution_plan=PLAN,
            current_round=2,
        ),
    ]


def complete(content, **kwargs):
    kwargs.setdefault("task_analysis", "已获取各地区销售额，开始撰写结论。")
    kwargs.setdefault("execution_plan", PLAN)
    kwargs.setdefault("current_round", 3)
    return structured("complete", content, **kwargs)


def shown_texts(response, events):
    """Everything people can read: the response and every streamed event, without their ids, timings and costs
    (random digits that may contain the number looked for)."""
    return words_of(response.model_dump(mode="json")) + " " + " ".join(words_of(e.data) for e in events)


def test_structured_tool_calls_run_and_are_audited_and_the_content_is_verified_and_shown(binding):
    response, events, model = ask(
        binding,
        *schema_then_query(),
        complete(
            "销售额最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}}；{{q1.地区[1]}} 为 {{q1.销售额[1]}}。",
            recommended_questions=["各地区的客户数是多少？", "华东的客户有哪些？"],
            download_links=["https://evil.example/report.xlsx"],
        ),
    )
    assert response.status == "answered", response.verification
    assert response.answer == "销售额最高的是 华东，为 160.5；华北 为 80。"
    assert response.recommended_questions == ["各地区的客户数是多少？", "华东的客户有哪些？"]
    assert "evil.example" not in shown_texts(response, events), "download links come from the platform only"
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query"]
    audited = AuditEvent.objects.for_tenant(binding.tenant).filter(trace_id=response.audit.trace_id)
    assert [(a.step, a.tool, a.status) for a in audited] == [(1, "get_schema", "ok"), (2, "run_query", "ok")]
    assert response.tables[0].rows[0] == ["华东", 160.5]
    # The model was answered the way the OpenAI protocol expects: one tool result per call id it sent.
    sent = model.seen[1]
    asked = [m for m in sent if isinstance(m, AIMessage) and m.tool_calls][0]
    replies = [m for m in sent if isinstance(m, ToolMessage)]
    assert [r.tool_call_id for r in replies] == [c["id"] for c in asked.tool_calls]
    assert tool_results(model.seen[2])[-1]["data"]["rows"][0] == ["华东", 160.5]
    shown = shown_texts(response, events)
    assert '"action"' not in shown and "tool_call_id" not in shown and '"type": "complete"' not in shown


def test_plan_events_and_the_response_carry_the_structured_plan(binding):
    response, events, _model = ask(binding, *schema_then_query(), complete("最高的是 {{q1.地区[0]}}。"))
    plans = [e.data for e in events if e.type == "plan"]
    assert [p["current_round"] for p in plans] == [1, 2, 3]
    assert plans[0]["task_analysis"] == SHOWN_ANALYSIS and plans[0]["execution_plan"] == PLAN
    assert plans[0]["tool_calls"] == [{"name": "get_schema", "args": {}}] and plans[0]["text"] == ""
    assert plans[1]["tool_calls"][0]["name"] == "run_query"
    body = response.model_dump(mode="json")
    assert (body["task_analysis"], body["execution_plan"], body["current_round"]) == (
        "已获取各地区销售额，开始撰写结论。",
        PLAN,
        3,
    )


def test_a_fenced_reply_after_a_line_of_prose_is_read(binding):
    first, second = schema_then_query(fenced=True)
    first = AIMessage(content="好的，下面是我的计划：\n" + str(first.content))
    response, events, _model = ask(binding, first, second, complete("最高的是 {{q1.地区[0]}}。", fenced=True))
    assert response.status == "answered" and response.answer == "最高的是 华东。"
    assert [e.data["task_analysis"] for e in events if e.type == "plan"][0] == SHOWN_ANALYSIS


def test_a_wrong_number_in_structured_content_is_intercepted(binding):
    response, events, _model = ask(
        binding,
        *schema_then_query(),
        complete("华东销售额为 170.5。"),
        complete("华东销售额为 170.5，占比 53%。", current_round=4),
    )
    assert response.status == "intercepted" and response.answer == "" and response.tables == []
    log = InterceptionLog.objects.for_tenant(binding.tenant).get()
    assert log.reason == "ungrounded_number" and log.draft == "华东销售额为 170.5，占比 53%。", "the content, not JSON"
    assert [v.data["retry"] for v in events if v.type == "verify"] == [True, False]
    assert "170.5" not in shown_texts(response, events)


def test_an_invented_number_in_the_task_analysis_is_held_back(binding):
    first, second = schema_then_query()
    invented = structured(
        "tool_call",
        [structured_call("get_schema")],
        task_analysis="Q1-Q4 分别为 500、520、580、620 万元，呈稳定增长。",
        execution_plan="R1: 查看字段；R2: 汇总",
    )
    response, events, _model = ask(binding, invented, second, complete("最高的是 {{q1.地区[0]}}。"))
    assert response.status == "answered"
    first_plan = next(e.data for e in events if e.type == "plan")
    assert first_plan["task_analysis"] == "" and first_plan["execution_plan"] == "R1: 查看字段；R2: 汇总"
    assert "620" not in shown_texts(response, events)


def test_more_than_six_structured_calls_run_six_and_refuse_the_rest_with_a_note(binding):
    calls = [structured_call("sample_rows", n=i) for i in range(1, 8)]
    response, events, model = ask(
        binding,
        structured("tool_call", calls, task_analysis="先抽样看看数据。", execution_plan="R1: 抽样"),
        *schema_then_query(),
        complete("最高的是 {{q7.地区[0]}}。"),
    )
    assert response.status == "answered", response.error
    assert [e.type for e in events].count("tool.started") == 6 + 2
    first_plan = next(e.data for e in events if e.type == "plan")
    assert first_plan["refused_calls"] == ["sample_rows"]
    refused = [m for m in model.seen[1] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(refused) == 1 and "at most 6" in str(refused[0].content)
    audited = AuditEvent.objects.for_tenant(binding.tenant).filter(trace_id=response.audit.trace_id, step=1)
    assert audited.count() == 6, "the refused call never ran, so it has no audit row"


def test_an_html_and_script_chart_in_the_content_is_not_rendered(binding):
    response, events, _model = ask(
        binding,
        *schema_then_query(),
        complete(ECHARTS_BLOB + "\n最高的是 {{q1.地区[0]}}（{{q1.销售额[0]}}）。"),
    )
    assert response.status == "answered", response.verification
    assert response.answer == "数据分析显示：\n\n最高的是 华东（160.5）。"
    shown = shown_texts(response, events)
    for markup in ("<script", "<div", "echarts", "setOption", "999"):
        assert markup not in shown
    assert response.charts == [], "charts come only from the plot tool"
    assert [w["code"] for w in response.verification.warnings] == ["model_markup_removed"]


def test_a_script_in_plain_text_answers_is_removed_too(binding):
    first, second = schema_then_query()
    response, _events, _model = ask(
        binding, first, second, final("最高的是 {{q1.地区[0]}}。<script>alert(document.cookie)</script>")
    )
    assert response.status == "answered" and response.answer == "最高的是 华东。"


def test_an_unreadable_structured_reply_is_asked_again_and_never_shown(binding):
    cut = str(complete("最高的是 {{q1.地区[0]}}，销售额为").content)[:-40]  # JSON cut off mid-string

    def told_why(messages):
        assert "could not be used" in str(messages[-1].content) and "not valid JSON" in str(messages[-1].content)
        return complete("最高的是 {{q1.地区[0]}}。")

    response, events, _model = ask(binding, *schema_then_query(), AIMessage(content=cut), told_why)
    assert response.status == "answered" and response.answer == "最高的是 华东。"
    assert "销售额为" not in shown_texts(response, events)


def test_an_unreadable_reply_twice_fails_the_run_with_a_clear_message(binding):
    bad = AIMessage(content='{"task_analysis": "分析", "action": {"type": "complete", "content": "最高的是')
    other = AIMessage(content='```json\n{"action": {"type": "answer", "content": "最高的是华东"}}\n```')
    response, events, _model = ask(binding, *schema_then_query(), bad, other)
    assert response.status == "failed" and response.error.code == "unreadable_reply"
    assert "JSON" in response.error.message and response.answer == ""
    assert events[-1].type == "run.failed"
    assert "最高的是" not in shown_texts(response, events)


def test_the_documented_response_names_are_present(binding):
    plot = structured_call("plot", result="q1", plot={"chart_type": "bar", "x": "地区", "y": ["销售额"]})
    response, _events, _model = ask(
        binding,
        *schema_then_query(),
        structured("tool_call", [plot], task_analysis="画图。", execution_plan=PLAN, current_round=3),
        complete("最高的是 {{q1.地区[0]}}（{{q1.销售额[0]}}）。", current_round=4),
    )
    assert response.status == "answered", response.verification
    body = response.model_dump(mode="json")
    assert body["answer"] and body["tables"][0]["name"] and body["tables"][0]["rows"][0] == ["华东", 160.5]
    assert body["charts"][0]["type"] == "bar" and body["charts"][0]["option"]["series"]
    audit = body["audit"]
    assert audit["trace_id"] and audit["llm_cost_usd"] == audit["llm"]["cost_usd"]
    assert {"tool", "latency_ms", "rows"} <= set(audit["steps"][0])
    assert [s["tool"] for s in audit["steps"]] == ["get_schema", "run_query", "plot"]
    assert audit["steps"][1]["rows"] == 3
    assert {"task_analysis", "execution_plan", "current_round"} <= set(body)
