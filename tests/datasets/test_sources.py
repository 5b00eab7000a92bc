"""SQL sources on real PostgreSQL, MariaDB/MySQL and SQLite databases: tables, schema, QuerySpecs equal
to file datasets (DuckDB), checked SQL with bound parameters, refusals that execute nothing, the
database-level read-only guarantee, timeouts and the row cap."""

from __future__ import annotations

import time

import pytest
import sqlglot

from apps.datasets.errors import QueryInvalid, QueryTimeout, SourceFailure
from apps.datasets.query import engine
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.spec import QuerySpec
from apps.datasets.sources import connectors
from apps.datasets.sources import queries as sources
from tests.datasets import sources_support
from tests.datasets.reference import normalise
from tests.datasets.sources_support import ORDERS, Customer, connection_fields, namespace, register

# Fixtures shared with the API tests (real customer databases, created once per session).
pg_schema = sources_support.pg_schema
mysql_database = sources_support.mysql_database
duck_reference = sources_support.duck_reference

ENGINES = ["postgresql", "mysql", "sqlite"]
DIALECT = {"postgresql": "postgres", "mysql": "mysql", "sqlite": "sqlite"}
KINDS = {"id": "integer", "地区": "text", "产品": "text", "金额": "number", "数量": "integer", "日期": "date"}


@pytest.fixture
def sqlite_folder(settings, tmp_path):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    return settings.SQLITE_SOURCES_ROOT


@pytest.fixture(params=ENGINES)
def customer(request, tenant_a, sqlite_folder) -> Customer:
    fields = connection_fields(request.param, request, tenant_a, sqlite_folder)
    source = register(request.param, tenant_a, fields)
    return Customer(request.param, source, fields, namespace(request.param, fields, sqlite_folder, tenant_a))


@pytest.fixture
def limited(customer, tenant_a):
    """The same database with an allow-list: 机密 (secrets) is not exposed."""
    return register(customer.engine, tenant_a, customer.fields, name="limited", tables=["订单", "数字"])


def same_rows(got, expected):
    a, b = normalise(got), normalise(expected)
    assert len(a) == len(b), (a, b)
    for left, right in zip(a, b, strict=True):
        assert left == pytest.approx(right, abs=1e-5), (left, right)


def test_tables_and_the_allow_list(customer, limited):
    assert sorted(sources.list_tables(customer.source)) == sorted(["订单", "机密", "数字"])
    assert sorted(sources.list_tables(limited)) == sorted(["订单", "数字"])
    with pytest.raises(QueryInvalid, match="unknown table '机密'") as refused:
        sources.get_schema(limited, "机密")
    assert refused.value.code == "unknown_table"


def test_schema_profile_like_file_datasets(customer):
    profile = sources.get_schema(customer.source, "订单")
    assert profile.row_count == len(ORDERS)
    assert profile.kinds() == KINDS
    columns = {c.name: c for c in profile.columns}
    roles = {name: c.role for name, c in columns.items()}
    assert roles == {
        "id": "id",
        "地区": "dimension",
        "产品": "dimension",
        "金额": "measure",
        "数量": "measure",
        "日期": "time",
    }
    missing_amounts = sum(1 for row in ORDERS if row[3] is None)
    assert columns["金额"].null_ratio == round(missing_amounts / len(ORDERS), 4)
    assert columns["地区"].distinct_count == 4 and columns["地区"].values == sorted(["华东", "华北", "华南", "西部"])
    assert columns["产品"].examples and set(columns["产品"].examples) <= {"A", "B", "c%_", "手机"}
    assert columns["金额"].min == min(r[3] for r in ORDERS if r[3] is not None)


