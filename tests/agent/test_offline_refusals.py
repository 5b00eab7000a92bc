"""Analyses the tools cannot do (statistical tests, outlier rules, forecasts and models, a row named only by its
neighbour) get an honest refusal that names what was needed, computes nothing and suggests the nearest question
the planner can answer; look-alike questions that the data can answer are answered."""

from __future__ import annotations

import re

import pytest

from apps.agent.offline import OfflinePlanner
from apps.agent.offline.intent import analyze
from apps.agent.runner import answer_question
from apps.datasets import selectors

ZH = "订单日期,订单编号,地区,产品,金额,预测准确率\n" + "".join(
    f"2025-0{1 + i % 6}-1{i % 9},SO{1000 + i},{['华东', '华北', '华南'][i % 3]},{['杯子', '水壶'][i % 2]},"
    f"{10 + i * 3.5},{0.5 + (i % 7) / 20}\n"
    for i in range(60)
)
EN = "order_date,order_id,region,product,amount,forecast_accuracy\n" + "".join(
    f"2025-0{1 + i % 6}-1{i % 9},SO{1000 + i},{['East', 'West', 'North'][i % 3]},{['Mug', 'Kettle'][i % 2]},"
    f"{10 + i * 3.5},{0.5 + (i % 7) / 20}\n"
    for i in range(60)
)


@pytest.fixture
def data(csv_binding):
    return {"zh": csv_binding("orders_zh.csv", ZH), "en": csv_binding("orders_en.csv", EN)}


def ask(binding, question):
    return answer_question(binding=binding, question=question, model=OfflinePlanner())


# (question, the words naming what it needs, what the first suggestion must contain)
REFUSED = [
    ("各地区的金额是否有显著差异？", "统计检验", "各地区的平均金额"),
    ("对华东和华北的金额做t检验，p值是多少？", "统计检验", "各地区的平均金额"),
    ("金额是否服从正态分布？", "统计检验", "金额的分布"),
    ("Is the difference in amount between regions statistically significant?", "statistical test", "average amount"),
    ("Run a chi-square test of region against product", "statistical test", "by region"),
    ("Do an ANOVA of amount across products", "statistical test", "average amount by product"),
    ("用异常值检测找出金额的异常订单", "异常值", "金额的分布"),
    ("Which amount values are outliers by the IQR rule?", "outlier", "distribution of amount"),
    ("预测下个月的金额", "预测", "每月金额合计的趋势"),
    ("用聚类把订单分组", "机器学习", None),
    ("Forecast next quarter's amount", "forecast", "monthly trend of total amount"),
    ("Can you predict the amount of the next order?", "machine-learning", "monthly trend"),
    ("Classify the orders into high and low value with a model", "machine-learning", None),
    # an uploaded file's first or last row, or a row by its number, is read (test_offline_position.py); a row
    # named only by its neighbour, with no row named, is not
    ("上一行的地区是什么？", "行的顺序", "最早的订单日期"),
    ("What is the amount in the previous row?", "order of the rows", "earliest order_date"),
]


@pytest.mark.parametrize(("question", "needed", "suggested"), REFUSED)
def test_analyses_the_tools_cannot_do_are_refused_by_name_with_the_nearest_question(data, question, needed, suggested):
    lang = "en" if question.isascii() else "zh"
    response = ask(data[lang], question)
    assert response.status == "answered" and response.verification.passed
    assert needed in response.answer and ("抱歉" in response.answer or "Sorry" in response.answer)
    assert not re.search(r"\d", response.answer), response.answer  # no computed number, no data claim
    assert [s.tool for s in response.audit.steps] == ["get_schema"] and not response.tables
    assert suggested is None or suggested in response.recommended_questions[0], response.recommended_questions
    assert "见下面推荐" in response.answer or "suggested question" in response.answer


@pytest.mark.parametrize("family", ["stat_test", "outliers", "model", "row_order"])
def test_the_nearest_question_is_one_the_planner_answers(data, family):
    question = {
        "stat_test": "各地区的金额是否有显著差异？",
        "outliers": "金额的异常值有哪些？",
        "model": "预测下个月的金额",
        "row_order": "上一行的金额是多少？",
    }[family]
    refusal = ask(data["zh"], question)
    nearest = refusal.recommended_questions[0]
    response = ask(data["zh"], nearest)
    assert response.status == "answered" and response.verification.passed and response.tables, nearest


def _profile(binding):
    return selectors.schema_of(binding.version)


@pytest.mark.parametrize(
    ("lang", "question", "func", "column"),
    [
        ("zh", "预测准确率的平均值是多少？", "avg", "预测准确率"),
        ("en", "What is the average forecast accuracy?", "avg", "forecast_accuracy"),
        ("zh", "最早的一条订单是哪天？", "min", "订单日期"),
        ("en", "What is the first order date?", "min", "order_date"),
        ("en", "When was the latest order?", "max", "order_date"),
        ("en", "What is the standard deviation of amount?", "stddev", "amount"),
        ("zh", "金额的分布如何？", "min", "金额"),
    ],
)
def test_look_alike_questions_that_the_data_answers_are_not_refused(data, lang, question, func, column):
    plan = analyze(question, _profile(data[lang]))
    assert plan.reason != "unsupported", plan.unmapped
    assert (plan.metrics[0].func, plan.metrics[0].column) == (func, column)
    response = ask(data[lang], question)
    assert response.status == "answered" and response.verification.passed and response.tables


def test_a_distribution_is_the_five_number_summary(data):
    response = ask(data["en"], "What is the distribution of amount?")
    assert response.status == "answered" and response.verification.passed
    table = response.tables[0]
    assert table.columns == [
        "min amount",
        "lower quartile of amount",
        "median amount",
        "upper quartile of amount",
        "max amount",
    ]
    low, q1, median, q3, high = table.rows[0]
    assert low <= q1 <= median <= q3 <= high and low == 10
