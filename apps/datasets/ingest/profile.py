"""Profiling (`get_schema`): per column its type, kind, null ratio, distinct count, examples and role.

Computed once per immutable version (two scans for the whole table plus a small top-values query
per column) and stored with the version, so `get_schema` never rescans.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field
from sqlglot import exp

from apps.datasets.query import engine

Role = Literal["time", "measure", "dimension", "id"]
EXAMPLES = 5
DIMENSION_VALUES = 200  # dimension and text id columns with at most this many values keep them all (resolve_fields)

_ID_NAME = re.compile(r"(^id$|_id$|^id_|编号|单号|编码|代码|\bcode\b|\bno\b|号$|uuid|key$)", re.IGNORECASE)
_YEAR_NAME = re.compile(r"(year|season|年|赛季)", re.IGNORECASE)  # a season named by its year (2001)


class ColumnProfile(BaseModel):
    name: str
    type: str = Field(description="engine type")
    kind: str = Field(description="integer, number, text, date, datetime, boolean, other")
    role: Role
    null_ratio: float
    distinct_count: int
    examples: list[Any] = Field(default_factory=list, description="most frequent values")
    min: Any = None
    max: Any = None
    values: list[Any] | None = Field(default=None, description="every value, for small dimension and name columns")
    total_label: str | None = Field(
        default=None, description="the value naming a summary row (Total, 合计), which aggregations must leave out"
    )
    blank_marks: list[str] = Field(
        default_factory=list,
        description="marks the file had in this column instead of a value (N/A, —), read as blank: computations "
        "on the column leave those rows out",
    )
    written_as: Literal["place", "chart"] | None = Field(
        default=None,
        description='how the file wrote the values, where it differs from their type: "place" for places written '
        '"1st", "25th" (read as their numbers: 1 is the top, and places are never added up); "chart" for a record '
        "chart's peak positions (US, UK; a dash where it did not chart, read as blank): places, but no order of "
        "finishing",
    )

    @computed_field(description="the documented name of `examples` (get_schema's columns[].example_values)")
    def example_values(self) -> list[Any]:
        return self.examples


class TableProfile(BaseModel):
    row_count: int
    columns: list[ColumnProfile]

    def kinds(self) -> dict[str, str]:
        return {c.name: c.kind for c in self.columns}

    def column(self, name: str) -> ColumnProfile | None:
        return next((c for c in self.columns if c.name == name), None)


def _col(name: str) -> exp.Column:
    return exp.column(exp.to_identifier(name, quoted=True))


def _table(name: str) -> exp.Table:
    return exp.Table(this=exp.to_identifier(name, quoted=True))


def column_role(name: str, kind: str, distinct: int, non_null: int, lo: Any, hi: Any) -> Role:
    """The role a column plays in analysis, from its name, kind and statistics (shared by files and SQL sources)."""
    if kind in ("date", "datetime"):
        return "time"
    if kind == "integer" and _YEAR_NAME.search(name) and isinstance(lo, int) and 1900 <= lo <= hi <= 2200:
        return "time"
    unique = non_null > 0 and distinct >= 0.95 * non_null
    if _ID_NAME.search(name) and (unique or kind == "text"):
        return "id"
    if kind in ("integer", "number"):
        return "measure"
    if kind == "text" and unique and non_null > 50:
        return "id"
    return "dimension"


def column_profile(
    *, name: str, type_name: str, kind: str, row_count: int, stats: tuple[int, int, Any, Any], top: list[Any]
) -> ColumnProfile:
    """One column's profile from its statistics (non-null count, distinct count, min, max) and top values."""
    non_null, distinct, lo, hi = stats
    role = column_role(name, kind, distinct, non_null, lo, hi)
    small = (role == "dimension" or (role == "id" and kind == "text")) and len(top) <= DIMENSION_VALUES
    ordered = kind not in ("text", "boolean")
    return ColumnProfile(
        name=name,
        type=type_name,
        kind=kind,
        role=role,
        null_ratio=round(1 - non_null / row_count, 4) if row_count else 0.0,
        distinct_count=distinct,
        examples=top[:EXAMPLES],
        min=lo if ordered else None,
        max=hi if ordered else None,
        values=sorted(top, key=str) if small else None,
        total_label=total_label(top) if kind == "text" else None,
    )


