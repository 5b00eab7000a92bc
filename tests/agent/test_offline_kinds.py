"""The offline planner's question kinds (apps/agent/offline/kinds): each kind is reached by the questions it is
for, and the defects a business user met are pinned down (同比 read as month over month, 截至…累计 restarting
inside the year, a value scoping a rate taken as its numerator, a single order answered with a product total)."""

from __future__ import annotations

import pytest

from apps.agent.offline.intent import analyze
from apps.agent.offline.kinds import NAMES
from apps.datasets.ingest.profile import TableProfile
from tests.agent.test_offline_planner import HR, ORDERS, col, kept

RETURNS = TableProfile(
    row_count=5848,
    columns=[
        col("日期", "date", "time", 730, lo="2024-01-01", hi="2025-12-31"),
        col("账号", "text", "dimension", 4, values=["京东自营", "天猫旗舰店", "抖音小店", "线下门店"]),
        col("地区", "text", "dimension", values=["华东", "华北", "华南", "西部"]),
        col("订单数量", "integer", "measure", 40, lo=1, hi=40),
        col("销售金额", "number", "measure", 5000, lo=100.0, hi=9000.0),
        col("退货数量", "integer", "measure", 10, lo=0, hi=10),
        col("退货金额", "number", "measure", 900, lo=0.0, hi=2700.0),
    ],
)

# One question per kind, in the registry's order of trial: adding a kind means adding its example here.
EXAMPLES = {
    "period_change": ("2025年退货金额同比增长了多少", RETURNS),
    "to_date": ("截至6月底，2025年累计销售金额是多少", RETURNS),
    "group_average": ("2025年月均销售金额是多少", RETURNS),
    "named_difference": ("天猫旗舰店比京东自营多卖了多少销售金额", RETURNS),
    "named_choice": ("天猫旗舰店和京东自营哪个账号的销售金额更高", RETURNS),
    "spread": ("最高和最低销售金额相差多少", RETURNS),
    "correlation": ("销售金额和订单数量的相关系数", RETURNS),
    "named_rate": ("整体客单价是多少", ORDERS),
    "subject_rate": ("2025年的退货率是多少（按数量）", RETURNS),
    "threshold_share": ("金额超过500的订单占比", ORDERS),
    "conditional_ratio": ("华东地区的退货率", ORDERS),
    "share": ("各地区销售额占比", ORDERS),
    "measure_ratio": ("销售金额/订单数量", RETURNS),
    "net_measure": ("扣除退货金额后的销售金额", RETURNS),
    "time_edge": ("最早的下单日期是哪天", ORDERS),
    "distribution": ("金额的分布情况", ORDERS),
    "tied_extreme": ("有几个产品的金额最高", ORDERS),
    "extreme_rows": ("金额最大的一笔订单是哪一单", ORDERS),
    "aggregate": ("各地区的销售额", ORDERS),
}


def test_every_kind_in_the_registry_has_an_example_that_reaches_it():
    assert set(EXAMPLES) == set(NAMES)
    for kind, (question, profile) in EXAMPLES.items():
        assert analyze(question, profile).question_kind == kind, question


def _where(agg):
    return [(f["column"], f["op"], f["value"], f.get("grain")) for f in agg.get("where", [])]


def test_yoy_of_a_named_year_compares_it_with_the_year_before_not_month_over_month():
    spec = analyze("2025年退货金额同比增长了多少", RETURNS).spec()
    assert "group_by" not in spec and "windows" not in spec and "filters" not in spec
    now, before = spec["aggregations"]
    assert _where(now) == [("日期", "=", 2025, "year")] and _where(before) == [("日期", "=", 2024, "year")]
    assert now["column"] == before["column"] == "退货金额"
    assert any(d["expr"].startswith(f"([{now['name']}] - [{before['name']}])") for d in spec["derived"])


@pytest.mark.parametrize(
    ("question", "profile", "now", "before"),
    [
        ("2025年3月的退货数量跟去年同期比变化了多少", RETURNS, "2025-03", "2024-03"),
        ("7月销售额的环比增长率是多少", ORDERS, "2025-07", "2025-06"),
        ("2025年12月的退货金额环比11月涨了多少", RETURNS, "2025-12", "2025-11"),
    ],
)
def test_a_month_is_compared_with_the_month_asked(question, profile, now, before):
    aggs = analyze(question, profile).spec()["aggregations"]
    assert [_where(a)[0][2] for a in aggs] == [now, before]


def test_a_half_year_yoy_compares_the_same_half():
    aggs = analyze("2025年上半年退货金额同比增长多少", RETURNS).spec()["aggregations"]
    assert [[f[2] for f in _where(a)] for a in aggs] == [["2025-01-01", "2025-07-01"], ["2024-01-01", "2024-07-01"]]


