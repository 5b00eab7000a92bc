"""The verify checks of docs/VERIFY.md: tool failure, required tools, fake data, number grounding, consistency."""

from __future__ import annotations

import pytest

from apps.agent.verification.check import ToolCallRecord, VerifyInput, verify
from apps.agent.verification.vocabulary import Vocabulary

SCHEMA = ToolCallRecord(
    step=1,
    name="get_schema",
    status="ok",
    columns=["name", "type"],
    rows=[["地区", "VARCHAR"], ["销售额", "DOUBLE"]],
    row_count=2,
)


VOCAB = Vocabulary.from_profiles(
    [
        {
            "columns": [
                {"name": "地区", "kind": "text", "role": "dimension", "values": ["华东", "华北", "华南"]},
                {"name": "金额", "kind": "number", "role": "measure"},
            ]
        }
    ]
)


def query(step=2, columns=("地区", "销售额", "占比", "环比"), rows=None):
    rows = rows or [
        ["华东", 12345678.0, 0.125, -0.052],
        ["华北", 8000.5, 0.0625, 0.031],
        ["张三", 42.0, 0.8125, None],
    ]
    return ToolCallRecord(
        step=step, name="run_query", status="ok", columns=list(columns), rows=rows, row_count=len(rows)
    )


def check(draft, *, question="各地区销售额", calls=None, **kwargs):
    return verify(
        VerifyInput(
            question=question, draft=draft, tool_calls=calls if calls is not None else [SCHEMA, query()], **kwargs
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "占比 12.5%",
        "占比 13%",
        "占比12%",
        "1234.57万",
        "1235万",
        "0.12亿",
        "12,345,678",
        "12345678",
        "１２３４５６７８",
        "8000.5",
        "8,000.50",
        "8.0K",
        "12.3M",
        "环比 -5.2%",
        "环比下降 5.2%",
        "下降5%",
        "6.25%",
        "0.0625",
        "81.25%",
        "3 个地区",
        "三个地区",
    ],
)
def test_numbers_that_tools_returned_are_grounded(text):
    verdict = check(f"结果：{text}")
    assert verdict.passed, verdict.reasons
    assert verdict.grounding, "the number keeps its provenance"


@pytest.mark.parametrize("text", ["占比 12.6%", "1234.58万", "0.13亿", "9000", "环比 +5.2%", "12.5", "四个地区"])
def test_numbers_no_tool_returned_are_intercepted(text):
    verdict = check(f"结果：{text}")
    assert not verdict.passed
    assert [r.code for r in verdict.reasons] == ["ungrounded_number"]
    assert verdict.ungrounded[0].text in text


def test_sign_is_not_flipped():
    # +3.1% was returned for 华北; "-3.1%" states the opposite.
    assert not check("华北环比 -3.1%").passed
    assert check("华北环比 3.1%").passed


def test_provenance_names_step_row_and_column():
    verdict = check("华北销售额 8,000.5，占比 6.25%")
    assert [(g.text, g.step, g.row, g.column) for g in verdict.grounding] == [
        ("8,000.5", 2, 1, "销售额"),
        ("6.25%", 2, 1, "占比"),
    ]


def test_row_counts_ground_counts():
    assert check("共有 3 个地区").passed


def test_numbers_from_the_question_are_exempt_only_as_query_parameters():
    spec = {
        "group_by": ["地区"],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
        "having": [{"column": "销售额", "op": ">", "value": 5000}],
        "sort": [{"by": "销售额", "desc": True}],
        "limit": 10,
    }
    filtered = ToolCallRecord(
        step=2,
        name="run_query",
        status="ok",
        arguments={"spec": spec},
        columns=["地区", "销售额"],
        rows=[["华东", 12345678.0], ["华北", 8000.5], ["张三", 42.0]],
        row_count=3,
    )
    question = "销售额超过5000的前10名地区"
    verdict = check("前 10 名里只有 3 个地区，阈值 5000 以上的有 7 个", question=question, calls=[SCHEMA, filtered])
    assert verdict.passed is False  # "7" was never returned
    assert {e.text for e in verdict.exempt} >= {"10", "5000"}
    assert [u.text for u in verdict.ungrounded] == ["7"]
    # Without a query that used 5000, the question's number stated as a fact must be grounded like any other.
    stated = check("是的，销售额有 5000", question="华东销售额有 5000 吗？")
    assert not stated.passed and [u.text for u in stated.ungrounded] == ["5000"]