SPECS = {
    "grouped": {
        "group_by": ["地区"],
        "aggregations": [
            {"name": "金额合计", "func": "sum", "column": "金额"},
            {"name": "单数", "func": "count"},
            {"name": "产品数", "func": "nunique", "column": "产品"},
            {"name": "均价", "func": "avg", "column": "金额"},
            {"name": "最早", "func": "min", "column": "日期"},
            {"name": "华东单数", "func": "count", "where": [{"column": "地区", "op": "=", "value": "华东"}]},
        ],
        "filters": [{"column": "金额", "op": ">", "value": 0}],
    },
    "filters_on_rows": {
        "columns": ["id", "地区", "产品", "金额"],
        "filters": [
            {"column": "地区", "op": "in", "value": ["华东", "西部"]},
            {"column": "产品", "op": "contains", "value": "C%"},
            {"column": "日期", "op": "is_null", "value": False},
        ],
    },
    "months": {
        "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
        "aggregations": [{"name": "金额合计", "func": "sum", "column": "金额"}, {"name": "单数", "func": "count"}],
        "filters": [{"column": "日期", "op": "between", "value": ["2024-03-01", "2025-06-30"]}],
    },
    "quarters_years_weeks": {
        "group_by": [
            {"column": "日期", "grain": "year", "alias": "年"},
            {"column": "日期", "grain": "quarter", "alias": "季度"},
            {"column": "日期", "grain": "week", "alias": "周"},
        ],
        "aggregations": [{"name": "数量合计", "func": "sum", "column": "数量"}],
    },
    "grain_filter": {
        "group_by": ["产品"],
        "aggregations": [{"name": "单数", "func": "count"}],
        "filters": [{"column": "日期", "grain": "year", "op": "=", "value": 2025}],
    },
    "month_of_year": {  # every January, November and December, whatever the year
        "group_by": [{"column": "日期", "grain": "month_of_year", "alias": "月"}],
        "aggregations": [{"name": "单数", "func": "count"}, {"name": "金额合计", "func": "sum", "column": "金额"}],
        "filters": [{"column": "日期", "grain": "month_of_year", "op": "in", "value": [1, 11, 12]}],
    },
    "derived_rows": {
        "columns": ["id", "金额", "数量"],
        "derived": [{"name": "小计", "expr": "round(金额 * 数量, 2)"}, {"name": "单价", "expr": "金额 / 数量"}],
        "filters": [{"column": "数量", "op": ">=", "value": 5}],
    },
    "windows": {
        "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}],
        "aggregations": [{"name": "金额合计", "func": "sum", "column": "金额"}],
        "filters": [{"column": "日期", "op": "is_null", "value": False}],
        "windows": [
            {"name": "占比", "func": "share_of_total", "of": "金额合计"},
            {"name": "累计", "func": "cumsum", "of": "金额合计", "order_by": "月份"},
            {"name": "环比", "func": "pct_change", "of": "金额合计", "order_by": "月份"},
            {"name": "排名", "func": "rank", "of": "金额合计"},
        ],
    },
    "having_sort_limit": {
        "group_by": ["产品"],
        "aggregations": [{"name": "单数", "func": "count"}],
        "having": [{"column": "单数", "op": ">", "value": 10}],
        "sort": [{"by": "单数", "desc": True}, {"by": "产品"}],
        "limit": 2,
    },
}


@pytest.mark.parametrize("name", list(SPECS))
def test_queryspec_equals_the_same_spec_on_duckdb(customer, duck_reference, name):
    spec = QuerySpec.model_validate(SPECS[name])
    got = sources.run_query(customer.source, "订单", spec)
    compiled = compile_query(spec, schema=KINDS, table="订单", dialect="duckdb", row_cap=10_000)
    expected = engine.execute(duck_reference, compiled.sql, compiled.params, row_cap=compiled.limit)
    assert got.columns == expected.columns
    same_rows(got.rows, expected.rows)
    assert got.rows, "every spec selects some rows"
    if any(f.op != "is_null" for f in spec.filters):
        assert got.params and ":p0" in got.sql, "values are bound, and recorded for audit"
    if name == "having_sort_limit":
        assert got.rows == expected.rows and got.truncated, "same order, and more groups than the limit"


def test_statistics_where_the_engine_has_them(customer, duck_reference):
    spec = QuerySpec.model_validate(
        {
            "aggregations": [
                {"name": "标准差", "func": "stddev", "column": "金额"},
                {"name": "方差", "func": "variance", "column": "金额"},
            ]
        }
    )
    if customer.engine == "sqlite":
        with pytest.raises(QueryInvalid, match="stddev is not available on SQLite"):
            sources.run_query(customer.source, "订单", spec)
        return
    compiled = compile_query(spec, schema=KINDS, table="订单", dialect="duckdb", row_cap=10_000)
    expected = engine.execute(duck_reference, compiled.sql, compiled.params, row_cap=1)
    same_rows(sources.run_query(customer.source, "订单", spec).rows, expected.rows)


