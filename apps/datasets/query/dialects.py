"""What differs between SQL engines, as constant templates parsed into sqlglot trees.

Templates contain marker columns (`__c__`, `__c2__`) that are replaced by quoted column nodes on
the parsed tree — user text never enters a template string. Functions an engine lacks are refused
with a clear message instead of being emulated approximately.
"""

from __future__ import annotations

from functools import lru_cache

import sqlglot
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from sqlglot import exp

from apps.datasets.errors import QueryInvalid

Dialect = str  # "duckdb" | "postgres" | "mysql" | "sqlite"

TIME_BUCKETS: dict[str, dict[str, str]] = {
    "duckdb": {
        "day": "CAST(__c__ AS DATE)",
        "week": "CAST(DATE_TRUNC('week', __c__) AS DATE)",
        "month": "STRFTIME(__c__, '%Y-%m')",
        "quarter": "CAST(YEAR(__c__) AS VARCHAR) || '-Q' || CAST(QUARTER(__c__) AS VARCHAR)",
        "year": "CAST(YEAR(__c__) AS INTEGER)",
        "month_of_year": "CAST(MONTH(__c__) AS INTEGER)",
    },
    "postgres": {
        "day": "CAST(__c__ AS DATE)",
        "week": "CAST(DATE_TRUNC('week', __c__) AS DATE)",
        "month": "TO_CHAR(__c__, 'YYYY-MM')",
        "quarter": "TO_CHAR(__c__, 'YYYY-\"Q\"Q')",
        "year": "CAST(EXTRACT(YEAR FROM __c__) AS INTEGER)",
        "month_of_year": "CAST(EXTRACT(MONTH FROM __c__) AS INTEGER)",
    },
    "mysql": {
        "day": "DATE(__c__)",
        "week": "DATE_SUB(DATE(__c__), INTERVAL WEEKDAY(__c__) DAY)",
        "month": "CONCAT(YEAR(__c__), '-', LPAD(MONTH(__c__), 2, '0'))",
        "quarter": "CONCAT(YEAR(__c__), '-Q', QUARTER(__c__))",
        "year": "YEAR(__c__)",
        "month_of_year": "MONTH(__c__)",
    },
    "sqlite": {
        "day": "DATE(__c__)",
        "week": "DATE(__c__, 'weekday 0', '-6 days')",
        "month": "STRFTIME('%Y-%m', __c__)",
        "quarter": "STRFTIME('%Y', __c__) || '-Q' || ((CAST(STRFTIME('%m', __c__) AS INTEGER) + 2) / 3)",
        "year": "CAST(STRFTIME('%Y', __c__) AS INTEGER)",
        "month_of_year": "CAST(STRFTIME('%m', __c__) AS INTEGER)",
    },
}

# What a time bucket yields, for checking filter values on it.
BUCKET_KIND = {
    "day": "date",
    "week": "date",
    "month": "text",
    "quarter": "text",
    "year": "integer",
    "month_of_year": "integer",  # 1-12, the month whatever the year: "every November"
}

AGGREGATES: dict[str, dict[str, str]] = {
    "median": {"duckdb": "MEDIAN(__c__)", "postgres": "PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY __c__)"},
    "quantile": {
        "duckdb": "QUANTILE_CONT(__c__, __q__)",
        "postgres": "PERCENTILE_CONT(__q__) WITHIN GROUP (ORDER BY __c__)",
    },
    "stddev": {"duckdb": "STDDEV_SAMP(__c__)", "postgres": "STDDEV_SAMP(__c__)", "mysql": "STDDEV_SAMP(__c__)"},
    "variance": {"duckdb": "VAR_SAMP(__c__)", "postgres": "VAR_SAMP(__c__)", "mysql": "VAR_SAMP(__c__)"},
    "corr": {"duckdb": "CORR(__c__, __c2__)", "postgres": "CORR(__c__, __c2__)"},
}

ENGINE_NAMES = {  # for messages; "file datasets" is translated when a message uses it
    "duckdb": gettext_noop("file datasets"),
    "postgres": "PostgreSQL",
    "mysql": "MySQL/MariaDB",
    "sqlite": "SQLite",
}


@lru_cache(maxsize=256)
def _parsed(template: str, dialect: Dialect) -> exp.Expr:
    return sqlglot.parse_one(template, read=dialect)


def fill(template: str, dialect: Dialect, **slots: exp.Expr) -> exp.Expr:
    """Parse a constant template and replace its marker columns (`__name__`) by the given nodes."""

    def replace(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column) and not node.table and node.name.startswith("__"):
            key = node.name.strip("_")
            if key in slots:
                return slots[key].copy()
        return node

    return _parsed(template, dialect).copy().transform(replace)


def time_bucket(column: exp.Expr, grain: str, dialect: Dialect) -> exp.Expr:
    return fill(TIME_BUCKETS[dialect][grain], dialect, c=column)


def statistic(func: str, dialect: Dialect, **slots: exp.Expr) -> exp.Expr:
    template = AGGREGATES[func].get(dialect)
    if template is None:
        supported = ", ".join(_(ENGINE_NAMES[d]) for d in AGGREGATES[func])
        raise QueryInvalid(
            _("%(func)s is not available on %(engine)s sources (it is on: %(supported)s); use another statistic")
            % {"func": func, "engine": _(ENGINE_NAMES.get(dialect, dialect)), "supported": supported},
            code="unsupported_function",
        )
    return fill(template, dialect, **slots)


def as_double(node: exp.Expr) -> exp.Expr:
    """Float arithmetic everywhere: PostgreSQL and SQLite would otherwise divide integers."""
    return exp.Cast(this=node, to=exp.DataType.build("double"))


def rounded(node: exp.Expr, digits: exp.Expr | None, dialect: Dialect) -> exp.Expr:
    """round(x, d) half away from zero on the number as people read it: 1542.5 / 1000 to 3 digits is 1.543.

    The double nearest 1.5425 lies just below it, so rounding the double itself (DuckDB does since 2.0.1) gives
    1.542. DuckDB rounds a DECIMAL copy instead (10 places, exact for any value a table shows), falling back to the
    double beyond DECIMAL's range; PostgreSQL has round(numeric, int) but no round(double, int)."""
    if dialect == "postgres":
        node = exp.Cast(this=node, to=exp.DataType.build("numeric"))
    if dialect != "duckdb" or digits is None:
        return exp.Round(this=node, decimals=digits) if digits is not None else exp.Round(this=node)
    exact = exp.Cast(
        this=exp.Round(this=exp.Cast(this=node, to=exp.DataType.build("decimal(38, 10)")), decimals=digits),
        to=exp.DataType.build("double"),
    )
    in_range = exp.LT(this=exp.Abs(this=node.copy()), expression=exp.Literal.number("1e27"))
    fallback = exp.Round(this=node.copy(), decimals=digits.copy())
    return exp.Case(ifs=[exp.If(this=in_range, true=exact)], default=fallback)