def test_dates_in_results_or_question_are_exempt_and_invented_ones_are_not():
    calls = [SCHEMA, query(columns=("月份", "销售额"), rows=[["2025-01", 10.0], ["2025-02", 12.0]])]
    ok = check("2025年1月销售额 10，2025-02 为 12，Q1 合计见表", calls=calls, question="2025 年各月销售额")
    assert ok.passed, ok.reasons
    invented = check("2023年3月销售额 10", calls=calls, question="各月销售额")
    assert not invented.passed and invented.ungrounded[0].text.startswith("2023")


def test_list_numbering_and_ranks_are_not_numbers():
    draft = "1. 华东：12345678\n2. 华北：8000.5\n3) 张三：42\n排名第1的是华东，Top 3 如上"
    verdict = check(draft)
    assert verdict.passed, verdict.reasons
    assert check("Top 50 地区").passed is False, "a rank beyond the rows returned is invented"


@pytest.mark.parametrize(
    "draft",
    [
        "Top 用户：用户1、用户2、用户3",
        "用户ID: 7 消费最多",
        "- 用户1\n- 用户2",
        "最佳员工是 Alice 和 Bob",
        "李四贡献最多",
        "以下为示例数据",
    ],
)
def test_fake_data_is_intercepted(draft):
    verdict = check(draft)
    assert not verdict.passed
    assert "fake_data_pattern" in [r.code for r in verdict.reasons]
    assert verdict.matched_patterns


def test_real_names_in_results_pass_and_whitelist_lets_real_patterns_through():
    assert check("最大客户是张三，销售额 42").passed
    assert not check("编号 User 7 的账户").passed
    assert check("编号 User 7 的账户", whitelist=[r"User 7"]).passed
    ids = query(columns=("客户", "销售额"), rows=[["User 7", 42.0], ["SKU-1024", 8.0]])
    assert check("User 7 买了 42，SKU-1024 买了 8", calls=[SCHEMA, ids]).passed


def test_required_tools_per_source_type():
    only_schema = check("华东 12345678", calls=[SCHEMA])
    assert "required_tools_missing" in [r.code for r in only_schema.reasons]
    assert "run_query" in only_schema.reasons[0].message
    sql = verify(
        VerifyInput(
            question="q",
            draft="共 3 行",
            source_type="sql",
            tool_calls=[
                ToolCallRecord(step=1, name="execute_sql_safe", status="ok", columns=["n"], rows=[[3]], row_count=1)
            ],
        )
    )
    assert sql.passed, sql.reasons
    no_tools = check("华东最高", calls=[], vocabulary=VOCAB)
    assert [r.code for r in no_tools.reasons] == ["required_tools_missing"]


def test_small_talk_needs_no_tools_unless_it_states_data():
    assert check("你好！我可以帮你分析上传的数据。", question="你好", calls=[]).passed
    assert not check("你好！华东销售额 500 万。", question="你好", calls=[]).passed


def test_an_unrecovered_tool_failure_never_passes():
    failed = ToolCallRecord(step=2, name="run_query", status="system_error", error="SYSTEM ERROR: timeout")
    verdict = check("华东 12345678", calls=[SCHEMA, failed])
    assert [r.code for r in verdict.reasons] == ["tool_failed"] and not verdict.passed
    recovered = check("华东 12345678", calls=[SCHEMA, failed, query(step=3)])
    assert recovered.passed


def test_unfilled_references_fail():
    verdict = check("华东 {{q1.total[0]}}")
    assert "unfilled_reference" in [r.code for r in verdict.reasons]


def test_warn_only_mode_passes_with_a_warning():
    verdict = check("华东 9999", strict=False)
    assert verdict.passed and verdict.warnings[0].code == "ungrounded_number"


def test_a_value_written_next_to_another_rows_label_fails():
    verdict = check("华东销售额 8000.5")  # 8000.5 is 华北's
    assert not verdict.passed and [r.code for r in verdict.reasons] == ["mislabeled_value"]
    assert "华东" in verdict.reasons[0].message and "华北" in verdict.reasons[0].message
    right = check("华北销售额 8000.5")
    assert right.passed and right.grounding[0].labels == ["华北"]