def test_execute_sql_safe_binds_parameters(customer):
    sql = "SELECT 地区, COUNT(*) AS n, SUM(金额) AS total FROM 订单 WHERE 金额 > :low AND 产品 <> :skip GROUP BY 地区"
    result = sources.execute_sql_safe(customer.source, sql, {"low": 10, "skip": "手机"})
    expected: dict = {}
    for _id, region, product, amount, _qty, _day in ORDERS:
        if amount is not None and amount > 10 and product is not None and product != "手机":
            count, total = expected.get(region, (0, 0.0))
            expected[region] = (count + 1, total + amount)
    same_rows(result.rows, [(k, n, t) for k, (n, t) in expected.items()])
    assert result.params == {"low": 10, "skip": "手机"} and ":low" in result.sql and "LIMIT" in result.sql


def test_values_are_bound_never_spliced(customer):
    tricky = "华东' OR '1'='1"
    result = sources.execute_sql_safe(customer.source, "SELECT id FROM 订单 WHERE 地区 = :r", {"r": tricky})
    assert result.rows == []
    # A literal % next to a bound value (MySQL's driver uses %-formatting), and a placeholder look-alike in text.
    sql = "SELECT COUNT(*) AS n FROM 订单 WHERE 产品 LIKE 'c%' AND 数量 >= :q AND 产品 <> ':q'"
    counted = sources.execute_sql_safe(customer.source, sql, {"q": 3})
    assert counted.rows == [[sum(1 for r in ORDERS if r[2] == "c%_" and r[4] is not None and r[4] >= 3)]]


REFUSED = [
    ("INSERT INTO 订单 (id) VALUES (999)", "INSERT writes data"),
    ("UPDATE 订单 SET 金额 = 0", "UPDATE writes data"),
    ("DELETE FROM 订单", "DELETE writes data"),
    ("DROP TABLE 订单", "DROP changes the schema"),
    ("CREATE TABLE 新表 (a INT)", "CREATE changes the schema"),
    ("TRUNCATE TABLE 订单", "TRUNCATE deletes data"),
    ("SELECT 1; DROP TABLE 订单", "exactly one statement"),
    ("SELECT * FROM 订单; DELETE FROM 订单", "exactly one statement"),
    ("SELECT * INTO 副本 FROM 订单", "SELECT INTO"),
    ("SELECT * FROM 订单 FOR UPDATE", "FOR UPDATE"),
    ("SELECT pg_read_file('/etc/passwd')", "reads server files"),
    ("SELECT pg_sleep(5)", "burns time"),
    ("SELECT LOAD_FILE('/etc/passwd')", "server files"),
    ("SELECT SLEEP(5)", "burns time"),
    ("SELECT BENCHMARK(100000000, MD5('x'))", "burns time"),
    ("SELECT load_extension('/tmp/evil')", "loads native code"),
    ("SELECT readfile('/etc/passwd')", "reads or writes files"),
    ("SELECT * FROM 机密", "not exposed"),
    ("SELECT o.id FROM 订单 AS o JOIN 机密 AS s ON s.id = o.id", "not exposed"),
    ("WITH x AS (SELECT * FROM 机密) SELECT * FROM x", "not exposed"),
    (
        "SELECT id FROM 机密 UNION SELECT id FROM (WITH 机密 AS (SELECT 1 AS id) SELECT id FROM 机密) AS t",
        "not exposed",
    ),
    ("WITH a AS (SELECT * FROM 机密), 机密 AS (SELECT 1 AS id) SELECT * FROM a", "not exposed"),
    ("SELECT * FROM information_schema.tables", "system catalogs"),
    ("SELECT * FROM pg_catalog.pg_user", "system catalogs"),
    ("SELECT * FROM pg_shadow", "system catalogs"),
    ("SELECT * FROM mysql.user", "system catalogs"),
    ("SELECT * FROM sqlite_master", "system catalogs"),
    ("SELECT 1 /*! ; DROP TABLE 订单 */", "executable comments"),
    ("SELECT 1 -- comment\n; DROP TABLE 订单", "exactly one statement"),
    ("/* harmless */ DROP TABLE 订单", "DROP changes the schema"),
    ("SELECT /*+ MAX_EXECUTION_TIME(999999) */ * FROM 订单", "hints"),
]


