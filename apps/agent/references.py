"""References from a draft to result values: `{{q1.销售额[0]}}`, `{{q2.占比[3]|pct}}`, `{{q1.row_count}}`.

The model writes references; narrate fills them from the results, so a number can only appear if a
tool produced it. A reference that names no result, column or row stays as written, and verify
reports it (`unfilled_reference`).

Formats: (none) numbers with thousands separators (years as written), up to 2 decimals (4 significant digits below 1);
`int`; `d0`..`d4` fixed decimals; `pct`/`pct0`/`pct2` ratio shown as percent; `wan`, `yi` (万, 亿).
A reference into a result with no rows, or to a column with no value in any row (a sum over nothing), reads
"no data matched" (无匹配数据); an empty cell among values reads "empty" — never a bare dash.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from apps.agent import durations
from apps.agent.tools import ToolOutcome

REFERENCE = re.compile(
    r"\{\{\s*(?P<ref>q[1-9][0-9]*)\.(?:(?P<count>row_count)|(?P<column>[^\[\]{}|]+?)\[(?P<row>[0-9]+)\])"
    r"\s*(?:\|\s*(?P<fmt>[a-z0-9]+))?\s*\}\}"
)
_FORMATS = re.compile(r"^(int|year|clock|d[0-4]|pct[0-2]?|wan|yi)$")


@dataclass(frozen=True)
class Fill:
    text: str
    ref: str
    step: int
    row: int | None
    column: str
    value: Any


def _number(value: float, decimals: int | None = None) -> str:
    if decimals is None:
        if float(value).is_integer():
            whole = int(value)
            return str(whole) if 1900 <= whole <= 2100 else f"{whole:,}"  # a year reads 2025, not 2,025
        decimals = 2 if abs(value) >= 1 else max(2, 3 - int(math.floor(math.log10(abs(value)))))
        text = f"{value:,.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{value:,.{decimals}f}"


def no_data_matched() -> str:
    return _("no data matched")


def format_value(value: Any, fmt: str | None) -> str:
    if value is None:
        return _("empty")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if not fmt:
        return _number(value)
    if fmt == "int":
        return f"{round(value):,}"
    if fmt == "year":  # 1850, never 1,850
        return str(round(value))
    if fmt == "clock":  # seconds as a race time: 115.72 -> 1:55.72
        return durations.clock(value)
    if fmt.startswith("d"):
        return _number(value, int(fmt[1:]))
    if fmt.startswith("pct"):
        return f"{value * 100:.{int(fmt[3:] or 1)}f}%"
    if fmt == "wan":
        return f"{value / 1e4:,.2f}万"
    return f"{value / 1e8:,.2f}亿"


def _resolve(match: re.Match[str], by_ref: dict[str, ToolOutcome]) -> Fill | None:
    outcome = by_ref.get(match["ref"])
    fmt = match["fmt"]
    if outcome is None or (fmt and not _FORMATS.match(fmt)):
        return None
    if match["count"]:
        return Fill(
            format_value(outcome.row_count, fmt), outcome.ref or "", outcome.step, None, "row_count", outcome.row_count
        )
    column, row = match["column"].strip(), int(match["row"])
    if column not in outcome.columns:
        return None
    index = outcome.columns.index(column)
    if not outcome.rows and outcome.row_count == 0:  # the query matched nothing: say so
        return Fill(no_data_matched(), outcome.ref or "", outcome.step, None, column, None)
    if row >= len(outcome.rows):
        return None
    value = outcome.rows[row][index]
    if value is None and all(r[index] is None for r in outcome.rows):
        return Fill(no_data_matched(), outcome.ref or "", outcome.step, row, column, value)
    return Fill(format_value(value, fmt), outcome.ref or "", outcome.step, row, column, value)


def fill_references(draft: str, outcomes: Sequence[ToolOutcome]) -> tuple[str, list[Fill]]:
    """The draft with every resolvable reference replaced by its value, and what was filled."""
    by_ref = {o.ref: o for o in outcomes if o.ref and o.status == "ok"}
    fills: list[Fill] = []

    def replace(match: re.Match[str]) -> str:
        fill = _resolve(match, by_ref)
        if fill is None:
            return match.group(0)
        fills.append(fill)
        return fill.text

    return REFERENCE.sub(replace, draft), fills
