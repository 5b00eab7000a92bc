"""The offline planner writes in the question's language whatever language is active (a request's, a test's, a
worker thread's): its sentences are gettext messages, and every draft and question back picks the language
itself (apps/agent/offline/wording.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from apps.agent.offline.ambiguity import SubjectRate, ask_rate, ask_value
from apps.agent.offline.drafts import ResultView, answer_draft
from apps.agent.offline.followups import fallback_draft, follow_ups
from apps.agent.offline.intent import analyze
from apps.agent.offline.refusals import refusal_draft
from apps.agent.offline.schema_terms import Term, schema_of
from tests.agent.test_offline_planner import HR, ORDERS

CJK = re.compile(r"[\u4e00-\u9fff]")


def same_in_every_active_language(write: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """What `write(*args, **kwargs)` returns, checked to be the same under each language the platform speaks."""
    written = []
    for active in ("zh-hans", "en"):
        with translation.override(active):
            written.append(write(*args, **kwargs))
    assert written[0] == written[1]
    return written[0]


def grouped(question, profile, lang):
    plan = analyze(question, profile, lang)
    columns = [g.name for g in plan.groups] + [s.name for s in plan.shown]
    result = ResultView("q1", columns, [["A", 1.0], ["B", 2.0]], 2)
    return answer_draft(plan, result, schema_of(profile), ["?"], strict=False, chart="bar")


def test_answers():
    zh = same_in_every_active_language(grouped, "各地区的金额合计", ORDERS, "zh")
    en = same_in_every_active_language(grouped, "total salary by department", HR, "en")
    assert zh.startswith("按地区统计的金额合计（共 {{q1.row_count}} 组）：") and "（已绘制柱状图。）" in zh
    assert en.startswith("total salary by department ({{q1.row_count}} groups):") and "(Chart: bar.)" in en


@pytest.mark.parametrize(
    ("lang", "question", "profile"), [("zh", "各地区的销售额", ORDERS), ("en", "Salary by level", HR)]
)
def test_suggestions(lang, question, profile):
    plan = analyze(question, profile, lang)
    suggested = same_in_every_active_language(follow_ups, schema_of(profile), plan, lang, question)
    assert suggested and all(bool(CJK.search(q)) == (lang == "zh") for q in suggested), suggested


@pytest.mark.parametrize(
    ("question", "profile", "lang", "opening"),
    [
        ("今天天气怎么样", ORDERS, "zh", "抱歉，这个问题我无法可靠地对应到数据"),
        ("What's the weather like?", HR, "en", "Sorry, I could not map this question to the data reliably"),
        ("预测下个月的金额", ORDERS, "zh", "抱歉，这个问题中的“预测”需要预测或机器学习模型"),
        ("Forecast next quarter's salary", HR, "en", "Sorry, “Forecast” in this question needs a forecast"),
    ],
)
def test_plain_answers_and_refusals(question, profile, lang, opening):
    plan, schema = analyze(question, profile, lang), schema_of(profile)
    if plan.reason == "unsupported":
        draft = same_in_every_active_language(refusal_draft, plan, schema, question)
    else:
        draft = same_in_every_active_language(fallback_draft, plan, schema, "q1", "n", lang, question)
    assert draft.startswith(opening), draft


def test_questions_back():
    question = "线上的销售额"
    term = Term("渠道", "value", 0, 2, 1.0, "线上")
    asked = same_in_every_active_language(ask_value, question, term, [("渠道", "线上"), ("地区", "线上")], "zh")
    assert asked.question == "请确认：“线上”在这几列中都出现了：渠道、地区。你指的是哪一列？"
    assert asked.choices == ["线上（渠道）的销售额", "线上（地区）的销售额"]
    rate = SubjectRate(
        "return rate", 0, 11, {"quantity": ("returned_qty", "sold_qty"), "amount": ("returned_amt", "sold_amt")}
    )
    asked = same_in_every_active_language(ask_rate, "return rate?", rate, "en")
    assert asked.question.startswith("Please confirm: should the return rate be computed by quantity")
    assert asked.choices == ["return rate (by quantity)?", "return rate (by amount)?"]
