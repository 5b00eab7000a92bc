"""How it was computed: explanations rendered from real QuerySpecs (each one compiles), in Chinese and English."""

from __future__ import annotations

from typing import Any

import pytest

from apps.agent.explain import explain
from apps.agent.tools import ToolOutcome
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.spec import QuerySpec

SCHEMA = {
    "下单日期": "date",
    "地区": "text",
    "账号": "text",
    "客户": "text",
    "订单数量": "integer",
    "退货数量": "integer",
    "金额": "number",
    "是否退货": "boolean",
}
PROFILE = {
    "row_count": 800,
    "columns": [
        {"name": "下单日期", "kind": "date", "min": "2025-01-01", "max": "2025-12-31"},
        {"name": "账号", "kind": "text", "null_ratio": 0.025},
        {"name": "金额", "kind": "number", "null_ratio": 0.1},
        *({"name": name, "kind": kind} for name, kind in SCHEMA.items() if name not in ("下单日期", "账号", "金额")),
    ],
}
RETURN_RATE = {
    "filters": [
        {"column": "下单日期", "op": "=", "value": 2025, "grain": "year"},
        {"column": "地区", "op": "=", "value": "华东"},
    ],
    "group_by": [{"column": "下单日期", "grain": "month", "alias": "月份"}],
    "aggregations": [
        {"name": "退货数量合计", "func": "sum", "column": "退货数量"},
        {"name": "订单数量合计", "func": "sum", "column": "订单数量"},
    ],
    "derived": [{"name": "退货率", "expr": "[退货数量合计] / [订单数量合计]"}],
}


def schema_outcome(step: int = 1, table: str | None = None) -> ToolOutcome:
    arguments = {"table": table} if table else {}
    return ToolOutcome(step=step, call_id="s", name="get_schema", arguments=arguments, status="ok", payload=PROFILE)


def query(spec: dict[str, Any], *, ref: str = "q1", rows: int = 12, truncated: bool = False, **arguments: Any):
    """A run_query outcome for a spec that really compiles against SCHEMA."""
    compiled = compile_query(QuerySpec.model_validate(spec), schema=SCHEMA, row_cap=1000)
    return ToolOutcome(
        step=2,
        call_id=ref,
        name="run_query",
        arguments={"spec": spec, **arguments},
        status="ok",
        ref=ref,
        row_count=rows,
        truncated=truncated,
        sql=compiled.sql,
    )


def explained(*outcomes: ToolOutcome, language: str = "zh", source_type: str = "file", name: str = "订单"):
    return explain(list(outcomes), source_name=name, source_type=source_type, language=language)  # type: ignore[arg-type]


def test_a_ratio_expands_to_the_sums_it_divides_in_chinese():
    [e] = explained(schema_outcome(), query(RETURN_RATE))
    assert e.ref == "q1" and e.source == "数据集 订单" and e.rows == 12 and not e.truncated
    assert e.filters == ["下单日期（按年） = 2025", "地区 = 华东"]
    assert e.grouping == ["按 月份 分组（下单日期，按月）"]
    formulas = {m.name: m.formula for m in e.measures}
    assert formulas["退货数量合计"] == "sum(退货数量)"
    assert formulas["退货率"] == "退货数量合计 / 订单数量合计，即 sum(退货数量) / sum(订单数量)"
    assert e.text == " · ".join([*e.filters, *e.grouping, "退货率 = sum(退货数量) / sum(订单数量)"])
    assert e.sort_limit == "按 月份 升序排序"
    assert (
        "退货率 是合计之比（sum(退货数量) / sum(订单数量)），按 退货数量, 订单数量 加权，不是逐行比率的平均值"
        in e.assumptions
    )
    assert "除数为 0 时结果为空值，而不是 0" in e.assumptions
    assert not any("没有按" in a for a in e.assumptions), "the year filter is a time filter"
    assert e.sql is None, "a QuerySpec is explained by its parts; its compiled SQL stays in the audit"


def test_the_same_query_in_english():
    [e] = explained(schema_outcome(), query(RETURN_RATE), language="en")
    assert e.source == "dataset 订单"
    assert e.filters == ["下单日期 (by year) = 2025", "地区 = 华东"]
    assert e.grouping == ["by 月份 (下单日期, by month)"]
    assert {m.name: m.formula for m in e.measures}["退货率"] == (
        "退货数量合计 / 订单数量合计, i.e. sum(退货数量) / sum(订单数量)"
    )
    assert e.sort_limit == "sorted by 月份 ascending"
    assert (
        "退货率 is a ratio of totals (sum(退货数量) / sum(订单数量)), weighted by 退货数量, 订单数量, "
        "not an average of per-row ratios" in e.assumptions
    )


