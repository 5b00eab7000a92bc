"""SQL sources as data: list tables, profile a table, sample rows, run a QuerySpec, run checked SQL.

The same tools as file datasets, on a tenant's own PostgreSQL, MySQL/MariaDB or SQLite database:
QuerySpecs are compiled for the source's dialect, free SQL passes sqlsafe.check_select first, and
everything runs in a read-only session with a timeout and a row cap (connectors.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sqlglot
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from sqlglot import exp

from apps.datasets.errors import QueryInvalid
from apps.datasets.ingest.profile import DIMENSION_VALUES, TableProfile, column_profile
from apps.datasets.message_parts import closest
from apps.datasets.models import SourceKind, SqlSource
from apps.datasets.query import engine
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.results import ResultTable
from apps.datasets.query.spec import QuerySpec
from apps.datasets.sources.connectors import ENGINE_NAMES, Session, dialect_of, execute_readonly, session
from apps.datasets.sources.sqlsafe import check_select

MAX_SAMPLE_ROWS = 50
MAX_TABLES = 10_000
MAX_COLUMNS = 2_000
SCHEMA_CACHE_SECONDS = 300  # customer data changes underneath us, so profiles are kept only briefly
_ORDERED_KINDS = ("integer", "number", "date", "datetime")

# Our own introspection statements (constants; values bound as :name).
_TABLES_SQL = {
    "postgres": "SELECT c.relname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace "
    "WHERE n.nspname = :schema AND c.relkind IN ('r', 'v', 'm', 'f', 'p') "
    "AND has_table_privilege(c.oid, 'SELECT') ORDER BY c.relname",
    "mysql": "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name",
    "sqlite": "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND NOT name LIKE 'sqlite_%' "
    "ORDER BY name",
}
_COLUMNS_SQL = {
    "postgres": "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute AS a "
    "JOIN pg_class AS c ON c.oid = a.attrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace "
    "WHERE n.nspname = :schema AND c.relname = :table AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
    "mysql": "SELECT column_name, column_type FROM information_schema.columns "
    "WHERE table_schema = DATABASE() AND table_name = :table ORDER BY ordinal_position",
    "sqlite": "SELECT name, type FROM pragma_table_info(:table) ORDER BY cid",
}
_VERSION_SQL = {"postgres": "SELECT version()", "mysql": "SELECT VERSION()", "sqlite": "SELECT sqlite_version()"}


@lru_cache(maxsize=32)
def _constant(sql: str, dialect: str) -> exp.Expr:
    return sqlglot.parse_one(sql, read=dialect)


def _own(opened: Session, which: dict[str, str], params: Mapping[str, Any], row_cap: int) -> list[list[Any]]:
    """Run one of our own introspection statements, binding only the parameters it uses."""
    tree = _constant(which[opened.dialect], opened.dialect).copy()
    used = {p.name for p in tree.find_all(exp.Placeholder)}
    return opened.run(tree, {k: v for k, v in params.items() if k in used}, row_cap=row_cap).rows


def schema_name(source: SqlSource) -> str | None:
    """The namespace a source's tables live in: PostgreSQL schema, MySQL database; none for SQLite."""
    if source.kind == SourceKind.POSTGRESQL:
        return source.schema or "public"
    return source.database if source.kind == SourceKind.MYSQL else None


def _tables_in(opened: Session) -> list[str]:
    rows = _own(opened, _TABLES_SQL, {"schema": schema_name(opened.source)}, MAX_TABLES)
    return [str(r[0]) for r in rows]


def _exposed(source: SqlSource, existing: list[str]) -> list[str]:
    allowed = set(source.tables or [])
    return [t for t in existing if t in allowed] if allowed else existing


def _columns(opened: Session, table: str) -> list[tuple[str, str]]:
    params = {"schema": schema_name(opened.source), "table": table}
    return [(str(r[0]), str(r[1] or "")) for r in _own(opened, _COLUMNS_SQL, params, MAX_COLUMNS)]


@dataclass(frozen=True)
class ConnectionReport:
    server: str
    tables: list[str]


def connection_check(source: SqlSource) -> ConnectionReport:
    """Connect, read the server version and the tables; SourceFailure with a clear message otherwise."""
    with session(source, introspection=True) as opened:
        version = _own(opened, _VERSION_SQL, {}, 1)
        tables = _tables_in(opened)
    text = str(version[0][0]) if version else ""
    engine_name = ENGINE_NAMES[SourceKind(source.kind)]
    server = text if text.lower().startswith("postgresql") else f"{engine_name} {text}".strip()
    return ConnectionReport(server=server[:200], tables=tables)


def list_tables(source: SqlSource) -> list[str]:
    """Tables (and views) queries may use: the allow-list if set, else every table of the database/schema."""
    with session(source, introspection=True) as opened:
        return _exposed(source, _tables_in(opened))


def _require_table(opened: Session, table: str) -> list[tuple[str, str]]:
    """The table's columns, if the source exposes it; a message naming the closest tables otherwise."""
    exposed = _exposed(opened.source, _tables_in(opened))
    if table not in exposed:
        raise QueryInvalid(
            _("unknown table '%(table)s'%(hint)s") % {"table": table, "hint": closest(table, exposed)},
            code="unknown_table",
        )
    columns = _columns(opened, table)
    if not columns:
        raise QueryInvalid(_("table '%(table)s' has no readable columns") % {"table": table}, code="unknown_table")
    return columns