# How spreadsheets label a row that adds up the others: the word, then perhaps a colon or a note in brackets
# ("Total:", "Total (75 NPCs)"). Ingest reads the same pattern in SQL (columns.TOTAL_CELL), so a label it blanks in a
# column of numbers is one the profile still finds in the column that keeps it.
TOTAL_LABELS = frozenset(
    {"total", "totals", "grand total", "sum", "overall", "all", "合计", "总计", "总和", "小计", "全部"}
    # a player's or a season's summary row: "Career total", "Season aggregates"
    | {f"{whose} {word}" for whose in ("career", "season", "all-time", "overall") for word in ("total", "totals")}
    | {"aggregate", "aggregates", "season aggregate", "season aggregates", "career"}
)
# "NHL totals", "AHL totals": a league's summary row in a player's seasons (the plural says it sums rows)
_LEAGUE_TOTALS = r"[a-z]{2,6} totals"
TOTAL_PATTERN = (
    "("
    + "|".join([*sorted(TOTAL_LABELS, key=lambda w: (-len(w), w)), _LEAGUE_TOTALS])
    + r")\s*[:：]?(\s*[(][^()]*[)])?"
)
_TOTAL = re.compile(TOTAL_PATTERN)


def total_label(values: list[Any]) -> str | None:
    """The value among a text column's values that names a summary row ("Total", "合计", "Total:"), if any."""
    return next((v for v in values if isinstance(v, str) and _TOTAL.fullmatch(v.strip().lower())), None)


COLUMNS_PER_SCAN = 32  # exact distinct counts of many columns at once take memory by the column: batches


def _column_stats(path: Path, table: str, names: list[str]) -> list[Any]:
    """count(*), then per column: non-null count, distinct count, min, max."""
    stats: list[Any] = []
    for start in range(0, max(len(names), 1), COLUMNS_PER_SCAN):
        parts: list[exp.Expr] = [exp.Count(this=exp.Star())]
        for name in names[start : start + COLUMNS_PER_SCAN]:
            column = _col(name)
            parts += [
                exp.Count(this=column),
                exp.Count(this=exp.Distinct(expressions=[column.copy()])),
                exp.Min(this=column.copy()),
                exp.Max(this=column.copy()),
            ]
        row = engine.execute(path, exp.select(*parts).from_(_table(table)).sql("duckdb"), row_cap=1).rows[0]
        stats = stats or row[:1]
        stats += row[1:]
    return stats


def profile_table(path: Path, table: str = "data") -> TableProfile:
    described = engine.execute(path, exp.Describe(this=_table(table)).sql("duckdb"), row_cap=10_000)
    names_types = [(row[0], row[1]) for row in described.rows]
    stats = _column_stats(path, table, [name for name, _type in names_types])
    row_count = int(stats[0])
    columns = []
    for i, (name, type_name) in enumerate(names_types):
        non_null, distinct, lo, hi = stats[1 + 4 * i : 5 + 4 * i]
        kind = engine.kind_of(type_name)
        column = _col(name)
        top_sql = (
            exp.select(column)
            .from_(_table(table))
            .where(exp.Not(this=exp.Is(this=column.copy(), expression=exp.Null())))
            .group_by(column.copy())
            .order_by(exp.Ordered(this=exp.Count(this=exp.Star()), desc=True), column.copy())
            .limit(DIMENSION_VALUES + 1)
            .sql("duckdb")
        )
        top = engine.execute(path, top_sql, row_cap=DIMENSION_VALUES + 1).rows
        columns.append(
            column_profile(
                name=name,
                type_name=type_name,
                kind=kind,
                row_count=row_count,
                stats=(int(non_null), int(distinct), lo, hi),
                top=[r[0] for r in top],
            )
        )
    return TableProfile(row_count=row_count, columns=columns)
