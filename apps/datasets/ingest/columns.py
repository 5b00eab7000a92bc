"""Column names and types of a freshly loaded table: header checks, empty unnamed columns, typing.

Shared by the CSV and Excel loaders. Identifiers are quoted through sqlglot; the patterns are
constants; no user text is ever spliced into SQL unquoted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import duckdb
from django.utils.translation import gettext as _
from sqlglot import exp

from apps.datasets.errors import IngestRejected
from apps.datasets.ingest.profile import TOTAL_PATTERN
from apps.datasets.query.dialects import fill

Progress = Callable[[float, str], None]
DEFAULT_MAX_COLUMNS = 1000
DEFAULT_MAX_LINE_BYTES = 2 * 1024**2  # DuckDB's own default longest line


@dataclass(frozen=True)
class Limits:
    """What one ingest may load: data rows, columns, and the longest line of a text file in bytes."""

    rows: int
    columns: int = DEFAULT_MAX_COLUMNS
    line_bytes: int = DEFAULT_MAX_LINE_BYTES


def check_width(count: int, limits: Limits) -> None:
    """Refuse a table wider than the limit before any of it is loaded."""
    if count > limits.columns:
        raise IngestRejected(
            _(
                "the table has %(count)s columns, more than the %(limit)s an upload may have; keep the columns you "
                "need (or split the table into several files) and upload it again"
            )
            % {"count": f"{count:,}", "limit": f"{limits.columns:,}"},
            code="too_many_columns",
        )


@dataclass
class IngestReport:
    reader: str
    rows: int = 0
    columns: list[str] = field(default_factory=list)
    seconds: float = 0.0
    encoding: str | None = None
    delimiter: str | None = None
    dropped_empty_columns: list[int] = field(default_factory=list)
    converted: dict[str, str] = field(default_factory=dict)
    # per column (as the table now names it): the marks written in place of a value ("N/A", "—"), read as blank
    blank_marks: dict[str, list[str]] = field(default_factory=dict)
    # columns (as the table now names them) of places written "1st", "25th", read as their numbers
    places: list[str] = field(default_factory=list)
    # columns of a record chart's peak positions (US, UK, "Peak position"): places too, but no finishing order
    charts: list[str] = field(default_factory=list)


def check_header(raw: list[Any], header_row: int) -> tuple[list[str], list[int]]:
    """Column names from a header row: trimmed, unique, none blank (except for empty columns).

    Returns the names (blank ones as placeholders) and the positions of blank names, which the
    loader drops when their column holds no data and rejects otherwise.
    """
    names: list[str] = []
    blanks: list[int] = []
    seen: dict[str, int] = {}
    for position, value in enumerate(raw):
        name = _header_text(value)
        if not name:
            blanks.append(position)
            name = f"__blank_{position}"
        elif name in seen:
            raise IngestRejected(
                _(
                    "the header row (row %(row)s) names column '%(name)s' twice (columns %(first)s and %(second)s); "
                    "rename one of them, or choose the row that holds the column names"
                )
                % {"row": header_row, "name": name, "first": seen[name] + 1, "second": position + 1},
                code="duplicate_header",
            )
        seen[name] = position
        names.append(name)
    if len(blanks) == len(names):
        raise IngestRejected(
            _("row %(row)s holds no column names; set the header row to the row with the names") % {"row": header_row},
            code="blank_header",
        )
    return names, blanks


def _header_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return re.sub(r"\s+", " ", str(value)).strip()


def _column(name: str) -> exp.Column:
    return exp.column(exp.to_identifier(name, quoted=True))


_DATA = exp.Table(this=exp.to_identifier("data", quoted=True))


def _first_row(con: duckdb.DuckDBPyConnection, select: exp.Select) -> tuple[Any, ...]:
    return con.execute(select.sql("duckdb")).fetchall()[0]


def _rewrite(con: duckdb.DuckDBPyConnection, outputs: list[exp.Expr]) -> None:
    """Replace table `data` by a projection of itself (drop columns, change types) in one pass."""
    select = exp.select(*outputs).from_(_DATA.copy())
    con.execute(exp.Create(this=_DATA.copy(), kind="TABLE", expression=select, replace=True).sql("duckdb"))


INDEX_COLUMN = "index"


def _index_name(names: list[str]) -> str:
    """The name of an unnamed first column with data: `index`, as pandas writes its row index."""
    taken = set(names)
    name, number = INDEX_COLUMN, 1
    while name in taken:
        name, number = f"{INDEX_COLUMN}_{number}", number + 1
    return name


def drop_blank_columns(con: duckdb.DuckDBPyConnection, names: list[str], blanks: list[int], header_row: int) -> None:
    """Drop unnamed columns that hold nothing; an unnamed column with data is the user's to name.

    The one exception is an unnamed first column with data: that is the row index pandas writes
    (`df.to_csv()` gives ",a,b"), kept as a column named `index`. `names` is updated in place.
    """
    if not blanks:
        return
    counts = _first_row(con, exp.select(*(exp.Count(this=_column(names[i])) for i in blanks)).from_(_DATA.copy()))
    outputs: list[exp.Expr] = []
    for position, count in zip(blanks, counts, strict=True):
        if count and position == 0:
            renamed = _index_name(names)
            outputs.append(exp.alias_(_column(names[0]), exp.to_identifier(renamed, quoted=True)))
            names[0] = renamed
            continue
        if count:
            before = next((names[i] for i in range(position - 1, -1, -1) if i not in blanks), None)
            where = (
                _("column %(position)s (after '%(before)s')") % {"position": position + 1, "before": before}
                if before
                else _("column %(position)s") % {"position": position + 1}
            )
            raise IngestRejected(
                _(
                    "%(where)s has data but no name in the header row (row %(row)s); give it a name, or choose "
                    "the row that holds the column names"
                )
                % {"where": where, "row": header_row},
                code="blank_header",
            )
    kept = [i for i in range(len(names)) if i not in blanks]
    _rewrite(con, [*outputs, *(_column(names[i]) for i in kept)])
    blanks[:] = [i for i in blanks if not (outputs and i == 0)]


# Constant templates (no user text; __c__ becomes the quoted column). Per source type, the narrower
# types its values may fit, narrowest first, as (type, test over all values, conversion). Numbers
# with a leading zero (00123) stay text: they are codes, not quantities.
_AS_TIME = "TRY_CAST(REPLACE(TRIM(__c__), '/', '-') AS TIMESTAMP)"
_FITS_TIME = (
    r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '[0-9]{4}[-/][0-9]{1,2}[-/][0-9]{1,2}"
    r"([ T][0-9]{1,2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?)?')) AND COUNT(" + _AS_TIME + ") = COUNT(__c__)"
)
# Dates written with a month name, as English-language spreadsheets and exports do: 19-Jan-18,
# 19 January 2018, December 30, 2007. A column becomes a date only when every value has the same
# shape; a two-digit year is kept apart from a four-digit one, so 18 never becomes the year 18.
_MONTH = "[A-Za-z]{3,9}"
_NAMED_MONTH_DATES = (
    (f"[0-9]{{1,2}}[- ]{_MONTH}[- ][0-9]{{2}}", ("%d-%b-%y", "%d-%B-%y", "%d %b %y", "%d %B %y")),
    (f"[0-9]{{1,2}}[- ]{_MONTH}[- ][0-9]{{4}}", ("%d-%b-%Y", "%d-%B-%Y", "%d %b %Y", "%d %B %Y")),
    (f"{_MONTH} [0-9]{{1,2}}, ?[0-9]{{4}}", ("%B %d, %Y", "%b %d, %Y", "%B %d,%Y", "%b %d,%Y")),
)


# Dates in the orders Chinese and European spreadsheets write them: 2025年1月3日, 2025.01.03, 03.01.2025 (a dotted
# date with the year last puts the day first, as German, Russian or French exports do)
_WRITTEN_DATES = (
    ("[0-9]{4}年[0-9]{1,2}月[0-9]{1,2}日", ("%Y年%m月%d日",)),
    ("[0-9]{4}[.][0-9]{1,2}[.][0-9]{1,2}", ("%Y.%m.%d",)),
    ("[0-9]{1,2}[.][0-9]{1,2}[.][0-9]{4}", ("%d.%m.%Y",)),
)


def _named_month_date(pattern: str, formats: tuple[str, ...]) -> tuple[str, str, str]:
    parse = "TRY_STRPTIME(TRIM(__c__), [" + ", ".join(f"'{f}'" for f in formats) + "])"
    fits = f"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '{pattern}')) AND COUNT({parse}) = COUNT(__c__)"
    return ("DATE", fits, f"CAST({parse} AS DATE)")


NARROWER: dict[str, list[tuple[str, str, str]]] = {
    "VARCHAR": [
        (
            "BIGINT",
            r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '[+-]?(0|[1-9][0-9]{0,17})'))",
            "CAST(TRIM(__c__) AS BIGINT)",
        ),
        (
            "DOUBLE",
            r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), "
            r"'[+-]?((0|[1-9][0-9]*)([.][0-9]+)?|[.][0-9]+)([eE][+-]?[0-9]+)?'))",
            "CAST(TRIM(__c__) AS DOUBLE)",
        ),
        # Numbers written with thousands separators ("1,204", "-12,345.5"), as people type them in spreadsheets.
        (
            "BIGINT",
            r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '[+-]?([1-9][0-9]{0,2}(,[0-9]{3}){1,5}|0|[1-9][0-9]{0,17})'))",
            "CAST(REPLACE(TRIM(__c__), ',', '') AS BIGINT)",
        ),
        (
            "DOUBLE",
            r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), "
            r"'[+-]?([1-9][0-9]{0,2}(,[0-9]{3})+|0|[1-9][0-9]*)([.][0-9]+)?'))",
            "CAST(REPLACE(TRIM(__c__), ',', '') AS DOUBLE)",
        ),
        ("BOOLEAN", "BOOL_AND(LOWER(TRIM(__c__)) IN ('true', 'false'))", "CAST(TRIM(__c__) AS BOOLEAN)"),
        (
            "DATE",
            f"{_FITS_TIME} AND BOOL_AND({_AS_TIME} = DATE_TRUNC('day', {_AS_TIME}))",
            "CAST(REPLACE(TRIM(__c__), '/', '-') AS DATE)",
        ),
        ("TIMESTAMP", _FITS_TIME, "CAST(REPLACE(TRIM(__c__), '/', '-') AS TIMESTAMP)"),
        *(_named_month_date(pattern, formats) for pattern, formats in _NAMED_MONTH_DATES),
        *(_named_month_date(pattern, formats) for pattern, formats in _WRITTEN_DATES),
    ],
    # Offsets (2024-01-01T10:00:00Z, +08:00) are kept as the UTC time: one kind of time per dataset.
    "TIMESTAMP WITH TIME ZONE": [("TIMESTAMP", "COUNT(*) >= 0", "TIMEZONE('UTC', __c__)")],
    # Excel stores every number as a double and every date as a date-time.
    "DOUBLE": [("BIGINT", "BOOL_AND(__c__ = TRUNC(__c__) AND ABS(__c__) < 9e15)", "CAST(__c__ AS BIGINT)")],
    "TIMESTAMP": [("DATE", "BOOL_AND(__c__ = DATE_TRUNC('day', __c__))", "CAST(__c__ AS DATE)")],
}


def _family(type_name: str) -> str:
    """TIMESTAMP_MS, TIMESTAMP_NS... (as Arrow hands them over) are all TIMESTAMP here."""
    return "TIMESTAMP" if type_name.startswith("TIMESTAMP") and "TIME ZONE" not in type_name else type_name


TESTS_PER_SCAN = 256  # DuckDB plans one huge SELECT in more than linear time: wide tables are scanned in batches
_MARKER = "__c__"


@functools.lru_cache(maxsize=128)
def _template_sql(template: str) -> str:
    """A constant template as DuckDB SQL with its column marker left in place (parsed once, not per column)."""
    text = fill(template, "duckdb", c=exp.column(exp.to_identifier(_MARKER))).sql("duckdb")
    if text.count(_MARKER) != template.count(_MARKER):
        raise ValueError(f"template marker lost: {template}")
    return text


def _rule_sql(template: str, name: str) -> str:
    """The template applied to one column; the name goes in as an identifier quoted by sqlglot."""
    return _template_sql(template).replace(_MARKER, exp.to_identifier(name, quoted=True).sql("duckdb"))


def _verdicts(con: duckdb.DuckDBPyConnection, tests: list[str], source: exp.Expr) -> list[Any]:
    verdicts: list[Any] = []
    origin = source.sql("duckdb")
    for start in range(0, len(tests), TESTS_PER_SCAN):
        batch = ", ".join(tests[start : start + TESTS_PER_SCAN])
        # constant templates whose only variable part is an identifier quoted by sqlglot
        verdicts += con.execute(f"SELECT {batch} FROM {origin}").fetchall()[0]  # noqa: S608
    return verdicts


def infer_types(
    con: duckdb.DuckDBPyConnection, *, sources: tuple[str, ...] = ("VARCHAR", "TIMESTAMP WITH TIME ZONE")
) -> dict[str, str]:
    """Give columns of the `sources` types the narrowest type all their values fit.

    Text may become integer, decimal, boolean, date or date-time; doubles integers; date-times dates;
    date-times with a time zone the UTC date-time.
    A cheap pass over the first rows rules most columns out; one full scan confirms the rest.
    A column with a single value that does not fit (N/A, 2025-02-30) keeps its type: nothing is lost.
    """
    described = con.execute('DESCRIBE "data"').fetchall()
    names = [row[0] for row in described]
    candidates = [
        (row[0], index, rule)
        for row in described
        if _family(row[1]) in sources
        for index, rule in enumerate(NARROWER.get(_family(row[1]), []))
    ]
    sample = exp.select(exp.Star()).from_(_DATA.copy()).limit(2000).subquery("sample")
    for source in (sample, _DATA):
        if not candidates:
            return {}
        tests = [_rule_sql(rule[1], name) for name, _index, rule in candidates]
        verdicts = _verdicts(con, tests, source)
        candidates = [item for item, ok in zip(candidates, verdicts, strict=True) if ok]
    chosen: dict[str, tuple[str, str, str]] = {}
    for name, _index, rule in candidates:  # narrowest first
        chosen.setdefault(name, rule)
    if not chosen:
        return {}
    outputs: list[exp.Expr] = [
        exp.alias_(fill(chosen[n][2], "duckdb", c=_column(n)), exp.to_identifier(n, quoted=True))
        if n in chosen
        else _column(n)
        for n in names
    ]
    _rewrite(con, outputs)
    return {name: rule[0] for name, rule in chosen.items()}


# Numbers written with their unit, as exports and web tables write them: "$1,200", "35%", "1,450 tonnes", "98 kg",
# "35元". A text column becomes a number only when every value has that shape and one and the same unit; the unit
# then moves to the column's name ("Displacement (tonnes)"), so nothing is lost and the values add up. A decimal
# comma ("1,96 m") is no thousands separator: such a column stays text. Years of an era (328 BC) and days of a
# month (12 Jan) are not amounts. Ordinals ("1st", "12th") become their position.
_AMOUNT = r"[+-]?([0-9]{1,3}(,[0-9]{3}){1,4}|[0-9]{1,15})([.][0-9]+)?"
# 万 (ten thousand) and 亿 (a hundred million) scale the amount before them, as Chinese files write large numbers
# ("1.2万", "3亿元"); beside them a plain amount needs no unit
_SCALED = rf"{_AMOUNT}( ?[万亿])?"
_CURRENCY = "[$€£¥￥]"
# a one-letter unit only after a space ("5 L", "3 m") or with its power ("3755 km2", "12 m²"): "12A" is a seat or a
# code
_WITH_UNIT = (
    rf"({_CURRENCY} ?{_SCALED}( ?元)?|{_SCALED} ?(%|‰|[A-Za-z]{{1,4}}[23²³]|[A-Za-z]{{2,12}}[.]?|元|件|个|人|次|天)"
    rf"|{_SCALED} [A-Za-z][.]?|{_SCALED})"
)
# what follows the amount (and its scale), or the currency before it; "¥1,200元" says yuan once
_UNIT_OF = (
    r"REGEXP_REPLACE(TRIM(REGEXP_REPLACE(TRIM(__c__), "
    r"'^([$€£¥￥]?) ?[+-]?[0-9][0-9,]*([.][0-9]+)? ?[万亿]?', '\1')), '^[¥￥] ?元$', '元')"
)
# "1 year" and "6 years" are one unit: a plural s after two letters or more is dropped before units are compared
_ONE_UNIT = rf"REGEXP_REPLACE({_UNIT_OF}, '^([A-Za-z]{{2,}})s$', '\1')"  # case kept: Mb is no MB
_NOT_UNITS = r"(?i)(bc|bce|ad|ce|b[.]c[.]|a[.]d[.]|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[.]?)"
_FITS_UNIT = (
    # one unit (MIN = MAX: no hash of every value per column, as COUNT(DISTINCT) would build)
    f"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '{_WITH_UNIT}')) AND MIN({_ONE_UNIT}) = MAX({_ONE_UNIT})"
    f" AND BOOL_OR({_UNIT_OF} <> '' OR REGEXP_MATCHES(__c__, '[万亿]'))"  # plain amounts only beside a scale
    " AND NOT BOOL_OR(REGEXP_MATCHES(TRIM(__c__), '^[$€£¥￥]? ?0[0-9]'))"  # 007A, 02134 MA: codes, kept as written
    f" AND NOT BOOL_OR(REGEXP_FULL_MATCH({_UNIT_OF}, '{_NOT_UNITS}'))"
)
_AMOUNT_OF = r"REPLACE(REGEXP_EXTRACT(TRIM(__c__), '[+-]?[0-9][0-9,]*([.][0-9]+)?'), ',', '')"
_SCALE = "CASE WHEN CONTAINS(__c__, '亿') THEN 100000000 WHEN CONTAINS(__c__, '万') THEN 10000 ELSE 1 END"
_ORDINAL = r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '[0-9]{1,6} ?(st|nd|rd|th)'))"
# Times a race or a call took, written with a fraction of a second as results tables do ("1:54.32", "1:01:45.5",
# "59.10" among them): seconds, named "(s)". Without the fraction, "13:30" may be a time of day: it stays text.
_DURATION = (
    r"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '([0-9]{1,2}:){0,2}[0-9]{1,2}[.][0-9]{1,3}'))"
    r" AND BOOL_OR(CONTAINS(__c__, ':'))"
)
_PART = "CAST(SPLIT_PART(TRIM(__c__), ':', {n}) AS DOUBLE)"
_SECONDS = (
    "CASE LEN(STR_SPLIT(TRIM(__c__), ':')) "
    f"WHEN 3 THEN {_PART.format(n=1)} * 3600 + {_PART.format(n=2)} * 60 + {_PART.format(n=3)} "
    f"WHEN 2 THEN {_PART.format(n=1)} * 60 + {_PART.format(n=2)} ELSE CAST(TRIM(__c__) AS DOUBLE) END"
)
SECONDS_UNIT = "s"
UNIT_RULES: tuple[tuple[str, str, str], ...] = (
    ("BIGINT", _ORDINAL, r"CAST(REGEXP_EXTRACT(TRIM(__c__), '[0-9]+') AS BIGINT)"),
    ("DOUBLE", _DURATION, _SECONDS),
    ("BIGINT", f"{_FITS_UNIT} AND NOT BOOL_OR(CONTAINS(TRIM(__c__), '.'))", f"CAST({_AMOUNT_OF} AS BIGINT) * {_SCALE}"),
    ("DOUBLE", _FITS_UNIT, f"CAST(CAST({_AMOUNT_OF} AS DECIMAL(38, 10)) * {_SCALE} AS DOUBLE)"),
)
MAX_UNIT_LENGTH = 12
# Every value each of UNIT_RULES accepts starts with an amount (or a currency and an amount): a column of the first
# rows where one does not is ruled out by this cheap test alone, before the costly ones run.
_MAY_HAVE_UNIT = r"BOOL_AND(REGEXP_MATCHES(TRIM(__c__), '^[$€£¥￥]? ?[+-]?[0-9]'))"


def name_units(con: duckdb.DuckDBPyConnection) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """Text columns whose values are numbers with a unit, converted (module comment above _AMOUNT): {old name:
    (new name, type)}, and the columns of places written "1st", "25th" among them (by their old names). The unit
    joins the name unless the name already says it or the new name is taken."""
    described = con.execute('DESCRIBE "data"').fetchall()
    names = [row[0] for row in described]
    texts = [row[0] for row in described if _family(row[1]) == "VARCHAR"]
    if not texts:
        return {}, []
    sample = exp.select(exp.Star()).from_(_DATA.copy()).limit(2000).subquery("sample")
    screened = _verdicts(con, [_rule_sql(_MAY_HAVE_UNIT, name) for name in texts], sample)
    candidates = [(name, rule) for name, ok in zip(texts, screened, strict=True) if ok for rule in UNIT_RULES]
    for source in (sample, _DATA):  # the first rows rule most columns out; one full scan confirms the rest
        if not candidates:
            return {}, []
        verdicts = _verdicts(con, [_rule_sql(rule[1], name) for name, rule in candidates], source)
        candidates = [item for item, ok in zip(candidates, verdicts, strict=True) if ok]
    chosen: dict[str, tuple[str, str, str]] = {}
    for name, rule in candidates:  # in the order of UNIT_RULES: the narrowest first
        chosen.setdefault(name, rule)
    if not chosen:
        return {}, []
    written = [n for n, rule in chosen.items() if rule[1] not in (_ORDINAL, _DURATION)]
    found = _verdicts(con, [f"MAX({_rule_sql(_UNIT_OF, n)})" for n in written], _DATA) if written else []
    by_name = dict(zip(written, found, strict=True))
    units = [SECONDS_UNIT if rule[1] == _DURATION else by_name.get(n) for n, rule in chosen.items()]
    renamed: dict[str, tuple[str, str]] = {}
    taken = {n.casefold() for n in names}  # DuckDB's names ignore case: "Price ($)" and "price ($)" clash
    for (name, rule), unit in zip(chosen.items(), units, strict=True):
        unit = str(unit or "").strip()
        new = name
        if unit and len(unit) <= MAX_UNIT_LENGTH and not _says_unit(name, unit):
            new = f"{name} ({unit})" if f"{name} ({unit})".casefold() not in taken else name
        taken.add(new.casefold())
        renamed[name] = (new, rule[0])
    outputs: list[exp.Expr] = [
        exp.alias_(fill(chosen[n][2], "duckdb", c=_column(n)), exp.to_identifier(renamed[n][0], quoted=True))
        if n in chosen
        else _column(n)
        for n in names
    ]
    _rewrite(con, outputs)
    return renamed, [n for n, rule in chosen.items() if rule[1] == _ORDINAL]


def _says_unit(name: str, unit: str) -> bool:
    """The name already says the unit: "Price ($)", "Share %", "Weight kg" (a word of its own: the "g" of
    Weight or the "l" of Volume is no unit)."""
    folded, said = name.casefold(), unit.casefold()
    if not said.isalpha():
        return said in folded
    return re.search(rf"(?<![^\W\d_]){re.escape(said)}(?![^\W\d_])", folded) is not None


# Marks people write in a cell instead of a value: "N/A", "TBD", 待定. In a column whose other values are all
# numbers (or all dates) they say "no value": read as blank, the column becomes numbers, and the profile keeps the
# marks (ColumnProfile.blank_marks) so that answers computed on it can say so. A dash is such a mark only among
# dates: among numbers ("Goals: –") it often means none, 0, and read as blank it would change a minimum, an
# average or a count, so a column of numbers and dashes stays text. Among numbers (times, distances, places), the
# marks of a result not reached ("DNF", "DSQ", "NM", "Ret") say there is none: such a row has no time, no mark and
# no place to compare, and the profile keeps what it said.
NO_VALUE_MARKS = ("n/a", "na", "n.a.", "?", "tbd", "tba", "待定", "暂无", "不详")
DASH_MARKS = ("-", "--", "—", "–")
NO_RESULT_MARKS = ("dnf", "dns", "dsq", "dq", "dnq", "dnp", "nm", "nh", "ret", "ret.", "wd", "nc", "未完成", "弃权")
MIN_VALUES_BESIDE_MARKS = 2  # a column of marks and one number is no column of numbers


def _marks_sql(marks: tuple[str, ...]) -> tuple[str, str, str]:
    """(is a mark, the value without marks, the marks written) as templates over __c__."""
    is_mark = "LOWER(TRIM(__c__)) IN (" + ", ".join(f"'{m}'" for m in marks) + ")"
    return (
        is_mark,
        f"CASE WHEN {is_mark} THEN NULL ELSE __c__ END",
        f"LIST(DISTINCT TRIM(__c__)) FILTER (WHERE {is_mark})",
    )


# In a column of signed changes ("+12", "−9"), a new entry has no change to state: "New", "Re-entry"
NEW_ENTRY_MARKS = ("new", "new entry", "re-entry", "reentry")
_FOR_NUMBERS = _marks_sql(NO_VALUE_MARKS + NO_RESULT_MARKS)
_FOR_DATES = _marks_sql(NO_VALUE_MARKS + DASH_MARKS)
_ANY_MARK = _marks_sql(NO_VALUE_MARKS + DASH_MARKS + NO_RESULT_MARKS)  # also the marks of places and times
_CHANGE_MARKS = _marks_sql(NO_VALUE_MARKS + DASH_MARKS + NO_RESULT_MARKS + NEW_ENTRY_MARKS)


def _marks_for(rule: tuple[str, str, str]) -> tuple[str, str, str]:
    """The marks a typing rule reads as blank: a dash among dates, places ("1st", "—") and race times is no value
    (there is no place 0, no time 0); among plain numbers it stays text (module comment above NO_VALUE_MARKS)."""
    if rule[0] in ("DATE", "TIMESTAMP"):
        return _FOR_DATES
    return _ANY_MARK if rule[1] in (_ORDINAL, _DURATION) else _FOR_NUMBERS


# A column of finishing places by its name ("Rank", "Pos."): a dash there is no place, as among "1st", "2nd"
_PLACE_NAME = re.compile(r"(?i)rank|ranking|pos\.?|position|place|placing|finish")
_MARKED_RULES = tuple((rule, _marks_for(rule)) for rule in (*NARROWER["VARCHAR"], *UNIT_RULES) if rule[0] != "BOOLEAN")


# Changes written with their sign ("+6", "-3"): a dash there says no change was recorded (a new entry, a summary
# row), not a number of its own, as in a column of places
_PLUS_SIGNED = r"BOOL_OR(REGEXP_MATCHES(__c__, '^\s*[+]\s?[0-9]'))"


def _dash_is_blank(name: str, rule: tuple[str, str, str], signed: set[str]) -> bool:
    """A dash among whole numbers is blank in a column of places (Rank, Pos., a chart's) or of signed changes."""
    return rule[0] == "BIGINT" and (_PLACE_NAME.fullmatch(name.strip()) is not None or name in signed)


def _marks_of(name: str, rule: tuple[str, str, str], marks: tuple[str, str, str], signed: set[str]) -> tuple:
    """The marks read as blank in this column by this rule: those of signed changes ("New" too), of places, or
    the rule's own."""
    if name in signed and rule[0] in ("BIGINT", "DOUBLE"):
        return _CHANGE_MARKS
    return _ANY_MARK if _dash_is_blank(name, rule, signed) else marks


# A record chart's peak positions, one column per chart (US, UK, CAN, "US R&B", "UK Singles Chart"): whole numbers
# from 1, with a dash where the record did not chart. They are places (1 is the top), and the dash is no place.
_CHART_REGIONS = (
    "US|UK|CAN|AUS|NZ|IRE|IRL|GER|FRA|FR|NLD|NL|NED|SWE|NOR|FIN|DEN|SWI|SUI|AUT|BEL|JPN|JP|ITA|ESP|SPA|SCO|POL|"
    "KOR|BRA|MEX|CZE|HUN|POR"
)
_CHART_NAME = re.compile(rf"(?:{_CHART_REGIONS})(?:\s.*)?|.*(?i:chart|billboard|peak).*")
_CHART_VALUES = (
    f"BOOL_AND(REGEXP_FULL_MATCH(TRIM(CAST(__c__ AS VARCHAR)), '[1-9][0-9]{{0,2}}') OR LOWER(TRIM(CAST(__c__ AS "
    f"VARCHAR))) IN ({', '.join(repr(m) for m in DASH_MARKS)})) AND COUNT(__c__) >= {MIN_VALUES_BESIDE_MARKS}"
)


def chart_places(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Columns of chart positions (comment above): named for a chart, and for a country only beside another such
    column (a discography's US, UK, CAN); every value a whole number from 1 to 999 or a dash."""
    described = con.execute('DESCRIBE "data"').fetchall()
    named = [row[0] for row in described if _CHART_NAME.fullmatch(row[0].strip()) and _family(row[1]) in _WHOLE]
    if not named:
        return []
    fits = _verdicts(con, [_rule_sql(_CHART_VALUES, n) for n in named], _DATA)
    charts = [n for n, ok in zip(named, fits, strict=True) if ok]
    regional = [n for n in charts if not re.search(r"(?i)chart|billboard|peak", n)]
    return charts if len(regional) != 1 else [n for n in charts if n not in regional]


_WHOLE = frozenset(("VARCHAR", "BIGINT", "INTEGER", "SMALLINT", "TINYINT", "HUGEINT", "UBIGINT", "UINTEGER"))


def blank_marks(con: duckdb.DuckDBPyConnection, charts: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Text columns whose values are numbers or dates but for marks such as "N/A" (module comment above
    NO_VALUE_MARKS): the marks become blank, so that typing then makes the column numbers or dates. Returns the
    marks as written, per column. A column where anything else stands beside the numbers ("DNF", "3,000/2,000")
    is left as it is: those cells say something. As in typing, the first rows rule most columns out."""
    described = con.execute('DESCRIBE "data"').fetchall()
    names = [row[0] for row in described]
    texts = [row[0] for row in described if _family(row[1]) == "VARCHAR"]
    if not texts:
        return {}
    is_mark, without, _written = _CHANGE_MARKS  # the widest: each rule's own marks are tested below
    enough = f"BOOL_OR({is_mark}) AND COUNT({without}) >= {MIN_VALUES_BESIDE_MARKS}"
    both = _verdicts(con, [_rule_sql(test, n) for n in texts for test in (enough, _PLUS_SIGNED)], _DATA)
    verdicts = both[0::2]  # marks beside enough values; then whether a value is written with a plus sign
    signed = {name for name, ok, plus in zip(texts, verdicts, both[1::2], strict=True) if ok and plus}
    signed |= set(charts)  # a chart's dash is no place, as a new entry's is no change
    candidates = [
        (name, rule, _marks_of(name, rule, marks, signed))
        for name, ok in zip(texts, verdicts, strict=True)
        if ok
        for rule, marks in _MARKED_RULES
    ]
    sample = exp.select(exp.Star()).from_(_DATA.copy()).limit(2000).subquery("sample")
    for source in (sample, _DATA):
        if not candidates:
            return {}
        tests = [
            _rule_sql(f"({rule[1].replace(_MARKER, f'({marks[1]})')}) AND BOOL_OR({marks[0]})", name)
            if source is _DATA
            else _rule_sql(rule[1].replace(_MARKER, f"({marks[1]})"), name)
            for name, rule, marks in candidates
        ]
        verdicts = _verdicts(con, tests, source)
        candidates = [item for item, ok in zip(candidates, verdicts, strict=True) if ok]
    chosen: dict[str, tuple[str, str, str]] = {}
    for name, _rule, marks in candidates:  # narrowest rule first, as typing will choose
        chosen.setdefault(name, marks)
    if not chosen:
        return {}
    written = _verdicts(con, [_rule_sql(chosen[n][2], n) for n in chosen], _DATA)
    found = {  # "N/A" and "n/a" are one mark, said as first written
        name: sorted({m.casefold(): m for m in sorted(marks or [], reverse=True)}.values())
        for name, marks in zip(chosen, written, strict=True)
    }
    outputs: list[exp.Expr] = [
        exp.alias_(fill(chosen[n][1], "duckdb", c=_column(n)), exp.to_identifier(n, quoted=True))
        if n in chosen
        else _column(n)
        for n in names
    ]
    _rewrite(con, outputs)
    return found


# A summary row typed by hand: "Total" written in the Rank or 序号 column of numbers as well as in the Nation
# column. In the column of numbers the label is no value: it becomes blank (said as a mark), so that the column
# is typed as numbers, as long as another text column of that row still says "Total" (the planner leaves the
# summary row out by that label). Where every such column holds numbers, one keeps its labels (not a year).
_TOTAL_CELL = f"REGEXP_FULL_MATCH(LOWER(TRIM(__c__)), '{TOTAL_PATTERN}')"  # the profile's own labels
_PLAIN_NUMBER = f"REGEXP_FULL_MATCH(TRIM(__c__), '{_AMOUNT}')"
_TIMELY = re.compile(r"(?i)year|date|season|年|日期")


def total_cells(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Text columns of plain numbers but for a summary row's label (module comment above _TOTAL_CELL), made
    blank there; returns the labels as written, per column."""
    described = con.execute('DESCRIBE "data"').fetchall()
    names = [row[0] for row in described]
    texts = [row[0] for row in described if _family(row[1]) == "VARCHAR"]
    if len(texts) < 2:
        return {}
    held = _verdicts(con, [_rule_sql(f"BOOL_OR({_TOTAL_CELL})", n) for n in texts], _DATA)
    labelled = [n for n, ok in zip(texts, held, strict=True) if ok]
    if len(labelled) < 2:
        return {}
    numbers = f"COUNT(*) FILTER (WHERE {_PLAIN_NUMBER}) >= 2"
    numbers += f" AND BOOL_AND({_PLAIN_NUMBER} OR {_TOTAL_CELL} OR TRIM(__c__) = '')"
    fits = _verdicts(con, [_rule_sql(numbers, n) for n in labelled], _DATA)
    chosen = [n for n, ok in zip(labelled, fits, strict=True) if ok]
    if not (keepers := [n for n in labelled if n not in chosen]):  # all numbers: one keeps its labels, not a year
        keepers = [next((n for n in chosen if not _TIMELY.search(n)), chosen[0])]
        chosen.remove(keepers[0])
    if not chosen:
        return {}
    kept = " OR ".join(_rule_sql(_TOTAL_CELL, k) for k in keepers)
    # every summary row of a chosen column is still named by a column that keeps its label
    tests = [f"COALESCE(BOOL_AND({kept}) FILTER (WHERE {_rule_sql(_TOTAL_CELL, n)}), FALSE)" for n in chosen]
    chosen = [n for n, ok in zip(chosen, _verdicts(con, tests, _DATA), strict=True) if ok]
    if not chosen:
        return {}
    written = _verdicts(
        con, [_rule_sql(f"LIST(DISTINCT TRIM(__c__)) FILTER (WHERE {_TOTAL_CELL})", n) for n in chosen], _DATA
    )
    blank = f"CASE WHEN {_TOTAL_CELL} THEN NULL ELSE __c__ END"
    outputs: list[exp.Expr] = [
        exp.alias_(fill(blank, "duckdb", c=_column(n)), exp.to_identifier(n, quoted=True))
        if n in chosen
        else _column(n)
        for n in names
    ]
    _rewrite(con, outputs)
    return {n: sorted(labels) for n, labels in zip(chosen, written, strict=True)}


# Negative numbers written with the typographic minus (U+2212) or an en dash, as web tables and word processors
# write them: "−3", "−8.4%", "– 12". In a column where every value starts with a signed amount (or is a mark such
# as "—"), that sign becomes "-", so typing reads the numbers; a column with anything else in it is left alone.
# "±0" there is no change: 0.
_TYPOGRAPHIC_MINUS = r"^\s*[−–]\s?([0-9])"
_NO_CHANGE = r"^\s*±\s?([0-9])"
_SIGNED_START = r"^\s*[+−–±-]?\s?[0-9]"
_HAS_MINUS = f"BOOL_OR(REGEXP_MATCHES(__c__, '{_TYPOGRAPHIC_MINUS}') OR REGEXP_MATCHES(__c__, '{_NO_CHANGE}'))"
_ALL_SIGNED = (
    f"BOOL_AND(REGEXP_MATCHES(__c__, '{_SIGNED_START}') OR LOWER(TRIM(__c__)) IN ("
    + ", ".join(f"'{m}'" for m in NO_VALUE_MARKS + DASH_MARKS + NEW_ENTRY_MARKS)
    + "))"
)


def minus_signs(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Text columns of signed amounts written with a typographic minus (comment above): the sign made "-".
    Returns the columns changed."""
    described = con.execute('DESCRIBE "data"').fetchall()
    names = [row[0] for row in described]
    texts = [row[0] for row in described if _family(row[1]) == "VARCHAR"]
    if not texts:
        return []
    verdicts = _verdicts(con, [_rule_sql(f"{_HAS_MINUS} AND {_ALL_SIGNED}", n) for n in texts], _DATA)
    changed = [name for name, ok in zip(texts, verdicts, strict=True) if ok]
    if changed:
        fix = f"REGEXP_REPLACE(REGEXP_REPLACE(__c__, '{_TYPOGRAPHIC_MINUS}', '-\\1'), '{_NO_CHANGE}', '\\1')"
        _rewrite(
            con,
            [
                exp.alias_(fill(fix, "duckdb", c=_column(n)), exp.to_identifier(n, quoted=True))
                if n in changed
                else _column(n)
                for n in names
            ],
        )
    return changed
