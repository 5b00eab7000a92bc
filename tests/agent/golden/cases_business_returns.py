"""Business questions over the returns workbook (退货明细, 2024-2025): 日期 账号 地区 产品 订单数量 销售金额
退货数量 退货金额 退货原因. Part of the Chinese business set (cases_business_zh.py)."""

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

D = "日期"


def _y(df: pd.DataFrame, year: int, months: range | None = None) -> pd.DataFrame:
    return in_year(df, D, year, months)


def _sum(df: pd.DataFrame, column: str) -> float:
    return float(df[column].sum())


def _monthly(df: pd.DataFrame, column: str) -> pd.Series:
    return df.groupby(month(df, D))[column].sum()


def _rate(df: pd.DataFrame, by: str | None, num: str, den: str) -> pd.Series | float:
    if by is None:
        return _sum(df, num) / _sum(df, den)
    g = df.groupby(by)[[num, den]].sum()
    return g[num] / g[den]


def _yoy(df: pd.DataFrame, column: str, months: range | None = None) -> Expect:
    return growth(_sum(_y(df, 2025, months), column), _sum(_y(df, 2024, months), column))


def _mom_2025(df: pd.DataFrame) -> Expect:
    """Month-on-month change of 2025's months; January's base (December 2024) may be left out, so only
    February to December are required."""
    change = _monthly(df, "退货金额").pct_change()
    return series(change[[pd.Period(f"2025-{m:02d}") for m in range(2, 13)]], ratio=True)


def _dec_over_nov(df: pd.DataFrame) -> Expect:
    m = _monthly(df, "退货金额")
    return growth(m[pd.Period("2025-12")], m[pd.Period("2025-11")])


def _ticket_by_month_max(df: pd.DataFrame) -> Expect:
    d = _y(df, 2025)
    per_month = _monthly(d, "销售金额") / _monthly(d, "订单数量")
    return figure(per_month.max())


def _best_month_2024(df: pd.DataFrame) -> Expect:
    return figure(_monthly(_y(df, 2024), "销售金额").max())


def _with_returns(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["退货数量"] > 0]