@pytest.mark.parametrize(
    ("language", "formula", "by_count"),
    [
        ("zh", "count(*)（仅 是否退货 = true 的行） / count(*)", "退货率 按行数计算（"),
        ("en", "(count(*) where 是否退货 = true) / count(*)", "退货率 is a ratio of row counts ("),
    ],
)
def test_a_rate_by_count_says_so_and_how_conditions_apply(language, formula, by_count):
    spec = {
        "group_by": ["账号"],
        "aggregations": [
            {"name": "退货订单数", "func": "count", "where": [{"column": "是否退货", "op": "=", "value": True}]},
            {"name": "订单数", "func": "count"},
        ],
        "derived": [{"name": "退货率", "expr": "退货订单数 / 订单数"}],
    }
    [e] = explained(schema_outcome(), query(spec), language=language)
    rate = next(m for m in e.measures if m.name == "退货率")
    assert rate.formula.endswith(formula)
    assert any(a.startswith(by_count) for a in e.assumptions), e.assumptions
    counts = "退货订单数, 订单数 " + ("统计的是行数" if language == "zh" else "count rows")
    assert any(a.startswith(counts) for a in e.assumptions), "one note for every count(*)"
    period = "没有按 下单日期 筛选：包含数据中的所有时间段（2025-01-01 至 2025-12-31）"
    if language == "en":
        period = "no filter on 下单日期: every period in the data is included (2025-01-01 to 2025-12-31)"
    assert period in e.assumptions, "no time filter: every period, with the range the schema showed"


def test_windows_state_their_formula_order_and_partition():
    spec = {
        "group_by": [{"column": "下单日期", "grain": "month", "alias": "月份"}, "地区"],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
        "windows": [
            {"name": "占比", "func": "share_of_total", "of": "销售额", "partition_by": ["月份"]},
            {"name": "环比", "func": "pct_change", "of": "销售额", "order_by": "月份", "partition_by": ["地区"]},
            {"name": "累计销售额", "func": "cumsum", "of": "销售额", "order_by": "月份"},
            {"name": "名次", "func": "rank", "of": "销售额", "partition_by": ["月份"]},
        ],
        "having": [{"column": "名次", "op": "<=", "value": 3}],
        "filters": [{"column": "地区", "op": "!=", "value": "华北"}],
    }
    [e] = explained(query(spec))
    assert e.windows == [
        "占比 = 销售额 / 所有分组的 销售额 之和，在每个 月份 内分别计算",
        "环比 = 与上一个 月份 相比的变化率：(销售额 − 上期值) / 上期值，在每个 地区 内分别计算",
        "累计销售额 = 按 月份 顺序累计的 销售额",
        "名次 = 按 销售额 排名，最大的为第 1 名，在每个 月份 内分别计算",
    ]
    assert e.filters == ["地区 != 华北", "名次 <= 3（汇总后筛选）"]
    notes = "\n".join(e.assumptions)
    assert "第一个 月份 没有上一期，环比 为空" in notes and "缺失的时间段会被跳过，不按 0 计算" in notes
    assert "名次：数值相同的并列同一名次" in notes
    assert "占比 是占筛选后合计的比例，不是占全部数据的比例" in notes
    assert "占比, 环比, 累计销售额, 名次：基于所有分组计算，先于汇总后筛选和行数限制" in notes
    assert "地区 != 华北 同时排除了 地区 为空的行" in notes


def test_top_n_and_truncation():
    spec = {
        "group_by": ["客户"],
        "aggregations": [
            {"name": "平均金额", "func": "avg", "column": "金额"},
            {"name": "客户数", "func": "nunique", "column": "账号"},
        ],
        "sort": [{"by": "平均金额", "desc": True}],
        "limit": 5,
    }
    [e] = explained(query(spec, rows=5, truncated=True), language="en")
    assert e.sort_limit == "sorted by 平均金额 descending; first 5 rows"
    assert e.rows == 5 and e.truncated
    assert e.assumptions == [
        "avg ignores empty values of 金额: they count neither as 0 nor as rows",
        "客户数 counts distinct values of 账号; empty values are not counted",
        "only the first 5 rows are included; more rows matched",
    ], "no time column is known without a schema, so nothing is said about periods"


