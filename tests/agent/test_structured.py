"""Reading the requirements' structured JSON reply defensively: bare, fenced or after prose; tool calls with
missing or repeated ids; invalid or cut-off JSON; text that only mentions JSON is plain text."""

from __future__ import annotations

import json

import pytest

from apps.agent.structured import Malformed, RoundPlan, StructuredReply, read_structured

EXAMPLE_CALL = {
    "task_analysis": (
        "用户请求分析销售数据异动。1. 识别为数据分析任务；2. 需要查询历史数据对比；3. 计算增长率并可视化。"
    ),
    "execution_plan": "R1: 查询历史销售数据并计算增长率；R2: 生成可视化图表和结论报告",
    "current_round": 1,
    "action": {
        "type": "tool_call",
        "content": [
            {
                "tool_name": "query_database",
                "tool_call_id": "call_q1_001",
                "arguments": {"query": "SELECT quarter, SUM(amount) as total FROM sales GROUP BY quarter"},
            }
        ],
    },
}
EXAMPLE_COMPLETE = {
    "task_analysis": "工具执行完成，已获取季度销售数据。",
    "execution_plan": "R1: 查询历史数据；R2: 分析数据(当前)",
    "current_round": 2,
    "action": {
        "type": "complete",
        "content": "## 销售数据分析结果\n\n全年销售额呈现稳定增长趋势。",
        "recommended_questions": ["各产品线的销售贡献如何？", "同比增长情况如何？"],
    },
}


def test_the_documented_tool_call_example_becomes_tool_calls():
    reply = read_structured(json.dumps(EXAMPLE_CALL, ensure_ascii=False, indent=4))
    assert isinstance(reply, StructuredReply) and reply.kind == "tool_call"
    assert reply.plan == RoundPlan(EXAMPLE_CALL["task_analysis"], EXAMPLE_CALL["execution_plan"], 1)
    [call] = reply.calls
    assert (call["name"], call["id"]) == ("query_database", "call_q1_001")
    assert call["args"] == EXAMPLE_CALL["action"]["content"][0]["arguments"]


def test_the_documented_complete_example_becomes_a_draft_with_follow_ups():
    text = "```json\n" + json.dumps(EXAMPLE_COMPLETE, ensure_ascii=False) + "\n```"
    reply = read_structured(text)
    assert isinstance(reply, StructuredReply) and reply.kind == "complete"
    assert reply.draft() == (
        "## 销售数据分析结果\n\n全年销售额呈现稳定增长趋势。\n>> 各产品线的销售贡献如何？\n>> 同比增长情况如何？"
    )
    assert reply.plan.current_round == 2


def test_prose_before_the_object_and_a_stray_fence_in_the_content_are_fine():
    body = dict(EXAMPLE_COMPLETE, action={"type": "complete", "content": "代码：\n```python\nprint(1)\n```\n完"})
    reply = read_structured("好的，结果如下：\n```json\n" + json.dumps(body, ensure_ascii=False) + "\n```\n谢谢")
    assert isinstance(reply, StructuredReply) and reply.text.endswith("```\n完")


def test_calls_without_ids_or_with_repeated_ids_get_unique_ids_and_bad_calls_are_invalid():
    content = [
        {"tool_name": "get_schema", "arguments": {}},
        {"tool_name": "run_query", "tool_call_id": "same", "arguments": '{"spec": {}}'},
        {"tool_name": "plot", "tool_call_id": "same", "arguments": {}},
        {"arguments": {"n": 1}},
        {"tool_name": "sample_rows", "arguments": "not json"},
    ]
    reply = read_structured(json.dumps({"action": {"type": "tool_call", "content": content}}))
    assert isinstance(reply, StructuredReply)
    ids = [c["id"] for c in reply.calls] + [c["id"] for c in reply.invalid_calls]
    assert len(set(ids)) == 5 and reply.calls[1]["id"] == "same"
    assert [c["name"] for c in reply.calls] == ["get_schema", "run_query", "plot"]
    assert reply.calls[1]["args"] == {"spec": {}}, "arguments sent as a JSON string are read"
    assert [c["name"] for c in reply.invalid_calls] == [None, "sample_rows"]


@pytest.mark.parametrize(
    "text",
    [
        '{"task_analysis": "分析", "action": {"type": "complete", "content": "最高的是',  # cut off
        '```json\n{"action": {"type": "complete", "content": "x",}}\n```',  # trailing comma
        '{"action": {"type": "answer", "content": "x"}}',  # unknown type
        '{"action": {"type": "tool_call", "content": []}}',  # no calls
        '{"action": {"type": "complete", "content": {"text": "x"}}}',  # content not a string
        '{"task_analysis": "只有分析"}',  # no action
    ],
)
def test_text_meant_as_the_structure_that_cannot_be_used_is_malformed(text):
    assert isinstance(read_structured(text), Malformed)


@pytest.mark.parametrize(
    "text",
    ["", "华东的销售额最高。", '字段 "action" 表示动作。', '结果：{"地区": "华东", "销售额": 160.5}', "[1, 2, 3]"],
)
def test_plain_text_is_not_the_structure(text):
    assert read_structured(text) is None


def test_round_numbers_and_list_valued_plans_are_read_leniently():
    reply = read_structured(
        json.dumps(
            {
                "task_analysis": ["识别", "规划"],
                "execution_plan": ["R1: a", "R2: b"],
                "current_round": "2",
                "action": {"type": "Complete", "content": "好"},
            },
            ensure_ascii=False,
        )
    )
    assert isinstance(reply, StructuredReply)
    assert reply.plan == RoundPlan("识别\n规划", "R1: a; R2: b", 2)
    odd = read_structured(json.dumps({"current_round": True, "action": {"type": "complete", "content": "好"}}))
    assert isinstance(odd, StructuredReply) and odd.plan.current_round is None
