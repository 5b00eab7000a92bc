"""QuerySpec results equal a pandas reference on generated data, for every operator and aggregation."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.datasets.query import engine
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.spec import QuerySpec
from tests.datasets.reference import evaluate, normalise

REGIONS = ["华东", "华北", "华南", "West", None]
CATEGORIES = ["A", "B", "c%_", None]
KINDS = {"地区": "text", "类别": "text", "金额": "number", "数量": "integer", "日期": "date"}


def frame(rows: int, seed: int) -> pd.DataFrame:
    records = []
    for i in range(rows):
        k = (i * 7919 + seed * 104729) % 1000
        records.append(
            {
                "地区": REGIONS[k % len(REGIONS)],
                "类别": CATEGORIES[(k // 5) % len(CATEGORIES)],
                "金额": None if k % 11 == 0 else round((k % 97) * 1.25 - 20, 2),
                "数量": None if k % 13 == 0 else k % 17,
                "日期": None if k % 19 == 0 else dt.date(2024, 1, 1) + dt.timedelta(days=(k * 3) % 730),
            }
        )
    df = pd.DataFrame.from_records(records)
    df["数量"] = df["数量"].astype("Int64")
    return df


def write_duckdb(df: pd.DataFrame, path: Path) -> Path:
    con = duckdb.connect(str(path))
    con.register("frame", df)
    con.execute('CREATE TABLE data AS SELECT "地区", "类别", "金额", "数量", CAST("日期" AS DATE) AS "日期" FROM frame')
    con.close()
    return path


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    df = frame(400, seed=3)
    path = write_duckdb(df, tmp_path_factory.mktemp("diff") / "data.duckdb")
    yield df, path
    engine.forget(path)


def run(path: Path, spec: QuerySpec) -> list[list]:
    compiled = compile_query(spec, schema=KINDS, row_cap=10_000)
    return engine.execute(path, compiled.sql, compiled.params, row_cap=compiled.limit).rows


NUMERIC_FUNCS = ["sum", "avg", "min", "max", "count", "nunique", "median", "stddev", "variance"]

filters = st.one_of(
    st.builds(
        lambda op, v: {"column": "金额", "op": op, "value": v},
        st.sampled_from(["=", "!=", ">", ">=", "<", "<="]),
        st.sampled_from([-20.0, 0, 10.0, 57.5]),
    ),
    st.builds(
        lambda op, v: {"column": "地区", "op": op, "value": v},
        st.sampled_from(["=", "!="]),
        st.sampled_from(["华东", "West", "nowhere"]),
    ),
    st.builds(
        lambda vs: {"column": "地区", "op": "in", "value": vs},
        st.lists(st.sampled_from(["华东", "华北", "West"]), min_size=1, max_size=3, unique=True),
    ),
    st.builds(
        lambda lo, span: {"column": "数量", "op": "between", "value": [lo, lo + span]},
        st.integers(0, 16),
        st.integers(0, 8),
    ),
    st.builds(lambda v: {"column": "类别", "op": "contains", "value": v}, st.sampled_from(["a", "%", "_", "C%"])),
    st.builds(
        lambda c, v: {"column": c, "op": "is_null", "value": v},
        st.sampled_from(["地区", "金额", "日期"]),
        st.booleans(),
    ),
    st.builds(lambda v: {"column": "日期", "op": ">=", "value": v}, st.sampled_from(["2024-06-01", "2025-02-15"])),
    st.builds(lambda y: {"column": "日期", "grain": "year", "op": "=", "value": y}, st.sampled_from([2024, 2025])),
    st.builds(
        lambda m: {"column": "日期", "grain": "month", "op": "=", "value": m}, st.sampled_from(["2024-03", "2025-11"])
    ),
)
group_bys = st.lists(
    st.one_of(
        st.sampled_from([{"column": "地区"}, {"column": "类别"}]),
        st.builds(
            lambda g: {"column": "日期", "grain": g, "alias": f"日期_{g}"},
            st.sampled_from(["day", "week", "month", "quarter", "year"]),
        ),
    ),
    max_size=2,
    unique_by=lambda g: g.get("alias", g["column"]),
)
aggregations = st.lists(
    st.one_of(
        st.builds(
            lambda f, c: {"func": f, "column": c}, st.sampled_from(NUMERIC_FUNCS), st.sampled_from(["金额", "数量"])
        ),
        st.just({"func": "count"}),
        st.builds(lambda c: {"func": "nunique", "column": c}, st.sampled_from(["地区", "类别"])),
        st.builds(lambda q: {"func": "quantile", "column": "金额", "q": q}, st.sampled_from([0.1, 0.5, 0.9])),
        st.builds(
            lambda v: {"func": "count", "where": [{"column": "地区", "op": "=", "value": v}]},
            st.sampled_from(["华东", "West"]),
        ),
        st.builds(
            lambda v: {"func": "sum", "column": "金额", "where": [{"column": "类别", "op": "=", "value": v}]},
            st.sampled_from(["A", "B"]),
        ),
    ),
    min_size=1,
    max_size=3,
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(group_by=group_bys, aggs=aggregations, where=st.lists(filters, max_size=2))
def test_aggregate_queries_match_pandas(dataset, group_by, aggs, where):
    df, path = dataset
    named = [{**a, "name": f"a{i}"} for i, a in enumerate(aggs)]
    spec = QuerySpec.model_validate({"group_by": group_by, "aggregations": named, "filters": where, "limit": 10_000})
    assert normalise(run(path, spec)) == normalise(evaluate(df, spec))


@pytest.mark.parametrize("op", ["=", "!=", ">", ">=", "<", "<=", "in", "between", "contains", "is_null"])
def test_every_filter_operator_on_rows(dataset, op):
    df, path = dataset
    value = {"in": [1, 5, 9], "between": [3, 7], "contains": "1", "is_null": True}.get(op, 8)
    column = "类别" if op == "contains" else "数量"
    spec = QuerySpec.model_validate(
        {"columns": ["地区", "数量"], "filters": [{"column": column, "op": op, "value": value}], "limit": 10_000}
    )
    expected = df[
        (df[column].astype("string").str.lower().str.contains("1", regex=False).fillna(False))
        if op == "contains"
        else _pandas_filter(df[column], op, value)
    ][["地区", "数量"]]
    assert normalise(run(path, spec)) == normalise(list(expected.itertuples(index=False)))


def _pandas_filter(col: pd.Series, op: str, value):
    present = col.notna()
    if op == "is_null":
        return ~present
    if op == "in":
        return present & col.isin(value)
    if op == "between":
        return present & (col >= value[0]) & (col <= value[1])
    if op == "!=":  # a blank is not the value: kept
        return (~present | col.ne(value)).fillna(True).astype(bool)
    ops = {"=": "eq", ">": "gt", ">=": "ge", "<": "lt", "<=": "le"}
    return (present & getattr(col, ops[op])(value)).fillna(False).astype(bool)


def test_correlation_matches_pandas(dataset):
    df, path = dataset
    spec = QuerySpec.model_validate(
        {"group_by": ["地区"], "aggregations": [{"name": "r", "func": "corr", "column": "金额", "column2": "数量"}]}
    )
    got = {row[0]: row[1] for row in run(path, spec)}
    for region, group in df.groupby("地区", dropna=False):
        pair = group[["金额", "数量"]].dropna().astype(float)
        key = None if pd.isna(region) else region
        assert got[key] == pytest.approx(pair["金额"].corr(pair["数量"]), abs=1e-9)


def test_share_of_total_and_period_changes(dataset):
    df, path = dataset
    spec = QuerySpec.model_validate(
        {
            "filters": [{"column": "日期", "op": "is_null", "value": False}],
            "group_by": [{"column": "日期", "grain": "quarter", "alias": "季度"}],
            "aggregations": [{"name": "金额合计", "func": "sum", "column": "金额"}],
            "derived": [{"name": "千元", "expr": "round(金额合计 / 1000, 3)"}],
            "windows": [
                {"name": "占比", "func": "share_of_total", "of": "金额合计"},
                {"name": "环比", "func": "pct_change", "of": "金额合计", "order_by": "季度"},
                {"name": "增量", "func": "diff", "of": "金额合计", "order_by": "季度"},
                {"name": "累计", "func": "cumsum", "of": "金额合计", "order_by": "季度"},
                {"name": "排名", "func": "rank", "of": "金额合计"},
                {"name": "季均", "func": "mean_of_groups", "of": "金额合计"},
            ],
            "sort": [{"by": "季度"}],
        }
    )
    rows = run(path, spec)
    dated = df[df["日期"].notna()]
    quarters = pd.PeriodIndex(pd.to_datetime(dated["日期"]), freq="Q")
    totals = dated.groupby(quarters.strftime("%Y-Q%q"))["金额"].sum(min_count=1).sort_index()
    assert [r[0] for r in rows] == list(totals.index)
    assert [r[1] for r in rows] == pytest.approx(list(totals.values))
    half_up = [float(Decimal(str(v / 1000)).quantize(Decimal("0.001"), ROUND_HALF_UP)) for v in totals.values]
    assert [r[2] for r in rows] == pytest.approx(half_up), "SQL rounds half away from zero"
    assert [r[3] for r in rows] == pytest.approx(list(totals.values / totals.sum()))
    assert sum(r[3] for r in rows) == pytest.approx(1.0)
    assert rows[0][4] is None and rows[0][5] is None
    for prev, cur, row in zip(totals.values, totals.values[1:], rows[1:], strict=False):
        assert row[4] == pytest.approx((cur - prev) / prev)
        assert row[5] == pytest.approx(cur - prev)
    assert [r[6] for r in rows] == pytest.approx(list(totals.cumsum().values))
    ranks = totals.rank(ascending=False, method="min").astype(int)
    assert [r[7] for r in rows] == list(ranks.values)
    assert [r[8] for r in rows] == pytest.approx([totals.mean()] * len(totals)), "every quarter's total, averaged"


def test_division_by_zero_is_null_and_limit_truncates(dataset):
    _df, path = dataset
    spec = QuerySpec.model_validate(
        {
            "group_by": ["地区"],
            "aggregations": [
                {"name": "n", "func": "count"},
                {"name": "z", "func": "count", "where": [{"column": "地区", "op": "=", "value": "nowhere"}]},
            ],
            "derived": [{"name": "ratio", "expr": "n / z"}],
            "limit": 2,
        }
    )
    compiled = compile_query(spec, schema=KINDS, row_cap=10_000)
    result = engine.execute(path, compiled.sql, compiled.params, row_cap=compiled.limit)
    assert result.row_count == 2 and result.truncated
    assert all(row[3] is None for row in result.rows)


def test_sort_and_default_order(dataset):
    df, path = dataset
    spec = QuerySpec.model_validate(
        {"group_by": ["类别"], "aggregations": [{"name": "n", "func": "count"}], "sort": [{"by": "n", "desc": True}]}
    )
    counts = [row[1] for row in run(path, spec)]
    assert counts == sorted(counts, reverse=True)
    default = run(
        path, QuerySpec.model_validate({"group_by": ["类别"], "aggregations": [{"name": "n", "func": "count"}]})
    )
    labels = [row[0] for row in default]
    assert labels == sorted([v for v in labels if v is not None]) + [None], "ascending, nulls last"


def test_all_aggregations_combined_in_one_query(dataset):
    df, path = dataset
    aggs = [{"name": f"{f}_{c}", "func": f, "column": c} for f, c in itertools.product(NUMERIC_FUNCS, ["金额"])]
    spec = QuerySpec.model_validate({"aggregations": aggs})
    assert normalise(run(path, spec)) == normalise(evaluate(df, spec))
