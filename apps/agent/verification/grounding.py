"""Number grounding: is every number in a draft traceable to a tool result (or the user's words)?

A number is grounded when some result value v, after the one transform its unit implies
(v; v×100 or v for %; v×1000 or v for ‰; v/1e3, v/1e4, v/1e6, v/1e8... for scale words), equals
it at the precision it was written with — rounded half-up, half-even, or truncated — or its
absolute value does ("下降 5%" for -0.05). Row counts returned by tools count as values.
Lookups are O(1): one index per (transform, precision) is built once per run, on first need.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from apps.agent.verification.numbers import UNITS, Mention, canonical_date, mentions_of


@dataclass(frozen=True)
class Provenance:
    step: int
    row: int | None
    column: str

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "row": self.row, "column": self.column}


@dataclass(frozen=True)
class ToolTable:
    """What grounding needs from one successful tool call."""

    step: int
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    row_count: int


_NUMBER_TEXT = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")  # a cell of text that is a plain number
_PERCENT_COLUMN = re.compile(r"(?i)%|‰|pct|percent|百分")


def _transforms(unit: str) -> list[tuple[str, float]]:
    # "as_written": a value already in percent (20.31 -> "20.31%"). Only values of percent scale qualify, so a
    # ratio of 0.2031 is never shown as "0.20%".
    if unit == "%":
        return [("x100", 100.0), ("as_written", 1.0)]
    if unit == "‰":
        return [("x1000", 1000.0), ("as_written", 1.0)]
    if unit:
        return [(f"/{UNITS[unit]:g}", 1.0 / UNITS[unit])]
    return [("x1", 1.0)]


@dataclass
class GroundingIndex:
    tables: list[ToolTable]
    texts: set[str] = field(default_factory=set, init=False)
    dates: set[str] = field(default_factory=set, init=False)
    max_rows: int = field(default=0, init=False)
    _values: list[float] = field(default_factory=list, init=False)
    _where: list[tuple[int, int | None, str]] = field(default_factory=list, init=False)
    _index: dict[tuple[str, int], tuple[dict[int, int], dict[int, int]]] = field(default_factory=dict, init=False)
    _cached_array: Any = field(default=None, init=False)
    _cached_percent: Any = field(default=None, init=False)

    def __post_init__(self) -> None:
        values, where, texts, dates = self._values, self._where, self.texts, self.dates
        add_value, add_where, inf = values.append, where.append, math.inf
        for table in self.tables:
            self.max_rows = max(self.max_rows, table.row_count)
            add_value(float(table.row_count))
            add_where((table.step, None, "row_count"))
            columns, step = table.columns, table.step
            for r, row in enumerate(table.rows):
                for c, value in enumerate(row):
                    kind = type(value)
                    if kind is float:
                        if value == value and value != inf and value != -inf:  # not NaN nor infinite
                            add_value(value)
                            add_where((step, r, columns[c]))
                    elif kind is int:
                        add_value(float(value))
                        add_where((step, r, columns[c]))
                        if 1900 <= value <= 2100:
                            dates.add(str(value))
                    elif value is not None and kind is not bool:
                        text = str(value)
                        if text[:1].isdigit() and _NUMBER_TEXT.fullmatch(text):  # "60" in a column of car numbers
                            add_value(float(text.replace(",", "")))
                            add_where((step, r, columns[c]))
                        if text not in texts:  # distinct texts only: columns repeat their labels
                            texts.add(text)
                            dates.update(date_tokens_of_text(text))

    def _tables(self, transform: str, factor: float, decimals: int) -> tuple[dict[int, int], dict[int, int]]:
        """(signed key -> cell, size of a negative value -> cell) for one transform and precision."""
        key = (transform, decimals)
        tables = self._index.get(key)
        if tables is None:
            tables = self._index[key] = self._build_tables(transform, factor * 10.0**decimals)
        return tables

    def _build_tables(self, transform: str, scale: float) -> tuple[dict[int, int], dict[int, int]]:
        """Each value is read three ways at the written precision: rounded half up, truncated, rounded half to even.
        A key of a later reading wins over an earlier one, and within one reading the first cell wins (so a value
        found in several cells keeps its first cell as provenance). A cell whose earlier reading gives the same key
        as its last adds nothing (the last reading sets that key anyway): only the readings that differ are added
        before it, which for most values is none."""
        scaled = self._array() * scale
        fits = np.abs(scaled) < 9e18  # beyond int64 a value cannot be written at this precision anyway
        if transform == "as_written":
            fits &= self._percent_scale()
        if fits.all():
            cells: Any = None  # every cell, in order
        else:
            cells = np.nonzero(fits)[0]
            scaled = scaled[fits]
        negative = scaled < 0
        any_negative = bool(negative.any())
        magnitude = np.abs(scaled) if any_negative else scaled
        eps = np.maximum(magnitude, 1.0) * 1e-9
        last = np.round(magnitude)
        signed: dict[int, int] = {}
        sizes: dict[int, int] = {}
        for keys in (np.floor(magnitude + 0.5 + eps), np.floor(magnitude + eps)):
            differ = keys != last
            if not differ.any():
                continue
            where = np.nonzero(differ)[0] if cells is None else cells[differ]
            found = keys[differ]
            if any_negative:
                size = found.astype(np.int64)
                found = np.where(negative[differ], -found, found)
                below = negative[differ]
                sizes.update(zip(reversed(size[below].tolist()), reversed(where[below].tolist()), strict=True))
            signed.update(zip(reversed(found.astype(np.int64).tolist()), reversed(where.tolist()), strict=True))
        every = range(len(scaled)) if cells is None else cells.tolist()
        if any_negative:
            size = last.astype(np.int64)
            below = np.nonzero(negative)[0]
            sizes.update(zip(reversed(size[below].tolist()), reversed([every[i] for i in below.tolist()]), strict=True))
            last = np.where(negative, -last, last)
        signed.update(zip(reversed(last.astype(np.int64).tolist()), reversed(every), strict=True))
        return signed, sizes

    def candidates(self, mention: Mention) -> Iterator[Provenance]:
        """Every cell the mention can come from (a value often occurs in several rows or results), lazily: the
        caller usually stops at the first one whose labels agree."""
        if not self._values:
            return iter(())
        wanted = -mention.scaled if mention.negative else mention.scaled
        values = self._array()
        found: set[int] = set()
        with np.errstate(over="ignore", invalid="ignore"):
            self._scan(values, mention, wanted, found)
        return (Provenance(*self._where[i]) for i in sorted(found))

    def _percent_scale(self) -> Any:
        """Cells that may be written with % as they are: values of percent size, or columns named as percents."""
        if self._cached_percent is None or len(self._cached_percent) != len(self._values):
            values = self._array()
            percent = {column: bool(_PERCENT_COLUMN.search(column)) for column in {w[2] for w in self._where}}
            named = np.array([percent[column] for _step, _row, column in self._where], dtype=bool)
            self._cached_percent = (np.abs(values) >= 1.0) | named
        return self._cached_percent

    def _scan(self, values: Any, mention: Mention, wanted: int, found: set[int]) -> None:
        for transform, factor in _transforms(mention.unit):
            scaled = values * (factor * 10.0**mention.decimals)
            if transform == "as_written":
                scaled = np.where(self._percent_scale(), scaled, np.nan)
            magnitude = np.abs(scaled)
            eps = np.maximum(magnitude, 1.0) * 1e-9
            sign = np.where(scaled < 0, -1.0, 1.0)
            for keys in (np.floor(magnitude + 0.5 + eps), np.floor(magnitude + eps), np.round(magnitude)):
                hits = keys * sign == wanted
                if not mention.signed:
                    hits |= (scaled < 0) & (keys == wanted)
                found.update(np.nonzero(hits)[0].tolist())

    def _array(self) -> Any:
        if self._cached_array is None or len(self._cached_array) != len(self._values):
            self._cached_array = np.asarray(self._values, dtype=np.float64)
        return self._cached_array

    def lookup(self, mention: Mention) -> Provenance | None:
        if not self._values:
            return None
        wanted = -mention.scaled if mention.negative else mention.scaled
        for transform, factor in _transforms(mention.unit):
            signed, sizes = self._tables(transform, factor, mention.decimals)
            cell = signed.get(wanted)
            if cell is None and not mention.signed:  # "下降 5%" states a negative result by its size
                cell = sizes.get(wanted)
            if cell is not None:
                return Provenance(*self._where[cell])
        return None


_YMD = re.compile(r"(?P<y>(?:19|20)\d{2})(?:[-/.年](?P<m>\d{1,2})(?:[-/.月](?P<d>\d{1,2}))?)?")
_QUARTER = re.compile(r"(?:(?P<y>(?:19|20)\d{2})\s?[-/年]?\s?)?(?:Q(?P<q>[1-4])|第?(?P<cq>[一二三四1-4])季度)")
_MONTH_RANGE = re.compile(r"(?P<a>\d{1,2})\s?[-~至到—–]\s?(?P<b>\d{1,2})\s?月")
_MONTH = re.compile(r"(?<!\d)(?P<m>\d{1,2})月")
_CN_QUARTER = {"一": 1, "二": 2, "三": 3, "四": 4}


def date_tokens_of_text(text: str) -> set[str]:
    """Canonical date tokens a text mentions: 2025, 2025-03, 2025-03-15, M3, Q1, 2025-Q1, H1..."""
    # Short texts (period labels, date mentions) recur across cells and numbers: their tokens are remembered.
    return set(_short_date_tokens(text)) if len(text) <= _SHORT else _date_tokens(text)


_SHORT = 40


@lru_cache(maxsize=4096)
def _short_date_tokens(text: str) -> frozenset[str]:
    return frozenset(_date_tokens(text))


def _date_tokens(text: str) -> set[str]:
    tokens: set[str] = set()
    for match in _QUARTER.finditer(text):
        q = match["q"] or str(_CN_QUARTER.get(match["cq"], match["cq"]))
        tokens.add(f"Q{q}")
        if match["y"]:
            tokens.update({match["y"], f"{match['y']}-Q{q}"})
    for match in _MONTH_RANGE.finditer(text):
        tokens.update(f"M{m}" for m in range(int(match["a"]), int(match["b"]) + 1))
    for match in _YMD.finditer(text):
        tokens.add(match["y"])
        if match["m"]:
            month = int(match["m"])
            tokens.update({f"{match['y']}-{month:02d}", f"M{month}", f"Q{(month - 1) // 3 + 1}"})
            tokens.add(f"{match['y']}-Q{(month - 1) // 3 + 1}")
            if match["d"]:
                tokens.add(f"{match['y']}-{month:02d}-{int(match['d']):02d}")
    for match in _MONTH.finditer(text):
        tokens.add(f"M{int(match['m'])}")
    if "上半年" in text or "H1" in text:
        tokens.add("H1")
    if "下半年" in text or "H2" in text:
        tokens.add("H2")
    return tokens


def date_tokens_of_number(value: float) -> set[str]:
    if float(value).is_integer() and 1900 <= value <= 2100:
        return {str(int(value))}
    return set()


def date_tokens_of_value(value: Any) -> set[str]:
    if isinstance(value, dt.date):
        return date_tokens_of_text(value.isoformat())
    if isinstance(value, int | float) and not isinstance(value, bool):
        return date_tokens_of_number(value)
    return date_tokens_of_text(str(value))


def date_is_known(mention_text: str, known: Iterable[str] | set[str]) -> bool:
    """Every date token the mention carries is known (from the question or the results)."""
    tokens = date_tokens_of_text(mention_text)
    if not tokens:  # times of day and other shapes we do not check
        return True
    known_set = known if isinstance(known, set) else set(known)
    # A mention is known if its most specific token is known: "2025年3月" needs 2025-03.
    specific = max(tokens, key=lambda t: (len(t), t))
    return specific in known_set or tokens <= known_set


def date_tokens_of_prose(text: str) -> set[str]:
    """Date tokens of free text, with spaced and English forms ("2025 年 3 月", "March 2025") read as dates."""
    tokens = date_tokens_of_text(text)
    for mention in mentions_of(text):
        if mention.kind == "date":
            tokens |= date_tokens_of_text(canonical_date(mention.text))
    return tokens
