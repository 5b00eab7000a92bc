"""The offline planner asks instead of guessing (apps/agent/offline/ambiguity.py, conditions.py): a rate that can
be taken by quantity or by amount, a measure word that fits two columns, a value found in two columns, and a
leftover word that stands where a condition would. Each clarification is a question without numbers whose
choices are complete questions; asking a choice gets a direct, verified answer."""

from __future__ import annotations

import csv
import io
import re

import pytest

from apps.agent.offline import OfflinePlanner
from apps.agent.response import AskResponse
from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding

ZH_HEADER = ["日期", "发货地区", "收货地区", "会员等级", "销售数量", "销售金额", "退货数量", "退货金额"]
EN_HEADER = ["date", "origin", "destination", "customer_tier", "sales_quantity", "sales_amount"]
EN_HEADER += ["return_quantity", "return_amount"]
PLACES = {"zh": ["华东", "华北", "华南"], "en": ["East", "North", "South"]}
TIERS = {"zh": ["VIP会员", "普通会员"], "en": ["Premium Plus", "Standard"]}


def _rows(lang: str) -> list[list[object]]:
    places, tiers = PLACES[lang], TIERS[lang]
    rows: list[list[object]] = []
    for i in range(36):
        quantity = 5 + i % 7
        amount = round(quantity * (20 + i % 5) * 1.5, 2)
        returned = i % 3
        rows.append(
            [
                f"2025-{1 + i % 12:02d}-{1 + i % 27:02d}",
                places[i % 3],
                places[(i + 1) % 3],
                tiers[i % 2],
                quantity,
                amount,
                returned,
                round(returned * amount / quantity, 2),
            ]
        )
    return rows


