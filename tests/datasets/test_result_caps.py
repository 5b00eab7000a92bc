"""Results are capped in bytes as well as rows, for every source and query kind, while fetching."""

from __future__ import annotations

import duckdb
import pytest

from apps.datasets.errors import QueryInvalid
from apps.datasets.query import engine
from apps.datasets.query.results import fetch_capped
from apps.datasets.sources import queries as sources
from tests.datasets import sources_support
from tests.datasets.sources_support import Customer, connection_fields, namespace, register

pg_schema = sources_support.pg_schema
mysql_database = sources_support.mysql_database
ENGINES = ["postgresql", "mysql", "sqlite"]


@pytest.fixture(params=ENGINES)
def customer(request, tenant_a, settings, tmp_path) -> Customer:
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    fields = connection_fields(request.param, request, tenant_a, settings.SQLITE_SOURCES_ROOT)
    source = register(request.param, tenant_a, fields)
    return Customer(
        request.param, source, fields, namespace(request.param, fields, settings.SQLITE_SOURCES_ROOT, tenant_a)
    )


def test_fetching_stops_at_the_byte_cap_without_reading_the_rest():
    fetched = []

    def fetchmany(n):
        fetched.append(n)
        return [("x" * 1000,)] * n

    with pytest.raises(QueryInvalid) as info:
        fetch_capped(fetchmany, row_cap=10_000, byte_cap=50_000)
    assert info.value.code == "result_too_large" and "49 KB" in info.value.message
    assert sum(fetched) < 1000, "stopped while fetching"


def test_rows_within_both_caps_come_back_with_the_truncation_row():
    rows = iter([(i,) for i in range(100)])
    got = fetch_capped(lambda n: [r for _, r in zip(range(n), rows, strict=False)], row_cap=10, byte_cap=10_000)
    assert len(got) == 11


@pytest.fixture
def duck_file(tmp_path):
    path = tmp_path / "d.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE data AS SELECT range AS n FROM range(100)")
    con.close()
    yield path
    engine.forget(path)


def test_a_file_dataset_query_of_huge_values_is_refused(duck_file, settings):
    settings.QUERY_MAX_RESULT_BYTES = 1024**2
    with pytest.raises(QueryInvalid) as info:
        engine.execute(duck_file, "SELECT repeat('x', 100000) AS big FROM data", row_cap=10_000)
    assert info.value.code == "result_too_large" and "1 MB" in info.value.message
    small = engine.execute(duck_file, "SELECT n FROM data", row_cap=10_000)
    assert small.row_count == 100


def test_a_sql_source_result_past_the_byte_cap_is_refused(customer, settings):
    settings.QUERY_MAX_RESULT_BYTES = 20_000
    sql = "SELECT a.地区, b.产品 FROM 订单 AS a, 订单 AS b"
    with pytest.raises(QueryInvalid) as info:
        sources.execute_sql_safe(customer.source, sql)
    assert info.value.code == "result_too_large"
    assert sources.execute_sql_safe(customer.source, "SELECT COUNT(*) AS n FROM 数字").rows == [[300]]
