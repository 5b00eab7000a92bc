"""QuerySpec validation: closed whitelists, bounded complexity, clear errors, injection stays data."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from apps.datasets.errors import QueryInvalid
from apps.datasets.query import engine
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.spec import QuerySpec
from tests.datasets.test_query_differential import KINDS, frame, write_duckdb


def compile_(spec: dict, dialect: str = "duckdb"):
    return compile_query(QuerySpec.model_validate(spec), schema=KINDS, dialect=dialect, row_cap=10_000)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ({"columns": ["地区"], "filters": [{"column": "地区", "op": "like", "value": "x"}]}, "op"),
        ({"group_by": ["地区"], "aggregations": [{"name": "x", "func": "stdev_pop", "column": "金额"}]}, "func"),
        (
            {"group_by": [{"column": "日期", "grain": "hour"}], "aggregations": [{"name": "n", "func": "count"}]},
            "grain",
        ),
        ({"columns": ["地区"], "limit": 10_001}, "limit"),
        ({"columns": ["地区"], "limit": 0}, "limit"),
        ({"columns": ["地区"], "extra": 1}, "extra"),
        ({}, "nothing to return"),
        ({"columns": ["地区"], "group_by": ["地区"]}, "not both"),
        ({"columns": ["地区"], "filters": [{"column": "地区", "op": "in", "value": []}]}, "non-empty list"),
        ({"columns": ["地区"], "filters": [{"column": "地区", "op": "between", "value": [1]}]}, "[low, high]"),
        ({"columns": ["地区"], "filters": [{"column": "地区", "op": "=", "value": None}]}, "is_null"),
        ({"aggregations": [{"name": "s", "func": "sum"}]}, "needs a column"),
        ({"aggregations": [{"name": "c", "func": "corr", "column": "金额"}]}, "column2"),
        ({"aggregations": [{"name": "q", "func": "quantile", "column": "金额"}]}, "quantile"),
        ({"aggregations": [{"name": "a", "func": "count"}, {"name": "a", "func": "count"}]}, "unique"),
        ({"aggregations": [{"name": "x\n", "func": "count"}]}, "name"),
        ({"columns": ["地区"] * 51}, "columns"),
        ({"columns": ["地区"], "filters": [{"column": "地区", "op": "=", "value": "x"}] * 21}, "filters"),
        ({"group_by": ["地区"], "windows": [{"name": "w", "func": "pct_change", "of": "n"}]}, "order_by"),
    ],
)
def test_spec_shape_errors(spec, fragment):
    with pytest.raises(ValidationError) as err:
        QuerySpec.model_validate(spec)
    assert fragment in str(err.value)


@pytest.mark.parametrize(
    ("spec", "code", "fragment"),
    [
        ({"columns": ["地域"]}, "unknown_column", "did you mean '地区'"),
        ({"columns": ["amount"]}, "unknown_column", "available:"),
        (
            {"group_by": ["地区"], "aggregations": [{"name": "s", "func": "sum", "column": "类别"}]},
            "not_numeric",
            "numeric",
        ),
        (
            {"group_by": [{"column": "地区", "grain": "month"}], "aggregations": [{"name": "n", "func": "count"}]},
            "not_a_date",
            "date column",
        ),
        ({"columns": ["地区"], "filters": [{"column": "金额", "op": ">", "value": "lots"}]}, "invalid_value", "number"),
        (
            {"columns": ["地区"], "filters": [{"column": "日期", "op": ">", "value": "yesterday"}]},
            "invalid_value",
            "date",
        ),
        (
            {"group_by": ["地区"], "aggregations": [{"name": "n", "func": "count"}], "sort": [{"by": "金额"}]},
            "unknown_name",
            "not an output",
        ),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "derived": [{"name": "d", "expr": "n / m"}],
            },
            "invalid_expression",
            "unknown name 'm'",
        ),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "derived": [{"name": "d", "expr": "n; DROP TABLE data"}],
            },
            "invalid_expression",
            "unexpected",
        ),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "derived": [{"name": "d", "expr": "read_csv(n)"}],
            },
            "invalid_expression",
            "unknown function",
        ),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "derived": [{"name": "d", "expr": "((((((((((n))))))))))"}],
            },
            "invalid_expression",
            "deeper",
        ),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "derived": [{"name": "d", "expr": " + ".join(["n"] * 70)}],
            },
            "invalid_expression",
            "terms",
        ),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "windows": [{"name": "w", "func": "share_of_total", "of": "地区"}],
            },
            "not_numeric",
            "not numeric",
        ),
    ],
)
def test_compile_errors_name_the_problem(spec, code, fragment):
    with pytest.raises(QueryInvalid) as err:
        compile_(spec)
    assert err.value.code == code
    assert fragment in err.value.message


@pytest.mark.parametrize("dialect", ["mysql", "sqlite"])
def test_statistics_an_engine_lacks_are_refused_clearly(dialect):
    with pytest.raises(QueryInvalid) as err:
        compile_({"aggregations": [{"name": "m", "func": "median", "column": "金额"}]}, dialect)
    assert err.value.code == "unsupported_function"
    assert "median is not available" in err.value.message


def test_values_are_bound_never_inlined(tmp_path):
    hostile = "'; DROP TABLE data; --"
    compiled = compile_({"columns": ["地区"], "filters": [{"column": "地区", "op": "=", "value": hostile}]})
    assert hostile not in compiled.sql and "DROP" not in compiled.sql
    assert hostile in compiled.params.values()
    path = write_duckdb(frame(20, 1), tmp_path / "d.duckdb")
    try:
        result = engine.execute(path, compiled.sql, compiled.params, row_cap=100)
        assert result.rows == []
        assert engine.execute(path, 'SELECT COUNT(*) FROM "data"', row_cap=1).rows == [[20]]
    finally:
        engine.forget(path)


def test_hostile_column_names_stay_quoted_identifiers():
    schema = {'a"; DROP TABLE data; --': "integer", "x": "text"}
    spec = QuerySpec.model_validate(
        {"group_by": ["x"], "aggregations": [{"name": "s", "func": "sum", "column": 'a"; DROP TABLE data; --'}]}
    )
    sql = compile_query(spec, schema=schema, row_cap=10).sql
    assert 'SUM("a""; DROP TABLE data; --")' in sql


def test_engine_is_locked_down(tmp_path):
    path = write_duckdb(frame(5, 1), tmp_path / "d.duckdb")
    try:
        for sql in [
            "SELECT * FROM read_csv('/etc/passwd')",
            "COPY data TO '/tmp/stolen.csv'",
            "ATTACH '/tmp/other.duckdb'",
            "SET enable_external_access = true",
            "INSTALL httpfs",
            "CREATE TABLE t AS SELECT 1",
        ]:
            with pytest.raises(Exception):  # noqa: B017 (each is refused by DuckDB in its own way)
                engine.execute(path, sql, row_cap=1)
    finally:
        engine.forget(path)