@pytest.mark.parametrize(
    ("question", "end"),
    [("截至6月底，2025年累计销售金额是多少", "2025-07-01"), ("2025年1到9月累计销售金额", "2025-10-01")],
)
def test_a_total_to_a_date_runs_from_the_start_of_the_year_as_one_figure(question, end):
    spec = analyze(question, RETURNS).spec()
    assert [(f["op"], f["value"]) for f in spec["filters"]] == [(">=", "2025-01-01"), ("<", end)]
    assert "group_by" not in spec and "windows" not in spec
    assert [a["func"] for a in spec["aggregations"]] == ["sum"]


def test_a_running_total_per_month_is_still_a_trend():
    spec = analyze("2025年每个月的累计退货金额", RETURNS).spec()
    assert spec["group_by"][0]["grain"] == "month" and spec["windows"][0]["func"] == "cumsum"


def test_average_order_value_is_revenue_over_orders():
    spec = analyze("各账号的客单价分别是多少", ORDERS).spec()
    assert [(a["func"], a.get("column")) for a in spec["aggregations"]] == [("sum", "金额"), ("count", None)]
    spec = analyze("2025年的客单价是多少", RETURNS).spec()
    assert [(a["func"], a.get("column")) for a in spec["aggregations"]] == [("sum", "销售金额"), ("sum", "订单数量")]


def test_a_value_before_a_rate_scopes_it():
    spec = analyze("抖音小店的退货率是多少", ORDERS).spec()
    assert spec["filters"] == [{"column": "账号", "op": "=", "value": "抖音小店"}]
    returned, whole = spec["aggregations"]
    assert _where(returned) == [("是否退货", "=", True, None)] and _where(whole) == []


def test_a_share_of_a_named_value_is_over_the_whole():
    returned, whole = analyze("电饭煲的销售额占总销售额的百分之几", ORDERS).spec()["aggregations"]
    assert _where(returned) == [("产品", "=", "电饭煲", None)] and _where(whole) == []


@pytest.mark.parametrize(
    ("question", "desc", "first"),
    [("金额最大的一笔订单是哪一单？金额多少", True, None), ("最小的一笔订单金额是多少，买的是什么产品", False, "产品")],
)
def test_a_single_order_is_a_row_not_a_group_total(question, desc, first):
    spec = analyze(question, ORDERS).spec()
    assert "group_by" not in spec and spec["columns"][-1] == "金额" and spec["limit"] == 1
    assert [(s["by"], s.get("desc", False)) for s in spec["sort"]] == [("金额", desc)]
    if first:
        assert spec["columns"][0] == first


def test_a_measure_word_before_a_label_column_names_it():
    spec = analyze("我们一共有几个销售账号", ORDERS).spec()
    assert spec["aggregations"][0] == {"name": "账号数", "func": "nunique", "column": "账号"}
    assert spec["aggregations"][1:] == [{"name": "行数", "func": "count"}], "its rows are counted beside it"


def test_pieces_name_the_quantity_column():
    assert analyze("平均每单买几件", ORDERS).spec()["aggregations"][0] == {
        "name": "平均数量",
        "func": "avg",
        "column": "数量",
    }
    spec = analyze("一次买3件的订单有多少单", ORDERS).spec()
    assert spec["filters"] == [{"column": "数量", "op": "=", "value": 3}]
    assert analyze("退货数量超过5件的记录有多少条", RETURNS).spec()["filters"] == [
        {"column": "退货数量", "op": ">", "value": 5}
    ]


def test_which_is_most_leaves_blanks_out_and_a_named_measure_ranks():
    spec = analyze("退货原因中哪一种最多", ORDERS).spec()
    assert {"column": "退货原因", "op": "is_null", "value": False} in spec["filters"]
    spec = analyze("华东地区卖得最好的产品是什么（按销售额）", ORDERS).spec()
    assert [a["column"] for a in spec["aggregations"]] == ["金额"]


def test_rows_with_a_measure_present_scope_the_question():
    spec = analyze("有退货的记录里，平均每条的退货金额是多少", RETURNS).spec()
    assert spec["filters"] == [{"column": "退货数量", "op": ">", "value": 0}]
    assert [(a["func"], a["column"]) for a in spec["aggregations"]] == [("avg", "退货金额")]


MONTHLY = TableProfile(
    row_count=48,
    columns=[
        col("月份", "text", "dimension", 12, values=[f"2025-{m:02d}" for m in range(1, 13)]),
        col("门店", "text", "dimension", 4, values=["一店", "二店", "三店", "四店"]),
        col("营业额", "number", "measure", 48, lo=1000.0, hi=9000.0),
    ],
)
TARGETS = TableProfile(
    row_count=16,
    columns=[
        col("账号", "text", "dimension", 4, values=["京东自营", "天猫旗舰店", "抖音小店", "线下门店"]),
        col("季度", "text", "dimension", 4, values=["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"]),
        col("目标金额", "integer", "measure", 13, lo=125000, hi=185000),
    ],
)


