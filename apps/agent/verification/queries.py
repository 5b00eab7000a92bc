"""What an executed query did, read back from its recorded arguments: the filters, groupings, functions and
windows it applied, the columns it touched and the periods its filters and rows cover. Claim binding and
question coverage ask these questions; neither cares whether the query was a QuerySpec or SQL."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import ValidationError

from apps.agent.verification.grounding import date_tokens_of_value
from apps.agent.verification.vocabulary import is_label_text, norm
from apps.datasets.query.resolve import season_years
from apps.datasets.query.spec import QuerySpec

QUERY_TOOLS = ("run_query", "execute_sql_safe", "sample_rows")
_MAX_RANGE_MONTHS = 36
_TIME_NAME = re.compile(r"(?i)(date|time|day|week|month|quarter|year|period|日期|时间|日|周|月|季|年)")


# "avg(fee) as avg_fee", "count(distinct patient_id) as patients" in normalised SQL: one aggregate, nothing around it
_SQL_EQUALS = re.compile(r"(?<![<>!])=\s*'([^']+)'")
_SQL_AGG = re.compile(r"\b(sum|avg|count|median|min|max)\s*\(\s*(distinct\s+)?[\w.*\s]*\)\s+as\s+\"?(\w+)")


def _starts_year(op: str, value: Any) -> set[str]:
    """ ">=2012" for a bound that starts a year: ">= 2012-01-01", "> 2011-12-31", "> 2011" on a year column (what
    "after 2011" asks; coverage.py)."""
    text = str(value)
    year = re.fullmatch(r"(\d{4})(?:-01-01)?", text) if op == ">=" else None
    if year is not None:
        return {f">={year.group(1)}"}
    after = re.fullmatch(r"(\d{4})(?:-12-31)?", text) if op == ">" else None
    return {f">={int(after.group(1)) + 1}"} if after is not None else set()


def _named_periods(op: str, value: Any) -> set[str]:
    """Years a filter on text names: "Tournament contains 2009" (that year's rows), "Season = 2005–06" (both)."""
    if op == "contains" and isinstance(value, str):
        return {t for t in date_tokens_of_value(value) if t[:1].isdigit()}
    if op in ("=", "in"):
        return {y for v in (value if isinstance(value, list) else [value]) for y in season_years(v) or ()}
    return set()


@dataclass
class QueryFacts:
    step: int
    name: str
    arguments: dict[str, Any]
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    row_count: int
    time_columns: set[str] = field(default_factory=set)

    @cached_property
    def spec(self) -> QuerySpec | None:
        raw = self.arguments.get("spec") if self.name == "run_query" else None
        if not isinstance(raw, dict):
            return None
        try:
            return QuerySpec.model_validate(raw)
        except ValidationError:
            return None

    @cached_property
    def sql(self) -> str:
        return norm(self.arguments.get("sql", "")) if self.name == "execute_sql_safe" else ""

    @cached_property
    def params(self) -> list[Any]:
        values = self.arguments.get("params") or {}
        return list(values.values()) if isinstance(values, dict) else []

    # --- what was filtered ---------------------------------------------------------------------------

    def filters(self) -> list[tuple[str, str, Any, str | None]]:
        """(column, op, value, grain) of every filter, including conditional aggregations' and having."""
        spec = self.spec
        if spec is None:
            return []
        found: list[tuple[str, str, Any, str | None]] = [
            (f.column, f.op, f.value, f.grain) for f in [*spec.filters, *spec.having]
        ]
        for agg in spec.aggregations:
            found += [(f.column, f.op, f.value, f.grain) for f in agg.where]
        return found

    def filter_values(self) -> list[Any]:
        values: list[Any] = []
        for _column, _op, value, _grain in self.filters():
            values += value if isinstance(value, list) else [value]
        return values + self.params

    def equality_labels(self) -> list[str]:
        """Text values the query's rows are narrowed to (`column = value`, `column in [...]`, SQL `= 'value'`),
        periods left out: the part of the data a figure of this query covers."""
        found: list[str] = []
        spec = self.spec
        if spec is not None:
            for f in spec.filters:
                if f.op not in ("=", "in") or f.grain or f.column in self.time_columns or _TIME_NAME.search(f.column):
                    continue
                found += [v for v in (f.value if isinstance(f.value, list) else [f.value]) if isinstance(v, str)]
        elif self.sql:
            found += _SQL_EQUALS.findall(self.sql.split(" group by ")[0])
            found += [v for v in self.params if isinstance(v, str)]
        return [v for v in found if v.strip() and not date_tokens_of_value(v)]

    def parameter_numbers(self) -> list[float]:
        """Numbers the query used as parameters: filter and having values, the limit, a quantile, SQL literals."""
        numbers = [float(v) for v in self.filter_values() if isinstance(v, int | float) and not isinstance(v, bool)]
        numbers += [float(v) for v in self.filter_values() if isinstance(v, str) and v.strip().isdigit()]  # "618"
        spec = self.spec
        if spec is not None:
            numbers.append(float(spec.limit))
            numbers += [float(a.q) for a in spec.aggregations if a.q is not None]
        if self.sql:
            numbers += [float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", self.sql)]
        return numbers

    def filters_value(self, label: str) -> bool:
        cache = self.__dict__.setdefault("_filter_cache", {})
        if label not in cache:
            cache[label] = self._filters_value(label)
        return bool(cache[label])

    def _filters_value(self, label: str) -> bool:
        wanted = norm(label)
        for value in self.filter_values():
            if isinstance(value, str) and (norm(value) == wanted or (len(wanted) >= 2 and wanted in norm(value))):
                return True
        return bool(self.sql) and wanted in self.sql

    def has_time_filter(self) -> bool:
        if any(
            grain or column in self.time_columns or _TIME_NAME.search(column) for column, *_r, grain in self.filters()
        ):
            return True
        return bool(self.sql) and bool(re.search(r"\b(where|having)\b.*\d{4}", self.sql))

    @cached_property
    def filter_period_tokens(self) -> set[str]:
        tokens: set[str] = set()
        lows: dict[str, list[Any]] = {}
        highs: dict[str, list[Any]] = {}
        for column, op, value, grain in self.filters():
            tokens |= _named_periods(op, value)
            if not (grain or column in self.time_columns or _TIME_NAME.search(column)):
                continue
            values = value if isinstance(value, list) else [value]
            if grain == "month_of_year":  # "every November": the month, whatever the year
                tokens |= {f"M{int(v):02d}" for v in values if isinstance(v, int | float) and 1 <= v <= 12}
                continue
            for v in values:
                tokens |= date_tokens_of_value(v)
            if op in ("between", ">=", ">", "<", "<=") or (op == "in" and len(values) > 1):
                tokens |= months_between(values)
            if op in (">=", ">"):
                lows.setdefault(column, []).append(value)
                tokens |= _starts_year(op, value)
            elif op in ("<", "<="):
                day = _as_date(value)  # "< 2025-07-01" ends with June
                highs.setdefault(column, []).append(day - dt.timedelta(days=1) if op == "<" and day else value)
        for column, low in lows.items():  # ">= 2025-01-01" and "< 2025-07-01": every month between
            if len(low) == 1 and len(highs.get(column, [])) == 1:
                tokens |= months_between([low[0], highs[column][0]])
        for v in self.params:
            tokens |= date_tokens_of_value(v)
        if self.sql:
            tokens |= {t for t in date_tokens_of_value(self.sql) if not t.startswith(("M", "Q", "H"))}
        return tokens

    # --- what was grouped and computed ---------------------------------------------------------------

    @cached_property
    def spanned_periods(self) -> set[str]:
        """Period tokens of the query's own filters (not of one aggregation's condition): what every figure spans."""
        spec = self.spec
        tokens: set[str] = set()
        for f in spec.filters if spec is not None else []:
            values = f.value if isinstance(f.value, list) else [f.value]
            found = [date_tokens_of_value(v) for v in values]
            if not found or not all(found):  # every value must be a period (a year, "2025-03", a date)
                continue
            if f.op in ("=", "in"):
                tokens = tokens.union(*found)
            elif f.op == "between":
                tokens |= months_between(values)
        return tokens

    def compared_periods(self) -> list[set[str]]:
        """The periods that conditional aggregations put side by side ("2025-07" against "2025-06"), each as
        its period tokens, when a derived value is computed from them."""
        spec = self.spec
        if spec is None or not spec.derived:
            return []
        found = []
        for agg in spec.aggregations:
            tokens: set[str] = set()
            for f in agg.where:
                if f.grain or f.column in self.time_columns or _TIME_NAME.search(f.column):
                    tokens |= date_tokens_of_value(f.value) | months_between(
                        f.value if isinstance(f.value, list) else [f.value]
                    )
            if tokens and tokens not in found:
                found.append(tokens)
        return found

    def grains(self) -> set[str]:
        spec = self.spec
        grains = {g.grain for g in spec.group_by if g.grain} if spec is not None else set()
        if spec is not None:
            grains |= {_grain_of_name(g.name) for g in spec.group_by if not g.grain} - {None}  # type: ignore[arg-type]
        if self.sql:
            grains |= {g for g in ("day", "week", "month", "quarter", "year") if g in self.sql}
            if "%y-%m" in self.sql:
                grains.add("month")
        return grains | self._grains_of_rows()

    def _grains_of_rows(self) -> set[str]:
        """Row labels that look like periods (2025-01, 2025Q1, years) show the grain of the grouping."""
        grains: set[str] = set()
        for row in self.rows[:3]:
            for value in row:
                grain = _grain_of_value(value)
                if grain:
                    grains.add(grain)
        return grains if len(self.rows) >= 2 else set()

    def funcs(self) -> set[str]:
        spec = self.spec
        if spec is not None:
            found: set[str] = {a.func for a in spec.aggregations} | {w.func for w in spec.windows}
            if any("/" in d.expr for d in spec.derived):
                found.add("ratio")
            if spec.sort:
                found.add("sorted_desc" if spec.sort[0].desc else "sorted_asc")
            return found
        sql, found = self.sql, set[str]()
        for func in ("sum", "avg", "min", "max", "count", "median", "stddev", "variance", "corr"):
            if re.search(rf"\b{func}\s*\(", sql):
                found.add(func)
        if "distinct" in sql:
            found.add("nunique")
        if "/" in sql:
            found.add("ratio")
        if "over (" in sql or "over(" in sql:
            found.add("window")
        if "order by" in sql:
            found.add("sorted_desc" if re.search(r"order by[^;]*\bdesc\b", sql) else "sorted_asc")
        return found

    def window_orders(self, func: str) -> list[str]:
        spec = self.spec
        return [w.order_by or "" for w in spec.windows if w.func == func] if spec is not None else []

    def source_of(self, column: str) -> str | None:
        """The data column an output column sums, averages or takes the extreme of (through a share or a change of
        it too); None when it is a count, a ratio or unknown."""
        spec = self.spec
        if spec is None:
            return None
        sources = {a.name: a.column for a in spec.aggregations if a.func in ("sum", "avg", "min", "max", "median")}
        windows = {w.name: w.of for w in spec.windows}
        return sources.get(windows.get(column, column))

    def func_of(self, column: str) -> str | None:
        """The aggregation an output column holds (sum, avg, median, count, nunique, min, max, quantile), read from
        the QuerySpec or from the SQL's `FUNC(...) AS name`; None for groups, windows, derived values or unknown."""
        return self._funcs_by_column.get(norm(column))

    @cached_property
    def _funcs_by_column(self) -> dict[str, str]:
        spec = self.spec
        if spec is not None:
            return {norm(a.name): a.func for a in spec.aggregations}
        found: dict[str, str] = {}
        for func, distinct, alias in _SQL_AGG.findall(self.sql):
            found[alias] = "nunique" if func == "count" and distinct else func
        return found

    def change_columns(self) -> set[str]:
        spec = self.spec
        return {w.name for w in spec.windows if w.func in ("pct_change", "diff")} if spec is not None else set()

    def group_names(self) -> dict[str, str | None]:
        spec = self.spec
        return {g.name: g.grain for g in spec.group_by} if spec is not None else {}

    def limit(self) -> int | None:
        spec = self.spec
        if spec is not None:
            return spec.limit
        match = re.search(r"\blimit\s+(\d+)", self.sql)
        return int(match[1]) if match else None

    def references(self, column: str) -> bool:
        """The query reads or returns this column."""
        if column in self.columns:
            return True
        if self.sql:
            return norm(column) in self.sql
        raw = self.arguments.get("spec")
        return column in set(_strings(raw))

    def is_listing(self) -> bool:
        spec = self.spec
        if spec is not None:
            return bool(spec.columns or spec.group_by)
        return self.name == "sample_rows" or (bool(self.sql) and not re.search(r"\b(sum|avg|count)\s*\(", self.sql))

    @cached_property
    def row_labels(self) -> list[set[str]]:
        """Normalised text labels of each row."""
        return [{norm(v) for v in row if is_label_text(v)} for row in self.rows]

    @cached_property
    def period_columns(self) -> list[int]:
        """Columns whose values are periods, judged on the first rows (a column holds one kind of value)."""
        found = []
        for c, name in enumerate(self.columns):
            sample = [row[c] for row in self.rows[:5] if c < len(row) and row[c] is not None]
            if sample and all(_is_period_cell(v, name, self.time_columns) for v in sample):
                found.append(c)
        return found

    @cached_property
    def row_periods(self) -> list[set[str]]:
        tokens_of: dict[Any, set[str]] = {}
        out = []
        for row in self.rows:
            tokens: set[str] = set()
            for c in self.period_columns:
                if c < len(row) and row[c] is not None:
                    value = row[c]
                    if value not in tokens_of:
                        tokens_of[value] = date_tokens_of_value(value)
                    tokens |= tokens_of[value]
            out.append(tokens)
        return out

    @cached_property
    def all_labels(self) -> set[str]:
        return set().union(*self.row_labels) if self.row_labels else set()

    @cached_property
    def all_periods(self) -> set[str]:
        return set().union(*self.row_periods) if self.row_periods else set()


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _is_period_cell(value: Any, column: str, time_columns: set[str]) -> bool:
    if isinstance(value, dt.date):
        return True
    if isinstance(value, str):
        return bool(re.fullmatch(r"\d{4}([-/.]\d{1,2}([-/.]\d{1,2})?.*|\s?-?Q[1-4]|年.*)", value.strip()))
    if isinstance(value, int) and not isinstance(value, bool):
        return (column in time_columns or bool(_TIME_NAME.search(column))) and 1900 <= value <= 2100
    return False


def _grain_of_value(value: Any) -> str | None:
    text = value.isoformat() if isinstance(value, dt.date) else str(value).strip()
    if re.fullmatch(r"\d{4}\s?-?Q[1-4]|\d{4}年第?[1-4一二三四]季度", text):
        return "quarter"
    if re.fullmatch(r"\d{4}[-/.]\d{1,2}|\d{4}年\d{1,2}月", text):
        return "month"
    return None


def _grain_of_name(name: str) -> str | None:
    lowered = name.lower()
    for grain, words in (
        ("month", ("month", "月")),
        ("quarter", ("quarter", "季")),
        ("week", ("week", "周")),
        ("year", ("year", "年")),
        ("day", ("date", "day", "日")),
    ):
        if any(w in lowered for w in words):
            return grain
    return None


def months_between(values: list[Any]) -> set[str]:
    """Period tokens of every month in a [low, high] date range (bounded), so a range covers its quarters."""
    dates = [_as_date(v) for v in values]
    known = [d for d in dates if d is not None]
    if len(known) < 2:
        return set()
    low, high = min(known), max(known)
    tokens: set[str] = set()
    year, month = low.year, low.month
    for _ in range(_MAX_RANGE_MONTHS):
        if (year, month) > (high.year, high.month):
            break
        tokens |= date_tokens_of_value(f"{year}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return tokens


def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    if isinstance(value, int) and 1900 <= value <= 2100:
        return dt.date(value, 1, 1)
    match = re.match(r"(\d{4})[-/.](\d{1,2})(?:[-/.](\d{1,2}))?", str(value))
    if not match:
        return None
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3] or 1))
    except ValueError:
        return None
