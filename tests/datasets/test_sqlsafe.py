"""The statement checker and placeholder rendering, without a database: what passes, what is refused
and why, CTE scoping, the row cap, parameters, and driver placeholder styles."""

from __future__ import annotations

import pytest
import sqlglot

from apps.datasets.errors import QueryInvalid
from apps.datasets.sources.connectors import render
from apps.datasets.sources.sqlsafe import check_select

DIALECTS = ["postgres", "mysql", "sqlite"]
SCHEMA = {"postgres": "shop", "mysql": "shop", "sqlite": None}
EXPOSED = ["订单", "客户"]


def check(sql: str, dialect: str = "postgres", params: dict | None = None, row_cap: int = 100):
    return check_select(
        sql, dialect=dialect, exposed=EXPOSED, schema=SCHEMA[dialect], params=params or {}, row_cap=row_cap
    )


def refused(sql: str, dialect: str = "postgres", params: dict | None = None) -> QueryInvalid:
    with pytest.raises(QueryInvalid) as caught:
        check(sql, dialect, params)
    assert caught.value.message.startswith("SQL refused, nothing was executed: ")
    return caught.value


ACCEPTED = [
    "SELECT 地区, SUM(金额) AS total FROM 订单 WHERE 金额 > :m GROUP BY 地区 HAVING SUM(金额) > :m ORDER BY total DESC",
    "WITH t AS (SELECT * FROM 订单) SELECT COUNT(*) FROM t",
    "WITH RECURSIVE n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n",
    "SELECT o.id, c.名称 FROM 订单 AS o LEFT JOIN 客户 AS c ON c.id = o.客户id WHERE o.日期 BETWEEN :m AND :m",
    "SELECT id FROM 订单 UNION SELECT id FROM 客户",
    "SELECT id FROM 订单 WHERE 客户id IN (SELECT id FROM 客户 WHERE 名称 LIKE '%公司') AND EXISTS (SELECT 1 FROM 客户)",
    "SELECT CASE WHEN 金额 > 100 THEN '大' ELSE '小' END AS 档, COALESCE(金额, 0), ROUND(金额 / 3, 2) FROM 订单",
    "SELECT 地区, ROW_NUMBER() OVER (PARTITION BY 地区 ORDER BY 金额 DESC) AS 名次, "
    "LAG(金额) OVER (ORDER BY 日期) FROM 订单",
    "SELECT LOWER(地区), UPPER(产品), LENGTH(产品), SUBSTR(产品, 1, 2), TRIM(产品), REPLACE(产品, 'a', 'b') FROM 订单",
    "SELECT DISTINCT 地区 FROM 订单 ORDER BY 1 LIMIT 5 OFFSET 2",
    "SELECT * FROM shop.订单",
    "SELECT 地区 FROM 订单 WHERE 备注 = ':not_a_parameter' -- a comment is dropped, not run",
]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("sql", ACCEPTED)
def test_ordinary_selects_pass(sql, dialect):
    params = {"m": 1} if ":m" in sql else {}
    if dialect == "sqlite" and "shop." in sql:
        sql = sql.replace("shop.", "main.")
    tree = check(sql, dialect, params)
    text = tree.sql(dialect=dialect, comments=False)
    assert "LIMIT" in text and "comment" not in text


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    ("sql", "code", "fragment"),
    [
        ("INSERT INTO 订单 VALUES (1)", "sql_not_select", "INSERT writes data"),
        ("UPDATE 订单 SET 金额 = 0", "sql_not_select", "UPDATE writes data"),
        ("DELETE FROM 订单", "sql_not_select", "DELETE writes data"),
        ("DROP TABLE 订单", "sql_not_select", "DROP changes the schema"),
        ("CREATE TABLE x AS SELECT * FROM 订单", "sql_not_select", "CREATE changes the schema"),
        ("ALTER TABLE 订单 ADD COLUMN x INT", "sql_not_select", "ALTER changes the schema"),
        ("TRUNCATE TABLE 订单", "sql_not_select", "TRUNCATE deletes data"),
        ("GRANT SELECT ON 订单 TO someone", "sql_not_select", "GRANT changes permissions"),
        ("SET search_path = other", "sql_not_select", "SET changes session settings"),
        ("CALL do_things()", "sql_not_select", "not a query"),
        ("SELECT 1; SELECT 2", "sql_multiple_statements", "exactly one statement"),
        ("SELECT * INTO 副本 FROM 订单", "sql_refused", "SELECT INTO"),
        ("SELECT * FROM 订单 FOR UPDATE", "sql_refused", "FOR UPDATE"),
        ("SELECT * FROM 订单 FOR SHARE", "sql_refused", "FOR UPDATE/FOR SHARE"),
        ("SELECT pg_read_file('/etc/passwd')", "sql_function_refused", "reads server files"),
        ("SELECT pg_read_binary_file('/etc/passwd')", "sql_function_refused", "reads server files"),
        ("SELECT pg_ls_dir('.')", "sql_function_refused", "reads server files"),
        ("SELECT lo_import('/etc/passwd')", "sql_function_refused", "server files"),
        ("SELECT lo_export(1, '/tmp/x')", "sql_function_refused", "server files"),
        ("SELECT dblink('host=x', 'select 1')", "sql_function_refused", "other databases"),
        ("SELECT pg_sleep(10)", "sql_function_refused", "burns time"),
        ("SELECT pg_sleep_for('5 minutes')", "sql_function_refused", "burns time"),
        ("SELECT SLEEP(10)", "sql_function_refused", "burns time"),
        ("SELECT BENCHMARK(1000000, MD5('a'))", "sql_function_refused", "burns time"),
        ("SELECT LOAD_FILE('/etc/passwd')", "sql_function_refused", "server files"),
        ("SELECT set_config('default_transaction_read_only', 'off', false)", "sql_function_refused", "settings"),
        ("SELECT current_setting('data_directory')", "sql_function_refused", "settings"),
        ("SELECT pg_terminate_backend(1)", "sql_function_refused", "controls the server"),
        ("SELECT pg_cancel_backend(1)", "sql_function_refused", "controls the server"),
        ("SELECT readfile('/etc/passwd')", "sql_function_refused", "files"),
        ("SELECT writefile('/tmp/x', 'y')", "sql_function_refused", "files"),
        ("SELECT load_extension('/tmp/x.so')", "sql_function_refused", "native code"),
        ("SELECT fts3_tokenizer('simple')", "sql_function_refused", "files"),
        ("SELECT pg_backend_pid()", "sql_function_refused", "system functions"),
        ("SELECT some_custom_udf(金额) FROM 订单", "sql_function_refused", "not on the list of allowed functions"),
        ("SELECT * FROM 机密", "sql_table_refused", "not exposed"),
        ("SELECT * FROM 订单 JOIN 机密 ON TRUE", "sql_table_refused", "not exposed"),
        ("SELECT * FROM other.订单", "sql_table_refused", "not this source's schema"),
        ("SELECT * FROM information_schema.columns", "sql_table_refused", "system catalogs"),
        ("SELECT * FROM pg_catalog.pg_authid", "sql_table_refused", "system catalogs"),
        ("SELECT * FROM pg_user", "sql_table_refused", "system catalogs"),
        ("SELECT * FROM mysql.user", "sql_table_refused", "system catalogs"),
        ("SELECT * FROM performance_schema.threads", "sql_table_refused", "system catalogs"),
        ("SELECT * FROM sqlite_master", "sql_table_refused", "system catalogs"),
        ("SELECT * FROM pragma_table_info('订单')", "sql_function_refused", "system functions"),
        ("SELECT @a := 1", "sql_refused", "not allowed"),
        ("SELECT 1 /*! ; DROP TABLE 订单 */", "sql_refused", "executable comments"),
        ("SELECT 1 /*M! , SLEEP(100) */", "sql_refused", "executable comments"),
        ("SELECT ?", "sql_refused", ":name placeholders"),
        ("SELECT * FROM 订单 LIMIT :n", "sql_refused", "LIMIT must be a whole number"),
        ("", "sql_syntax", "no SQL was given"),
        ("SELECT FROM WHERE ((", "sql_syntax", "could not be parsed"),
    ],
)
def test_dangerous_sql_is_refused_with_a_reason(sql, code, fragment, dialect):
    error = refused(sql, dialect, {"n": 5} if ":n" in sql else None)
    if error.code == "sql_syntax" and code != "sql_syntax":
        return  # this dialect cannot even parse it: refused all the same
    assert (error.code, fragment in error.message) == (code, True), error.message


