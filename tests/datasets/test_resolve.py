"""resolve_fields maps user words to columns and to values of dimension columns."""

from __future__ import annotations

from apps.datasets.ingest.profile import ColumnProfile, TableProfile
from apps.datasets.query.resolve import resolve_fields

PROFILE = TableProfile(
    row_count=100,
    columns=[
        ColumnProfile(
            name="地区",
            type="VARCHAR",
            kind="text",
            role="dimension",
            null_ratio=0,
            distinct_count=3,
            values=["华东", "华北", "华南"],
        ),
        ColumnProfile(
            name="退货原因",
            type="VARCHAR",
            kind="text",
            role="dimension",
            null_ratio=0,
            distinct_count=3,
            values=["质量问题", "尺码不符", "其他"],
        ),
        ColumnProfile(name="销售额", type="DOUBLE", kind="number", role="measure", null_ratio=0, distinct_count=90),
        ColumnProfile(name="订单日期", type="DATE", kind="date", role="time", null_ratio=0, distinct_count=30),
        ColumnProfile(
            name="Customer Name",
            type="VARCHAR",
            kind="text",
            role="dimension",
            null_ratio=0,
            distinct_count=3,
            values=["张三", "Acme Ltd", "Zed"],
        ),
    ],
)


def best(term: str, **kwargs):
    [resolution] = resolve_fields([term], PROFILE, **kwargs)
    return resolution.matches[0] if resolution.matches else None


def test_exact_column_name_wins():
    match = best("退货原因")
    assert (match.kind, match.column, match.via, match.score) == ("column", "退货原因", "name", 1.0)


def test_english_words_find_chinese_columns_and_back():
    assert best("revenue").column == "销售额"
    assert best("Region").column == "地区"
    assert best("date").column == "订单日期"
    assert best("customer").column == "Customer Name"


def test_values_of_dimension_columns_become_filters():
    match = best("华东")
    assert (match.kind, match.column, match.value) == ("value", "地区", "华东")
    partial = best("质量")
    assert (partial.column, partial.value) == ("退货原因", "质量问题")
    assert best("张三").value == "张三"


def test_tenant_synonyms():
    assert best("GMV") is None or best("GMV").column != "销售额"
    match = best("GMV", synonyms={"GMV": "销售额"})
    assert (match.column, match.via) == ("销售额", "synonym")


def test_partial_names_and_nothing_found():
    assert best("原因").column == "退货原因"
    assert best("利润") is None
    assert [r.term for r in resolve_fields(["", "  ", "地区"], PROFILE)] == ["地区"]
