"""SQLite files as SQL sources: only files under SQLITE_SOURCES_ROOT/<tenant slug>/, opened read-only.

A tenant could otherwise name any file on the server (the platform's own database, another
tenant's file), so the path is resolved (symlinks followed) and must stay inside the tenant's
folder, and the file must really be SQLite — checked again on every connection, since files can
change. The connection is read-only three ways: `mode=ro` URI, `PRAGMA query_only`, and an
authorizer that allows reading and nothing else; ATTACH is disabled by a zero limit.
"""

from __future__ import annotations

import datetime as dt
import decimal
import sqlite3
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from apps.datasets.errors import SourceFailure
from apps.datasets.query.results import fetch_capped
from apps.datasets.sources.connectors import Rendered, Session
from apps.datasets.sources.sqlsafe import DENIED_FUNCTIONS
from apps.tenants.models import Tenant
from baplatform.errors import InvalidInput

SQLITE_HEADER = b"SQLite format 3\x00"
_PROGRESS_STEPS = 1000  # virtual machine instructions between deadline checks
_INTROSPECTION_PRAGMAS = frozenset({"table_info", "table_xinfo"})


def sqlite_folder(tenant: Tenant) -> Path:
    return Path(settings.SQLITE_SOURCES_ROOT).resolve() / tenant.slug


def sqlite_path(tenant: Tenant, database: str) -> Path:
    """The real path of a tenant's SQLite file, or a clear refusal. `database` is relative to the folder."""
    folder = sqlite_folder(tenant)
    text = (database or "").strip()
    if not text or "\x00" in text:
        raise InvalidInput(_("give the SQLite file's name, e.g. 'sales.db'"), code="sqlite_path_required")
    candidate = Path(text)
    real = (candidate if candidate.is_absolute() else folder / candidate).resolve()
    if not real.is_relative_to(folder):
        raise InvalidInput(
            _(
                "'%(name)s' is outside this workspace's SQLite folder; only files placed there by an administrator "
                "(SQLITE_SOURCES_ROOT/<workspace>/) can be used — give the file name relative to that folder"
            )
            % {"name": text},
            code="sqlite_path_not_allowed",
        )
    if not real.is_file():
        raise InvalidInput(
            _("no file '%(name)s' in this workspace's SQLite folder; ask an administrator to place it there")
            % {"name": text},
            code="sqlite_not_found",
        )
    with real.open("rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise InvalidInput(
                _("'%(name)s' is not a SQLite database file") % {"name": text}, code="sqlite_not_a_database"
            )
    return real


def relative_name(tenant: Tenant, database: str) -> str:
    """What is stored for a SQLite source: the checked file's path relative to the tenant's folder."""
    return sqlite_path(tenant, database).relative_to(sqlite_folder(tenant)).as_posix()


def _bindable(value: Any) -> Any:
    """SQLite stores dates as ISO text; bind values the way they are stored."""
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    return value


def _type_name(value: Any) -> str:
    return {int: "INTEGER", float: "REAL", str: "TEXT", bytes: "BLOB", bool: "INTEGER"}.get(type(value), "")


# The start of SQLite's own message -> what we say about it (connectors._REJECTIONS).
_REASONS = (
    ("no such column", "unknown_column"),
    ("no such table", "unknown_table"),
    ("no such function", "unknown_function"),
    ("wrong number of arguments", "unknown_function"),
    ("ambiguous column", "ambiguous"),
    ("near ", "syntax"),
    ("incomplete input", "syntax"),
)


class SQLiteSession(Session):
    style, engine = "named", "SQLite"

    def where(self) -> str:
        return _("SQLite file '%(name)s'") % {"name": self.source.database}

    def open(self) -> None:
        try:
            path = sqlite_path(self.source.tenant, self.source.database)
        except InvalidInput as exc:
            raise SourceFailure(exc.message, code="source_unreachable") from None
        try:
            self.conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5, isolation_level=None)
            self.conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
            self.conn.execute("PRAGMA query_only = ON")
            self.conn.set_authorizer(self.authorize)
        except sqlite3.Error as exc:
            self.close()
            raise self.unreachable(exc) from None

    def authorize(self, action: int, arg1: str | None, arg2: str | None, _db: str | None, _src: str | None) -> int:
        """Reading and computing only; system tables and dangerous functions are refused here too."""
        if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE):
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ:
            system = (arg1 or "").lower().startswith("sqlite_")
            return sqlite3.SQLITE_DENY if system and not self.introspection else sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION:
            name = (arg2 or "").lower()
            return sqlite3.SQLITE_DENY if name in DENIED_FUNCTIONS else sqlite3.SQLITE_OK
        if self.introspection and action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in _INTROSPECTION_PRAGMAS:
            return sqlite3.SQLITE_OK
        if self.introspection and action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master":
            return sqlite3.SQLITE_OK  # asked for by pragma_table_info(); the file is still opened read-only
        return sqlite3.SQLITE_DENY

    def close(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()

    def fetch(self, rendered: Rendered, row_cap: int) -> tuple[list[str], list[str], list[Any]]:
        deadline = time.monotonic() + self.timeout_s
        self.conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
        args = {k: _bindable(v) for k, v in (rendered.args or {}).items()} if isinstance(rendered.args, dict) else {}
        cur = self.conn.execute(rendered.sql, args)
        try:
            description = cur.description or []
            rows = fetch_capped(cur.fetchmany, row_cap) if cur.description else []
        finally:
            cur.close()
        first = rows[0] if rows else ()
        types = [_type_name(v) for v in first] if first else [""] * len(description)
        return [d[0] for d in description], types, rows

    def unreachable(self, exc: Exception) -> SourceFailure:
        self.note("could not be opened", exc)
        return SourceFailure(
            _("the SQLite file '%(name)s' could not be opened as a database") % {"name": self.source.database},
            code="source_unreachable",
        )

    def translate(self, exc: Exception) -> Exception:
        detail = str(exc)
        code = str(getattr(exc, "sqlite_errorname", "") or type(exc).__name__)
        if isinstance(exc, sqlite3.OperationalError) and "interrupted" in detail:
            return self.timed_out()
        if "readonly" in detail or "not authorized" in detail or "prohibited" in detail:
            return self.read_only_refused(exc)
        if isinstance(exc, sqlite3.OperationalError | sqlite3.ProgrammingError | sqlite3.IntegrityError):
            reason = next((r for prefix, r in _REASONS if detail.startswith(prefix)), "")
            return self.rejected(exc, reason, code)
        return self.failed(exc, code)
