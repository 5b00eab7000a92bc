"""Sessions on tenants' own databases: read-only by the database's own rules, timed out, values bound.

PostgreSQL runs every statement in a READ ONLY transaction (and read-only by default for the
session) with statement_timeout; MySQL/MariaDB in a READ ONLY session and transaction with
max_execution_time / max_statement_time; SQLite (sqlite_files.py) through a read-only URI with
query_only, an authorizer and a progress-handler deadline. So a statement that slipped past the
checker still cannot write. Statements arrive as sqlglot trees; their `:name` placeholders are
rendered in the driver's own parameter style, and values always travel separately from the SQL.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import psycopg
import pymysql
from django.conf import settings
from django.db import connections
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from psycopg import errors as pg_errors
from psycopg import sql as pg_sql
from pymysql.constants import FIELD_TYPE
from sqlglot import exp

from apps.datasets.errors import QueryInvalid, QueryTimeout, SourceFailure
from apps.datasets.models import SourceKind, SqlSource
from apps.datasets.query.results import ResultTable, fetch_capped, json_safe, json_safe_rows
from apps.datasets.sources import crypto

DIALECTS = {SourceKind.POSTGRESQL: "postgres", SourceKind.MYSQL: "mysql", SourceKind.SQLITE: "sqlite"}
ENGINE_NAMES = {SourceKind.POSTGRESQL: "PostgreSQL", SourceKind.MYSQL: "MySQL/MariaDB", SourceKind.SQLITE: "SQLite"}
DEFAULT_PORTS = {SourceKind.POSTGRESQL: 5432, SourceKind.MYSQL: 3306}
# Reaching the server and finishing its handshake: short, so a probe of a silent port does not hold a worker.
CONNECT_TIMEOUT_SECONDS = 3
log = logging.getLogger(__name__)
_QUERY_START = re.compile(r"\s*\(*\s*(SELECT|WITH|VALUES|TABLE)\b", re.IGNORECASE)
_MARK = re.compile(r"\x00([A-Za-z_][A-Za-z0-9_]*)\x00")
_MYSQL_TYPES = {value: name for name, value in vars(FIELD_TYPE).items() if name.isupper()}


def unreachable_message() -> str:
    return _(
        "could not connect to the database; check the host, port, database name, user name and password, "
        "and that the server accepts connections from this platform"
    )


# What a server objected to, in our words (the driver's own text may quote anything, so it is only logged).
_REJECTIONS = {
    "unknown_column": gettext_noop("a column it names does not exist"),
    "unknown_table": gettext_noop("a table it names does not exist"),
    "unknown_function": gettext_noop("a function it calls does not exist on this server (or takes other arguments)"),
    "syntax": gettext_noop("the server could not read the SQL (syntax error)"),
    "privilege": gettext_noop("the database user may not read something it names"),
    "grouping": gettext_noop("a selected column is neither grouped nor aggregated"),
    "ambiguous": gettext_noop("a column name is ambiguous; qualify it with its table"),
    "value": gettext_noop("a value has the wrong type or is out of range"),
}


def dialect_of(source: SqlSource) -> str:
    return DIALECTS[SourceKind(source.kind)]


@dataclass(frozen=True)
class Rendered:
    sql: str  # in the driver's parameter style
    args: dict[str, Any] | list[Any] | None
    audit_sql: str  # the same statement with :name placeholders, for the audit trail


def render(tree: exp.Expr, dialect: str, params: Mapping[str, Any], style: str) -> Rendered:
    """SQL text for a driver: placeholders become `$n` (dollar), `%(name)s` (pyformat) or `:name` (named).

    Placeholders are first rendered as NUL-delimited marks, which cannot occur anywhere else in the
    generated text (checked by counting), so no literal or identifier can be mistaken for one.
    """
    names: list[str] = []

    def mark(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder):
            if not _MARK.fullmatch(f"\x00{node.name}\x00"):
                raise QueryInvalid(_("invalid placeholder name '%(name)s'") % {"name": node.name}, code="sql_params")
            names.append(node.name)
            return exp.Var(this=f"\x00{node.name}\x00")
        return node

    text = tree.transform(mark).sql(dialect=dialect, comments=False)
    if text.count("\x00") != 2 * len(names):
        raise QueryInvalid(_("the statement contains a NUL character"), code="sql_syntax")
    if missing := sorted(set(names) - params.keys()):
        shown = ", ".join(f":{n}" for n in missing)
        raise QueryInvalid(_("no value given for %(names)s") % {"names": shown}, code="sql_params")
    audit = _MARK.sub(lambda m: f":{m[1]}", text)
    used = list(dict.fromkeys(names))
    if style == "dollar":
        sql = _MARK.sub(lambda m: f"${used.index(m[1]) + 1}", text)
        return Rendered(sql, [params[n] for n in used], audit)
    if style == "pyformat":  # the driver applies Python %-formatting, so every literal % is doubled
        if not used:
            return Rendered(text, None, audit)
        sql = _MARK.sub(lambda m: f"%({m[1]})s", text.replace("%", "%%"))
        return Rendered(sql, {n: params[n] for n in used}, audit)
    return Rendered(audit, {n: params[n] for n in used}, audit)


def _plain(value: Any) -> Any:
    """JSON documents (PostgreSQL json/jsonb arrive parsed) as JSON text, like every other cell."""
    return json.dumps(value, ensure_ascii=False, default=str) if isinstance(value, dict | list) else value


class Session(ABC):
    """One open read-only connection; `run` executes one statement and fetches at most row_cap (+1) rows."""

    style: ClassVar[str]
    engine: ClassVar[str]

    def __init__(self, source: SqlSource, timeout_s: float, introspection: bool = False) -> None:
        self.source, self.timeout_s, self.introspection = source, timeout_s, introspection
        self.dialect = dialect_of(source)
        self.password = crypto.decrypt(source.password_encrypted)

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def fetch(self, rendered: Rendered, row_cap: int) -> tuple[list[str], list[str], list[Any]]: ...

    @abstractmethod
    def translate(self, exc: Exception) -> Exception:
        """A driver error as QueryTimeout, QueryInvalid or SourceFailure with a message for the user."""

    def where(self) -> str:
        """Where the source lives, for server logs only: messages to users never name host or port."""
        port = self.source.port or DEFAULT_PORTS[SourceKind(self.source.kind)]
        return f"{self.engine} at {self.source.host}:{port}"

    def note(self, event: str, exc: Exception) -> None:
        """The driver's own words go to the server log (never the password), not to the user."""
        text = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
        if self.password:
            text = text.replace(self.password, "***")
        log.warning(
            "SQL source %s",
            event,
            extra={"source": self.source.pk, "where": self.where(), "error": type(exc).__name__, "detail": text},
        )

    def unreachable(self, exc: Exception) -> SourceFailure:
        """One message for every way of not getting a working session: closed port, another protocol,
        TLS or authentication failure, unknown database. Nothing the remote side sent is repeated, so
        registering a source cannot be used to tell open ports and services apart."""
        self.note("connection failed", exc)
        return SourceFailure(unreachable_message(), code="source_unreachable")

    def timed_out(self) -> QueryTimeout:
        return QueryTimeout(
            _(
                "the query ran longer than %(seconds)s s on %(engine)s and was stopped; "
                "narrow it with filters or a smaller limit"
            )
            % {"seconds": f"{self.timeout_s:g}", "engine": self.engine}
        )

    def read_only_refused(self, exc: Exception) -> SourceFailure:
        self.note("refused a write", exc)
        return SourceFailure(
            _("%(engine)s refused a write: SQL sources are read-only") % {"engine": self.engine}, code="read_only"
        )

    def rejected(self, exc: Exception, reason: str, code: str) -> QueryInvalid:
        """`reason` is our own wording of what the server objected to; the driver's text is only logged."""
        self.note("rejected a query", exc)
        why = _(_REJECTIONS[reason]) if reason in _REJECTIONS else _("error %(code)s") % {"code": code}
        return QueryInvalid(
            _("%(engine)s rejected the query: %(detail)s") % {"engine": self.engine, "detail": why},
            code="source_rejected",
        )

    def failed(self, exc: Exception, code: str) -> SourceFailure:
        self.note("failed a query", exc)
        return SourceFailure(
            _("the query failed on %(engine)s: %(detail)s")
            % {"engine": self.engine, "detail": _("error %(code)s") % {"code": code}},
            code="query_failed",
        )

    def run(self, tree: exp.Expr, params: Mapping[str, Any] | None = None, *, row_cap: int) -> ResultTable:
        params = dict(params or {})
        rendered = render(tree, self.dialect, params, self.style)
        started = time.perf_counter()
        try:
            columns, types, rows = self.fetch(rendered, row_cap)
        except (QueryInvalid, SourceFailure):
            raise
        except Exception as exc:
            raise self.translate(exc) from None
        return ResultTable(
            columns=columns,
            column_types=types,
            rows=json_safe_rows([[_plain(v) for v in row] for row in rows[:row_cap]]),
            row_count=min(len(rows), row_cap),
            truncated=len(rows) > row_cap,
            sql=rendered.audit_sql,
            params={k: json_safe(v) for k, v in params.items()},
            elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
        )


