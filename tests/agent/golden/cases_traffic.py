"""Golden questions over daily web traffic (English): date channel device sessions page_views bounces
conversions revenue."""

from __future__ import annotations

import pandas as pd

from tests.agent.golden.cases_base import Case, month, quarter, scalar, share, table, week


def _rate(df: pd.DataFrame, by: str, num: str, den: str) -> pd.Series:
    g = df.groupby(by)[[num, den]].sum()
    return g[num] / g[den]


def _quarter_growth(df: pd.DataFrame) -> pd.DataFrame:
    g = table(df.groupby(quarter(df["date"]).rename("quarter"))["revenue"].sum(), "revenue")
    return g.assign(growth=g["revenue"].pct_change())


def _mobile_conversion(df: pd.DataFrame) -> pd.DataFrame:
    d = df[df["device"] == "Mobile"]
    return scalar("rate", d["conversions"].sum() / d["sessions"].sum())


def _paid_bounce(df: pd.DataFrame) -> pd.DataFrame:
    d = df[df["channel"] == "Paid Search"]
    return scalar("rate", d["bounces"].sum() / d["sessions"].sum())


def _q1_weekly(df: pd.DataFrame) -> pd.DataFrame:
    d = df[quarter(df["date"]) == "2025-Q1"]
    return table(d.groupby(week(d["date"]).rename("week"))["conversions"].sum(), "c")


TRAFFIC = [
    Case(
        "W01",
        "traffic",
        "en",
        "Total revenue in 2024",
        lambda df: scalar("r", df.loc[df["date"].dt.year == 2024, "revenue"].sum()),
    ),
    Case(
        "W02",
        "traffic",
        "en",
        "Monthly sessions trend for Mobile",
        lambda df: table(
            df[df["device"] == "Mobile"].groupby(month(df["date"]).rename("month"))["sessions"].sum(), "s"
        ),
        ("month",),
    ),
    Case(
        "W03",
        "traffic",
        "en",
        "What is the conversion rate by channel?",
        lambda df: table(_rate(df, "channel", "conversions", "sessions"), "rate"),
        ("channel",),
    ),
    Case(
        "W04",
        "traffic",
        "en",
        "Share of page views by device",
        lambda df: share(table(df.groupby("device")["page_views"].sum(), "pv"), "pv"),
        ("device",),
    ),
    Case(
        "W05",
        "traffic",
        "en",
        "Top 3 channels by revenue in 2025",
        lambda df: table(df[df["date"].dt.year == 2025].groupby("channel")["revenue"].sum().nlargest(3), "r"),
        ("channel",),
        ordered=True,
    ),
    Case(
        "W06",
        "traffic",
        "en",
        "Compare revenue in 2024 vs 2025",
        lambda df: table(df.groupby(df["date"].dt.year.rename("year"))["revenue"].sum(), "r"),
        ("year",),
    ),
    Case("W07", "traffic", "en", "Weekly conversions in Q1 2025", _q1_weekly, ("week",)),
    Case("W08", "traffic", "en", "What is the bounce rate for Paid Search?", _paid_bounce),
    Case(
        "W09",
        "traffic",
        "en",
        "Which device has the lowest bounce rate?",
        lambda df: table(_rate(df, "device", "bounces", "sessions").nsmallest(1), "rate"),
        ("device",),
        ordered=True,
    ),
    Case("W10", "traffic", "en", "Quarterly revenue growth", _quarter_growth, ("quarter",)),
    Case(
        "W11",
        "traffic",
        "zh",
        "各渠道的会话数",
        lambda df: table(df.groupby("channel")["sessions"].sum(), "s"),
        ("channel",),
    ),
    Case(
        "W12",
        "traffic",
        "zh",
        "2025年每月的收入",
        lambda df: table(
            df[df["date"].dt.year == 2025].groupby(month(df["date"]).rename("月份"))["revenue"].sum(), "r"
        ),
        ("月份",),
    ),
    Case("W13", "traffic", "zh", "移动端的转化率是多少", _mobile_conversion),
]