def test_feedback_tells_the_model_what_to_fix():
    verdict = check("华东占比 23.4%")
    assert "23.4%" in verdict.feedback() and "run_query" in verdict.feedback()


def test_huge_values_do_not_create_false_matches():
    calls = [SCHEMA, query(columns=("x",), rows=[[1e300], [float("inf")], [12.0]])]
    assert check("x 为 12", calls=calls).passed
    assert not check("x 为 1", calls=calls).passed


def test_chinese_numerals_inside_real_values_are_names_not_numbers():
    rows = [["七天无理由", 12], ["质量问题", 5]]
    table = ToolCallRecord(step=2, name="run_query", status="ok", columns=["退货原因", "数量"], rows=rows, row_count=2)
    schema = ToolCallRecord(step=1, name="get_schema", status="ok")
    draft = "退货最多的原因是七天无理由（12 单），其次是质量问题（5 单）。"
    verdict = verify(VerifyInput(question="各退货原因的数量？", draft=draft, tool_calls=[schema, table]))
    assert verdict.passed, verdict.reasons


def test_suggested_questions_alone_are_an_empty_answer():
    verdict = check(">> 各地区的销售额是多少？\n>> 每月销售额的趋势如何？")
    assert not verdict.passed and [r.code for r in verdict.reasons] == ["empty_answer"]


def test_a_fall_written_with_its_minus_sign_agrees_with_a_growth_word():
    assert check("华东环比增长率为 -5.2%", question="华东的情况").passed
    wrong = check("华东环比增长 5.2%", question="华东的情况")
    assert not wrong.passed and [r.code for r in wrong.reasons] == ["mislabeled_value"]


def test_digits_inside_a_result_columns_name_are_part_of_the_name():
    calls = [SCHEMA, query(columns=("2025-12退货金额合计", "2025-11退货金额合计"), rows=[[97161.79, 104849.01]])]
    draft = "2025-12退货金额合计 97,161.79，2025-11退货金额合计 104,849.01。"
    verdict = check(draft, question="退货金额对比", calls=calls)
    assert verdict.passed, verdict.feedback()


def _fees(filters):
    spec = {"filters": filters, "aggregations": [{"name": "费用", "func": "sum", "column": "费用"}]}
    query_call = ToolCallRecord(2, "run_query", "ok", arguments={"spec": spec}, columns=["费用"], rows=[[45678.5]])
    return [SCHEMA, query_call]


def test_one_month_named_beside_a_figure_filtered_to_a_whole_year_fails():
    year = [{"column": "月份", "op": "between", "value": ["2025-01", "2025-12"]}]
    assert not check("东院2025年12月的费用为 45,678.5 元。", question="东院12月的费用", calls=_fees(year)).passed
    assert check("东院2025年的费用为 45,678.5 元。", question="东院2025年的费用", calls=_fees(year)).passed
    assert check("截至2025年12月，东院累计费用 45,678.5 元。", question="东院累计费用", calls=_fees(year)).passed
    december = [{"column": "月份", "op": "=", "value": "2025-12"}]
    assert check("东院2025年12月的费用为 45,678.5 元。", question="东院12月的费用", calls=_fees(december)).passed


def test_a_count_of_the_datas_columns_is_not_a_data_claim():
    assert check("这份数据有两个金额字段：金额和运费。", question="有哪些金额字段？", calls=[]).passed
    assert check("The table has 3 columns you can group by.", question="what can I group by?", calls=[]).passed
    assert not check("这份数据共有 3 个订单。", question="有几个订单？", calls=[]).passed


def _two_warehouses(rows):
    return [SCHEMA, ToolCallRecord(2, "run_query", "ok", columns=["仓库", "平均时效"], rows=rows, row_count=len(rows))]


def test_longest_and_the_winner_of_two_name_the_right_row():
    calls = _two_warehouses([["成都仓", 5.56], ["上海仓", 4.12]])
    assert not check("平均时效最长的是上海仓，4.12 天。", question="哪个仓库时效最长", calls=calls).passed
    assert check("平均时效最长的是成都仓，5.56 天。", question="哪个仓库时效最长", calls=calls).passed
    assert not check("上海仓更高：上海仓 4.12，成都仓 5.56。", question="上海仓和成都仓哪个更高", calls=calls).passed
    assert check("成都仓更高：成都仓 5.56，上海仓 4.12。", question="上海仓和成都仓哪个更高", calls=calls).passed