@pytest.mark.parametrize("dialect", DIALECTS)
def test_cte_names_are_scoped_like_the_engines_scope_them(dialect):
    check("WITH 机密 AS (SELECT 1 AS id) SELECT * FROM 机密", dialect)
    # Outside the WITH that defines it, the name means the real (hidden) table.
    refused(
        "SELECT id FROM 机密 UNION SELECT id FROM (WITH 机密 AS (SELECT 1 AS id) SELECT id FROM 机密) AS t", dialect
    )
    # A CTE body sees only the CTEs defined before it.
    refused("WITH a AS (SELECT * FROM 机密), 机密 AS (SELECT 1 AS id) SELECT * FROM a", dialect)
    check("WITH 机密 AS (SELECT 1 AS id), a AS (SELECT * FROM 机密) SELECT * FROM a", dialect)


def test_name_case_follows_the_engine():
    check('SELECT * FROM "订单"', "postgres")
    assert "not exposed" in refused('SELECT * FROM "Orders"', "postgres").message
    check_select("SELECT * FROM Orders", dialect="postgres", exposed=["orders"], schema="public", params={}, row_cap=5)
    assert "system catalogs" in refused("SELECT * FROM pg_toast.x", "postgres").message
    check_select("SELECT * FROM ORDERS", dialect="sqlite", exposed=["orders"], schema=None, params={}, row_cap=5)
    with pytest.raises(QueryInvalid, match="not exposed"):
        check_select("SELECT * FROM ORDERS", dialect="mysql", exposed=["orders"], schema="shop", params={}, row_cap=5)