@pytest.mark.parametrize(("sql", "reason"), REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_refused_sql_executes_nothing(customer, limited, monkeypatch, sql, reason):
    before = customer.fingerprint()
    monkeypatch.setattr(sources, "execute_readonly", lambda *a, **k: pytest.fail("a refused statement ran"))
    with pytest.raises(QueryInvalid) as refused:
        sources.execute_sql_safe(limited, sql)
    message = refused.value.message
    assert message.startswith("SQL refused, nothing was executed") and refused.value.code.startswith("sql_")
    assert reason in message or "could not be parsed" in message, message
    assert customer.fingerprint() == before


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE 订单 SET 金额 = 0",
        "DELETE FROM 订单",
        "INSERT INTO 订单 (id) VALUES (999)",
        "DROP TABLE 数字",
        "CREATE TABLE 新表 (a INT)",
    ],
)
def test_the_database_itself_refuses_writes(customer, statement):
    """Even with the checker bypassed (the low-level executor called directly), the session is read-only."""
    before = customer.fingerprint()
    tree = sqlglot.parse_one(statement, read=DIALECT[customer.engine])
    with pytest.raises(SourceFailure) as refused:
        connectors.execute_readonly(customer.source, tree, row_cap=10)
    assert refused.value.code == "read_only" and "read-only" in refused.value.message
    assert customer.fingerprint() == before


def test_a_slow_query_is_stopped(customer, settings):
    settings.QUERY_TIMEOUT_SECONDS = 1
    sql = "SELECT COUNT(*) AS n FROM 数字 AS a, 数字 AS b, 数字 AS c, 数字 AS d, 数字 AS e"
    started = time.monotonic()
    with pytest.raises(QueryTimeout) as stopped:
        sources.execute_sql_safe(customer.source, sql)
    assert time.monotonic() - started < 15
    assert "longer than 1 s" in stopped.value.message and stopped.value.code == "query_timeout"
    assert sources.execute_sql_safe(customer.source, "SELECT COUNT(*) AS n FROM 数字").rows == [[300]]


def test_row_cap_flags_truncation(customer, settings):
    settings.QUERY_MAX_ROWS = 5
    capped = sources.execute_sql_safe(customer.source, "SELECT id FROM 订单 ORDER BY id")
    assert capped.row_count == 5 and capped.truncated and capped.rows == [[1], [2], [3], [4], [5]]
    exact = sources.execute_sql_safe(customer.source, "SELECT id FROM 订单 ORDER BY id LIMIT 5")
    assert exact.row_count == 5 and not exact.truncated
    settings.QUERY_MAX_ROWS = 10_000
    spec = QuerySpec.model_validate({"columns": ["id"], "sort": [{"by": "id"}], "limit": 3})
    limited = sources.run_query(customer.source, "订单", spec)
    assert limited.rows == [[1], [2], [3]] and limited.truncated


def test_sample_rows_and_unknown_names(customer):
    sample = sources.sample_rows(customer.source, "订单", n=3, columns=["地区", "金额"])
    assert sample.columns == ["地区", "金额"] and sample.row_count == 3
    with pytest.raises(QueryInvalid, match="'地区'") as unknown:
        sources.sample_rows(customer.source, "订单", columns=["区域"])
    assert unknown.value.code == "unknown_column"
    with pytest.raises(QueryInvalid, match="'订单'"):
        sources.run_query(customer.source, "订货", QuerySpec.model_validate({"columns": ["id"]}))
    with pytest.raises(QueryInvalid) as rejected:
        sources.execute_sql_safe(customer.source, "SELECT 不存在 FROM 订单")
    assert rejected.value.code == "source_rejected"


def test_every_year_of_a_month_is_counted_as_the_rows_say(duck_reference):
    """month_of_year against the rows themselves: every November and December, whatever the year."""
    spec = QuerySpec.model_validate(SPECS["month_of_year"])
    compiled = compile_query(spec, schema=KINDS, table="订单", dialect="duckdb", row_cap=10_000)
    got = engine.execute(duck_reference, compiled.sql, compiled.params, row_cap=compiled.limit)
    wanted: dict[int, list[float]] = {}
    for _id, _region, _product, amount, _quantity, day in ORDERS:
        if day is not None and day.month in (1, 11, 12):
            wanted.setdefault(day.month, []).append(amount or 0)
    assert {row[0]: row[1] for row in got.rows} == {m: len(v) for m, v in wanted.items()}
    assert {row[0]: round(float(row[2]), 2) for row in got.rows} == {m: round(sum(v), 2) for m, v in wanted.items()}
    assert len({d.year for *_r, d in ORDERS if d is not None and d.month == 12}) > 1, "several years' Decembers"
