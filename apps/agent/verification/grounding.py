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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from apps.agent.verification.numbers import UNITS, Mention


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


def _transforms(unit: str) -> list[tuple[str, float]]:
    if unit == "%":
        return [("x100", 100.0), ("x1", 1.0)]
    if unit == "‰":
        return [("x1000", 1000.0), ("x1", 1.0)]
    if unit:
        return [(f"/{UNITS[unit]:g}", 1.0 / UNITS[unit])]
    return [("x1", 1.0)]


def _keys(x: float, decimals: int) -> set[int]:
    """The written integers x could appear as at `decimals` places: half-up, half-even, truncated."""
    scaled = x * 10**decimals
    eps = 1e-9 * max(1.0, abs(scaled))
    sign = -1 if scaled < 0 else 1
    magnitude = abs(scaled)
    half_up = math.floor(magnitude + 0.5 + eps)
    truncated = math.floor(magnitude + eps)
    nearest = round(magnitude)
    return {sign * half_up, sign * truncated, sign * nearest}


@dataclass
class GroundingIndex:
    tables: list[ToolTable]
    _values: list[tuple[float, Provenance]] = field(default_factory=list, init=False)
    _index: dict[tuple[str, int], tuple[dict[int, Provenance], dict[int, Provenance]]] = field(
        default_factory=dict, init=False
    )
    texts: set[str] = field(default_factory=set, init=False)
    dates: set[str] = field(default_factory=set, init=False)
    max_rows: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        for table in self.tables:
            self.max_rows = max(self.max_rows, table.row_count)
            self._values.append((float(table.row_count), Provenance(table.step, None, "row_count")))
            for r, row in enumerate(table.rows):
                for column, value in zip(table.columns, row, strict=False):
                    self._add(value, Provenance(table.step, r, column))

    def _add(self, value: Any, where: Provenance) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int | float):
            if math.isfinite(value):
                self._values.append((float(value), where))
                self.dates.update(date_tokens_of_number(value))
            return
        text = str(value)
        self.texts.add(text)
        self.dates.update(date_tokens_of_text(text))

    def _tables(self, transform: str, factor: float, decimals: int) -> tuple[dict[int, Provenance], ...]:
        """(signed keys, sizes of negative values) for one transform and precision, built on first use."""
        key = (transform, decimals)
        tables = self._index.get(key)
        if tables is None:
            signed: dict[int, Provenance] = {}
            sizes: dict[int, Provenance] = {}
            for value, where in self._values:
                for k in _keys(value * factor, decimals):
                    signed.setdefault(k, where)
                    if k < 0:  # "下降 5%" states a negative result by its size
                        sizes.setdefault(-k, where)
            tables = self._index[key] = (signed, sizes)
        return tables

    def lookup(self, mention: Mention) -> Provenance | None:
        wanted = -mention.scaled if mention.negative else mention.scaled
        for transform, factor in _transforms(mention.unit):
            signed, sizes = self._tables(transform, factor, mention.decimals)
            found = signed.get(wanted)
            if found is None and not mention.signed:
                found = sizes.get(wanted)
            if found is not None:
                return found
        return None


_YMD = re.compile(r"(?P<y>(?:19|20)\d{2})(?:[-/.年](?P<m>\d{1,2})(?:[-/.月](?P<d>\d{1,2}))?)?")
_QUARTER = re.compile(r"(?:(?P<y>(?:19|20)\d{2})\s?[-/年]?\s?)?(?:Q(?P<q>[1-4])|第?(?P<cq>[一二三四1-4])季度)")
_MONTH_RANGE = re.compile(r"(?P<a>\d{1,2})\s?[-~至到]\s?(?P<b>\d{1,2})\s?月")
_MONTH = re.compile(r"(?<!\d)(?P<m>\d{1,2})月")
_CN_QUARTER = {"一": 1, "二": 2, "三": 3, "四": 4}


def date_tokens_of_text(text: str) -> set[str]:
    """Canonical date tokens a text mentions: 2025, 2025-03, 2025-03-15, M3, Q1, 2025-Q1, H1..."""
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