def test_the_top_n_quoted_are_the_first_n_rows_none_skipped():
    rows = [["一月", 900.0], ["三月", 800.0], ["二月", 700.0]]
    spec = {"group_by": ["月份"], "aggregations": [{"name": "收入", "func": "sum", "column": "金额"}]}
    spec |= {"sort": [{"by": "收入", "desc": True}], "limit": 3}
    result = ToolCallRecord(
        2, "run_query", "ok", arguments={"spec": spec}, columns=["月份", "收入"], rows=rows, row_count=3
    )
    calls = [SCHEMA, result]
    question = "What were the top 2 months by revenue?"
    assert not check("The top two months were 一月 (900) and 二月 (700).", question=question, calls=calls).passed
    assert check("The top two months were 一月 (900) and 三月 (800).", question=question, calls=calls).passed


def test_a_two_digit_year_in_the_question_is_applied_by_its_full_year():
    spec = {"filters": [{"column": "日期", "op": "=", "value": 2024, "grain": "year"}]}
    spec |= {"aggregations": [{"name": "销售额", "func": "sum", "column": "销售额"}]}
    result = ToolCallRecord(2, "run_query", "ok", arguments={"spec": spec}, columns=["销售额"], rows=[[1200.5]])
    assert check("2024年销售额为 1,200.5。", question="24年总销售额多少", calls=[SCHEMA, result]).passed
    spec["filters"][0]["value"] = 2025
    assert not check("销售额为 1,200.5。", question="24年总销售额多少", calls=[SCHEMA, result]).passed


def test_after_a_year_is_applied_by_a_filter_from_the_start_of_the_next_year_and_only_by_it():
    def counted(filters):
        spec = {"filters": filters, "aggregations": [{"name": "appointed", "func": "count"}]}
        return ToolCallRecord(2, "run_query", "ok", arguments={"spec": spec}, columns=["appointed"], rows=[[25]])

    question = "How many managers were appointed after 2011?"
    for bound in ({"op": ">=", "value": "2012-01-01"}, {"op": ">", "value": "2011-12-31"}):
        result = counted([{"column": "日期", **bound}])
        assert check("25 managers were appointed after 2011.", question=question, calls=[SCHEMA, result]).passed
    later = counted([{"column": "日期", "op": ">=", "value": "2013-01-01"}])
    assert not check("25 managers were appointed after 2011.", question=question, calls=[SCHEMA, later]).passed
    in_2011 = "How many managers were appointed in 2011?"
    assert not check(
        "25 managers.",
        question=in_2011,
        calls=[SCHEMA, counted([{"column": "日期", "op": ">=", "value": "2012-01-01"}])],
    ).passed


def test_a_number_inside_a_value_filtered_on_is_applied_by_that_filter():
    def total(customer):
        spec = {"filters": [{"column": "客户", "op": "=", "value": customer}]}
        spec |= {"aggregations": [{"name": "销售额", "func": "sum", "column": "销售额"}]}
        return ToolCallRecord(2, "run_query", "ok", arguments={"spec": spec}, columns=["销售额"], rows=[[880.0]])

    question = "客户7的销售额是多少？"
    assert check("客户7的销售额为 880。", question=question, calls=[SCHEMA, total("客户7")]).passed
    assert not check("客户7的销售额为 990。", question=question, calls=[SCHEMA, total("客户7")]).passed
    assert not check("销售额为 880。", question=question, calls=[SCHEMA, total("客户17")]).passed


def test_an_ordinal_the_query_filters_on_as_a_value_is_applied():
    def counted(filters):
        spec = {"filters": filters, "aggregations": [{"name": "seasons", "func": "count"}]}
        return ToolCallRecord(2, "run_query", "ok", arguments={"spec": spec}, columns=["seasons"], rows=[[2]])

    question = "How many seasons were finished in 3rd place?"
    placed = counted([{"column": "Place", "op": "=", "value": "3rd"}])
    assert check("2 seasons.", question=question, calls=[SCHEMA, placed]).passed
    assert not check("2 seasons.", question=question, calls=[SCHEMA, counted([])]).passed