def test_a_row_query_and_its_filters():
    spec = {
        "columns": ["客户", "金额", "订单数量"],
        "derived": [{"name": "单价", "expr": "round(金额 / 订单数量, 2)"}],
        "filters": [
            {"column": "下单日期", "op": "between", "value": ["2025-01-01", "2025-03-31"]},
            {"column": "地区", "op": "in", "value": ["华东", "华南"]},
            {"column": "客户", "op": "contains", "value": "张"},
            {"column": "账号", "op": "is_null", "value": False},
        ],
        "limit": 10,
    }
    [e] = explained(query(spec, rows=10))
    assert e.grouping == ["逐行列出，不汇总：客户, 金额, 订单数量"]
    assert e.filters == [
        "下单日期 介于 2025-01-01 与 2025-03-31 之间（含两端）",
        "地区 属于 华东, 华南 之一",
        "客户 包含 “张”（不区分大小写）",
        "账号 不为空",
    ]
    assert e.measures[0].formula == "round(金额 / 订单数量, 2)（逐行计算）"
    assert e.sort_limit == "前 10 行"
    assert "没有指定排序，因此返回哪 10 行是不确定的" in e.assumptions


def test_weeks_and_an_overall_total():
    spec = {
        "group_by": [{"column": "下单日期", "grain": "week"}],
        "aggregations": [{"name": "有金额的订单", "func": "count", "column": "金额"}],
    }
    [e] = explained(query(spec), language="en")
    assert e.grouping == ["by 下单日期 (by week)"]
    assert "weeks start on Monday and are labelled by their Monday" in e.assumptions
    assert "有金额的订单 counts the rows where 金额 is not empty" in e.assumptions
    [total] = explained(query({"aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}), language="en")
    assert total.grouping == ["no grouping: one row over all matching rows"] and total.sort_limit == ""


def test_sql_sources_name_the_table_and_show_the_sql():
    sql = "SELECT 地区, SUM(金额) AS 销售额\nFROM 订单\nWHERE 地区 = :region\nGROUP BY 地区"
    raw = ToolOutcome(
        step=3,
        call_id="x",
        name="execute_sql_safe",
        arguments={"sql": f"  {sql}\n", "params": {"region": "华东"}},
        status="ok",
        ref="q2",
        row_count=1,
    )
    spec = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    first, second = explained(
        schema_outcome(table="订单"), query(spec, table="订单"), raw, source_type="sql", name="门店库", language="en"
    )
    assert first.source == "source 门店库, table 订单"
    assert second.ref == "q2" and second.source == "source 门店库" and second.rows == 1
    assert second.sql == sql and second.filters == ["parameter :region = 华东"]
    assert second.text == "SQL written for this question, run read-only on source 门店库"
    assert second.assumptions[0].startswith("the numbers come from this SQL exactly as written")
    [zh] = explained(raw, source_type="sql", name="门店库")
    assert zh.source == "数据源 门店库" and zh.filters == ["参数 :region = 华东"]


def test_only_successful_queries_are_explained_in_order():
    failed = query(RETURN_RATE, ref="q9").model_copy(update={"status": "validation_error", "ref": None})
    plot = ToolOutcome(step=4, call_id="p", name="plot", status="ok", payload={"result": "q1"})
    spec = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    out = explained(failed, query(RETURN_RATE, ref="q1"), plot, query(spec, ref="q2"))
    assert [e.ref for e in out] == ["q1", "q2"]
    assert out[1].measures[0].model_dump() == {"name": "销售额", "formula": "sum(金额)"}


def test_empty_values_the_schema_showed_are_stated():
    spec = {"group_by": ["账号", "地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    [e] = explained(schema_outcome(), query(spec), language="en")
    assert e.assumptions[:2] == [
        "账号 is empty in 2.5% of the rows; those rows form one group of their own",
        "金额 is empty in 10.0% of the rows; sum leaves them out",
    ], "地区 is never empty: nothing said about it"
    [zh] = explained(schema_outcome(), query(spec))
    assert zh.assumptions[1] == "金额 在 10.0% 的行中为空；sum 不计入这些行"


def test_a_file_datasets_stored_profile_stands_in_for_a_schema_the_run_did_not_read():
    spec = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    [without] = explained(query(spec), language="en")
    assert without.assumptions == []
    [with_profile] = explain(
        [query(spec)], source_name="订单", source_type="file", language="en", dataset_profile=PROFILE
    )
    assert with_profile.assumptions == [
        "金额 is empty in 10.0% of the rows; sum leaves them out",
        "no filter on 下单日期: every period in the data is included (2025-01-01 to 2025-12-31)",
    ]
