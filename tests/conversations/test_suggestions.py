"""Suggested questions come from the profile's roles, the same every time, in the user's language."""

from __future__ import annotations

from django.utils import translation

from apps.conversations.suggestions import suggested_questions
from apps.datasets.ingest.profile import ColumnProfile, TableProfile


def column(name: str, kind: str, role: str, distinct: int = 10) -> ColumnProfile:
    return ColumnProfile(name=name, type="x", kind=kind, role=role, null_ratio=0, distinct_count=distinct)  # type: ignore[arg-type]


def test_measure_dimension_and_date_give_breakdown_trend_and_top():
    """A yes/no column is no breakdown; the top five ranks a column with more than five values."""
    profile = TableProfile(
        row_count=100,
        columns=[
            column("order_id", "text", "id", 100),
            column("city", "text", "dimension", 40),
            column("returned", "text", "dimension", 2),
            column("channel", "text", "dimension", 3),
            column("order_date", "date", "time"),
            column("amount", "number", "measure"),
        ],
    )
    with translation.override("en"):
        assert suggested_questions(profile) == [
            "What is the total amount for each channel?",
            "How did the total amount change by month of order_date?",
            "Which 5 city have the highest amount?",
        ]
        assert suggested_questions(profile) == suggested_questions(profile)


def test_a_year_column_is_a_trend_by_year_and_chinese_reads_naturally():
    profile = TableProfile(
        row_count=10, columns=[column("年份", "integer", "time"), column("销量", "integer", "measure")]
    )
    with translation.override("zh-hans"):
        assert suggested_questions(profile) == ["按年份，销量合计如何变化？"]


def test_without_a_measure_rows_are_counted_and_an_empty_profile_suggests_nothing():
    only_text = TableProfile(row_count=10, columns=[column("地区", "text", "dimension", 4)])
    with translation.override("zh-hans"):
        assert suggested_questions(only_text) == ["每个地区各有多少行？"]
    assert suggested_questions(TableProfile(row_count=0, columns=[])) == []
