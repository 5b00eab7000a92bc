"""A golden case, and pandas helpers for writing reference answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

Expected = Callable[[pd.DataFrame], pd.DataFrame]


@dataclass(frozen=True)
class Case:
    """A question, and its reference answer as a table: `keys` are the label columns (compared as
    text); the other columns are numbers (compared with a rounding tolerance). `ordered` when the
    question asks for an order (top-N, rankings)."""

    id: str
    dataset: str
    lang: str
    question: str
    expected: Expected
    keys: tuple[str, ...] = ()
    ordered: bool = False


def scalar(name: str, value: float) -> pd.DataFrame:
    return pd.DataFrame({name: [value]})


def table(series: pd.Series, name: str) -> pd.DataFrame:
    return series.rename(name).reset_index()


def month(s: pd.Series) -> pd.Series:
    return s.dt.strftime("%Y-%m")


def quarter(s: pd.Series) -> pd.Series:
    return s.dt.year.astype(str) + "-Q" + s.dt.quarter.astype(str)


def week(s: pd.Series) -> pd.Series:
    return (s - pd.to_timedelta(s.dt.day_of_week, unit="D")).dt.strftime("%Y-%m-%d")


def share(df: pd.DataFrame, value: str) -> pd.DataFrame:
    return df.assign(share=df[value] / df[value].sum())
