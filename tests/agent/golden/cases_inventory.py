"""Golden questions over the inventory movements (Chinese headers):
日期 仓库 品类 商品 入库数量 出库数量 库存数量 单价 是否缺货."""

from __future__ import annotations

import pandas as pd

from tests.agent.golden.cases_base import Case, month, quarter, scalar, share, table


def _years(df: pd.DataFrame) -> pd.DataFrame:
    d = df[df["日期"].dt.year.isin([2024, 2025])]
    return table(d.groupby(d["日期"].dt.year.rename("年份"))["出库数量"].sum(), "out")


def _monthly_change(df: pd.DataFrame) -> pd.DataFrame:
    g = table(df.groupby(month(df["日期"]).rename("月份"))["出库数量"].sum(), "out")
    return g.assign(change=g["out"].pct_change())


def _shanghai_share(df: pd.DataFrame) -> pd.DataFrame:
    d = df[df["仓库"] == "上海仓"]
    return share(table(d.groupby("品类")["出库数量"].sum(), "out"), "out")


def _h1_inbound(df: pd.DataFrame) -> pd.DataFrame:
    d = df[(df["日期"] >= "2025-01-01") & (df["日期"] < "2025-07-01")]
    return table(d.groupby("品类")["入库数量"].sum(), "in")


INVENTORY = [
    Case(
        "I01",
        "inventory",
        "zh",
        "各仓库的库存总量",
        lambda df: table(df.groupby("仓库")["库存数量"].sum(), "s"),
        ("仓库",),
    ),
    Case("I02", "inventory", "zh", "2024年和2025年的出库数量对比", _years, ("年份",)),
    Case(
        "I03",
        "inventory",
        "zh",
        "2025年每个季度的入库数量",
        lambda df: table(
            df[df["日期"].dt.year == 2025].groupby(quarter(df["日期"]).rename("季度"))["入库数量"].sum(), "in"
        ),
        ("季度",),
    ),
    Case("I04", "inventory", "zh", "上海仓各品类的出库数量占比", _shanghai_share, ("品类",)),
    Case(
        "I05",
        "inventory",
        "zh",
        "哪个商品的平均单价最高？",
        lambda df: table(df.groupby("商品")["单价"].mean().nlargest(1), "price"),
        ("商品",),
        ordered=True,
    ),
    Case("I06", "inventory", "zh", "缺货的记录有多少条？", lambda df: scalar("n", int((df["是否缺货"] == "是").sum()))),
    Case(
        "I07",
        "inventory",
        "zh",
        "各品类的缺货率",
        lambda df: table(df.groupby("品类")["是否缺货"].apply(lambda s: (s == "是").mean()), "rate"),
        ("品类",),
    ),
    Case(
        "I08",
        "inventory",
        "zh",
        "2025年3月的出库数量是多少",
        lambda df: scalar("out", df.loc[month(df["日期"]) == "2025-03", "出库数量"].sum()),
    ),
    Case("I09", "inventory", "zh", "每月出库数量的环比变化", _monthly_change, ("月份",)),
    Case(
        "I10",
        "inventory",
        "zh",
        "出库数量最少的两个仓库",
        lambda df: table(df.groupby("仓库")["出库数量"].sum().nsmallest(2), "out"),
        ("仓库",),
        ordered=True,
    ),
    Case("I11", "inventory", "zh", "单价的标准差是多少", lambda df: scalar("std", df["单价"].std())),
    Case("I12", "inventory", "zh", "2025年上半年各品类的入库数量", _h1_inbound, ("品类",)),
    Case(
        "I13",
        "inventory",
        "en",
        "Total outbound quantity by warehouse in 2025",
        lambda df: table(df[df["日期"].dt.year == 2025].groupby("仓库")["出库数量"].sum(), "out"),
        ("仓库",),
    ),
    Case(
        "I14",
        "inventory",
        "en",
        "Average unit price by category",
        lambda df: table(df.groupby("品类")["单价"].mean(), "price"),
        ("品类",),
    ),
    Case(
        "I15",
        "inventory",
        "en",
        "Monthly inbound quantity trend in 2024",
        lambda df: table(
            df[df["日期"].dt.year == 2024].groupby(month(df["日期"]).rename("month"))["入库数量"].sum(), "in"
        ),
        ("month",),
    ),
]