def _csv(header: list[str], rows: list[list[object]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.fixture
def zh_data(csv_binding) -> DataBinding:
    return csv_binding("shipments.csv", _csv(ZH_HEADER, _rows("zh")))


@pytest.fixture
def en_data(csv_binding) -> DataBinding:
    return csv_binding("shipments-en.csv", _csv(EN_HEADER, _rows("en")))


def ask(binding: DataBinding, question: str, history: list[dict[str, str]] | None = None) -> AskResponse:
    return answer_question(binding=binding, question=question, history=history or [], model=OfflinePlanner())


def verified_answer(binding: DataBinding, question: str) -> AskResponse:
    """The response must be an answer (no question asked back) that verify passed."""
    response = ask(binding, question)
    assert response.status == "answered" and response.clarification is None, response.answer
    assert response.verification.passed, response.verification.reasons
    return response


def clarified(binding: DataBinding, question: str) -> AskResponse:
    """The response must be a clarification: a verified question, without numbers, computing nothing."""
    response = ask(binding, question)
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    asked = response.clarification
    assert asked is not None, response.answer
    assert response.answer == asked.question and response.recommended_questions == asked.choices
    assert len(asked.choices) >= 2 and not re.search(r"\d", asked.question)
    assert not re.search(r"\d", " ".join(asked.choices)), "a question without numbers gets choices without numbers"
    assert "[clarify]" not in response.answer and not response.verification.grounding
    assert [s.tool for s in response.audit.steps] == ["get_schema"] and response.tables == []
    return response


def answered(binding: DataBinding, clarification: AskResponse, choice: str) -> AskResponse:
    """Asking a choice (as the next turn of the conversation) gets a direct answer with verified numbers."""
    history = [{"question": "", "answer": clarification.answer}]
    response = ask(binding, choice, history)
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    assert response.clarification is None and response.tables, response.answer
    assert response.verification.grounding, "the answer quotes its result"
    return response


def _total(rows: list[list[object]], column: int) -> float:
    return sum(float(r[column]) for r in rows)  # type: ignore[arg-type]


def _value(response: AskResponse, column: str, row: int = 0) -> object:
    table = response.tables[0]
    return table.rows[row][table.columns.index(column)]


# --- a rate by quantity or by amount -------------------------------------------------------------


def test_a_rate_with_a_quantity_and_an_amount_basis_is_asked_in_chinese(zh_data):
    response = clarified(zh_data, "退货率是多少？")
    assert response.answer.startswith("请确认：退货率按数量") and "按金额" in response.answer
    assert "退货数量 / 销售数量" in response.answer and "退货金额 / 销售金额" in response.answer
    by_quantity, by_amount = response.clarification.choices
    assert by_quantity == "按数量计算，退货率是多少？" and by_amount == "按金额计算，退货率是多少？"
    rows = _rows("zh")
    quantity = answered(zh_data, response, by_quantity)
    assert _value(quantity, "退货率") == pytest.approx(_total(rows, 6) / _total(rows, 4))
    assert "退货率" in quantity.answer and "%" in quantity.answer
    amount = answered(zh_data, response, by_amount)
    assert _value(amount, "退货率") == pytest.approx(_total(rows, 7) / _total(rows, 5))


def test_a_typed_reply_to_a_rate_clarification_answers_the_earlier_question(zh_data, en_data):
    asked = clarified(zh_data, "各发货地区的退货率")
    history = [{"question": "各发货地区的退货率", "answer": asked.answer}]
    reply = ask(zh_data, "按金额", history)
    assert reply.clarification is None and reply.verification.passed
    assert reply.tables[0].columns == ["发货地区", "退货金额合计", "销售金额合计", "退货率"]
    english = clarified(en_data, "What is the return rate?")
    reply = ask(en_data, "by quantity", [{"question": "What is the return rate?", "answer": english.answer}])
    assert reply.tables[0].columns == ["total return_quantity", "total sales_quantity", "return_rate"]


def test_a_rate_whose_basis_is_said_is_answered_directly(zh_data, en_data):
    rows = _rows("zh")
    for question in ("各发货地区按金额算的退货率", "退货率是多少，按件数算"):
        response = ask(zh_data, question)
        assert response.clarification is None and response.verification.passed, question
    direct = ask(zh_data, "退货率是多少，按件数算")
    assert _value(direct, "退货率") == pytest.approx(_total(rows, 6) / _total(rows, 4))
    english = ask(en_data, "What is the return rate by amount?")
    assert english.clarification is None and english.tables[0].columns[-1] == "return_rate"


def test_a_rate_clarification_keeps_the_question_s_period_in_its_choices(zh_data):
    response = ask(zh_data, "2025年的退货率是多少")
    assert response.verification.passed and response.clarification is not None
    assert not re.search(r"\d", response.clarification.question)
    assert response.clarification.choices[0] == "按数量计算，2025年的退货率是多少？"
    answered(zh_data, response, response.clarification.choices[0])


def test_a_rate_with_a_quantity_and_an_amount_basis_is_asked_in_english(en_data):
    response = clarified(en_data, "What is the return rate?")
    assert response.answer.startswith("Please confirm: should the return rate be computed by quantity")
    assert response.clarification.choices == [
        "What is the return rate (by quantity)?",
        "What is the return rate (by amount)?",
    ]
    rows = _rows("en")
    amount = answered(en_data, response, response.clarification.choices[1])
    assert _value(amount, "return_rate") == pytest.approx(_total(rows, 7) / _total(rows, 5))


# --- a measure word that fits two columns --------------------------------------------------------


def test_a_measure_word_that_fits_two_columns_is_asked(zh_data, en_data):
    # 销量 is a volume: with a quantity column of sales it is that column, never the amount, and is not asked
    assert ask(zh_data, "各发货地区的销量是多少").tables[0].columns == ["发货地区", "销售数量合计"]
    english = clarified(en_data, "What are the total sales by origin?")
    assert "“sales” could mean" in english.answer and "sales_quantity, sales_amount" in english.answer
    amount = answered(en_data, english, english.clarification.choices[1])
    assert amount.tables[0].columns == ["origin", "total sales_amount"]


def test_a_word_that_says_its_unit_is_not_asked(zh_data, en_data):
    assert ask(zh_data, "各发货地区的收入是多少").tables[0].columns == ["发货地区", "销售金额合计"]
    assert ask(zh_data, "退货件数最多的发货地区").tables[0].columns[:2] == ["发货地区", "退货数量合计"]
    assert ask(en_data, "What is the total revenue by origin?").tables[0].columns == ["origin", "total sales_amount"]


# --- a value found in two columns ----------------------------------------------------------------


def test_a_value_of_two_columns_is_asked(zh_data, en_data):
    response = clarified(zh_data, "华东的销售金额是多少？")
    assert response.answer == "请确认：“华东”在这几列中都出现了：发货地区、收货地区。你指的是哪一列？"
    assert response.clarification.choices == [
        "华东（发货地区）的销售金额是多少？",
        "华东（收货地区）的销售金额是多少？",
    ]
    rows = _rows("zh")
    shipped = answered(zh_data, response, response.clarification.choices[0])
    assert _value(shipped, "销售金额合计") == pytest.approx(sum(float(r[5]) for r in rows if r[1] == "华东"))
    received = answered(zh_data, response, response.clarification.choices[1])
    assert _value(received, "销售金额合计") == pytest.approx(sum(float(r[5]) for r in rows if r[2] == "华东"))
    english = clarified(en_data, "What is the total sales_amount in East?")
    assert english.answer.startswith("Please confirm: “East” appears in several columns: origin, destination.")
    assert english.clarification.choices[1] == "What is the total sales_amount in East (destination)?"
    answered(en_data, english, english.clarification.choices[1])


def test_a_value_whose_column_is_named_is_not_asked(zh_data):
    response = ask(zh_data, "收货地区为华东的销售金额是多少？")
    assert response.clarification is None and response.verification.passed
    assert "收货地区 = 华东" in response.answer


# --- a leftover word where a condition stands ----------------------------------------------------


def test_an_unmapped_condition_is_asked_with_the_closest_values(zh_data, en_data):
    response = clarified(zh_data, "VIP客户的销售金额是多少")
    assert "“VIP客户”" in response.answer and "忽略" in response.answer
    assert response.clarification.choices == ["VIP会员的销售金额是多少", "销售金额是多少"]
    vip = answered(zh_data, response, response.clarification.choices[0])
    rows = _rows("zh")
    assert _value(vip, "销售金额合计") == pytest.approx(sum(float(r[5]) for r in rows if r[3] == "VIP会员"))
    ignored = answered(zh_data, response, response.clarification.choices[1])
    assert _value(ignored, "销售金额合计") == pytest.approx(_total(rows, 5))
    english = clarified(en_data, "What is the total sales_amount for premium customers?")
    assert "“premium”" in english.answer and "ignored" in english.answer
    assert english.clarification.choices == [
        "What is the total sales_amount for Premium Plus customers?",
        "What is the total sales_amount for customers?",
    ]
    answered(en_data, english, english.clarification.choices[0])
    ignored = clarified(en_data, "What is the total sales_amount from premium?").clarification.choices[-1]
    assert ignored == "What is the total sales_amount?" and answered(en_data, english, ignored)


def test_an_unmapped_condition_with_nothing_close_is_asked_about_never_dropped(zh_data):
    response = ask(zh_data, "华东新客户的销售金额是多少")  # 华东 is in two columns: that is asked first
    assert response.clarification is not None
    history = [{"question": "", "answer": response.answer}]
    again = ask(zh_data, response.clarification.choices[0], history)  # 新客户 matches nothing: asked, not dropped
    assert again.clarification is not None and "新客户" in again.clarification.question, again.answer
    assert not again.tables and not again.verification.grounding
    without = again.clarification.choices[0]
    assert "新客户" not in without and "华东" in without
    answered(zh_data, again, without)


def test_clear_questions_are_answered_directly(zh_data, en_data):
    for question in ("各发货地区的销售数量是多少", "2025年每月的销售金额趋势", "退货数量最多的收货地区"):
        response = ask(zh_data, question)
        assert response.clarification is None and response.tables, question
    for question in ("What is the total sales_amount by destination?", "Which origin has the most return_quantity?"):
        response = ask(en_data, question)
        assert response.clarification is None and response.tables, question
