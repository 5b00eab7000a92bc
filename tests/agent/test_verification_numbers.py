"""find_mentions: the number, date and count forms real drafts use, and the look-alikes that are not numbers."""

from __future__ import annotations

import pytest

from apps.agent.verification.grounding import GroundingIndex, ToolTable, date_tokens_of_text
from apps.agent.verification.numbers import Mention, canonical_date, find_mentions


def only(text: str) -> Mention:
    mentions = find_mentions(text)
    assert len(mentions) == 1, mentions
    return mentions[0]


def numbers(text: str) -> list[Mention]:
    return [m for m in find_mentions(text) if m.kind == "number"]


# (draft, mention text, scaled, decimals, unit, negative, value)
NUMBER_FORMS = [
    # English scale words
    ("revenue 13.98 million", "13.98 million", 1398, 2, "million", False, 13_980_000),
    ("13.98 Million", "13.98 Million", 1398, 2, "million", False, 13_980_000),
    ("1.2 billion", "1.2 billion", 12, 1, "billion", False, 1_200_000_000),
    ("3 thousand", "3 thousand", 3, 0, "thousand", False, 3_000),
    ("2 trillion", "2 trillion", 2, 0, "trillion", False, 2e12),
    ("1.2bn", "1.2bn", 12, 1, "bn", False, 1_200_000_000),
    ("1.2 BN", "1.2 BN", 12, 1, "bn", False, 1_200_000_000),
    ("14.0m", "14.0m", 140, 1, "m", False, 14_000_000),
    ("14mn", "14mn", 14, 0, "mn", False, 14_000_000),
    ("2.3k", "2.3k", 23, 1, "k", False, 2_300),
    ("2.3K", "2.3K", 23, 1, "K", False, 2_300),
    ("1.1M", "1.1M", 11, 1, "M", False, 1_100_000),
    ("12.5 percent", "12.5 percent", 125, 1, "%", False, 0.125),
    ("12.5 per cent", "12.5 per cent", 125, 1, "%", False, 0.125),
    # currency signs are not part of the number, but a sign on either side of them is
    ("$14.0m", "14.0m", 140, 1, "m", False, 14_000_000),
    ("$5m", "5m", 5, 0, "m", False, 5_000_000),
    ("¥1,234.5", "1,234.5", 12345, 1, "", False, 1234.5),
    ("￥1,234.5", "1,234.5", 12345, 1, "", False, 1234.5),
    ("€3.2", "3.2", 32, 1, "", False, 3.2),
    ("£10", "10", 10, 0, "", False, 10),
    ("US$5", "5", 5, 0, "", False, 5),
    ("RMB 100", "100", 100, 0, "", False, 100),
    ("RMB 2000", "2000", 2000, 0, "", False, 2000),
    ("$2000", "2000", 2000, 0, "", False, 2000),
    ("-$5.2", "-$5.2", 52, 1, "", True, -5.2),
    ("$-5.2", "-5.2", 52, 1, "", True, -5.2),
    ("−$5.2m", "−$5.2m", 52, 1, "m", True, -5_200_000),
    # forms that worked before and must keep working
    ("１２３", "１２３", 123, 0, "", False, 123),
    ("12.5%", "12.5%", 125, 1, "%", False, 0.125),
    ("3‰", "3‰", 3, 0, "‰", False, 0.003),
    ("1.2万", "1.2万", 12, 1, "万", False, 12_000),
    ("3亿", "3亿", 3, 0, "亿", False, 300_000_000),
    ("-1,234.5", "-1,234.5", 12345, 1, "", True, -1234.5),
    ("1 234", "1 234", 1234, 0, "", False, 1234),
    ("1234.57万", "1234.57万", 123457, 2, "万", False, 12_345_700),
    # a year-shaped amount with a unit is an amount, not a year
    ("销售额 2000 万", "2000 万", 2000, 0, "万", False, 20_000_000),
    ("2025%", "2025%", 2025, 0, "%", False, 20.25),
    # Chinese numerals before a counter
    ("三个地区", "三", 3, 0, "", False, 3),
    ("十个", "十", 10, 0, "", False, 10),
    ("十二个月", "十二", 12, 0, "", False, 12),
    ("二十个门店", "二十", 20, 0, "", False, 20),
    ("二十三家", "二十三", 23, 0, "", False, 23),
    ("一百家", "一百", 100, 0, "", False, 100),
    ("两百个", "两百", 200, 0, "", False, 200),
    ("一百零五个", "一百零五", 105, 0, "", False, 105),
    ("三千零五个", "三千零五", 3005, 0, "", False, 3005),
    # English number words for counts
    ("three regions", "three", 3, 0, "", False, 3),
    ("Three regions grew", "Three", 3, 0, "", False, 3),
    ("twelve months", "twelve", 12, 0, "", False, 12),
    ("twenty-one stores", "twenty-one", 21, 0, "", False, 21),
    ("twenty one stores", "twenty one", 21, 0, "", False, 21),
    ("ninety days", "ninety", 90, 0, "", False, 90),
    ("SEVENTEEN orders", "SEVENTEEN", 17, 0, "", False, 17),
    ("a hundred stores", "a hundred", 100, 0, "", False, 100),
    ("one hundred stores", "one hundred", 100, 0, "", False, 100),
    ("three hundred stores", "three hundred", 300, 0, "", False, 300),
    ("two million users", "two million", 2, 0, "million", False, 2_000_000),
    ("one thousand users", "one thousand", 1, 0, "thousand", False, 1_000),
]


