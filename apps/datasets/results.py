"""The result of every data-engine read: a small, JSON-safe table the agent, API and exports share."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


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