class PostgresSession(Session):
    style, engine = "dollar", "PostgreSQL"

    def open(self) -> None:
        source = self.source
        try:
            self.conn = psycopg.connect(
                host=source.host,
                port=source.port or DEFAULT_PORTS[SourceKind.POSTGRESQL],
                dbname=source.database,
                user=source.username,
                password=self.password,
                connect_timeout=CONNECT_TIMEOUT_SECONDS,
                sslmode="prefer",  # TLS whenever the server offers it, whatever PGSSLMODE says
                application_name="ba-platform",
                passfile=os.devnull,  # never the platform's own ~/.pgpass
                autocommit=True,
                cursor_factory=psycopg.RawCursor,
            )
        except psycopg.Error as exc:
            raise self.unreachable(exc) from None
        millis = str(max(1, int(self.timeout_s * 1000)))
        search_path = pg_sql.Identifier(source.schema or "public").as_string(self.conn)
        try:
            with self.conn.cursor() as cur:
                cur.execute(
                    "SELECT set_config('default_transaction_read_only', 'on', false),"
                    " set_config('statement_timeout', $1, false), set_config('lock_timeout', $1, false),"
                    " set_config('search_path', $2, false)",
                    [millis, search_path],
                )
            self.conn.autocommit = False
        except psycopg.Error as exc:
            self.close()
            raise self.unreachable(exc) from None

    def close(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()

    def fetch(self, rendered: Rendered, row_cap: int) -> tuple[list[str], list[str], list[Any]]:
        try:
            with self.conn.cursor() as cur:
                cur.execute("SET TRANSACTION READ ONLY")
            # A query runs in a server-side cursor: rows come in batches as they are fetched, so the byte cap
            # stops a huge result before it reaches this process (a client cursor receives all of it first).
            # Anything else (only ever reached when the checker is bypassed) runs plainly, for the database's
            # own read-only refusal.
            query = _QUERY_START.match(rendered.sql) is not None
            with psycopg.RawServerCursor(self.conn, "ba_result") if query else self.conn.cursor() as cur:
                cur.execute(rendered.sql, rendered.args)
                description = cur.description or []
                rows = fetch_capped(cur.fetchmany, row_cap) if description else []
        finally:
            if not self.conn.closed:
                self.conn.rollback()
        types = []
        for column in description:
            info = self.conn.adapters.types.get(column.type_code)
            types.append(info.name if info else str(column.type_code))
        return [c.name for c in description], types, rows

    _REASONS: ClassVar[dict[str, str]] = {
        "42703": "unknown_column",
        "42P01": "unknown_table",
        "42883": "unknown_function",
        "42601": "syntax",
        "42501": "privilege",
        "42803": "grouping",
        "42702": "ambiguous",
    }

    def translate(self, exc: Exception) -> Exception:
        state = str(getattr(exc, "sqlstate", None) or "")
        if isinstance(exc, pg_errors.QueryCanceled):
            return self.timed_out()
        if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
            return self.read_only_refused(exc)
        if state[:2] in ("42", "22"):  # syntax, unknown names, privileges; bad values
            return self.rejected(exc, self._REASONS.get(state, "value" if state[:2] == "22" else ""), state)
        if state.startswith("08") or (isinstance(exc, psycopg.OperationalError) and not state):
            return self.unreachable(exc)
        return self.failed(exc, state or type(exc).__name__)


class MySQLSession(Session):
    style, engine = "pyformat", "MySQL/MariaDB"
    _TIMEOUT_CODES = frozenset({1969, 3024, 1317, 2013})  # statement time exceeded, interrupted, lost mid-query
    _READ_ONLY_CODES = frozenset({1792, 1290})  # write in a READ ONLY transaction, server in --read-only mode
    _SERVER_TROUBLE = frozenset({1021, 1030, 1037, 1038, 1040, 1205, 1213})  # disk, memory, locks, connections

    def open(self) -> None:
        source = self.source
        try:
            self.conn = pymysql.connect(
                host=source.host,
                port=source.port or DEFAULT_PORTS[SourceKind.MYSQL],
                user=source.username,
                password=self.password.encode("utf-8"),  # the driver would encode text as latin-1
                database=source.database,
                charset="utf8mb4",
                connect_timeout=CONNECT_TIMEOUT_SECONDS,
                # The handshake is read with this timeout too: a port that accepts and stays silent is
                # given up on as quickly as a closed one. Queries get their own, longer timeout below.
                read_timeout=CONNECT_TIMEOUT_SECONDS,
                write_timeout=CONNECT_TIMEOUT_SECONDS,
                # No ssl_* options: the driver (>= 1.1) upgrades to TLS when the server offers it and
                # goes on in clear text when it does not (MySQL's PREFERRED mode).
                ssl_disabled=False,
                autocommit=True,
                local_infile=False,
            )
            # pymysql applies _read_timeout/_write_timeout to every later packet; it has no public setter.
            self.conn._read_timeout = self.conn._write_timeout = int(self.timeout_s) + CONNECT_TIMEOUT_SECONDS
            with self.conn.cursor() as cur:
                cur.execute("SELECT VERSION()")
                version = str(cur.fetchone()[0])
                self.mariadb = "mariadb" in version.lower()
                if self.mariadb:
                    cur.execute("SET SESSION max_statement_time = %s", (float(self.timeout_s),))
                else:
                    cur.execute("SET SESSION max_execution_time = %s", (max(1, int(self.timeout_s * 1000)),))
                # Generated literals use backslash escapes, so the session must read them that way.
                cur.execute("SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')")
                cur.execute("SET SESSION TRANSACTION READ ONLY")
        except pymysql.Error as exc:
            self.close()
            raise self.unreachable(exc) from None

    def close(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None and conn.open:
            conn.close()

    def fetch(self, rendered: Rendered, row_cap: int) -> tuple[list[str], list[str], list[Any]]:
        try:
            with self.conn.cursor() as cur:
                cur.execute("START TRANSACTION READ ONLY")
            # Unbuffered: rows are read from the server as they are fetched, so the byte cap stops a huge
            # result early; past it the connection is dropped rather than the rest read and thrown away.
            cur = self.conn.cursor(pymysql.cursors.SSCursor)
            try:
                cur.execute(rendered.sql, rendered.args)
                description = cur.description or []
                rows = list(fetch_capped(cur.fetchmany, row_cap)) if description else []
            except QueryInvalid:
                result = getattr(cur, "_result", None)
                if result is not None:  # the rest of the result goes with the connection, unread
                    result.unbuffered_active = False
                self.conn.close()
                raise
            finally:
                if self.conn.open:
                    cur.close()
        finally:
            if self.conn.open:
                self.conn.rollback()
        types = [_MYSQL_TYPES.get(d[1], str(d[1])) for d in description]
        return [d[0] for d in description], types, rows

    _REASONS: ClassVar[dict[int, str]] = {
        1054: "unknown_column",
        1146: "unknown_table",
        1305: "unknown_function",
        1064: "syntax",
        1142: "privilege",
        1143: "privilege",
        1055: "grouping",
        1052: "ambiguous",
        1292: "value",
        1366: "value",
        1690: "value",
    }

    def translate(self, exc: Exception) -> Exception:
        code = exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0
        if code in self._TIMEOUT_CODES:
            return self.timed_out()
        if code in self._READ_ONLY_CODES:
            return self.read_only_refused(exc)
        if 2000 <= code < 3000:  # client-side errors: the connection failed
            return self.unreachable(exc)
        if code >= 1000 and code not in self._SERVER_TROUBLE:  # the server judged the statement
            return self.rejected(exc, self._REASONS.get(code, ""), str(code))
        return self.failed(exc, str(code or type(exc).__name__))


_PLATFORM_ENGINES = {
    "django.db.backends.postgresql": SourceKind.POSTGRESQL,
    "django.db.backends.mysql": SourceKind.MYSQL,
}


def _platform_database() -> dict[str, Any]:
    return dict(connections["default"].settings_dict)


def _addresses(host: str, port: int) -> set[str]:
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(host or "localhost", port, proto=socket.IPPROTO_TCP)}
    except (OSError, UnicodeError):
        return set()


def refuse_platform_database(source: SqlSource) -> None:
    """A tenant's source may not be the platform's own database (every tenant's data is there)."""
    own = _platform_database()
    kind = _PLATFORM_ENGINES.get(str(own.get("ENGINE", "")))
    if kind != source.kind or str(own.get("NAME", "")).lower() != source.database.lower():
        return
    own_port = int(own.get("PORT") or DEFAULT_PORTS[kind])
    port = source.port or DEFAULT_PORTS[kind]
    if port == own_port and _addresses(source.host, port) & _addresses(str(own.get("HOST") or ""), own_port):
        raise SourceFailure(_("this is the platform's own database, which cannot be a source"), code="forbidden_source")


def _session_class(source: SqlSource) -> type[Session]:
    from apps.datasets.sources.sqlite_files import SQLiteSession

    classes: dict[str, type[Session]] = {
        SourceKind.POSTGRESQL: PostgresSession,
        SourceKind.MYSQL: MySQLSession,
        SourceKind.SQLITE: SQLiteSession,
    }
    return classes[SourceKind(source.kind)]


@contextmanager
def session(source: SqlSource, *, timeout_s: float | None = None, introspection: bool = False) -> Iterator[Session]:
    """An open read-only session on the source, closed afterwards."""
    timeout = float(settings.QUERY_TIMEOUT_SECONDS if timeout_s is None else timeout_s)
    refuse_platform_database(source)
    opened = _session_class(source)(source, timeout, introspection)
    try:
        opened.open()
    except (QueryInvalid, SourceFailure):
        raise
    except Exception as exc:  # a driver's own argument checks (bad host text, encodings...)
        raise opened.unreachable(exc) from None
    try:
        yield opened
    finally:
        opened.close()


def execute_readonly(
    source: SqlSource, tree: exp.Expr, params: Mapping[str, Any] | None = None, *, row_cap: int
) -> ResultTable:
    """Run one statement in a read-only session. No statement checks here: callers check first
    (sqlsafe.check_select, or trees built by the compiler); the session's read-only mode is the backstop."""
    with session(source) as opened:
        return opened.run(tree, params, row_cap=row_cap)
