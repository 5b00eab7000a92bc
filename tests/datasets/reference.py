"""A pandas reference implementation of QuerySpec semantics, for differential tests.

Deliberately written from the spec's meaning (SQL NULL rules: comparisons with NULL are false,
NULL keys form their own group, SUM of nothing is NULL), not from the compiler's code.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import numpy as np
import pandas as pd

from apps.datasets.query.spec import Aggregation, Filter, QuerySpec


def bucket(series: pd.Series, grain: str) -> pd.Series:
    ts = pd.to_datetime(series)
    if grain == "day":
        return ts.dt.date.where(ts.notna(), None)
    if grain == "week":
        return (ts - pd.to_timedelta(ts.dt.day_of_week, unit="D")).dt.date.where(ts.notna(), None)
    if grain == "month":
        return ts.dt.strftime("%Y-%m").where(ts.notna(), None)
    if grain == "quarter":
        return (ts.dt.year.astype("Int64").astype(str) + "-Q" + ts.dt.quarter.astype("Int64").astype(str)).where(
            ts.notna(), None
        )
    return ts.dt.year.astype("Int64")


def mask(df: pd.DataFrame, f: Filter) -> pd.Series:
    col = bucket(df[f.column], f.grain) if f.grain else df[f.column]
    present = col.notna()
    if f.op == "is_null":
        return ~present if f.value else present
    value = f.value
    if not f.grain and isinstance(value, str) and col.map(lambda v: isinstance(v, dt.date)).any():
        value = dt.date.fromisoformat(value)
    if f.op == "contains":
        return present & col.astype(str).str.lower().str.contains(str(value).lower(), regex=False)
    if f.op == "in":
        return present & col.isin(value)
    if f.op == "between":
        return present & (col >= value[0]) & (col <= value[1])
    if f.op == "!=":  # a blank is not the value: kept, as pandas' ne keeps it
        return ~present | col.ne(value).fillna(True).astype(bool)
    ops = {"=": "eq", ">": "gt", ">=": "ge", "<": "lt", "<=": "le"}
    return present & getattr(col, ops[f.op])(value).fillna(False).astype(bool)


def aggregate(group: pd.DataFrame, agg: Aggregation) -> Any:
    if agg.where:
        keep = np.logical_and.reduce([mask(group, f) for f in agg.where])
        group = group[keep]
    if agg.column is None:
        return len(group)
    values = group[agg.column]
    clean = values.dropna()
    if agg.func == "count":
        return int(clean.shape[0])
    if agg.func == "nunique":
        return int(clean.nunique())
    if clean.empty:
        return None
    if agg.func in ("stddev", "variance") and len(clean) < 2:
        return None  # the sample statistic of one value is undefined (SQL NULL)
    return STATISTICS[agg.func](clean, agg.q)


STATISTICS = {
    "sum": lambda s, q: s.sum(),
    "avg": lambda s, q: s.mean(),
    "min": lambda s, q: s.min(),
    "max": lambda s, q: s.max(),
    "median": lambda s, q: s.median(),
    "quantile": lambda s, q: s.quantile(q),
    "stddev": lambda s, q: s.std(ddof=1),
    "variance": lambda s, q: s.var(ddof=1),
}


def evaluate(df: pd.DataFrame, spec: QuerySpec) -> list[tuple[Any, ...]]:
    if spec.filters:
        df = df[np.logical_and.reduce([mask(df, f) for f in spec.filters])]
    if not spec.group_by:
        return [tuple(aggregate(df, a) for a in spec.aggregations)]
    keys = pd.DataFrame({g.name: bucket(df[g.column], g.grain) if g.grain else df[g.column] for g in spec.group_by})
    rows = []
    key_names = list(keys.columns)
    for key, group in df.groupby([keys[k] for k in key_names], dropna=False, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        rows.append(
            tuple(None if _missing(k) else k for k in key) + tuple(aggregate(group, a) for a in spec.aggregations)
        )
    return rows


def _missing(value: Any) -> bool:
    return value is None or value is pd.NA or value is pd.NaT or (isinstance(value, float) and math.isnan(value))


def normalise(rows: list[tuple[Any, ...]] | list[list[Any]]) -> list[tuple[Any, ...]]:
    """Comparable rows: numbers as rounded floats, missing as None, dates as ISO text, sorted."""

    def norm(value: Any) -> Any:
        if _missing(value):
            return None
        if isinstance(value, bool | np.bool_):
            return bool(value)
        if isinstance(value, int | float | np.integer | np.floating):
            number = float(value)
            return None if math.isnan(number) else round(number, 6)
        if hasattr(value, "isoformat"):
            return value.isoformat()[:10]
        return str(value)

    out = [tuple(norm(v) for v in row) for row in rows]
    return sorted(out, key=lambda row: tuple((v is None, str(v)) for v in row))
