"""Verify v2: claims, not only numbers. Each number is bound to the row it came from, every part of the question is
applied or disclosed, only query results ground numbers, earlier turns are re-grounded against their own results,
and honest answers without data claims pass without tools."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.agent.verification.check import EarlierTurn, ToolCallRecord, VerifyInput, check_plan_text, verify
from apps.agent.verification.vocabulary import Vocabulary

REGIONS = ["华东", "华北", "华南", "西部"]
VOCAB = Vocabulary.from_profiles(
    [
        {
            "columns": [
                {"name": "日期", "kind": "date", "role": "time", "min": "2024-01-01", "max": "2025-12-31"},
                {"name": "地区", "kind": "text", "role": "dimension", "values": REGIONS},
                {"name": "星期", "kind": "text", "role": "dimension", "values": ["Thursday", "Friday"]},
                {"name": "金额", "kind": "number", "role": "measure"},
                {"name": "退货数量", "kind": "integer", "role": "measure"},
                {"name": "user_id", "kind": "integer", "role": "id"},
            ]
        }
    ],
    synonyms={"营收": "金额"},
)
SCHEMA = ToolCallRecord(
    step=1,
    name="get_schema",
    status="ok",
    columns=["column", "kind", "role", "null_ratio", "distinct_count"],
    rows=[
        ["地区", "text", "dimension", 0.0, 4],
        ["金额", "number", "measure", 0.0, 20],
        ["user_id", "integer", "id", 0.0, 20],
    ],
    row_count=3,
)
BY_REGION_2025 = {
    "filters": [{"column": "日期", "grain": "year", "op": "=", "value": 2025}],
    "group_by": ["地区"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "sort": [{"by": "销售额", "desc": True}],
}
REGION_ROWS = [["华东", 412345.5], ["华北", 300120.25], ["华南", 298000.0], ["西部", 289381.62]]


def tool_result(name, arguments, columns, rows, step=2):
    return ToolCallRecord(
        step=step, name=name, status="ok", arguments=arguments, columns=columns, rows=rows, row_count=len(rows)
    )


def run(spec, columns, rows, step=2):
    return tool_result("run_query", {"spec": spec}, columns, rows, step)


def check(draft, question="2025 年各地区销售额是多少？", calls=None, **kwargs):
    calls = calls if calls is not None else [SCHEMA, run(BY_REGION_2025, ["地区", "销售额"], REGION_ROWS)]
    return verify(VerifyInput(question=question, draft=draft, tool_calls=calls, vocabulary=VOCAB, **kwargs))


def codes(verdict):
    return [r.code for r in verdict.reasons]


# --- claim binding ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "draft",
    [
        "华东 289,381.62",
        "华东：289,381.62 元",
        "华东地区在 2025 年全年的销售额合计为 289,381.62 元",
        "289,381.62 元是华东的销售额",
        "销售额 289,381.62（华东）",
        "华南 412,345.5 元、华东 298,000 元",
    ],
)
def test_true_numbers_under_the_wrong_label_fail_at_any_distance_in_the_clause(draft):
    verdict = check(draft)
    assert "mislabeled_value" in codes(verdict), verdict


def test_right_labels_pass_with_their_row_bound():
    verdict = check("2025 年销售额最高的是华东（412,345.5 元），西部最低，为 289,381.62 元。")
    assert verdict.passed, verdict.reasons
    bound = {g.text: (g.row, g.labels) for g in verdict.grounding}
    assert bound["412,345.5"][0] == 0 and "华东" in bound["412,345.5"][1] and bound["289,381.62"][0] == 3


def test_labels_match_after_normalisation():
    rows = [["Thursday", 12.0], ["Friday", 30.0]]
    calls = [SCHEMA, run({"group_by": ["星期"], "aggregations": [{"name": "n", "func": "count"}]}, ["星期", "n"], rows)]
    assert check("Thu: 12, Fri.: 30", question="orders by weekday", calls=calls).passed
    assert "mislabeled_value" in codes(check("THU: 30", question="orders by weekday", calls=calls))
    assert check("ＷＥＤ", question="orders by weekday", calls=calls).passed  # no number, nothing bound


def test_periods_are_labels_too():
    spec = {
        "group_by": [{"column": "日期", "grain": "month"}],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    }
    rows = [[dt.date(2025, 2, 1), 100.0], [dt.date(2025, 3, 1), 250.0]]
    calls = [SCHEMA, run(spec, ["日期", "销售额"], rows)]
    question = "2025 年每个月的销售额"
    assert check("2025 年 3 月销售额为 250 元，2 月为 100 元。", question=question, calls=calls).passed
    assert "mislabeled_value" in codes(check("3月销售额为 100 元。", question=question, calls=calls))
    assert "mislabeled_value" in codes(check("March 2025: 100", question="monthly sales in 2025", calls=calls))


def test_the_measure_named_must_be_the_column_of_the_value():
    spec = {
        "group_by": ["地区"],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}, {"name": "订单数", "func": "count"}],
    }
    calls = [SCHEMA, run(spec, ["地区", "销售额", "订单数"], [["华东", 1200.0, 30], ["华北", 800.0, 12]])]
    assert check("华东订单数 30，销售额 1,200", question="各地区订单数和销售额", calls=calls).passed
    assert "mislabeled_value" in codes(check("华北订单数 800", question="各地区订单数和销售额", calls=calls))
    assert check("华东营收 1,200", question="各地区营收", calls=calls).passed  # the tenant's word for 金额


def test_respectively_pairs_by_position_and_is_not_bound_clause_by_clause():
    assert check("华东、华北的销售额分别为 412,345.5 元和 300,120.25 元。").passed


# --- grounding sources --------------------------------------------------------------------------


def test_schema_statistics_do_not_ground_numbers():
    verdict = check("所有账号退货为 0，共 20 个账号。", question="账号的退货情况", calls=[SCHEMA])
    assert not verdict.passed and {"ungrounded_number", "required_tools_missing"} <= set(codes(verdict))


def test_a_leading_question_is_not_confirmed_by_its_own_number():
    question = "欧洲销售额有 1500 万吗？"
    total = run({"aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}, ["销售额"], [[13_980_000.0]])
    confirmed = check("对，约 1500 万。", question=question, calls=[SCHEMA, total])
    assert "ungrounded_number" in codes(confirmed)
    corrected = check("没有，销售额为 1398 万，未达到 1500 万。", question=question, calls=[SCHEMA, total])
    assert corrected.passed, corrected.reasons
    assert check("没有。欧洲销售额为 1398 万。", question=question, calls=[SCHEMA, total]).passed
    above = run({"aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}, ["销售额"], [[15_200_000.0]])
    wrong_no = check("没有。欧洲销售额为 1520 万。", question=question, calls=[SCHEMA, above])
    assert "question_not_covered" in codes(wrong_no), "a 'no' with a figure above the one asked is wrong"
    assert check("有，欧洲销售额为 1520 万。", question=question, calls=[SCHEMA, above]).passed
    assert "question_not_covered" in codes(
        check("是的，欧洲销售额为 1398 万。", question=question, calls=[SCHEMA, total])
    )


def test_numbers_from_earlier_turns_are_regrounded_with_their_labels():
    earlier = [EarlierTurn("2025 年各地区销售额", "华东最高。", tables=[(["地区", "销售额"], REGION_ROWS)])]
    calls = [SCHEMA, run(BY_REGION_2025, ["地区", "销售额"], REGION_ROWS[:1])]
    question = "华东呢？和西部比呢？"
    ok = check("华东 412,345.5 元，西部为 289,381.62 元。", question=question, calls=calls, earlier=earlier)
    assert ok.passed, ok.reasons
    assert [g.earlier_turn for g in ok.grounding] == [None, 1]
    swapped = check("华东 412,345.5 元，华北为 289,381.62 元。", question=question, calls=calls, earlier=earlier)
    assert "mislabeled_value" in codes(swapped)
    invented = check("华东 412,345.5 元，华北为 311,000 元。", question=question, calls=calls, earlier=earlier)
    assert "ungrounded_number" in codes(invented)


def test_a_label_that_looks_like_a_number_is_not_a_number_claim():
    rows = [["1950-1955", 12], ["57", 3]]
    calls = [SCHEMA, run({"group_by": ["地区"], "aggregations": [{"name": "n", "func": "count"}]}, ["区间", "n"], rows)]
    assert check("1950-1955 有 12 条，类别 57 有 3 条。", question="各区间的记录数", calls=calls).passed


# --- question coverage --------------------------------------------------------------------------


def test_a_yearly_total_for_each_month_is_not_covered():
    total = run(
        {
            "filters": [{"column": "日期", "grain": "year", "op": "=", "value": 2025}],
            "aggregations": [{"name": "退货数量", "func": "sum", "column": "退货数量"}],
        },
        ["退货数量"],
        [[482]],
    )
    verdict = check("2025 年退货数量为 482 件。", question="2025年每个月的退货数量趋势如何？", calls=[SCHEMA, total])
    assert "question_not_covered" in codes(verdict)
    assert {c.anchor for c in verdict.coverage if c.status == "missing"} >= {"每个月"}


def test_a_list_answered_with_a_sum_of_ids_is_not_covered():
    total = run({"aggregations": [{"name": "user_id", "func": "sum", "column": "user_id"}]}, ["user_id"], [[210]])
    verdict = check("所有用户：210。", question="列出所有的用户", calls=[SCHEMA, total])
    assert "question_not_covered" in codes(verdict)


def test_a_missing_year_filter_is_not_covered_unless_disclosed():
    spec = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    calls = [SCHEMA, run(spec, ["地区", "销售额"], REGION_ROWS)]
    assert "question_not_covered" in codes(check("华东 412,345.5 元。", calls=calls))
    disclosed = check("华东 412,345.5 元。注意：未按 2025 年筛选，这是全部年份的合计。", calls=calls)
    assert disclosed.passed, disclosed.reasons
    assert [c.status for c in disclosed.coverage if c.kind == "period"] == ["disclosed"]


def test_a_number_of_the_question_quoted_as_left_out_is_disclosed_and_claims_nothing():
    """ "the 470 class final" names the occasion, not a condition: quoting it in a line that says it was left out
    discloses it; saying it as a figure of the answer claims a number no query returned."""
    spec = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    calls = [SCHEMA, run(spec, ["地区", "销售额"], REGION_ROWS)]
    question = "in the 470 class final, what were the sales by region?"
    quoted = "East 华东 412,345.5.\nNote: no column matches “in the 470 class final”, so it was left out."
    verdict = check(quoted, question=question, calls=calls)
    assert verdict.passed, verdict.reasons
    assert {c.anchor: c.status for c in verdict.coverage}["470"] == "disclosed"
    claimed = check("华东 412,345.5 in the 470 class final.", question=question, calls=calls)
    assert not claimed.passed
    unquoted = "华东 412,345.5.\nNote: no column matches the 470 class final, so it was left out."
    assert not check(unquoted, question=question, calls=calls).passed


def test_yoy_is_not_covered_by_a_month_over_month_change():
    spec = {
        "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
        "windows": [{"name": "同比", "func": "pct_change", "of": "销售额", "order_by": "月份"}],
    }
    calls = [SCHEMA, run(spec, ["月份", "销售额", "同比"], [["2025-02", 100.0, None], ["2025-03", 125.0, 0.25]])]
    verdict = check("3 月销售额同比增长 25%。", question="2025年3月销售额同比增长多少？", calls=calls)
    assert "question_not_covered" in codes(verdict)
    yearly = {
        "group_by": [{"column": "日期", "grain": "year", "alias": "年份"}],
        "filters": [{"column": "日期", "grain": "month", "op": "=", "value": "2025-03"}],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
        "windows": [{"name": "同比", "func": "pct_change", "of": "销售额", "order_by": "年份"}],
    }
    right = [SCHEMA, run(yearly, ["年份", "销售额", "同比"], [[2024, 100.0, None], [2025, 125.0, 0.25]])]
    assert check("2025 年 3 月销售额同比增长 25%。", question="2025年3月销售额同比增长多少？", calls=right).passed


def test_a_follow_up_with_another_measure_is_not_covered_and_a_stale_filter_is_shown():
    earlier = [
        EarlierTurn("2025年第四季度各地区的退货率", "华东最高。", tables=[(["地区", "退货率"], [["华东", 0.05]])])
    ]
    spec = {
        "filters": [
            {"column": "地区", "op": "in", "value": ["华东", "华南"]},
            {"column": "季度", "op": "=", "value": "2025Q4"},
        ],
        "group_by": ["地区"],
        "aggregations": [{"name": "退货数", "func": "sum", "column": "退货数量"}],
    }
    calls = [SCHEMA, run(spec, ["地区", "退货数"], [["华东", 40], ["华南", 12]])]
    verdict = check("华东 40，华南 12。", question="华东和华南的客单价对比", calls=calls, earlier=earlier)
    assert "question_not_covered" in codes(verdict)
    assert any(w.code == "stale_filter" for w in verdict.warnings)


def test_values_columns_and_top_n_of_the_question_are_covered():
    spec = {**BY_REGION_2025, "limit": 2}
    calls = [SCHEMA, run(spec, ["地区", "销售额"], REGION_ROWS[:2])]
    verdict = check(
        "前 2 名是华东（412,345.5 元）和华北（300,120.25 元）。", question="2025 年销售额前2的地区", calls=calls
    )
    assert verdict.passed, verdict.reasons
    assert {c.kind for c in verdict.coverage} >= {"period", "top_n", "column"}


# --- honest answers and hygiene -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "draft"),
    [
        ("同比是什么意思？", "同比是与上一年同一时期相比的变化：(本期 - 去年同期) / 去年同期。"),
        ("怎么导出Excel？", "在结果表格下方点击“下载 XLSX”即可导出。"),
        ("各客户等级的销售额", "数据中没有“客户等级”这一列，无法按客户等级统计；可以按地区统计销售额。"),
        (
            "What is the p-value of a t-test on sales?",
            "I cannot compute statistical tests; I can compare averages by region.",
        ),
    ],
)
def test_answers_without_data_claims_pass_without_tools(question, draft):
    verdict = check(draft, question=question, calls=[])
    assert verdict.passed, verdict.reasons


def test_think_blocks_empty_answers_and_unknown_links():
    assert check("<think>也许是 999 万</think>华东 412,345.5 元。").passed
    assert codes(check("<think>只想了想</think>  ")) == ["empty_answer"]
    assert "unknown_url" in codes(check("华东 412,345.5 元，详见 http://evil.example/phish"))


def test_search_results_ground_cited_facts_only():
    search = ToolCallRecord(
        step=2,
        name="search_web",
        status="ok",
        payload={
            "results": [
                {"title": "行业报告 2025", "url": "https://example.org/report", "content": "行业增速为 12.5%。"}
            ]
        },
    )
    cited = check(
        "据行业报告 2025（https://example.org/report），行业增速为 12.5%。", question="行业增速是多少？", calls=[search]
    )
    assert cited.passed, cited.reasons
    assert "uncited_search" in codes(check("行业增速为 12.5%。", question="行业增速是多少？", calls=[search]))


def test_a_page_read_with_web_reader_grounds_cited_facts_only():
    page = ToolCallRecord(
        step=2,
        name="web_reader",
        status="ok",
        payload={
            "url": "https://example.org/market",
            "title": "Market outlook",
            "content": "Growth was 7.25% in 2025.",
        },
    )
    question = "What was the market growth in 2025?"
    cited = check("According to Market outlook (https://example.org/market), growth was 7.25%.", question, [page])
    assert cited.passed, cited.reasons
    assert "uncited_search" in codes(check("Growth was 7.25% in 2025.", question=question, calls=[page]))
    assert not check("According to Market outlook, growth was 9.5%.", question=question, calls=[page]).passed


def test_plan_text_is_checked_before_it_is_shown():
    ok = check_plan_text(
        VerifyInput(question="2025 年各地区销售额", draft="先看字段，再按地区汇总 2025 年的销售额。", tool_calls=[])
    )
    assert ok.passed
    for text in ["华东销售额大约 500 万，先确认。", "张三是最大客户。", "详见 http://evil.example/x"]:
        assert not check_plan_text(VerifyInput(question="各地区销售额", draft=text, tool_calls=[SCHEMA])).passed, text


def test_reasons_carry_text_for_people_that_never_holds_the_draft():
    verdict = check("华东 289,381.62")
    reason = verdict.reasons[0]
    assert reason.user and "289,381.62" not in reason.user and "run_query" not in verdict.user_status()


def test_every_number_of_the_question_is_a_condition_to_apply():
    all_orders = run({"aggregations": [{"name": "订单数", "func": "count"}]}, ["订单数"], [[3000]])
    verdict = check("订单数为 3,000。", question="一次买 3 件的订单有多少单？", calls=[SCHEMA, all_orders])
    assert "question_not_covered" in codes(verdict)
    spec = {
        "filters": [{"column": "数量", "op": "=", "value": 3}],
        "aggregations": [{"name": "订单数", "func": "count"}],
    }
    three = run(spec, ["订单数"], [[412]])
    assert check("一次买 3 件的订单有 412 单。", question="一次买 3 件的订单有多少单？", calls=[SCHEMA, three]).passed


@pytest.mark.parametrize(
    "text",
    ["13.98 million", "$14.0m", "about 14 million", "0.01398bn", "1,398.25万", "0.14亿", "13,982,500"],
)
def test_real_world_number_forms_are_grounded(text):
    total = run({"aggregations": [{"name": "revenue", "func": "sum", "column": "金额"}]}, ["revenue"], [[13_982_500.0]])
    verdict = check(f"Revenue was {text}.", question="What was total revenue?", calls=[SCHEMA, total])
    assert verdict.passed, (text, verdict.reasons)


def test_months_written_with_spaces_are_periods_of_the_result():
    spec = {
        "group_by": [{"column": "日期", "grain": "month"}],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    }
    rows = [["2025-07", 100.0], ["2025-03", 250.0]]
    calls = [SCHEMA, run(spec, ["月份", "销售额"], rows)]
    assert check("7 月销售额 100 元，2025 年 3 月为 250 元。", question="2025 年每个月的销售额", calls=calls).passed
    assert "mislabeled_value" in codes(check("7 月销售额 250 元。", question="2025 年每个月的销售额", calls=calls))


def test_each_number_takes_the_label_nearest_to_it():
    assert "mislabeled_value" in codes(check("2025 年华东 300,120.25 元，华北 412,345.5 元。"))
    assert "mislabeled_value" in codes(check("2025 年华东卖了 300,120.25 元而华北 412,345.5 元。"))
    assert check("2025 年华东卖了 412,345.5 元而华北 300,120.25 元。").passed


def test_a_clause_without_labels_takes_those_of_its_sentence():
    spec = {"group_by": [{"column": "日期", "grain": "month"}], "aggregations": [{"name": "人数", "func": "count"}]}
    rows = [["2025-07", 11], ["2025-09", 15]]
    calls = [SCHEMA, run(spec, ["月份", "人数"], rows)]
    question = "2025 年哪个月入职人数最多？"
    assert "mislabeled_value" in codes(check("2025 年 7 月入职人数最多，共 15 人。", question=question, calls=calls))
    assert check("2025 年 9 月入职人数最多，共 15 人。", question=question, calls=calls).passed


def test_yes_to_a_leading_question_needs_a_figure_of_the_data():
    total = run({"aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}, ["销售额"], [[2_101.0]])
    question = "华东销售额超过 3000 了吧？"
    assert not check("是的，华东销售额超过了 3000。", question=question, calls=[SCHEMA, total]).passed
    assert check("没有，华东销售额为 2,101，不到 3000。", question=question, calls=[SCHEMA, total]).passed


def test_a_heading_above_a_numbered_list_of_real_names_is_not_a_placeholder():
    rows = [["余航", 19], ["程心", 19]]
    calls = [
        SCHEMA,
        run(
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "sort": [{"by": "n", "desc": True}],
            },
            ["用户名", "n"],
            rows,
        ),
    ]
    verdict = check(
        "下单次数最多的 2 位用户：\n1. 余航（19 笔）\n2. 程心（19 笔）",
        question="下单次数最多的 2 位用户是谁？",
        calls=calls,
    )
    assert verdict.passed, verdict.reasons
    assert "fake_data_pattern" in codes(check("下单最多的是用户1和用户2", question="谁下单最多？", calls=calls))


def test_a_swap_between_two_filtered_groups_is_still_a_swap():
    spec = {
        "filters": [{"column": "地区", "op": "in", "value": ["华东", "华北"]}],
        "group_by": ["地区"],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    }
    calls = [SCHEMA, run(spec, ["地区", "销售额"], [["华东", 412345.5], ["华北", 300120.25]])]
    question = "华东和华北的销售额分别是多少？"
    assert check("华东 412,345.5 元，华北 300,120.25 元。", question=question, calls=calls).passed
    assert "mislabeled_value" in codes(check("华东 300,120.25 元，华北 412,345.5 元。", question=question, calls=calls))


def test_comparisons_between_named_rows_must_hold():
    question = "2025 年华东的销售额是不是比华北高？"
    assert check("是的，华东 2025 年销售额为 412,345.5 元，高于华北。", question=question).passed
    wrong = check("是的，华北 2025 年销售额为 300,120.25 元，高于华东。", question=question)
    assert "mislabeled_value" in codes(wrong)


def test_formulas_tables_and_counters_bind_to_the_right_columns():
    spec = {
        "aggregations": [{"name": "点击量", "func": "sum", "column": "金额"}, {"name": "曝光量", "func": "count"}],
        "derived": [{"name": "点击率", "expr": "点击量 / 曝光量"}],
    }
    calls = [SCHEMA, run(spec, ["点击量", "曝光量", "点击率"], [[2081395, 50849342, 0.0409325847]])]
    question = "点击率是多少？"
    assert check("点击率为 4.09%（点击量 2,081,395 ÷ 曝光量 50,849,342）。", question=question, calls=calls).passed
    assert check("点击率 = 点击量 ÷ 曝光量 = 2,081,395 ÷ 50,849,342 ≈ 4.09%。", question=question, calls=calls).passed
    users = run(
        {"aggregations": [{"name": "用户数", "func": "count"}, {"name": "订单数", "func": "count"}]},
        ["用户数", "订单数"],
        [[6, 75]],
    )
    assert "mislabeled_value" in codes(check("共有 75 位用户。", question="有多少位用户？", calls=[SCHEMA, users]))
    assert check("共有 6 位用户，75 个订单。", question="有多少位用户？", calls=[SCHEMA, users]).passed
    ranked = run({**BY_REGION_2025, "limit": 2}, ["地区", "销售额"], REGION_ROWS[:2])
    table = "| 排名 | 地区 | 销售额 |\n|---|---|---|\n| 1 | 华东 | 412,345.5 |\n| 2 | 华北 | 300,120.25 |"
    assert check(table, question="2025 年销售额前 2 的地区", calls=[SCHEMA, ranked]).passed


def test_full_width_thousands_and_month_names():
    total = run({"aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}, ["销售额"], [[99255468.54]])
    assert check("两年合计 ９９，２５５，４６８．５４ 元。", question="一共卖了多少？", calls=[SCHEMA, total]).passed
    spec = {
        "group_by": [{"column": "日期", "grain": "month"}],
        "aggregations": [{"name": "mrr", "func": "sum", "column": "金额"}],
    }
    rows = [["2025-10", 186030.13], ["2025-11", 190820.75]]
    calls = [SCHEMA, run(spec, ["月份", "mrr"], rows)]
    question = "How did MRR change in November 2025?"
    assert check(
        "MRR rose from $186,030.13 in October to $190,820.75 in November 2025.", question=question, calls=calls
    ).passed
    swapped = check(
        "MRR rose from $190,820.75 in October to $186,030.13 in November 2025.", question=question, calls=calls
    )
    assert "mislabeled_value" in codes(swapped)


def test_english_labels_before_and_after_their_numbers():
    rows = [["North", 16508281.61], ["South", 15650598.42], ["East", 15299468.14]]
    calls = [SCHEMA, run(BY_REGION_2025, ["region", "revenue"], rows)]
    question = "What was revenue by region in 2025?"
    swapped = check(
        "In 2025, South brought in $16,508,281.61 and North $15,650,598.42.", question=question, calls=calls
    )
    assert "mislabeled_value" in codes(swapped)
    after = (
        "In 2025, North led with $16,508,281.61, compared with $15,650,598.42 for South and $15,299,468.14 for East."
    )
    assert check(after, question=question, calls=calls).passed


def test_a_measure_of_the_data_named_beside_another_measures_number_fails():
    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "线路", "kind": "text", "role": "dimension", "values": ["同城", "干线"]},
                    {"name": "件数", "kind": "integer", "role": "measure"},
                    {"name": "运费", "kind": "number", "role": "measure"},
                ]
            }
        ]
    )
    spec = {
        "group_by": ["线路"],
        "aggregations": [{"name": "件数合计", "func": "sum", "column": "件数"}],
        "windows": [{"name": "占比", "func": "share_of_total", "of": "件数合计"}],
    }
    calls = [SCHEMA, run(spec, ["线路", "件数合计", "占比"], [["同城", 265060, 0.553], ["干线", 164040, 0.342]])]

    def verdict(draft, question):
        return verify(VerifyInput(question=question, draft=draft, tool_calls=calls, vocabulary=vocab))

    assert verdict("各线路件数：同城 265,060 件，干线 164,040 件。", "各线路的件数是多少？").passed
    assert "mislabeled_value" in codes(
        verdict("各线路运费：同城 265,060 元，干线 164,040 元。", "各线路的运费是多少？")
    )
    assert "mislabeled_value" in codes(verdict("各线路运费占比：同城 55.3%，干线 34.2%。", "各线路运费占比是多少？"))


def test_yes_to_a_leading_direction_must_agree_with_the_change():
    yearly = {
        "group_by": [{"column": "日期", "grain": "year", "alias": "年份"}],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
        "windows": [{"name": "同比", "func": "pct_change", "of": "销售额", "order_by": "年份"}],
    }
    rose = [SCHEMA, run(yearly, ["年份", "销售额", "同比"], [[2024, 100.0, None], [2025, 125.0, 0.25]])]
    question = "Sales went down in 2025 compared with 2024, right?"
    assert "mislabeled_value" in codes(
        check("Yes, sales came down in 2025: 125 in all.", question=question, calls=rose)
    )
    assert check("No. Sales rose 25% in 2025, to 125.", question=question, calls=rose).passed
    assert check("Yes, sales went up 25% in 2025.", question="销售额2025年是不是增长了？", calls=rose).passed
    assert "mislabeled_value" in codes(check("是的，2025年销售额 125。", question="2025年销售额下降了吗？", calls=rose))


def test_a_sample_name_is_real_only_as_a_whole_word_of_what_was_said():
    from apps.agent.verification.patterns import find_fake_data

    asked = "how many times was charlie lubega a driver?"
    assert not find_fake_data("Filters: Driver = Charlie Lubega.", real_texts=[asked])
    assert find_fake_data("The top customer was Eve with 5,000.", real_texts=["which customer had the top revenue?"])
    assert find_fake_data("Bob spent 200.", real_texts=["who went bobsledding?"])


@pytest.mark.parametrize("question", ["How much did we sell in the 21st century?", "21世纪的销售额是多少？"])
def test_a_century_is_a_period_to_filter_on_not_the_number_it_is_written_with(question):
    everything = run({"aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}, ["销售额"], [[500.0]])
    assert "question_not_covered" in codes(check("销售额为 500。", question=question, calls=[SCHEMA, everything]))
    spec = {
        "filters": [
            {"column": "日期", "op": ">=", "value": "2000-01-01"},
            {"column": "日期", "op": "<", "value": "2100-01-01"},
        ],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    }
    verdict = check("销售额为 500。", question=question, calls=[SCHEMA, run(spec, ["销售额"], [[500.0]])])
    assert verdict.passed, verdict.reasons