def test_a_month_column_stored_as_text_is_the_time_axis():
    spec = analyze("每个月的营业额趋势", MONTHLY).spec()
    assert spec["group_by"] == [{"column": "月份"}] and spec["sort"] == [{"by": "月份"}]
    spec = analyze("3月各门店的营业额", MONTHLY).spec()
    assert {"column": "月份", "op": "=", "value": "2025-03"} in spec["filters"]
    spec = analyze("2025年上半年的营业额", MONTHLY).spec()
    assert spec["filters"] == [{"column": "月份", "op": "in", "value": [f"2025-{m:02d}" for m in range(1, 7)]}]


def test_a_quarter_column_stored_as_text_takes_the_quarter_named():
    spec = analyze("所有账号一季度的目标加起来是多少", TARGETS).spec()
    assert spec["filters"] == [{"column": "季度", "op": "=", "value": "2025-Q1"}] and "group_by" not in spec
    assert analyze("各季度的目标总额", TARGETS).spec()["group_by"] == [{"column": "季度"}]


@pytest.mark.parametrize(
    ("question", "family"),
    [
        ("How many consecutive months did Engineering hire?", "streak"),
        ("Which department has more employees than Finance?", "row_compare"),
    ],
)
def test_streaks_and_comparisons_with_a_named_row_are_refused_not_counted(question, family):
    profile = HR if question.isascii() else ORDERS
    plan = analyze(question, profile)
    assert plan.reason == "unsupported" and plan.unsupported == family


def test_groups_compared_with_a_named_group_compare_their_totals():
    plan = analyze("哪些地区的销售额比华东高", ORDERS)
    assert plan.anchor is not None and (plan.anchor.column, plan.anchor.value, plan.anchor.op) == ("地区", "华东", ">")
    assert plan.anchor.func == "sum" and plan.spec()["group_by"] == [{"column": "地区"}]
    assert analyze("有几个地区的销售额比华东高", ORDERS).unsupported == "row_compare", "a count of groups is no cell"
    for question in ["哪些地区的销售额比华东高出一倍", "哪些地区的销售额比华东多多少", "哪些地区的销售额不比华东高"]:
        assert analyze(question, ORDERS).anchor is None, question


def test_counting_a_column_pinned_to_one_value_counts_its_rows():
    spec = analyze("How many employees are in Engineering?", HR).spec()
    assert [a["func"] for a in spec["aggregations"]] == ["count"]
    assert spec["filters"] == [{"column": "department", "op": "=", "value": "Engineering"}]


WEATHER = TableProfile(
    row_count=3650,
    columns=[
        col("date", "date", "time", 3650, lo="2010-01-01", hi="2019-12-31"),
        col("precipitation", "number", "measure", 300, lo=0.0, hi=55.9),
        col("temp_max", "number", "measure", 300, lo=-1.6, hi=35.6),
        col("weather", "text", "dimension", 5, values=["drizzle", "fog", "rain", "snow", "sun"]),
    ],
)
PASSENGERS = TableProfile(
    row_count=891,
    columns=[
        col("Survived", "integer", "dimension", 2, values=[0, 1]),
        col("Age", "number", "measure", 88, lo=0.4, hi=80.0),
        col("Fare", "number", "measure", 248, lo=0.0, hi=512.3),
    ],
)


def test_a_year_at_the_end_of_a_sentence_is_a_filter():
    spec = analyze("total precipitation in 2014.", WEATHER).spec()
    assert spec["filters"] == [{"column": "date", "op": "=", "value": 2014, "grain": "year"}]


def test_several_aggregations_of_one_column_are_each_computed():
    spec = analyze("mean and standard deviation of temp_max", WEATHER).spec()
    assert [a["func"] for a in spec["aggregations"]] == ["avg", "stddev"]


def test_an_abbreviated_column_is_reached_by_its_words_in_full():
    spec = analyze("mean of the maximum temperature", WEATHER).spec()
    assert [(a["func"], a["column"]) for a in spec["aggregations"]] == [("avg", "temp_max")]


def test_a_zero_one_column_is_a_condition_named_by_its_verb():
    spec = analyze("correlation between age and fare for passengers who survived", PASSENGERS).spec()
    assert spec["filters"] == [{"column": "Survived", "op": "=", "value": 1}]
    assert spec["aggregations"][0]["func"] == "corr"