RETURNS = [
    BizCase("ZR01", "returns", "同比", "2025年退货金额同比增长了多少", lambda df: _yoy(df, "退货金额")),
    BizCase(
        "ZR02",
        "returns",
        "同比",
        "2025年3月的退货数量跟去年同期比变化了多少",
        lambda df: _yoy(df, "退货数量", range(3, 4)),
    ),
    BizCase(
        "ZR03", "returns", "同比", "2025年上半年退货金额同比增长多少", lambda df: _yoy(df, "退货金额", range(1, 7))
    ),
    BizCase("ZR04", "returns", "同比", "2025年的订单数量同比增长率是多少", lambda df: _yoy(df, "订单数量")),
    BizCase("ZR05", "returns", "环比", "2025年每个月退货金额的环比变化", _mom_2025),
    BizCase("ZR06", "returns", "环比", "2025年12月的退货金额环比11月涨了多少", _dec_over_nov),
    BizCase(
        "ZR07",
        "returns",
        "占比",
        "2025年各产品退货金额的占比",
        lambda df: listing(_y(df, 2025).groupby("产品")["退货金额"].sum() / _sum(_y(df, 2025), "退货金额"), ratio=True),
    ),
    BizCase(
        "ZR08",
        "returns",
        "占比",
        "各地区的退货数量分别占多少比例",
        lambda df: listing(df.groupby("地区")["退货数量"].sum() / _sum(df, "退货数量"), ratio=True),
    ),
    BizCase(
        "ZR09",
        "returns",
        "排名",
        "2025年退货金额最多的前3个产品",
        lambda df: listing(_y(df, 2025).groupby("产品")["退货金额"].sum().nlargest(3), ordered=True),
    ),
    BizCase(
        "ZR10",
        "returns",
        "最大",
        "2024年哪个账号退货件数最多",
        lambda df: top(_y(df, 2024).groupby("账号")["退货数量"].sum()),
    ),
    BizCase(
        "ZR11",
        "returns",
        "退货率(数量)",
        "2025年每月的退货率趋势（退货数量/订单数量）",
        lambda df: series(_monthly(_y(df, 2025), "退货数量") / _monthly(_y(df, 2025), "订单数量"), ratio=True),
    ),
    BizCase(
        "ZR12",
        "returns",
        "退货率(数量)",
        "2024年全年的退货率是多少，按件数算",
        lambda df: ratio(_rate(_y(df, 2024), None, "退货数量", "订单数量")),
    ),
    BizCase(
        "ZR13",
        "returns",
        "退货率(金额)",
        "2025年按金额计算的退货率",
        lambda df: ratio(_rate(_y(df, 2025), None, "退货金额", "销售金额")),
    ),
    BizCase(
        "ZR14",
        "returns",
        "退货率(金额)",
        "各地区按金额算的退货率",
        lambda df: listing(_rate(df, "地区", "退货金额", "销售金额"), ratio=True),
    ),
    BizCase(
        "ZR15",
        "returns",
        "退货率(数量)",
        "2025年哪个地区的退货率最高（按件数）",
        lambda df: top(_rate(_y(df, 2025), "地区", "退货数量", "订单数量"), ratio=True),
    ),
    BizCase(
        "ZR16",
        "returns",
        "某地区某月",
        "华东地区2025年6月的退货金额是多少",
        lambda df: figure(_sum(in_month(df[df["地区"] == "华东"], D, 2025, 6), "退货金额")),
    ),
    BizCase(
        "ZR17",
        "returns",
        "某地区某月",
        "西部2024年11月的订单数量",
        lambda df: figure(_sum(in_month(df[df["地区"] == "西部"], D, 2024, 11), "订单数量")),
    ),
    BizCase(
        "ZR18",
        "returns",
        "累计",
        "2025年截至6月的累计退货金额",
        lambda df: figure(_sum(_y(df, 2025, range(1, 7)), "退货金额")),
    ),
    BizCase(
        "ZR19",
        "returns",
        "累计",
        "2025年1到9月累计销售额",
        lambda df: figure(_sum(_y(df, 2025, range(1, 10)), "销售金额")),
    ),
    BizCase(
        "ZR20",
        "returns",
        "累计",
        "2025年每个月的累计退货金额",
        lambda df: series(_monthly(_y(df, 2025), "退货金额").cumsum()),
    ),
    BizCase(
        "ZR21",
        "returns",
        "客单价",
        "2025年的客单价是多少",
        lambda df: figure(_rate(_y(df, 2025), None, "销售金额", "订单数量")),
    ),
    BizCase(
        "ZR22",
        "returns",
        "客单价",
        "2025年各账号的客单价",
        lambda df: listing(_rate(_y(df, 2025), "账号", "销售金额", "订单数量")),
    ),
    BizCase("ZR23", "returns", "客单价", "2025年哪个月的客单价最高", _ticket_by_month_max),
    BizCase(
        "ZR24",
        "returns",
        "最大",
        "哪一天的单条退货金额最高？是哪个账号、哪个产品",
        lambda df: row_of(df, ["日期", "账号", "产品"], "退货金额"),
    ),
    BizCase(
        "ZR25",
        "returns",
        "最小",
        "销售金额最低的一条记录是哪天、哪个产品",
        lambda df: row_of(df, ["日期", "产品"], "销售金额", lowest=True),
    ),
    BizCase(
        "ZR26",
        "returns",
        "平均",
        "有退货的记录里，平均每条的退货金额是多少",
        lambda df: figure(_with_returns(df)["退货金额"].mean()),
    ),
    BizCase(
        "ZR27",
        "returns",
        "中位数",
        "有退货的记录中，退货金额的中位数是多少",
        lambda df: figure(_with_returns(df)["退货金额"].median()),
    ),
    BizCase(
        "ZR28",
        "returns",
        "去重计数",
        "2025年1月，华东地区有多少天发生了退货",
        lambda df: figure(_with_returns(in_month(df[df["地区"] == "华东"], D, 2025, 1))[D].nunique()),
    ),
    BizCase("ZR29", "returns", "去重计数", "一共有几种退货原因", lambda df: figure(df["退货原因"].nunique())),
    BizCase(
        "ZR30",
        "returns",
        "列出名称",
        "列出所有的退货原因",
        lambda df: listing(df.groupby("退货原因").size(), numbers=False),
    ),
    BizCase(
        "ZR31",
        "returns",
        "筛选",
        "因为质量问题退货的金额一共多少",
        lambda df: figure(_sum(df[df["退货原因"] == "质量问题"], "退货金额")),
    ),
    BizCase(
        "ZR32",
        "returns",
        "筛选",
        "京东自营在华北的退货数量是多少",
        lambda df: figure(_sum(df[(df["账号"] == "京东自营") & (df["地区"] == "华北")], "退货数量")),
    ),
    BizCase(
        "ZR33",
        "returns",
        "筛选",
        "2025年第四季度各地区的退货金额",
        lambda df: listing(_y(df, 2025, range(10, 13)).groupby("地区")["退货金额"].sum()),
    ),
    BizCase(
        "ZR34", "returns", "筛选", "退货数量超过5件的记录有多少条", lambda df: figure(int((df["退货数量"] > 5).sum()))
    ),
    BizCase(
        "ZR35",
        "returns",
        "对比",
        "2024年和2025年的销售金额对比一下",
        lambda df: figure(_sum(_y(df, 2024), "销售金额"), _sum(_y(df, 2025), "销售金额")),
    ),
    BizCase(
        "ZR36",
        "returns",
        "趋势",
        "电热水壶2025年每月的退货数量",
        lambda df: series(_monthly(_y(df[df["产品"] == "电热水壶"], 2025), "退货数量")),
    ),
    BizCase("ZR37", "returns", "最大", "2024年销售金额最高的月份是几月，卖了多少", _best_month_2024),
]
