"""DuckDB for file datasets: one locked-down, read-only connection per version file per process.

Opening a database costs ~15 ms, so connections are kept (LRU) and each query takes its own
cursor. External file access, extension loading and configuration changes are disabled: a query
can read its own table and nothing else. A timer interrupts queries that run past the timeout.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import duckdb
from django.conf import settings
from django.utils.translation import gettext as _

from apps.datasets.errors import QueryTimeout, SourceFailure
from apps.datasets.query.results import ResultTable, fetch_capped, json_safe, json_safe_rows

_MAX_OPEN = 64
_lock = threading.Lock()
_connections: OrderedDict[str, duckdb.DuckDBPyConnection] = OrderedDict()


def _locked_config() -> dict[str, Any]:
    return {
        "enable_external_access": False,
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "allow_community_extensions": False,
        "memory_limit": settings.DUCKDB_MEMORY_LIMIT,
        "threads": settings.DUCKDB_THREADS,
        "lock_configuration": True,
    }


def connection(path: Path) -> duckdb.DuckDBPyConnection:
    """The shared read-only connection for a version file (opened on first use)."""
    key = str(path)
    with _lock:
        con = _connections.get(key)
        if con is not None:
            _connections.move_to_end(key)
            return con
    if not path.exists():
        raise SourceFailure(
            _("the dataset file is missing (%(file)s); re-upload the dataset") % {"file": path.name},
            code="file_missing",
        )
    try:
        con = duckdb.connect(key, read_only=True, config=_locked_config())
    except duckdb.Error as exc:
        raise SourceFailure(
            _("could not open the dataset file: %(error)s") % {"error": exc}, code="file_unreadable"
        ) from exc
    with _lock:
        existing = _connections.get(key)
        if existing is not None:  # another thread opened it meanwhile
            con.close()
            return existing
        _connections[key] = con
        while len(_connections) > _MAX_OPEN:
            _key, old = _connections.popitem(last=False)
            old.close()
    return con


def forget(path: Path) -> None:
    """Close a version's connection (before its file is deleted)."""
    with _lock:
        con = _connections.pop(str(path), None)
    if con is not None:
        con.close()


def execute(
    path: Path, sql: str, params: dict[str, Any] | None = None, *, row_cap: int, timeout_s: float | None = None
) -> ResultTable:
    """Run one compiled statement on a version file; fetch at most row_cap rows (+1 to flag truncation)."""
    timeout_s = settings.QUERY_TIMEOUT_SECONDS if timeout_s is None else timeout_s
    cursor = connection(path).cursor()
    timer = threading.Timer(timeout_s, cursor.interrupt)
    started = time.perf_counter()
    timer.start()
    try:
        cursor.execute(sql, params or {})
        columns = [d[0] for d in cursor.description or []]
        types = [str(d[1]) for d in cursor.description or []]
        rows = fetch_capped(cursor.fetchmany, row_cap)
    except duckdb.InterruptException as exc:
        raise QueryTimeout(
            _("the query ran longer than %(seconds)s s and was stopped; narrow it with filters or a smaller limit")
            % {"seconds": f"{timeout_s:g}"}
        ) from exc
    except duckdb.Error as exc:
        raise SourceFailure(_("the query failed: %(error)s") % {"error": exc}, code="query_failed") from exc
    finally:
        timer.cancel()
        cursor.close()
    truncated = len(rows) > row_cap
    rows = rows[:row_cap]
    return ResultTable(
        columns=columns,
        column_types=types,
        rows=json_safe_rows(rows),
        row_count=len(rows),
        truncated=truncated,
        sql=sql,
        params={k: json_safe(v) for k, v in (params or {}).items()},
        elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
    )


def kind_of(type_name: str) -> str:
    """An engine type name as one of: integer, number, text, date, datetime, boolean, other."""
    t = type_name.upper()
    if t in ("BOOLEAN", "BOOL", "TINYINT(1)"):
        return "boolean"
    if any(k in t for k in ("INT", "SERIAL")) and "INTERVAL" not in t and "POINT" not in t:
        return "integer"
    if any(k in t for k in ("DOUBLE", "FLOAT", "REAL", "DECIMAL", "NUMERIC", "MONEY")):
        return "number"
    if t.startswith("TIMESTAMP") or t.startswith("DATETIME"):
        return "datetime"
    if t == "DATE":
        return "date"
    if any(k in t for k in ("CHAR", "TEXT", "STRING", "VARCHAR", "UUID", "ENUM", "CLOB")):
        return "text"
    return "other"
