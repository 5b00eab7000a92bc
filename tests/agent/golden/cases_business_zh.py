"""A Chinese business question set over the demo data (销售订单 2025, 年度目标) and a two-year returns workbook
(退货明细 2024-2025): 同比, 环比, 占比, 排名, 趋势, 客单价, 累计, a region in a month, 退货率 by count and by
amount, lists of names, extremes with their record, averages, medians, distinct counts and value filters.

Questions are written as a business user would type them. Each reference is computed with pandas from the
data as pandas reads it; the case's `Expect` says which numbers and labels a correct answer must show.
"""

from __future__ import annotations

import pandas as pd

from tests.agent.golden.answer_text import Expect
from tests.agent.golden.business_base import (
    BizCase,
    figure,
    growth,
    in_month,
    in_year,
    listing,
    month,
    ratio,
    row_of,
    series,
    top,
)
from tests.agent.golden.cases_business_returns import RETURNS

D = "下单日期"


def _by(df: pd.DataFrame, key: str, value: str = "金额") -> pd.Series:
    return df.groupby(key)[value].sum()


def _per_order(df: pd.DataFrame) -> pd.Series:
    """客单价 per account: amount over the number of orders."""
    return df.groupby("账号")["金额"].sum() / df.groupby("账号").size()


def _quality_share(df: pd.DataFrame) -> Expect:
    returned = df[df["是否退货"]]
    return ratio((returned["退货原因"] == "质量问题").mean())


def _amount_return_rate(df: pd.DataFrame) -> Expect:
    return ratio(df.loc[df["是否退货"], "金额"].sum() / df["金额"].sum())


def _mom_july(df: pd.DataFrame) -> Expect:
    m = df.groupby(month(df, D))["金额"].sum()
    return growth(m[pd.Period("2025-07")], m[pd.Period("2025-06")])


def _monthly_mean_per_region(df: pd.DataFrame) -> Expect:
    totals = df.groupby(["地区", month(df, D)])["金额"].sum()
    return listing(totals.groupby(level=0).mean())


def _top3_regions(df: pd.DataFrame) -> Expect:
    return listing(_by(df, "地区").nlargest(3), ordered=True)