def _col(name: str) -> exp.Column:
    return exp.column(exp.to_identifier(name, quoted=True))


def _table(name: str) -> exp.Table:
    return exp.Table(this=exp.to_identifier(name, quoted=True))


def _comparable(name: str, kind: str) -> exp.Expr:
    """Values of unusual types (json, arrays, ...) are counted and grouped as text: not every type has '='."""
    return exp.Cast(this=_col(name), to=exp.DataType.build("text")) if kind == "other" else _col(name)


def _profile(opened: Session, table: str, columns: list[tuple[str, str]]) -> TableProfile:
    kinds = [(name, type_name, engine.kind_of(type_name)) for name, type_name in columns]
    parts: list[exp.Expr] = [exp.Count(this=exp.Star())]
    for name, _type, kind in kinds:
        ordered = kind in _ORDERED_KINDS
        parts += [
            exp.Count(this=_col(name)),
            exp.Count(this=exp.Distinct(expressions=[_comparable(name, kind)])),
            exp.Min(this=_col(name)) if ordered else exp.Null(),
            exp.Max(this=_col(name)) if ordered else exp.Null(),
        ]
    stats = opened.run(exp.select(*parts).from_(_table(table)), row_cap=1).rows[0]
    row_count = int(stats[0])
    profiles = []
    for i, (name, type_name, kind) in enumerate(kinds):
        non_null, distinct, lo, hi = stats[1 + 4 * i : 5 + 4 * i]
        value = _comparable(name, kind)
        top = (
            exp.select(value)
            .from_(_table(table))
            .where(exp.Not(this=exp.Is(this=_col(name), expression=exp.Null())))
            .group_by(value.copy())
            .order_by(exp.Ordered(this=exp.Count(this=exp.Star()), desc=True), value.copy())
            .limit(DIMENSION_VALUES + 1)
        )
        values = [r[0] for r in opened.run(top, row_cap=DIMENSION_VALUES + 1).rows]
        stats_of = (int(non_null), int(distinct), lo, hi)
        profiles.append(
            column_profile(name=name, type_name=type_name, kind=kind, row_count=row_count, stats=stats_of, top=values)
        )
    return TableProfile(row_count=row_count, columns=profiles)


def _cache_key(source: SqlSource, table: str) -> str:
    identity = [source.pk, source.kind, source.host, source.port, source.database, source.schema, source.username]
    payload = json.dumps([identity, sorted(source.tables or []), table], ensure_ascii=False, default=str)
    return f"srcschema:{source.tenant_id}:{hashlib.sha256(payload.encode()).hexdigest()}"


def get_schema(source: SqlSource, table: str) -> TableProfile:
    """A TableProfile of one exposed table, as file datasets have (cached for a few minutes)."""
    key = _cache_key(source, table)
    cached = cache.get(key)
    if cached is not None:
        return TableProfile.model_validate(cached)
    with session(source, introspection=True) as opened:
        profile = _profile(opened, table, _require_table(opened, table))
    cache.set(key, profile.model_dump(mode="json"), SCHEMA_CACHE_SECONDS)
    return profile


def sample_rows(source: SqlSource, table: str, *, n: int = 10, columns: list[str] | None = None) -> ResultTable:
    if not 1 <= n <= MAX_SAMPLE_ROWS:
        raise QueryInvalid(_("n must be between 1 and %(max)s") % {"max": MAX_SAMPLE_ROWS}, code="invalid_sample_size")
    with session(source, introspection=True) as opened:
        names = [name for name, _type in _require_table(opened, table)]
        chosen = columns or names
        for name in chosen:
            if name not in names:
                raise QueryInvalid(
                    _("unknown column '%(name)s'%(hint)s") % {"name": name, "hint": closest(name, names)},
                    code="unknown_column",
                )
        tree = exp.select(*(_col(c) for c in chosen)).from_(_table(table)).limit(n)
        return opened.run(tree, row_cap=n)


def run_query(source: SqlSource, table: str, spec: QuerySpec) -> ResultTable:
    """Compile a QuerySpec for the source's dialect and run it with bound parameters (not cached:
    the customer's data can change at any time)."""
    dialect = dialect_of(source)
    with session(source, introspection=True) as opened:
        kinds = {name: engine.kind_of(type_name) for name, type_name in _require_table(opened, table)}
        compiled = compile_query(spec, schema=kinds, table=table, dialect=dialect, row_cap=settings.QUERY_MAX_ROWS)
        result = opened.run(sqlglot.parse_one(compiled.sql, read=dialect), compiled.params, row_cap=compiled.limit)
    result.columns = compiled.columns
    return result


def exposed_tables(source: SqlSource) -> list[str]:
    """The tables free SQL may name: the allow-list as stored, else every table (asked from the database)."""
    return list(source.tables) if source.tables else list_tables(source)


def execute_sql_safe(source: SqlSource, sql: str, params: Mapping[str, Any] | None = None) -> ResultTable:
    """Exactly one checked SELECT, run read-only with a timeout and the row cap; QueryInvalid says what
    was refused and why (nothing runs then)."""
    values = dict(params or {})
    tree = check_select(
        sql,
        dialect=dialect_of(source),
        exposed=exposed_tables(source),
        schema=schema_name(source),
        params=values,
        row_cap=settings.QUERY_MAX_ROWS,
    )
    return execute_readonly(source, tree, values, row_cap=settings.QUERY_MAX_ROWS)
