"""A month named without its year ("in november", "12月"): over data of one year, that year's month; over several
years, that month of every year, computed with the engine's month_of_year grain (or, over dates kept as text,
the cells naming that month) and said so in the answer."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.agent.test_offline_clarifications import verified_answer
from tests.agent.test_offline_question_shape import table

START = dt.date(2023, 1, 5)
ROWS = [[(START + dt.timedelta(days=3 * i)).isoformat(), ["East", "West"][i % 2], 10 + i % 37] for i in range(300)]


def _of_month(month: int) -> list[list]:
    return [r for r in ROWS if dt.date.fromisoformat(r[0]).month == month]


@pytest.fixture
def orders(csv_binding):
    return table(csv_binding, "orders.csv", ["order_date", "region", "amount"], ROWS)


@pytest.fixture
def orders_zh(csv_binding):
    return table(csv_binding, "orders_zh.csv", ["下单日期", "地区", "金额"], ROWS)


def test_a_month_over_several_years_is_that_month_of_every_year(orders):
    response = verified_answer(orders, "how many orders were placed in november?")
    assert f"is {len(_of_month(11))}." in response.answer.split("\n")[0], response.answer
    assert "November of every year" in response.answer
    by_region = verified_answer(orders, "total amount in the month of november by region")
    east = sum(r[2] for r in _of_month(11) if r[1] == "East")
    assert f"East: total amount {east}" in by_region.answer, by_region.answer


def test_a_chinese_month_over_several_years_says_every_year(orders_zh):
    total = verified_answer(orders_zh, "12月的金额合计是多少？")
    assert f"{sum(r[2] for r in _of_month(12))}" in total.answer.split("\n")[0], total.answer
    assert "各年的12月" in total.answer
    yearly = verified_answer(orders_zh, "每年12月的金额合计是多少？")
    for year in (2023, 2024):
        amount = sum(r[2] for r in _of_month(12) if r[0].startswith(str(year)))
        assert f"{year}：金额合计 {amount}" in yearly.answer, yearly.answer


def test_a_month_in_one_years_data_is_that_years(csv_binding):
    rows = [r for r in ROWS if r[0].startswith("2024")]
    binding = table(csv_binding, "orders_2024.csv", ["下单日期", "地区", "金额"], rows)
    response = verified_answer(binding, "12月的金额合计是多少？")
    assert "各年" not in response.answer
    assert f"{sum(r[2] for r in rows if r[0].startswith('2024-12'))}" in response.answer.split("\n")[0]


def test_dates_kept_as_text_are_read_by_the_months_name(csv_binding):
    rows = [
        ["February 28, 1990", "Pulse"],
        ["November 26, 1993", "Wind"],
        ["1992", "Naraou"],
        ["November 3, 1994", "Stone"],
        ["December 21, 1994", "Rain"],
        ["November 1, 1996", "Glass"],
        ["March 3, 1995", "Fire"],
    ]
    binding = table(csv_binding, "albums.csv", ["Release Date", "Album"], rows)
    response = verified_answer(binding, "how many albums were released in the month of november?")
    assert "is 3." in response.answer.split("\n")[0], response.answer
    assert "November" in response.answer.split("\n")[1]