@pytest.mark.parametrize(("draft", "text", "scaled", "decimals", "unit", "negative", "value"), NUMBER_FORMS)
def test_number_forms(draft, text, scaled, decimals, unit, negative, value):
    mention = only(draft)
    assert mention.kind == "number"
    assert (mention.text, mention.scaled, mention.decimals, mention.unit, mention.negative) == (
        text,
        scaled,
        decimals,
        unit,
        negative,
    )
    assert mention.value == pytest.approx(value)
    assert draft[mention.start : mention.end] == text


def test_a_sign_makes_the_size_alone_not_enough():
    assert only("-$5.2").signed and only("$-5.2").signed and only("+$5").signed
    assert not only("$5.2").signed


@pytest.mark.parametrize(
    ("draft", "text"),
    [
        ("$14.0 m", "14.0"),  # the million reading needs the letter glued to the number
        ("5 m of cable", "5"),  # metres: the 5 is still a stated number, but not 5 million
        ("5m of cable", "5"),
        ("14 mn", "14"),
        ("14.0mm", "14.0"),
        ("5min", "5"),
        ("3 M&A deals", "3"),
        ("2.3KB", "2.3"),
        ("5 percentage points", "5"),
        ("3 thousands", "3"),
    ],
)
def test_lowercase_m_and_unit_look_alikes_keep_the_bare_number(draft, text):
    [mention] = numbers(draft)
    assert (mention.text, mention.unit) == (text, "")


@pytest.mark.parametrize(
    ("draft", "text", "canonical"),
    [
        ("7 月", "7 月", "7月"),
        ("7月", "7月", "7月"),
        ("2025 年 3 月", "2025 年 3 月", "2025年3月"),
        ("2025年3月15日", "2025年3月15日", "2025年3月15日"),
        ("2025 年", "2025 年", "2025年"),
        ("3 月 15 日", "3 月 15 日", "3月15日"),
        ("3月15号", "3月15号", "3月15日"),
        ("2025年第一季度", "2025年第一季度", "2025年第一季度"),
        ("2025 年第一季度", "2025 年第一季度", "2025年第一季度"),
        ("Q1 2025", "Q1 2025", "2025-Q1"),
        ("March 2025", "March 2025", "2025-03"),
        ("Mar 2025", "Mar 2025", "2025-03"),
        ("Sept 2024", "Sept 2024", "2024-09"),
        ("Mar-2025", "Mar-2025", "2025-03"),
        ("15 March", "15 March", "3月15日"),
        ("Mar 15", "Mar 15", "3月15日"),
        ("Mar. 15", "Mar. 15", "3月15日"),
        ("March 15th", "March 15th", "3月15日"),
        ("March 15, 2025", "March 15, 2025", "2025-03-15"),
        ("March 15,2025", "March 15,2025", "2025-03-15"),
        ("15 March 2025", "15 March 2025", "2025-03-15"),
        ("in 2025.", "2025", "2025"),
        ("2025-03", "2025-03", "2025-03"),
    ],
)
def test_dates_are_dates_not_numbers(draft, text, canonical):
    mention = only(draft)
    assert (mention.kind, mention.text) == ("date", text)
    assert canonical_date(mention.text) == canonical


def test_canonical_dates_carry_their_most_specific_token():
    assert "2025-03" in date_tokens_of_text(canonical_date("2025 年 3 月"))
    assert "2025-03" in date_tokens_of_text(canonical_date("March 2025"))
    assert "2025-Q1" in date_tokens_of_text(canonical_date("Q1 2025"))
    assert "M7" in date_tokens_of_text(canonical_date("7 月"))
    assert canonical_date("14:30") == "14:30"


@pytest.mark.parametrize(
    "draft",
    [
        "one of the regions",
        "the one with the most orders",
        "One region stands out",
        "no one bought",
        "someone",
        "two-thirds of the orders",
        "a three-month window",
        "Seven-Eleven",
        "twenty-first",
        "often",
        "tenant",
        "count_three",
        "hundreds of stores",
        "several hundred stores",
        "一个地区",
        "三四个地区",
        "两三个",
        "二三十个",
        "几十个",
        "数十家",
        "十几个",
        "二十多个",
        "第三名",
        "第十二个",
        "销售 2025.xlsx",
        "orders-2025.csv",
    ],
)
def test_look_alikes_are_not_numbers(draft):
    assert numbers(draft) == []


