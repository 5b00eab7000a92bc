"""The free-SQL checker on a corpus: realistic gold queries in SQLite and MySQL spellings are accepted
(and the checked statement still runs on the real engine, giving the same rows as the original text),
injection payloads are refused in every dialect, and a refusal never names a function the caller did
not write."""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing

import pymysql
import pytest

from apps.datasets.errors import QueryInvalid
from apps.datasets.sources.connectors import render
from apps.datasets.sources.sqlsafe import check_select
from tests.datasets.sources_support import MY
from tests.support.requirements import missing
from tests.support.sql_corpus import GOLD_MYSQL, GOLD_SQLITE, PAYLOADS, SHOP_DDL, SHOP_ROWS, SHOP_TABLES

ROW_CAP = 1000


def check(sql: str, dialect: str):
    schema = None if dialect == "sqlite" else "shop"
    return check_select(sql, dialect=dialect, exposed=SHOP_TABLES, schema=schema, params={}, row_cap=ROW_CAP)


@pytest.mark.parametrize("sql", GOLD_SQLITE)
def test_sqlite_gold_queries_are_accepted(sql):
    check(sql, "sqlite")


@pytest.mark.parametrize("sql", GOLD_MYSQL)
def test_mysql_gold_queries_are_accepted(sql):
    check(sql, "mysql")


@pytest.mark.parametrize("dialect", ["sqlite", "mysql", "postgres"])
@pytest.mark.parametrize("sql", PAYLOADS)
def test_injection_payloads_are_refused(sql, dialect):
    with pytest.raises(QueryInvalid) as caught:
        check(sql, dialect)
    message = caught.value.message
    assert message.startswith("SQL refused, nothing was executed: "), message
    for named in re.findall(r"function (\w+)\(\)", message):
        assert named.lower() in sql.lower(), f"the refusal names {named}(), which the caller did not write"


@pytest.mark.parametrize(
    ("sql", "dialect"),
    [
        ("SELECT strftime('%Y', order_date) FROM orders", "sqlite"),
        ("SELECT DATE_FORMAT(order_date, '%Y') FROM orders", "mysql"),
    ],
)
def test_date_formatting_is_accepted_in_its_own_dialect(sql, dialect):
    tree = check(sql, dialect)
    assert "ts_or_ds" not in tree.sql(dialect).lower()


def test_refusals_name_the_function_as_written():
    with pytest.raises(QueryInvalid) as caught:
        check("SELECT Load_File('/etc/passwd')", "mysql")
    assert "Load_File()" in caught.value.message
    with pytest.raises(QueryInvalid) as caught:
        check("SELECT unknown_fn(strftime('%Y', order_date)) FROM orders", "sqlite")
    assert "unknown_fn()" in caught.value.message and "ts_or_ds" not in caught.value.message


def test_an_empty_database_part_is_a_refusal_not_a_crash():
    for dialect in ("sqlite", "mysql", "postgres"):
        with pytest.raises(QueryInvalid) as caught:
            check("SELECT * FROM a..b", dialect)
        assert caught.value.code == "sql_table_refused" and caught.value.status == 400


def _sqlite_shop() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    for statement in SHOP_DDL:
        conn.execute(statement)
    for table, rows in SHOP_ROWS.items():
        conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)  # noqa: S608
    return conn


@pytest.mark.parametrize("sql", GOLD_SQLITE)
def test_checked_sqlite_gold_runs_with_the_same_rows(sql):
    with closing(_sqlite_shop()) as conn:
        rendered = render(check(sql, "sqlite"), "sqlite", {}, "named")
        assert conn.execute(rendered.sql, rendered.args or {}).fetchall() == conn.execute(sql).fetchall()


@pytest.fixture(scope="module")
def mysql_shop() -> Iterator[pymysql.connections.Connection]:
    try:
        conn = pymysql.connect(**MY, autocommit=True, charset="utf8mb4", connect_timeout=5)
    except pymysql.Error as exc:
        missing(f"MySQL/MariaDB is not reachable at 127.0.0.1:3306 ({exc}); .ci/services starts it")
    database = f"ba_corpus_{uuid.uuid4().hex[:10]}"
    with conn.cursor() as cur:
        cur.execute(f"CREATE DATABASE `{database}`")
        cur.execute(f"USE `{database}`")
        for statement in SHOP_DDL:
            cur.execute(statement)
        for table, rows in SHOP_ROWS.items():
            cur.executemany(f"INSERT INTO {table} VALUES ({', '.join(['%s'] * len(rows[0]))})", rows)  # noqa: S608
    try:
        yield conn
    finally:
        with conn.cursor() as cur:
            cur.execute(f"DROP DATABASE `{database}`")
        conn.close()


@pytest.mark.parametrize("sql", GOLD_MYSQL)
def test_checked_mysql_gold_runs_with_the_same_rows(sql, mysql_shop):
    rendered = render(check(sql, "mysql"), "mysql", {}, "pyformat")
    with mysql_shop.cursor() as cur:
        cur.execute(rendered.sql, rendered.args)
        checked = cur.fetchall()
        cur.execute(sql)  # no arguments: the driver leaves % signs alone
        original = cur.fetchall()
    assert checked == original