def test_postgres_object_identifier_casts_are_refused():
    """'pg_authid'::regclass would tell whether hidden objects exist."""
    assert "ObjectIdentifier is not allowed" in refused("SELECT 'pg_authid'::regclass").message


def test_row_cap_is_applied_and_never_raised():
    assert check("SELECT * FROM 订单", row_cap=100).args["limit"].expression.name == "101"
    assert check("SELECT * FROM 订单 LIMIT 5", row_cap=100).args["limit"].expression.name == "5"
    assert check("SELECT * FROM 订单 LIMIT 50000", row_cap=100).args["limit"].expression.name == "101"
    union = check("SELECT id FROM 订单 UNION SELECT id FROM 客户", row_cap=10)
    assert union.sql("postgres").endswith("LIMIT 11")
    assert check("SELECT * FROM 订单 FETCH FIRST 3 ROWS ONLY").sql("postgres").endswith("LIMIT 3")


def test_parameters_must_match_placeholders():
    assert "no value given for :m" in refused("SELECT * FROM 订单 WHERE 金额 > :m").message
    assert "not used by the SQL: extra" in refused("SELECT * FROM 订单", params={"extra": 1}).message
    assert "must be text, a number" in refused("SELECT * FROM 订单 WHERE 金额 > :m", params={"m": [1, 2]}).message
    check("SELECT * FROM 订单 WHERE 地区 = :r AND 金额 > :m", params={"r": "华东", "m": None})


def test_limits_on_size():
    assert refused("SELECT 1" + " " * 20_001).code == "sql_too_long"
    assert refused("SELECT '\x00'").code == "sql_syntax"
    assert refused("SELECT " + "(" * 5000 + "1" + ")" * 5000).code == "sql_too_complex"
    assert refused("SELECT 1" + " + 1" * 400).code == "sql_too_complex"


def render_one(sql: str, dialect: str, style: str, params: dict):
    return render(sqlglot.parse_one(sql, read=dialect), dialect, params, style)


def test_render_postgres_uses_numbered_server_side_parameters():
    out = render_one("SELECT a FROM t WHERE a = :x AND b = :y AND c = :x", "postgres", "dollar", {"x": 1, "y": "2"})
    assert out.sql == "SELECT a FROM t WHERE a = $1 AND b = $2 AND c = $1" and out.args == [1, "2"]
    assert out.audit_sql == "SELECT a FROM t WHERE a = :x AND b = :y AND c = :x"


def test_render_mysql_doubles_literal_percent_signs_only_with_parameters():
    out = render_one("SELECT a FROM t WHERE a LIKE 'x%' AND b = :v", "mysql", "pyformat", {"v": "%s"})
    assert out.sql == "SELECT a FROM t WHERE a LIKE 'x%%' AND b = %(v)s" and out.args == {"v": "%s"}
    plain = render_one("SELECT a FROM t WHERE a LIKE 'x%'", "mysql", "pyformat", {})
    assert plain.sql == "SELECT a FROM t WHERE a LIKE 'x%'" and plain.args is None


def test_render_never_touches_placeholder_lookalikes_in_text_or_names():
    sql = """SELECT "a:x", ':x' AS "$1" FROM t WHERE b = :x"""
    out = render_one(sql, "postgres", "dollar", {"x": 5})
    assert out.sql == """SELECT "a:x", ':x' AS "$1" FROM t WHERE b = $1""" and out.args == [5]
    named = render_one(sql, "sqlite", "named", {"x": 5})
    assert named.sql == """SELECT "a:x", ':x' AS "$1" FROM t WHERE b = :x""" and named.args == {"x": 5}


def test_render_refuses_missing_values():
    with pytest.raises(QueryInvalid, match=":y"):
        render_one("SELECT :y", "sqlite", "named", {})
