"""The result of every data-engine read: a small, JSON-safe table the agent, API and exports share.

Every engine fetches through `fetch_capped`, which stops at the row cap and refuses a result past the
byte cap while fetching, so a query of a few huge values (`repeat('x', 10000000)`) never fills memory.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from pydantic import BaseModel, ConfigDict, Field

from apps.datasets.errors import QueryInvalid
from apps.datasets.message_parts import human_size

FETCH_BATCH_ROWS = 256
_NUMBER_BYTES = 8


class ResultTable(BaseModel):
    model_config = ConfigDict(frozen=False)

    columns: list[str]
    column_types: list[str] = Field(default_factory=list, description="engine type names, same order as columns")
    rows: list[list[Any]] = Field(default_factory=list, description="JSON-safe cell values")
    row_count: int = 0
    truncated: bool = Field(default=False, description="more rows existed than the row cap allowed")
    sql: str | None = Field(default=None, description="the compiled SQL, for audit")
    params: dict[str, Any] = Field(default_factory=dict, description="bound parameter values, for audit")
    elapsed_ms: float = 0.0

    def column(self, name: str) -> list[Any]:
        index = self.columns.index(name)
        return [row[index] for row in self.rows]


def json_safe(value: Any) -> Any:
    """A cell value as JSON can carry it: dates as ISO text, decimals as float, NaN/inf as None."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None
        # Sums of doubles carry binary noise (297091.8600000003); 15 significant digits is what a
        # double holds exactly, so this shows the value the data meant without changing real digits.
        return float(f"{value:.15g}")
    if isinstance(value, decimal.Decimal):
        return json_safe(float(value))
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ") if value.tzinfo is None else value.isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(bytes(value))} bytes>"
    return str(value)


def json_safe_rows(rows: list[tuple[Any, ...]] | list[list[Any]]) -> list[list[Any]]:
    return [[json_safe(v) for v in row] for row in rows]


def cell_bytes(value: Any) -> int:
    """About what a value weighs once fetched (text by its UTF-8 length, numbers and dates a few bytes)."""
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    if value is None or isinstance(value, bool | int | float | decimal.Decimal | dt.date | dt.time | dt.timedelta):
        return _NUMBER_BYTES
    return len(str(value))


def result_too_large(byte_cap: int) -> QueryInvalid:
    return QueryInvalid(
        _(
            "the result is larger than %(limit)s, the most one query may return; select fewer columns, add "
            "filters, aggregate, or lower the limit"
        )
        % {"limit": human_size(byte_cap)},
        code="result_too_large",
    )


def fetch_capped(fetchmany: Callable[[int], Sequence[Any]], row_cap: int, byte_cap: int | None = None) -> list[Any]:
    """At most row_cap + 1 rows (the extra one flags truncation), fetched in batches; past byte_cap, refused."""
    cap = settings.QUERY_MAX_RESULT_BYTES if byte_cap is None else byte_cap
    rows: list[Any] = []
    size = 0
    while len(rows) <= row_cap:
        batch = fetchmany(min(FETCH_BATCH_ROWS, row_cap + 1 - len(rows)))
        if not batch:
            break
        for row in batch:
            size += sum(cell_bytes(v) for v in row)
            if size > cap:
                raise result_too_large(cap)
        rows.extend(batch)
    return rows
