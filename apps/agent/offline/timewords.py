"""Periods in a question: years, months, quarters, halves and "last N months" become filters on the time
column; 每月/weekly/年度 become a time grain; "trend" without a grain picks one from the data's span."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from apps.agent.offline.lexicon import CN_NUMERALS, GRAIN_WORDS, TREND_WORDS
from apps.agent.offline.plan import Lang
from apps.agent.offline.schema_terms import ColumnView, alias_pattern
from apps.agent.offline.wording import speaking
from apps.datasets.query.resolve import CENTURY, century_start

MONTHS_EN = "january february march april may june july august september october november december".split()
MONTH_NAME = "|".join(m + ("" if len(m) <= 4 else f"|{m[:3]}") for m in MONTHS_EN)
# "in december", "during the month of november": a month said without its day or year
MONTH_ALONE = re.compile(
    r"(?<![a-z])(?:(?:in|during)\s+(?:the\s+month\s+of\s+)?|the\s+month\s+of\s+)(" + MONTH_NAME + r")(?![a-z])"
)
_YEAR = r"((?:19|20)\d{2})"
_Q_CN = r"第?\s*([一二三四1-4])\s*季度"
HALF_MONTHS = 6
_DECADE_WORDS = "twenties thirties forties fifties sixties seventies eighties nineties".split()
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("half", re.compile(_YEAR + r"\s*年?\s*的?\s*(上半年|下半年)")),
    ("half_en", re.compile(r"(?<![a-z])(h1|h2|first half|second half)\s*(?:of\s*)?" + _YEAR)),
    # "2025年下半年比上半年": a half without its year, in the one year the question names (else the data's only one)
    ("half_bare", re.compile(r"(?<![\d年])(上半年|下半年)")),
    ("half_bare_en", re.compile(r"(?<![a-z])(h1|h2|first half|second half)(?:\s+of\s+the\s+year)?(?![a-z0-9])")),
    ("quarter", re.compile(_YEAR + r"\s*年?\s*的?\s*(?:" + _Q_CN + r"|q([1-4]))")),
    ("quarter_en", re.compile(r"(?<![a-z0-9])q([1-4])\s*(?:of\s*)?" + _YEAR)),
    (
        "month_range",
        re.compile(r"(?:" + _YEAR + r"\s*年?\s*的?\s*)?(\d{1,2})\s*月?\s*(?:到|至|-|~|－)\s*(\d{1,2})\s*月(?:份)?"),
    ),
    ("month", re.compile(_YEAR + r"\s*(?:年\s*(\d{1,2})\s*月份?|[-/](\d{1,2})(?![\d]))")),
    (
        "day_en",  # "december 24, 1997", "4 march 2000", "on september 15", "before april 7"
        re.compile(
            r"(?:(?P<pre>before|after|since|until|till|by)\s+)?(?:(?<![a-z])(?P<m>" + MONTH_NAME + r")\.?\s+"
            r"(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\d)|(?<![\d.])(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
            r"(?P<m2>" + MONTH_NAME + r")(?![a-z]))(?:\s*,?\s*(?P<y>(?:19|20)\d{2})(?!\d))?"
        ),
    ),
    ("month_en", re.compile(r"(?<![a-z])(" + MONTH_NAME + r")\.?\s*,?\s*(?:of\s*)?" + _YEAR)),
    # "in december", "during the month of november": a month without its year, in the one year the data has it
    ("month_en_bare", MONTH_ALONE),
    ("month_bare", re.compile(r"(?:(?<![\d年])|(?<=每年)|(?<=各年))(\d{1,2})\s*月(?:份)?(?!度)")),
    ("quarter_bare", re.compile(r"(?<![a-z0-9])q([1-4])(?![0-9])|" + _Q_CN)),
    ("this_year", re.compile(r"今年|本年|本年度|(?<![a-z])(?:this|current) year")),
    (
        "last_year",  # "去年同期" / "same period last year" is the period compared with (同比), not a filter
        re.compile(r"去年(?!同期)|上一年|上年(?!同期)|(?<!same period )(?<![a-z])(?:last|previous) year(?!s)"),
    ),
    (
        "recent",
        re.compile(
            # 这两年, 这三个月: 这 before a count of periods
            r"(?:最近|近|过去|last|past|这(?=\s*(?:\d{1,2}|[两二三四五六七八九十])\s*(?:个)?\s*(?:年|月|周|天)))"
            r"\s*(\d{1,3}(?!\d)|[一二两三四五六七八九十]+)?\s*(?:个)?\s*"
            r"(天|日|周|月|年|days?|weeks?|months?|years?)"
        ),
    ),
    (
        "year_range",  # "between 1930 and 1940", "from 2004 to 2007", "1941-1949", "2004年到2007年": both ends in
        re.compile(
            r"(?:between\s+(?:the\s+years?\s+)?(?P<a>(?:19|20)\d{2})\s+and\s+(?P<b>(?:19|20)\d{2})"
            r"|(?:from\s+(?:the\s+years?\s+)?)?(?<![\d.])(?P<c>(?:19|20)\d{2})\s*年?\s*"
            r"(?:-|–|—|~|to|through|until|至|到)\s*(?P<d>(?:19|20)\d{2}))(?!\d)(?:\s*年)?"
        ),
    ),
    (
        "decade",  # "the 1980s", "the eighties", "80年代"
        re.compile(
            r"(?<![\d.])(?P<c>(?:19|20)\d)0\s*(?:s|'s|年代)(?![a-z])|(?<![\d.])(?P<s>[2-9])0\s*年代"
            r"|(?<![a-z])(?P<w>twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)(?![a-z])"
        ),
    ),
    (
        "century",  # "the 20th century", "the nineteenth century", "20世纪": its hundred years, 1900 to 1999 as said
        CENTURY,
    ),
    (
        "year",
        re.compile(
            r"(?:(?P<pre>since|from|after|before)\s+(?:the\s+)?(?:years?\s+)?)?(?<![\d.])(?P<y>(?:19|20)\d{2})"
            r"(?!\d|\.\d|%)"
            r"(?P<post>\s*年?\s*(?:以后|之后|以来|起|开始|以前|之前)|\s+(?:or|and)\s+(?:later|after|beyond|earlier|before)"
            r"(?![a-z])|\s+onwards?(?![a-z]))?"
        ),
    ),
]


# "the title is from 2006", "players who are from 1990": where a row is from, that year; "revenue from 2022" (to
# now), "from 2006 on" run on from it
_ORIGIN = re.compile(r"(?<![a-z])(?:is|are|was|were|'s|'re)\s+$")
_ONWARD = re.compile(
    r"\s*(?:on|onwards?|forward|and (?:after|later|on|beyond)|(?:to|till|until|up to)\s+(?:now|today|date|"
    r"the present|present))(?![a-z])"
)


@dataclass(frozen=True)
class TimeFilter:
    """A filter on the time column; `label` is how the question said it (shown back in the answer)."""

    spec: dict[str, Any]
    start: int
    end: int
    label: str
    year: int | None = None


def _as_date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _number(text: str | None, default: int = 1) -> int:
    if not text:
        return default
    if text.isdigit():
        return int(text)
    if text.startswith("十"):
        return 10 + CN_NUMERALS.get(text[1:], 0)
    if len(text) == 2 and text[1] == "十":
        return CN_NUMERALS.get(text[0], 1) * 10
    return CN_NUMERALS.get(text, default)


def _day(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _shift_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


class _Reader:
    def __init__(self, text: str, column: ColumnView) -> None:
        self.text, self.column = text, column
        lo, hi = _as_date(column.lo), _as_date(column.hi)
        self.lo, self.hi = lo, hi
        named = set(re.findall(r"(?<!\d)((?:19|20)\d{2})\s*年", text))
        # a bare month or quarter is in the one year the question names, else in the data's only year
        only = lo.year if lo and hi and lo.year == hi.year else None
        self.single_year = int(named.pop()) if len(named) == 1 else only

    def on(self, grain: str | None, op: str, value: Any) -> dict[str, Any]:
        spec: dict[str, Any] = {"column": self.column.name, "op": op, "value": value}
        if grain and self.column.category == "time":
            spec["grain"] = grain
        return spec

    def read(self, kind: str, m: re.Match[str]) -> list[dict[str, Any]] | None:
        handler = getattr(self, f"_{kind}")
        found: list[dict[str, Any]] | None = handler(m)
        return found

    def _year(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        before = self.text[max(0, m.start() - 12) : m.start()]
        if re.search(r"(大于|小于|超过|高于|低于|above|over|below|under|(?<!other )(?<!rather )than|>|<)\s*$", before):
            return None
        year, pre, post = int(m.group("y")), m.group("pre") or "", m.group("post") or ""
        if pre == "from" and _ORIGIN.search(before) and not _ONWARD.match(self.text, m.end()):
            return [self.on("year", "=", year)]  # "which title is from 2006": of that year, not since it
        if pre in ("since", "from") or any(w in post for w in ("以后", "之后", "以来", "起", "开始")):
            return [self.bound(">=", year)]
        if re.search(r"later|after|beyond|onward", post):  # "in 2003 or later", "2003 onwards": 2003 itself too
            return [self.bound(">=", year)] if not pre else None
        if re.search(r"earlier|before", post):  # "in 2003 or earlier"
            if pre:
                return None
            return [self.bound("<=", year) if self.column.category == "year" else self.on(None, "<=", f"{year}-12-31")]
        if pre == "after":  # a year column says it as the question does: "> 2011"
            return [self.bound(">", year)] if self.column.category == "year" else [self.bound(">=", year + 1)]
        if pre == "before" or any(w in post for w in ("以前", "之前")):
            return [self.bound("<", year)]
        return [self.on("year", "=", year)]

    def _year_range(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        first, last = int(m.group("a") or m.group("c")), int(m.group("b") or m.group("d"))
        if last <= first:
            return None
        return self._years(first, last)

    def _years(self, first: int, last: int) -> list[dict[str, Any]]:
        """Every year from `first` to `last`: on a year column as the question names them (>= and <=)."""
        if self.column.category == "year":
            return [self.bound(">=", first), self.bound("<=", last)]
        return [self.bound(">=", first), self.bound("<", last + 1)]

    def _decade(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        if m.group("c"):
            first = int(m.group("c")) * 10
        else:
            tens = int(m.group("s")) if m.group("s") else 2 + _DECADE_WORDS.index(m.group("w"))
            first = 1900 + tens * 10  # a decade named without its century is of the 1900s
        return self._years(first, first + 9)

    def _century(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        first = century_start(m)
        return self._years(first, first + 99)

    def bound(self, op: str, year: int) -> dict[str, Any]:
        if self.column.category == "year":
            return {"column": self.column.name, "op": op, "value": year}
        return self.on(None, op, f"{year}-01-01")

    def _this_year(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        """Years relative to the data's latest date (the data, not the clock, decides what "this year" is)."""
        return [self.on("year", "=", self.hi.year)] if self.hi else None

    def _last_year(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        return [self.on("year", "=", self.hi.year - 1)] if self.hi else None

    def _month(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        month = int(m.group(2) or m.group(3))
        return [self.on("month", "=", f"{m.group(1)}-{month:02d}")] if 1 <= month <= 12 else None

    def _month_range(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        """ "2025年1到9月", "1-6月" (the year from the question, or the data's only year)."""
        year = int(m.group(1)) if m.group(1) else self.single_year
        first, last = int(m.group(2)), int(m.group(3))
        if year is None or not 1 <= first < last <= 12:
            return None
        return self._range(dt.date(year, first, 1), _shift_months(dt.date(year, last, 1), 1))

    def _month_en(self, m: re.Match[str]) -> list[dict[str, Any]]:
        month = month_number(m.group(1))
        return [self.on("month", "=", f"{m.group(2)}-{month:02d}")]

    def _day_en(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        """A day: the year said, else the one year of the data's span that has that day; "before"/"after" it
        bounds the dates."""
        name, day = m.group("m") or m.group("m2"), int(m.group("d") or m.group("d2"))
        month = month_number(name)
        if m.group("y"):
            years = [int(m.group("y"))]
        else:
            years = [y for y in self._years_spanned() if self._inside(_day(y, month, day))]
        date = _day(years[0], month, day) if len(years) == 1 else None
        if date is None or self.column.category != "time":
            return None
        pre = m.group("pre")
        if pre == "before":
            return [self.on(None, "<", date.isoformat())]
        if pre == "after":
            return [self.on(None, ">=", (date + dt.timedelta(days=1)).isoformat())]
        if pre == "since":
            return [self.on(None, ">=", date.isoformat())]
        if pre in ("until", "till", "by"):
            return [self.on(None, "<", (date + dt.timedelta(days=1)).isoformat())]
        return self._range(date, date + dt.timedelta(days=1))

    def _month_en_bare(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        """ "in december": the month of the one year the question names, else of the one year in the data's span
        that has it (a season from September to May has one December); none when several do."""
        month = month_number(m.group(1))
        if self.single_year is not None:
            years = [self.single_year]
        else:
            years = [y for y in self._years_spanned() if self._overlaps_month(y, month)]
        if self.column.category != "time":
            return None
        if len(years) > 1:  # "released in the month of november" over many years: every November
            return [self.on("month_of_year", "=", month)]
        return [self.on("month", "=", f"{years[0]}-{month:02d}")] if years else None

    def _years_spanned(self) -> list[int]:
        return list(range(self.lo.year, self.hi.year + 1)) if self.lo and self.hi else []

    def _inside(self, day: dt.date | None) -> bool:
        return day is not None and self.lo is not None and self.hi is not None and self.lo <= day <= self.hi

    def _overlaps_month(self, year: int, month: int) -> bool:
        start = dt.date(year, month, 1)
        return self.lo is not None and self.hi is not None and start <= self.hi and self.lo < _shift_months(start, 1)

    def _month_bare(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        month = int(m.group(1))
        if not 1 <= month <= 12:
            return None
        if self.single_year is None:  # "12月的销售额" over several years: every December, said so in the answer
            spanned = len(self._years_spanned()) > 1 and self.column.category == "time"
            return [self.on("month_of_year", "=", month)] if spanned else None
        return [self.on("month", "=", f"{self.single_year}-{month:02d}")]

    def _quarter(self, m: re.Match[str]) -> list[dict[str, Any]]:
        q = _number(m.group(2) or m.group(3))
        return [self.on("quarter", "=", f"{m.group(1)}-Q{q}")]

    def _quarter_en(self, m: re.Match[str]) -> list[dict[str, Any]]:
        return [self.on("quarter", "=", f"{m.group(2)}-Q{m.group(1)}")]

    def _quarter_bare(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        if self.single_year is None:
            return None
        return [self.on("quarter", "=", f"{self.single_year}-Q{_number(m.group(1) or m.group(2))}")]

    def _range(self, start: dt.date, end: dt.date) -> list[dict[str, Any]]:
        return [self.on(None, ">=", start.isoformat()), self.on(None, "<", end.isoformat())]

    def _half_of(self, year: int | None, first: bool) -> list[dict[str, Any]] | None:
        """The first or second half of `year` (none when the year is not known)."""
        if year is None:
            return None
        return self._range(dt.date(year, 1 if first else 7, 1), dt.date(year + (not first), 7 if first else 1, 1))

    def _half(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        return self._half_of(int(m.group(1)), m.group(2) == "上半年")

    def _half_bare(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        return self._half_of(self.single_year, m.group(1) == "上半年")

    def _half_bare_en(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        return self._half_of(self.single_year, m.group(1) in ("h1", "first half"))

    def _half_en(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        return self._half_of(int(m.group(2)), m.group(1) in ("h1", "first half"))

    def _recent(self, m: re.Match[str]) -> list[dict[str, Any]] | None:
        if self.hi is None or self.column.category != "time":
            return None
        n, unit = max(1, min(_number(m.group(1)), 100)), m.group(2)
        end = self.hi + dt.timedelta(days=1)
        if unit[0] in "天日d":
            start = end - dt.timedelta(days=n)
        elif unit[0] in "周w":
            start = end - dt.timedelta(weeks=n)
        elif unit[0] in "月m":
            start = _shift_months(self.hi, 1 - n)
        else:
            start = dt.date(self.hi.year - n + 1, 1, 1)
        return self._range(start, end)


def _period_start(value: str) -> dt.date | None:
    match = re.match(r"((?:19|20)\d{2})-?(?:Q([1-4])|(\d{2}))$", value.strip())
    if not match:
        return None
    return dt.date(int(match[1]), (int(match[2]) - 1) * 3 + 1 if match[2] else int(match[3]), 1)


def _as_dates(column: ColumnView) -> ColumnView:
    """A text period column seen as a date column over the same span (so periods are read the same way)."""
    starts = sorted(d for d in (_period_start(str(v)) for v in column.values) if d is not None)
    lo = starts[0].isoformat() if starts else None
    hi = (_shift_months(starts[-1], 3 if column.period == "quarter" else 1) - dt.timedelta(days=1)) if starts else None
    return dataclasses.replace(column, category="time", lo=lo, hi=hi.isoformat() if hi else None, period=None)


def period_values(column: ColumnView, period: Period) -> list[str]:
    """The values of a text period column that fall in `period`."""
    found = []
    for value in column.values:
        start = _period_start(str(value))
        if start is not None and period.start <= start < period.end:
            found.append(str(value))
    return sorted(found)


def _on_periods(found: list[TimeFilter], column: ColumnView) -> list[TimeFilter]:
    """Filters read on the virtual date column, as filters on the period column's values ("2025-Q1")."""
    spans: dict[tuple[int, int], list[TimeFilter]] = {}
    for f in found:
        spans.setdefault((f.start, f.end), []).append(f)
    converted = []
    for group in spans.values():
        period = period_of([f.spec for f in group])
        values = period_values(column, period) if period is not None else []
        if not values:
            continue
        spec: dict[str, Any] = {"column": column.name, "op": "=", "value": values[0]}
        if len(values) > 1:
            spec = {"column": column.name, "op": "in", "value": values}
        first = group[0]
        converted.append(TimeFilter(spec, first.start, first.end, first.label, first.year))
    return converted


def find_time_filters(text: str, column: ColumnView | None) -> list[TimeFilter]:
    """Filters for the periods a (folded) question names, most specific reading first."""
    if column is None:
        return []
    if column.period:
        return _on_periods(find_time_filters(text, _as_dates(column)), column)
    reader = _Reader(text, column)
    taken = bytearray(len(text))
    found: list[TimeFilter] = []
    for kind, pattern in _PATTERNS:
        if column.category == "year" and kind not in ("year", "year_range", "decade", "century"):
            continue
        for m in pattern.finditer(text):
            if taken.find(1, m.start(), m.end()) != -1:
                continue
            specs = reader.read(kind, m)
            if not specs:
                continue
            taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
            yearly = kind in ("year", "this_year", "last_year") and specs[0]["op"] == "="
            year = specs[0]["value"] if yearly else None
            label = m.group(0).strip()
            if yearly and label.lower().startswith("from"):  # "is from 2006" read as that year: said "2006"
                label = str(year)
            if specs[0].get("grain") == "month_of_year":  # "in november": every year's, as the answer says
                label = every_year(kind, specs[0]["value"], "zh" if kind == "month_bare" else "en")
            found += [TimeFilter(s, m.start(), m.end(), label, year) for s in specs]
    return found


def month_number(name: str) -> int:
    """1-12 for an English month's name or its three-letter short form."""
    return next(i for i, n in enumerate(MONTHS_EN, 1) if n.startswith(name[:3].lower()))


def every_year(kind: str, month: int, lang: Lang) -> str:
    """A month named without its year, read as that month of every year, as the answer shows it ("November of
    every year", "各年的12月"): the month in the question's own way of writing months."""
    said = f"{month}月" if kind == "month_bare" else MONTHS_EN[month - 1].capitalize()
    with speaking(lang):
        return _("%(month)s of every year") % {"month": said}


def merge_years(filters: list[TimeFilter]) -> tuple[list[TimeFilter], list[int]]:
    """Several years named alone mean a comparison between them: one `in` filter, and the years."""
    years = sorted({f.year for f in filters if f.year is not None})
    if len(years) < 2:
        return filters, []
    first = next(f for f in filters if f.year is not None)
    spec = {**first.spec, "op": "in", "value": years}
    label = "、".join(str(y) for y in years)
    rest = [f for f in filters if f.year is None]
    return [TimeFilter(spec, first.start, first.end, label), *rest], years


def find_grain(text: str, taken: bytearray, inside: tuple[tuple[int, int], ...] = ()) -> tuple[str | None, bool]:
    """(time grain named in the question, whether it asks for a trend). `inside`: spans read as the time column
    that a longer grain phrase may hold ("in a year" around the Year column's name)."""
    best: tuple[int, str] | None = None
    for grain, words in GRAIN_WORDS.items():
        for word in words:
            for m in alias_pattern(word).finditer(text):
                free = bytearray(taken[m.start() : m.end()])
                for start, end in inside:
                    if m.start() <= start and end <= m.end() and end - start < m.end() - m.start():
                        free[start - m.start() : end - m.start()] = bytes(end - start)
                if free.find(1) == -1 and (best is None or len(word) > best[0]):
                    best = (len(word), grain)
    trend = any(alias_pattern(w).search(text) for w in TREND_WORDS)
    return (best[1] if best else None), trend


def default_grain(column: ColumnView, filters: list[TimeFilter]) -> str:
    """A grain that gives a readable number of points over the period asked (or the data's span)."""
    if column.period:
        return column.period
    lo, hi = _as_date(column.lo), _as_date(column.hi)
    if column.category == "year" or lo is None or hi is None:
        return "year"
    grains = {f.spec.get("grain") for f in filters}
    if "month" in grains:
        return "day"
    if "quarter" in grains:
        return "week"
    days = (hi - lo).days if not grains & {"year"} else 365
    return "year" if days > 1100 else "month" if days > 120 else "week" if days > 21 else "day"


@dataclass(frozen=True)
class Period:
    """The span a question's period filters name, as [start, end): a year, a month, a quarter or a range."""

    start: dt.date
    end: dt.date
    grain: str  # "year", "quarter", "month" or "range"

    @classmethod
    def month(cls, year: int, month: int) -> Period:
        start = dt.date(year, month, 1)
        return cls(start, _shift_months(start, 1), "month")

    @property
    def months(self) -> int:
        return (self.end.year - self.start.year) * 12 + self.end.month - self.start.month

    def shifted(self, months: int) -> Period:
        return Period(_shift_months(self.start, months), _shift_months(self.end, months), self.grain)

    def before(self) -> Period:
        """The period just before this one, of the same length (环比 / period over period)."""
        return self.shifted(-self.months)

    def label(self) -> str:
        """2025, 2025-03, 2025-Q1, or 2025-01-01~2025-06-30 (how result names and answers write it)."""
        if self.grain == "year":
            return str(self.start.year)
        if self.grain == "month":
            return f"{self.start.year}-{self.start.month:02d}"
        if self.grain == "quarter":
            return f"{self.start.year}-Q{(self.start.month - 1) // 3 + 1}"
        if self.start.day == 1 and self.start.month in (1, 7) and self.months == HALF_MONTHS:  # 上半年, H2
            return f"{self.start.year}-H{1 if self.start.month == 1 else 2}"
        return f"{self.start.isoformat()}~{(self.end - dt.timedelta(days=1)).isoformat()}"

    def filters(self, column: ColumnView) -> list[dict[str, Any]]:
        """The filters that select this period on the time column (a year column takes the year)."""
        if column.category == "year":
            return [{"column": column.name, "op": "=", "value": self.start.year}]
        if column.period:
            values = period_values(column, self) or [self.label()]
            if len(values) == 1:
                return [{"column": column.name, "op": "=", "value": values[0]}]
            return [{"column": column.name, "op": "in", "value": values}]
        if self.grain == "year":
            return [{"column": column.name, "op": "=", "value": self.start.year, "grain": "year"}]
        if self.grain in ("month", "quarter"):
            return [{"column": column.name, "op": "=", "value": self.label(), "grain": self.grain}]
        return [
            {"column": column.name, "op": ">=", "value": self.start.isoformat()},
            {"column": column.name, "op": "<", "value": self.end.isoformat()},
        ]


def _grain_written(value: str) -> str:
    """The grain a period value of a text column is written at: "2025-06" a month, "2025-Q2" a quarter."""
    if re.fullmatch(r"\d{4}-\d{2}", value):
        return "month"
    if re.fullmatch(r"\d{4}\s*-?\s*Q[1-4]", value, re.IGNORECASE):
        return "quarter"
    return "year"


def _period_of_values(values: list[str]) -> Period | None:
    """The year or quarter a list of a text period column's values covers whole ("2025" as its twelve months of
    2025-01 … 2025-12), or None when they are not one whole year or quarter."""
    starts = sorted(d for d in (_period_start(v) for v in values) if d is not None)
    if not starts or len(starts) != len(values):
        return None
    step = 3 if any("q" in v.lower() for v in values) else 1
    end = _shift_months(starts[-1], step)
    if [_shift_months(starts[0], step * i) for i in range(len(starts))] != starts:
        return None  # a gap: no one period
    if starts[0].month == 1 and end == dt.date(starts[0].year + 1, 1, 1):
        return Period(starts[0], end, "year")
    if step == 1 and len(starts) == 3 and starts[0].month % 3 == 1:
        return Period(starts[0], end, "quarter")
    return None


def period_of(specs: list[dict[str, Any]]) -> Period | None:
    """The one period a list of time filter specs selects, or None (several periods, open bounds, `in`)."""
    if len(specs) == 1 and specs[0].get("op") == "=":
        value, grain = str(specs[0]["value"]), specs[0].get("grain") or _grain_written(str(specs[0]["value"]))
        try:
            if grain == "year":
                start = dt.date(int(value), 1, 1)
                return Period(start, dt.date(start.year + 1, 1, 1), "year")
            if grain == "month":
                start = dt.date(int(value[:4]), int(value[5:7]), 1)
                return Period(start, _shift_months(start, 1), "month")
            if grain == "quarter":
                start = dt.date(int(value[:4]), (int(value[-1]) - 1) * 3 + 1, 1)
                return Period(start, _shift_months(start, 3), "quarter")
        except ValueError:
            return None
        return None
    if len(specs) == 1 and specs[0].get("op") == "in" and isinstance(specs[0].get("value"), list):
        return _period_of_values([str(v) for v in specs[0]["value"]])
    bounds = {s.get("op"): _as_date(s.get("value")) for s in specs}
    if len(specs) == 2 and set(bounds) == {">=", "<"} and all(bounds.values()):
        low, high = bounds[">="], bounds["<"]
        assert low is not None and high is not None  # noqa: S101 - checked just above
        return Period(low, high, "range") if low < high else None
    return None


def periods(filters: list[TimeFilter]) -> list[Period] | None:
    """The periods the question names, in its order; None when one of its time filters is not a closed period
    ("since 2020", several years in one `in`)."""
    spans: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for f in filters:
        spans.setdefault((f.start, f.end), []).append(f.spec)
    found = [period_of(specs) for _span, specs in sorted(spans.items())]
    return None if any(p is None for p in found) else [p for p in found if p is not None]