def test_sales_volume_is_the_quantity_column():
    spec = analyze("各地区的销量", ORDERS).spec()
    assert [(a["func"], a["column"]) for a in spec["aggregations"]] == [("sum", "数量")]


CITIES = TableProfile(
    row_count=40,
    columns=[
        col("City", "text", "dimension", 40, values=[f"City {i}" for i in range(40)]),
        col("Population", "integer", "measure", 40, lo=1000, hi=900000),
        col("Density", "number", "measure", 40, lo=10.0, hi=9000.0),
    ],
)


def test_a_ranking_that_counting_rows_cannot_decide_is_asked_about():
    plan = analyze("which city appears the most?", CITIES)
    assert plan.clarification is not None and plan.kind == "fallback"
    assert plan.clarification.choices[0] == "Which City has the highest total Population?"
    assert analyze("which city has the highest density?", CITIES).spec()["sort"][0]["by"] == "total Density"


MEDALS = TableProfile(
    row_count=11,
    columns=[
        col("Nation", "text", "dimension", 11, values=[f"N{i}" for i in range(10)] + ["Total"]).model_copy(
            update={"total_label": "Total"}
        ),
        col("Gold", "integer", "measure", 11, lo=0, hi=40),
    ],
)


def test_a_summary_row_is_left_out_of_totals_and_rankings():
    for question in ("how many gold medals in total?", "which nation won the most gold?"):
        spec = analyze(question, MEDALS).spec()
        assert {"column": "Nation", "op": "!=", "value": "Total"} in spec["filters"], question


COFFEE = TableProfile(
    row_count=2000,
    columns=[
        col("日期", "date", "time", 700, lo="2024-01-01", hi="2025-12-31"),
        col("城市", "text", "dimension", 4, values=["上海", "北京", "杭州", "成都"]),
        col("品类", "text", "dimension", 3, values=["咖啡", "茶饮", "甜点"]),
        col("订单数", "integer", "measure", 90, lo=1, hi=90),
        col("杯数", "integer", "measure", 140, lo=1, hi=143),
        col("销售额", "number", "measure", 1900, lo=10.0, hi=4000.0),
    ],
)


@pytest.mark.parametrize(
    ("question", "column"),
    [("2025年一共卖了多少杯", "杯数"), ("上海一共下了多少单", "订单数"), ("每天卖几杯", "杯数")],
)
def test_a_unit_names_the_column_counted_in_it(question, column):
    assert analyze(question, COFFEE).spec()["aggregations"][0]["column"] == column


def test_a_two_digit_year_the_data_covers_is_that_year():
    spec = analyze("25年的销售额", COFFEE).spec()
    assert spec["filters"] == [{"column": "日期", "op": "=", "value": 2025, "grain": "year"}]


def test_not_counting_a_value_leaves_it_out_and_records_are_counted():
    spec = analyze("不算茶饮的话一共卖了多少杯", COFFEE).spec()
    assert {"column": "品类", "op": "!=", "value": "茶饮"} in spec["filters"]
    spec = analyze("2025年一共有多少条销售记录", COFFEE).spec()
    assert [a["func"] for a in spec["aggregations"]] == ["count"]


def test_bottom_is_the_lowest():
    spec = analyze("销售额垫底的是哪个城市", COFFEE).spec()
    assert spec["sort"][0] == {"by": spec["aggregations"][0]["name"], "desc": False} and kept(spec) == 1


def test_a_yes_no_column_named_both_ways_is_a_grouping():
    spec = analyze("average salary of remote and non-remote employees", HR).spec()
    assert spec["group_by"] == [{"column": "remote"}] and "filters" not in spec
    assert analyze("average salary of remote employees", HR).spec()["filters"] == [
        {"column": "remote", "op": "=", "value": True}
    ]


def test_growth_in_percent_between_two_named_years_is_a_period_change():
    spec = analyze("上海2025年的销售额跟2024年比增长了百分之几", COFFEE).spec()
    assert [_where(a)[0][2] for a in spec["aggregations"]] == [2025, 2024]
    assert {"column": "城市", "op": "=", "value": "上海"} in spec["filters"]
    assert any(d["name"] == "同比增长率" for d in spec["derived"])


def test_up_to_a_month_is_a_total_from_the_start_of_the_year():
    spec = analyze("2025年到9月为止一共卖出去多少杯", COFFEE).spec()
    assert [(f["op"], f["value"]) for f in spec["filters"]] == [(">=", "2025-01-01"), ("<", "2025-10-01")]


def test_is_the_difference_significant_is_refused_not_answered():
    plan = analyze("会员和非会员的销售额差异在统计上显著吗", COFFEE)
    assert plan.reason == "unsupported" and plan.unsupported == "stat_test"