def test_lowercase_may_is_not_a_month():
    assert [(m.kind, m.text) for m in find_mentions("prices may 5 times")] == [("number", "5")]
    assert only("5 May").kind == "date"


@pytest.mark.parametrize(
    ("draft", "text", "scaled"),
    [("第3名", "3", 3), ("Top 5", "5", 5), ("前10", "10", 10), ("Top five regions", "five", 5), ("top one", "one", 1)],
)
def test_ranks(draft, text, scaled):
    mention = only(draft)
    assert (mention.kind, mention.text, mention.scaled) == ("rank", text, scaled)


def test_a_range_written_with_a_hyphen_holds_two_numbers_not_a_negative_one():
    assert [(m.text, m.value) for m in find_mentions("ranks 10-15")] == [("10", 10.0), ("15", 15.0)]
    assert [m.value for m in find_mentions("a 4-4 draw, won 3-2")] == [4.0, 3.0], "a score is no range"
    assert numbers("COVID-19") == [] and [m.text for m in numbers("in 2-4-6 order")] == ["2"], "no range of three"


def test_list_markers_and_references_are_unchanged():
    kinds = [(m.kind, m.text) for m in find_mentions("1. East\n2) West {{q1.x[0]}}")]
    assert kinds == [("list_marker", "1"), ("list_marker", "2"), ("reference", "{{q1.x[0]}}")]


def test_identifiers_keep_their_current_reading():
    # A model name is a number to the scanner; identifiers seen in the results are protected by the caller.
    assert [(m.kind, m.text) for m in find_mentions("iPhone 15")] == [("number", "15")]
    assert find_mentions("iPhone 15", protected=[(0, 9)]) == []
    assert numbers("COVID-19") == [] and numbers("v2.3") == []


def test_mixed_sentence_in_reading_order():
    draft = "In March 2025 three regions sold $14.0m (up 12.5%), Top 5 stores 1.2bn; 二十个门店, one of them new."
    found = [(m.kind, m.text) for m in find_mentions(draft)]
    assert found == [
        ("date", "March 2025"),
        ("number", "three"),
        ("number", "14.0m"),
        ("number", "12.5%"),
        ("rank", "5"),
        ("number", "1.2bn"),
        ("number", "二十"),
    ]


def _index(*values: float) -> GroundingIndex:
    return GroundingIndex([ToolTable(step=1, columns=["v"], rows=[[v] for v in values], row_count=len(values))])


@pytest.mark.parametrize(
    ("draft", "values"),
    [
        ("13.98 million", (13_980_000.0,)),
        ("$14.0m", (14_012_345.0,)),
        ("1.2bn", (1_234_567_890.0,)),
        ("2.3k", (2_345.0,)),
        ("12.5 percent", (0.125,)),
        ("-$5.2m", (-5_200_000.0,)),
        ("2000 万", (20_000_000.0,)),
        ("twenty-one stores", (21.0,)),
        ("three regions", (7.0, 8.0, 9.0)),  # the row count
        ("two million users", (2_000_000.0,)),
        ("一百家", (100.0,)),
    ],
)
def test_new_units_are_grounded_by_the_usual_transforms(draft, values):
    [mention] = numbers(draft)
    assert _index(*values).lookup(mention) is not None


def test_new_units_do_not_ground_the_wrong_scale():
    assert _index(13_980.0).lookup(only("13.98 million")) is None
    assert _index(14.0).lookup(only("$14.0m")) is None
    assert _index(1.2).lookup(only("1.2bn")) is None


def test_a_very_long_digit_run_is_an_ungrounded_number_not_a_crash():
    [mention] = numbers("id " + "7" * 5000)
    assert mention.kind == "number" and _index(7.0).lookup(mention) is None


@pytest.mark.parametrize(
    ("draft", "seconds"), [("Time (s) 1:55.72.", 115.72), ("won in 2:05:26.8", 7526.8), ("best 0:59.5", 59.5)]
)
def test_a_race_time_with_a_fraction_is_its_seconds_and_a_time_of_day_is_not_a_number(draft, seconds):
    time = only(draft)
    assert time.kind == "number" and time.value == pytest.approx(seconds)
    index = GroundingIndex([ToolTable(step=2, columns=["Time (s)"], rows=[[seconds]], row_count=1)])
    assert index.lookup(time) is not None, "grounded by the cell of seconds it shows"
    assert [m.kind for m in find_mentions("the game starts at 2:00 pm")] == ["date"]


def test_a_number_kept_as_text_in_a_cell_grounds_that_number():
    index = GroundingIndex([ToolTable(step=2, columns=["Team", "#"], rows=[["Harbour", "60"]], row_count=1)])
    assert index.lookup(only("car 60")) is not None
    assert index.lookup(only("car 61")) is None
