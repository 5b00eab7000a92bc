"""Golden questions over the demo orders (Chinese headers): 下单日期 账号 地区 产品 数量 金额 是否退货 退货原因."""

from __future__ import annotations

import pandas as pd

from tests.agent.golden.cases_base import Case, month, quarter, scalar, share, table


def _quality_share(df: pd.DataFrame) -> pd.DataFrame:
    d = df[df["下单日期"].dt.year == 2025].assign(月份=month(df["下单日期"]))
    d = d.assign(q=(d["退货原因"] == "质量问题").astype(int), r=d["是否退货"].astype(int))
    g = d.groupby(["月份", "账号"])[["q", "r"]].sum().reset_index()
    return g.assign(占比=g["q"] / g["r"].where(g["r"] != 0))[["月份", "账号", "占比"]]


def _quarter_growth(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby(quarter(df["下单日期"]).rename("季度"))["金额"].sum().reset_index()
    return g.assign(环比=g["金额"].pct_change())


def _top_products(df: pd.DataFrame) -> pd.DataFrame:
    return table(df.groupby("产品")["金额"].sum().nlargest(3), "金额")


def _big_products(df: pd.DataFrame) -> pd.DataFrame:
    totals = df.groupby("产品")["金额"].sum()
    return table(totals[totals > 300000], "金额")


ORDERS = [
    Case("O01", "orders", "zh", "2025年的总销售额是多少？", lambda df: scalar("金额", df["金额"].sum())),
    Case(
        "O02", "orders", "zh", "各地区的销售额", lambda df: table(df.groupby("地区")["金额"].sum(), "金额"), ("地区",)
    ),
    Case(
        "O03",
        "orders",
        "zh",
        "每月订单数的趋势",
        lambda df: table(df.groupby(month(df["下单日期"]).rename("月份")).size(), "n"),
        ("月份",),
    ),
    Case("O04", "orders", "zh", "销售额最高的前3个产品", _top_products, ("产品",), ordered=True),
    Case("O05", "orders", "zh", "退货率是多少？", lambda df: scalar("rate", df["是否退货"].mean())),
    Case(
        "O06",
        "orders",
        "zh",
        "各账号的退货率",
        lambda df: table(df.groupby("账号")["是否退货"].mean(), "rate"),
        ("账号",),
    ),
    Case(
        "O07",
        "orders",
        "zh",
        "华东和华北的销售额对比",
        lambda df: table(df[df["地区"].isin(["华东", "华北"])].groupby("地区")["金额"].sum(), "金额"),
        ("地区",),
    ),
    Case(
        "O08",
        "orders",
        "zh",
        "各产品销售额占比",
        lambda df: share(table(df.groupby("产品")["金额"].sum(), "金额"), "金额"),
        ("产品",),
    ),
    Case("O09", "orders", "zh", "2025 年各账号质量问题退货占比的月度趋势", _quality_share, ("月份", "账号")),
    Case(
        "O10",
        "orders",
        "zh",
        "在华东，平均订单金额是多少？",
        lambda df: scalar("avg", df.loc[df["地区"] == "华东", "金额"].mean()),
    ),
    Case("O11", "orders", "zh", "有多少个不同的产品？", lambda df: scalar("n", df["产品"].nunique())),
    Case("O12", "orders", "zh", "单笔订单金额的中位数", lambda df: scalar("median", df["金额"].median())),
    Case(
        "O13",
        "orders",
        "zh",
        "退货订单中各退货原因的数量",
        lambda df: table(df[df["是否退货"]].groupby("退货原因").size(), "n"),
        ("退货原因",),
    ),
    Case("O14", "orders", "zh", "每个季度的销售额环比增长", _quarter_growth, ("季度",)),
    Case("O15", "orders", "zh", "金额大于1000的订单有多少？", lambda df: scalar("n", int((df["金额"] > 1000).sum()))),
    Case(
        "O16",
        "orders",
        "en",
        "What is the total amount by region?",
        lambda df: table(df.groupby("地区")["金额"].sum(), "amount"),
        ("地区",),
    ),
    Case("O17", "orders", "en", "How many orders were returned?", lambda df: scalar("n", int(df["是否退货"].sum()))),
    Case(
        "O18",
        "orders",
        "en",
        "Average order amount per account",
        lambda df: table(df.groupby("账号")["金额"].mean(), "avg"),
        ("账号",),
    ),
    Case(
        "O19",
        "orders",
        "en",
        "Top 2 regions by quantity",
        lambda df: table(df.groupby("地区")["数量"].sum().nlargest(2), "qty"),
        ("地区",),
        ordered=True,
    ),
    Case(
        "O20",
        "orders",
        "en",
        "Which product has the highest return rate?",
        lambda df: table(df.groupby("产品")["是否退货"].mean().nlargest(1), "rate"),
        ("产品",),
        ordered=True,
    ),
    Case("O21", "orders", "zh", "销售额超过300000的产品", _big_products, ("产品",)),
    Case("O22", "orders", "en", "Which products have revenue over 300000?", _big_products, ("产品",)),
    Case(  # lookups: the values of the column asked for, each once
        "O23",
        "orders",
        "zh",
        "华北有哪些产品？",
        lambda df: pd.DataFrame({"产品": sorted(df.loc[df["地区"] == "华北", "产品"].unique())}),
        ("产品",),
    ),
    Case(
        "O24",
        "orders",
        "zh",
        "华东地区有哪些账号？",
        lambda df: pd.DataFrame({"账号": sorted(df.loc[df["地区"] == "华东", "账号"].unique())}),
        ("账号",),
    ),
]