ORDERS = [
    BizCase("ZO01", "orders", "合计", "2025年全年销售额一共多少？", lambda df: figure(df["金额"].sum())),
    BizCase("ZO02", "orders", "计数", "2025年总共有多少笔订单", lambda df: figure(len(df))),
    BizCase("ZO03", "orders", "最大", "哪个账号卖得最多？按销售额算", lambda df: top(_by(df, "账号"))),
    BizCase(
        "ZO04",
        "orders",
        "排名",
        "各地区销售额从高到低排个序",
        lambda df: listing(_by(df, "地区").sort_values(ascending=False), ordered=True),
    ),
    BizCase(
        "ZO05",
        "orders",
        "某地区某月",
        "华南地区3月份的销售额是多少",
        lambda df: figure(in_month(df[df["地区"] == "华南"], D, 2025, 3)["金额"].sum()),
    ),
    BizCase(
        "ZO06",
        "orders",
        "某地区某月",
        "京东自营5月份一共接了多少单",
        lambda df: figure(len(in_month(df[df["账号"] == "京东自营"], D, 2025, 5))),
    ),
    BizCase("ZO07", "orders", "客单价", "整体客单价是多少", lambda df: figure(df["金额"].sum() / len(df))),
    BizCase(
        "ZO08",
        "orders",
        "客单价",
        "空气炸锅的客单价大概多少钱",
        lambda df: figure(df.loc[df["产品"] == "空气炸锅", "金额"].mean()),
    ),
    BizCase("ZO09", "orders", "客单价", "各账号的客单价分别是多少", lambda df: listing(_per_order(df))),
    BizCase(
        "ZO10", "orders", "趋势", "每个月销售额的走势怎么样", lambda df: series(df.groupby(month(df, D))["金额"].sum())
    ),
    BizCase("ZO11", "orders", "环比", "7月销售额的环比增长率是多少", _mom_july),
    BizCase(
        "ZO12",
        "orders",
        "累计",
        "截至6月底，2025年累计销售额是多少",
        lambda df: figure(in_year(df, D, 2025, range(1, 7))["金额"].sum()),
    ),
    BizCase(
        "ZO13",
        "orders",
        "占比",
        "各产品的销量占比",
        lambda df: listing(_by(df, "产品", "数量") / df["数量"].sum(), ratio=True),
    ),
    BizCase(
        "ZO14",
        "orders",
        "占比",
        "电饭煲的销售额占总销售额的百分之几",
        lambda df: ratio(df.loc[df["产品"] == "电饭煲", "金额"].sum() / df["金额"].sum()),
    ),
    BizCase("ZO15", "orders", "排名", "销售额排名前三的地区是哪几个", _top3_regions),
    BizCase("ZO16", "orders", "最小", "哪个产品卖出的件数最少", lambda df: top(_by(df, "产品", "数量"), lowest=True)),
    BizCase(
        "ZO17", "orders", "最大", "金额最大的一笔订单是哪一单？金额多少", lambda df: row_of(df, ["订单编号"], "金额")
    ),
    BizCase(
        "ZO18",
        "orders",
        "最小",
        "最小的一笔订单金额是多少，买的是什么产品",
        lambda df: row_of(df, ["产品"], "金额", lowest=True),
    ),
    BizCase("ZO19", "orders", "中位数", "订单金额的中位数是多少", lambda df: figure(df["金额"].median())),
    BizCase("ZO20", "orders", "平均", "平均每单买几件", lambda df: figure(df["数量"].mean())),
    BizCase("ZO21", "orders", "去重计数", "我们一共有几个销售账号", lambda df: figure(df["账号"].nunique())),
    BizCase(
        "ZO22",
        "orders",
        "列出名称",
        "列出所有在售的产品名称",
        lambda df: listing(df.groupby("产品").size(), numbers=False),
    ),
    BizCase("ZO23", "orders", "占比", "退货的订单里，因为质量问题退的占多少", _quality_share),
    BizCase(
        "ZO24",
        "orders",
        "退货率(数量)",
        "2025年整体退货率是多少（按订单数算）",
        lambda df: ratio(df["是否退货"].mean()),
    ),
    BizCase("ZO25", "orders", "退货率(金额)", "按金额算，退货率是多少", _amount_return_rate),
    BizCase(
        "ZO26",
        "orders",
        "退货率(数量)",
        "抖音小店的退货率是多少",
        lambda df: ratio(df.loc[df["账号"] == "抖音小店", "是否退货"].mean()),
    ),
    BizCase("ZO27", "orders", "筛选", "一次买3件的订单有多少单", lambda df: figure(int((df["数量"] == 3).sum()))),
    BizCase("ZO28", "orders", "筛选", "金额超过800元的订单有几笔", lambda df: figure(int((df["金额"] > 800).sum()))),
    BizCase(
        "ZO29",
        "orders",
        "筛选",
        "第二季度各账号的销售额",
        lambda df: listing(_by(in_year(df, D, 2025, range(4, 7)), "账号")),
    ),
    BizCase(
        "ZO30",
        "orders",
        "趋势",
        "天猫旗舰店每个月的订单数",
        lambda df: series(df[df["账号"] == "天猫旗舰店"].groupby(month(df, D)).size()),
    ),
    BizCase(
        "ZO31",
        "orders",
        "最大",
        "退货原因中哪一种最多",
        lambda df: top(df[df["是否退货"]].groupby("退货原因").size()),
    ),
    BizCase(
        "ZO32",
        "orders",
        "最大",
        "华东地区卖得最好的产品是什么（按销售额）",
        lambda df: top(_by(df[df["地区"] == "华东"], "产品")),
    ),
    # the average of totals: each month's (or region's) total first, then their average
    BizCase("ZO33", "orders", "月均", "月均销售额是多少？", lambda df: figure(_by(df, month(df, D)).mean())),
    BizCase("ZO34", "orders", "平均", "平均每个地区的销售额是多少", lambda df: figure(_by(df, "地区").mean())),
    BizCase("ZO35", "orders", "月均", "每个地区的月均销售额", _monthly_mean_per_region),
]


def _target_of(df: pd.DataFrame, account: str, quarter: str) -> float:
    return float(df.loc[(df["账号"] == account) & (df["季度"] == quarter), "目标金额"].sum())


TARGETS = [
    BizCase(
        "ZT01",
        "targets",
        "合计",
        "各账号2025年全年的销售目标是多少",
        lambda df: listing(df.groupby("账号")["目标金额"].sum()),
    ),
    BizCase("ZT02", "targets", "最大", "哪个账号的年度目标最高", lambda df: top(df.groupby("账号")["目标金额"].sum())),
    BizCase(
        "ZT03",
        "targets",
        "筛选",
        "京东自营第三季度的目标金额是多少",
        lambda df: figure(_target_of(df, "京东自营", "2025-Q3")),
    ),
    BizCase(
        "ZT04",
        "targets",
        "筛选",
        "所有账号一季度的目标加起来是多少",
        lambda df: figure(df.loc[df["季度"] == "2025-Q1", "目标金额"].sum()),
    ),
    BizCase("ZT05", "targets", "趋势", "各季度的目标总额", lambda df: listing(df.groupby("季度")["目标金额"].sum())),
]

BUSINESS_ZH: list[BizCase] = [*ORDERS, *TARGETS, *RETURNS]
