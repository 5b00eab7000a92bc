"""The Chinese business question set's building blocks: a case, the three datasets as pandas reads them
(the demo orders and targets, the generated returns workbook), and helpers that turn a pandas result into
what a correct answer must show."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import pandas as pd

from apps.datasets.demo import orders_csv, targets_xlsx
from tests.agent.golden.answer_text import Expect, Num
from tests.agent.golden.returns_data import returns_frame

Reference = Callable[[pd.DataFrame], Expect]


@dataclass(frozen=True)
class BizCase:
    """A question a business user would type, the dataset it is asked about, the kind of analysis it needs
    (同比, 环比, 占比 ...), and its reference: a pandas computation returning the key numbers and labels."""

    id: str
    dataset: str
    topic: str
    question: str
    reference: Reference


@lru_cache(maxsize=4)
def business_frame(name: str) -> pd.DataFrame:
    """orders: the demo 销售订单 (2025); targets: the demo 年度目标 sheet (header on row 2); returns: 退货明细."""
    if name == "orders":
        return pd.read_csv(io.BytesIO(orders_csv()), encoding="utf-8-sig", parse_dates=["下单日期"])
    if name == "targets":
        return pd.read_excel(io.BytesIO(targets_xlsx()), sheet_name="目标", header=1, engine="openpyxl")
    if name == "returns":
        return returns_frame()
    raise KeyError(name)


# --- reference helpers -----------------------------------------------------------------------------
def figure(*values: float, ratio: bool = False) -> Expect:
    """One figure (or a few) was asked: each must be shown, and not inside a long listing."""
    return Expect(numbers=tuple(Num(float(v), ratio) for v in values), single=True)


def ratio(value: float) -> Expect:
    return figure(value, ratio=True)


def listing(series: pd.Series, *, ratio: bool = False, ordered: bool = False, numbers: bool = True) -> Expect:
    """A grouped result: every label of the index, and (unless `numbers` is off) every value."""
    labels = tuple(_text(k) for k in series.index)
    values = tuple(Num(float(v), ratio) for v in series.to_numpy()) if numbers else ()
    return Expect(numbers=values, labels=labels, ordered=ordered)


def series(values: pd.Series, *, ratio: bool = False) -> Expect:
    """A series over time: every value must be shown (labels are dates, written in many ways)."""
    return Expect(numbers=tuple(Num(float(v), ratio) for v in values.to_numpy()))


def top(values: pd.Series, *, ratio: bool = False, lowest: bool = False) -> Expect:
    """The best (or worst) group: its label and its value, not a listing of all groups."""
    key = values.idxmin() if lowest else values.idxmax()
    return Expect(numbers=(Num(float(values[key]), ratio),), labels=(_text(key),), single=True)


def row_of(df: pd.DataFrame, labels: list[str], value: str, *, lowest: bool = False) -> Expect:
    """The record holding the largest (or smallest) value: its labels and the value."""
    row = df.loc[df[value].idxmin() if lowest else df[value].idxmax()]
    return Expect(numbers=(Num(float(row[value])),), labels=tuple(_text(row[c]) for c in labels), single=True)


def growth(now: float, before: float) -> Expect:
    return ratio(now / before - 1)


def _text(value: object) -> str:
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    return str(value)


def month(df: pd.DataFrame, column: str) -> pd.Series:
    return df[column].dt.to_period("M")


def in_year(df: pd.DataFrame, column: str, year: int, months: range | None = None) -> pd.DataFrame:
    d = df[df[column].dt.year == year]
    return d if months is None else d[d[column].dt.month.isin(list(months))]


def in_month(df: pd.DataFrame, column: str, year: int, month_number: int) -> pd.DataFrame:
    return df[(df[column].dt.year == year) & (df[column].dt.month == month_number)]
