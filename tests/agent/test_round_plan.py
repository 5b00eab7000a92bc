"""The structured plan of every plan step (task analysis, execution plan by round, current round): streamed in
`plan` events and carried by the response, for the offline planner, a model that gives its own, and a model that
gives none (the rounds the run has made)."""

from __future__ import annotations

import pytest

from apps.agent.offline import OfflinePlanner
from apps.agent.round_plan import enumeration_as_lines, known_tool, rounds_so_far
from apps.agent.runner import answer_question
from tests.fakes import ScriptedChatModel, call, final, tools
from tests.support.sales import BY_REGION, SALES


@pytest.fixture
def binding(csv_binding):
    return csv_binding("sales.csv", SALES, name="销售")


def plans(events):
    return [e.data for e in events if e.type == "plan"]


def test_the_offline_planner_states_its_plan_at_every_step(binding):
    events = []
    response = answer_question(
        binding=binding, question="各地区的金额合计是多少？", model=OfflinePlanner(), emit=events.append
    )
    assert response.status == "answered", response.error
    steps = plans(events)
    assert [p["current_round"] for p in steps] == list(range(1, len(steps) + 1))
    assert [p["tool_calls"][0]["name"] for p in steps[:2]] == ["get_schema", "run_query"]
    assert all(p["task_analysis"] and p["execution_plan"] for p in steps)
    assert (
        steps[0]["task_analysis"].startswith("先读取数据的列")
        and "R1：读取数据的列和取值（当前）" in steps[0]["execution_plan"]
    )
    assert "按 地区 分组" in steps[1]["task_analysis"] and "sum(金额)" in steps[1]["task_analysis"]
    assert "R2：用查询计算数字（当前）" in steps[1]["execution_plan"]
    last = steps[-1]
    assert last["tool_calls"] == [] and last["execution_plan"].endswith("（当前）")
    body = response.model_dump(mode="json")
    assert (body["task_analysis"], body["execution_plan"], body["current_round"]) == (
        last["task_analysis"],
        last["execution_plan"],
        last["current_round"],
    )


def test_the_offline_planner_speaks_the_questions_language(binding):
    events = []
    answer_question(
        binding=binding, question="What is the total 金额 by 地区?", model=OfflinePlanner(), emit=events.append
    )
    first, second = plans(events)[:2]
    assert first["task_analysis"].startswith("First read the data's columns")
    assert first["execution_plan"].startswith("R1: read the data's columns and values (current)")
    assert second["task_analysis"].startswith("The question maps onto one query: compute")


def test_the_offline_planner_plan_for_a_question_asked_back(csv_binding):
    data = "日期,发货地区,销售数量,销售金额\n2025-01-01,华东,5,150\n2025-01-02,华北,6,180\n"
    binding = csv_binding("shipments.csv", data, name="发货")
    events = []
    response = answer_question(
        binding=binding, question="各发货地区的销售是多少", model=OfflinePlanner(), emit=events.append
    )
    assert response.clarification is not None
    assert "先请你确认" in plans(events)[-1]["task_analysis"]


def test_a_model_without_a_plan_of_its_own_gets_the_rounds_it_made(binding):
    model = ScriptedChatModel(
        turns=[
            tools(call("get_schema"), text="先看字段，再按地区汇总。"),
            tools(call("run_query", spec=BY_REGION)),
            final("最高的是 {{q1.地区[0]}}。"),
        ]
    )
    events = []
    response = answer_question(
        binding=binding, question="What are the sales by region?", model=model, emit=events.append
    )
    first, second, last = plans(events)
    assert first["task_analysis"] == "先看字段，再按地区汇总。", "the text it streamed beside its calls"
    assert first["execution_plan"] == "R1: get_schema (current)"
    assert second["task_analysis"] == "" and second["execution_plan"] == "R1: get_schema; R2: run_query (current)"
    assert last["execution_plan"] == (
        "R1: get_schema; R2: run_query; R3: write the answer, every number checked against the results (current)"
    )
    assert [p["current_round"] for p in (first, second, last)] == [1, 2, 3]
    assert response.current_round == 3 and response.execution_plan == last["execution_plan"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "思维链：1. 识别意图; 2. 预判数据风险; 3. 设计复合指令",
            "思维链：\n1. 识别意图;\n2. 预判数据风险;\n3. 设计复合指令",
        ),
        ("增长 3.5%，排第 2. 名", "增长 3.5%，排第 2. 名"),
        ("先做 2. 再做 1.", "先做 2. 再做 1."),
        ("1. a\n2. b", "1. a\n2. b"),
    ],
)
def test_an_inline_enumeration_is_shown_one_item_per_line(text, shown):
    assert enumeration_as_lines(text) == shown


def test_a_tool_name_the_model_made_up_is_never_shown_as_written():
    assert known_tool("run_query", {"get_schema", "run_query"}) == "run_query"
    assert known_tool("analyze_dataframe", {"run_query"}) == "analyze_dataframe"  # a documented alias
    made_up = "<b>rm -rf</b> 999万"
    assert "rm" not in known_tool(made_up, {"run_query"}) and "999" not in known_tool(made_up, {"run_query"})
    plan = rounds_so_far([], [{"name": made_up, "args": {}}], 1, {"run_query"})
    assert "999" not in plan and "rm" not in plan
