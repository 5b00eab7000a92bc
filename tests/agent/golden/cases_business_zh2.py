"""A held-out Chinese business question set over a coffee-shop chain (heldout_zh2_data.py): two years of
sales (咖啡门店销售: 日期 门店 城市 品类 是否会员 订单数 杯数 销售额 优惠金额) and December 2025's shifts
(门店排班: 日期 门店 员工 岗位 班次 工时).

Written without looking at the offline planner, to measure how it does on tables and wording it was not
tuned on: 合计, 平均, 计数, 去重计数, 排名与前N, 趋势, 同比, 环比, 占比, 比率, 累计, a city in a month, extreme
records, medians, filters (thresholds, negations), comparisons of two groups, lists of names, and questions
the data cannot answer (forecasts, significance, causes, columns it does not hold), whose topic is
`REFUSAL_TOPIC`: for those the only right outcome is an honest refusal, and any result shown is wrong.

References are computed with pandas from the bytes the product ingests; the case's `Expect` says which
numbers and labels a correct answer must show.
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

D = "日期"
REFUSAL_TOPIC = "做不到"


def _y(df: pd.DataFrame, year: int, months: range | None = None) -> pd.DataFrame:
    return in_year(df, D, year, months)


def _sum(df: pd.DataFrame, column: str) -> float:
    return float(df[column].sum())


def _by(df: pd.DataFrame, key: str, value: str = "销售额") -> pd.Series:
    return df.groupby(key)[value].sum()


def _per(df: pd.DataFrame, key: str, num: str, den: str) -> pd.Series:
    g = df.groupby(key)[[num, den]].sum()
    return g[num] / g[den]


def _monthly(df: pd.DataFrame, column: str) -> pd.Series:
    return df.groupby(month(df, D))[column].sum()


def _quarterly(df: pd.DataFrame, column: str) -> pd.Series:
    return df.groupby(df[D].dt.to_period("Q"))[column].sum()


def _yoy(df: pd.DataFrame, column: str, months: range | None = None) -> Expect:
    return growth(_sum(_y(df, 2025, months), column), _sum(_y(df, 2024, months), column))


def _mom_cups_2025(df: pd.DataFrame) -> Expect:
    """Month-on-month change of 2025's cups; January's base (December 2024) may be left out."""
    change = _monthly(df, "杯数").pct_change()
    return series(change[[pd.Period(f"2025-{m:02d}") for m in range(2, 13)]], ratio=True)


def _nov_over_oct(df: pd.DataFrame) -> Expect:
    m = _monthly(df, "销售额")
    return growth(m[pd.Period("2025-11")], m[pd.Period("2025-10")])


def _q4_over_q3(df: pd.DataFrame) -> Expect:
    q = _quarterly(df, "销售额")
    return growth(q[pd.Period("2025Q4")], q[pd.Period("2025Q3")])


def _member(df: pd.DataFrame, flag: str = "是") -> pd.DataFrame:
    return df[df["是否会员"] == flag]


def _city(df: pd.DataFrame, city: str) -> pd.DataFrame:
    return df[df["城市"] == city]


def _best_day_2025(df: pd.DataFrame) -> Expect:
    return top(_by(_y(df, 2025), D))


def _two(values: pd.Series, keys: list[str]) -> pd.Series:
    return values[keys]


def _no_answer(_df: pd.DataFrame) -> Expect:
    """The data cannot answer: the expected outcome is a refusal (see REFUSAL_TOPIC)."""
    return Expect()


S = "sales"
H = "shifts"

SALES = [
    # 合计
    BizCase("Z2-01", S, "合计", "2025年一共卖了多少杯", lambda df: figure(_sum(_y(df, 2025), "杯数"))),
    BizCase("Z2-02", S, "合计", "24年总销售额多少", lambda df: figure(_sum(_y(df, 2024), "销售额"))),
    BizCase("Z2-03", S, "合计", "两年下来所有门店一共让利了多少优惠", lambda df: figure(_sum(df, "优惠金额"))),
    BizCase(
        "Z2-04",
        S,
        "合计",
        "2025年扣掉优惠之后实际收了多少钱",
        lambda df: figure(_sum(_y(df, 2025), "销售额") - _sum(_y(df, 2025), "优惠金额")),
    ),
    # 平均
    BizCase("Z2-05", S, "平均", "平均每条销售记录的销售额是多少", lambda df: figure(df["销售额"].mean())),
    BizCase("Z2-06", S, "平均", "杭州的平均优惠金额", lambda df: figure(_city(df, "杭州")["优惠金额"].mean())),
    BizCase(
        "Z2-07",
        S,
        "平均",
        "各个品类平均一条记录卖几杯",
        lambda df: listing(df.groupby("品类")["杯数"].mean()),
    ),
    # 计数
    BizCase("Z2-08", S, "计数", "2025年一共有多少条销售记录", lambda df: figure(len(_y(df, 2025)))),
    BizCase("Z2-09", S, "计数", "会员的记录有几条？", lambda df: figure(len(_member(df)))),
    # 去重计数
    BizCase("Z2-10", S, "去重计数", "我们一共有几家门店", lambda df: figure(df["门店"].nunique())),
    BizCase("Z2-11", S, "去重计数", "数据里涉及多少个城市", lambda df: figure(df["城市"].nunique())),
    # 排名与前N
    BizCase(
        "Z2-12",
        S,
        "排名",
        "2025年销售额最高的三家门店",
        lambda df: listing(_by(_y(df, 2025), "门店").nlargest(3), ordered=True),
    ),
    BizCase("Z2-13", S, "排名", "哪个品类卖得最好？按杯数算", lambda df: top(_by(df, "品类", "杯数"))),
    BizCase("Z2-14", S, "排名", "销售额垫底的是哪家店", lambda df: top(_by(df, "门店"), lowest=True)),
    BizCase(
        "Z2-15",
        S,
        "排名",
        "各城市销售额从高到低排一下",
        lambda df: listing(_by(df, "城市").sort_values(ascending=False), ordered=True),
    ),
    BizCase(
        "Z2-16",
        S,
        "排名",
        "优惠金额最多的前5家店",
        lambda df: listing(_by(df, "门店", "优惠金额").nlargest(5), ordered=True),
    ),
    # 趋势
    BizCase("Z2-17", S, "趋势", "2025年每个月的销售额走势", lambda df: series(_monthly(_y(df, 2025), "销售额"))),
    BizCase("Z2-18", S, "趋势", "按季度看一下2024年杯数的变化", lambda df: series(_quarterly(_y(df, 2024), "杯数"))),
    BizCase(
        "Z2-19",
        S,
        "趋势",
        "冷萃这两年每个季度分别卖了多少杯",
        lambda df: series(_quarterly(df[df["品类"] == "冷萃"], "杯数")),
    ),
    # 同比
    BizCase("Z2-20", S, "同比", "2025年销售额同比增长多少", lambda df: _yoy(df, "销售额")),
    BizCase("Z2-21", S, "同比", "25年三季度杯数比24年三季度涨了多少", lambda df: _yoy(df, "杯数", range(7, 10))),
    BizCase(
        "Z2-22",
        S,
        "同比",
        "上海2025年的销售额跟2024年比增长了百分之几",
        lambda df: _yoy(_city(df, "上海"), "销售额"),
    ),
    BizCase("Z2-23", S, "同比", "2025年6月会员销售额同比变化", lambda df: _yoy(_member(df), "销售额", range(6, 7))),
    # 环比
    BizCase("Z2-24", S, "环比", "2025年11月销售额环比10月变化了多少", _nov_over_oct),
    BizCase("Z2-25", S, "环比", "2025年每个月杯数的环比增长率", _mom_cups_2025),
    BizCase("Z2-26", S, "环比", "25年第四季度的销售额比第三季度增长了多少", _q4_over_q3),
    # 占比
    BizCase(
        "Z2-27",
        S,
        "占比",
        "2025年各品类销售额占比",
        lambda df: listing(_by(_y(df, 2025), "品类") / _sum(_y(df, 2025), "销售额"), ratio=True),
    ),
    BizCase(
        "Z2-28",
        S,
        "占比",
        "会员贡献的销售额占总销售额的比例是多少",
        lambda df: ratio(_sum(_member(df), "销售额") / _sum(df, "销售额")),
    ),
    BizCase(
        "Z2-29",
        S,
        "占比",
        "北京卖出的杯数占全部的百分之多少",
        lambda df: ratio(_sum(_city(df, "北京"), "杯数") / _sum(df, "杯数")),
    ),
    # 比率
    BizCase(
        "Z2-30",
        S,
        "比率",
        "2025年的客单价是多少（销售额除以订单数）",
        lambda df: figure(_sum(_y(df, 2025), "销售额") / _sum(_y(df, 2025), "订单数")),
    ),
    BizCase("Z2-31", S, "比率", "每家门店的客单价分别是多少", lambda df: listing(_per(df, "门店", "销售额", "订单数"))),
    BizCase("Z2-32", S, "比率", "各品类每杯平均卖多少钱", lambda df: listing(_per(df, "品类", "销售额", "杯数"))),
    BizCase(
        "Z2-33",
        S,
        "比率",
        "按城市看优惠金额占销售额的比例",
        lambda df: listing(_per(df, "城市", "优惠金额", "销售额"), ratio=True),
    ),
    BizCase(
        "Z2-34",
        S,
        "比率",
        "会员和非会员的客单价各是多少",
        lambda df: listing(_per(df, "是否会员", "销售额", "订单数")),
    ),
    # 累计
    BizCase(
        "Z2-35",
        S,
        "累计",
        "截至2025年6月底，2025年累计的销售额是多少",
        lambda df: figure(_sum(_y(df, 2025, range(1, 7)), "销售额")),
    ),
    BizCase(
        "Z2-36",
        S,
        "累计",
        "2025年到9月为止一共卖出去多少杯",
        lambda df: figure(_sum(_y(df, 2025, range(1, 10)), "杯数")),
    ),
    BizCase(
        "Z2-37",
        S,
        "累计",
        "2025年各月的累计销售额",
        lambda df: series(_monthly(_y(df, 2025), "销售额").cumsum()),
    ),
    # 某城市某月
    BizCase(
        "Z2-38",
        S,
        "城市某月",
        "2025年3月杭州的销售额",
        lambda df: figure(_sum(in_month(_city(df, "杭州"), D, 2025, 3), "销售额")),
    ),
    BizCase(
        "Z2-39",
        S,
        "城市某月",
        "成都24年12月卖了多少杯",
        lambda df: figure(_sum(in_month(_city(df, "成都"), D, 2024, 12), "杯数")),
    ),
    BizCase(
        "Z2-40",
        S,
        "城市某月",
        "2025年8月上海会员一共下了多少单",
        lambda df: figure(_sum(in_month(_member(_city(df, "上海")), D, 2025, 8), "订单数")),
    ),
    # 最大/最小的单条记录
    BizCase(
        "Z2-41",
        S,
        "极值记录",
        "单条销售额最高的是哪家店哪天",
        lambda df: row_of(df, ["门店", D], "销售额"),
    ),
    BizCase(
        "Z2-42",
        S,
        "极值记录",
        "杯数最多的那条记录是哪个门店、什么品类",
        lambda df: row_of(df, ["门店", "品类"], "杯数"),
    ),
    BizCase(
        "Z2-43",
        S,
        "极值记录",
        "销售额最低的一条记录是哪天哪个店",
        lambda df: row_of(df, ["门店", D], "销售额", lowest=True),
    ),
    BizCase("Z2-44", S, "极值记录", "2025年哪一天卖得最好", _best_day_2025),
    # 中位数
    BizCase("Z2-45", S, "中位数", "销售额的中位数是多少", lambda df: figure(df["销售额"].median())),
    BizCase(
        "Z2-46", S, "中位数", "各城市每条记录杯数的中位数", lambda df: listing(df.groupby("城市")["杯数"].median())
    ),
    # 筛选
    BizCase("Z2-47", S, "筛选", "销售额超过3000的记录有多少条", lambda df: figure(int((df["销售额"] > 3000).sum()))),
    BizCase(
        "Z2-48",
        S,
        "筛选",
        "除了上海以外，其他城市2025年一共卖了多少钱",
        lambda df: figure(_sum(_y(df[df["城市"] != "上海"], 2025), "销售额")),
    ),
    BizCase("Z2-49", S, "筛选", "非会员一共下了多少单", lambda df: figure(_sum(_member(df, "否"), "订单数"))),
    BizCase(
        "Z2-50",
        S,
        "筛选",
        "杯数不少于80的记录，平均销售额是多少",
        lambda df: figure(df[df["杯数"] >= 80]["销售额"].mean()),
    ),
    BizCase(
        "Z2-51", S, "筛选", "不算茶饮的话总共卖了多少杯", lambda df: figure(_sum(df[df["品类"] != "茶饮"], "杯数"))
    ),
    # 对比两组
    BizCase(
        "Z2-52",
        S,
        "对比",
        "上海和北京2025年的销售额对比一下",
        lambda df: listing(_two(_by(_y(df, 2025), "城市"), ["上海", "北京"])),
    ),
    BizCase(
        "Z2-53",
        S,
        "对比",
        "拿铁和美式哪个卖的杯数多",
        lambda df: top(_two(_by(df, "品类", "杯数"), ["拿铁", "美式"])),
    ),
    BizCase(
        "Z2-54",
        S,
        "对比",
        "对比一下会员和非会员的平均优惠金额",
        lambda df: listing(df.groupby("是否会员")["优惠金额"].mean()),
    ),
    # 列出名称
    BizCase(
        "Z2-55",
        S,
        "列名称",
        "北京有哪些门店",
        lambda df: listing(_by(_city(df, "北京"), "门店"), numbers=False),
    ),
    BizCase("Z2-56", S, "列名称", "都卖哪些品类", lambda df: listing(_by(df, "品类"), numbers=False)),
    BizCase(
        "Z2-57",
        S,
        "列名称",
        "2025年销售额超过30万的门店有哪些",
        lambda df: listing(_by(_y(df, 2025), "门店").loc[lambda s: s > 300_000], numbers=False),
    ),
]

SHIFTS = [
    BizCase("Z2-58", H, "合计", "12月每个门店的总工时", lambda df: listing(_by(df, "门店", "工时"))),
    BizCase("Z2-59", H, "排名", "排班表里工时最多的员工是谁", lambda df: top(_by(df, "员工", "工时"))),
    BizCase(
        "Z2-60", H, "平均", "咖啡师平均一个班上几个小时", lambda df: figure(df[df["岗位"] == "咖啡师"]["工时"].mean())
    ),
    BizCase("Z2-61", H, "计数", "静安寺店12月排了多少个班", lambda df: figure(int((df["门店"] == "静安寺店").sum()))),
    BizCase("Z2-62", H, "去重计数", "排班表里一共有多少名员工", lambda df: figure(df["员工"].nunique())),
    BizCase("Z2-63", H, "计数", "早班和晚班各排了多少人次", lambda df: listing(df.groupby("班次").size())),
]

CANNOT = [
    BizCase("Z2-64", S, REFUSAL_TOPIC, "帮我预测一下2026年1月的销售额", _no_answer),
    BizCase("Z2-65", S, REFUSAL_TOPIC, "2025年7月销售额为什么掉了这么多", _no_answer),
    BizCase("Z2-66", S, REFUSAL_TOPIC, "会员和非会员的客单价差异在统计上显著吗", _no_answer),
    BizCase("Z2-67", S, REFUSAL_TOPIC, "如果拿铁每杯涨价2块钱，销量会掉多少", _no_answer),
    BizCase("Z2-68", S, REFUSAL_TOPIC, "各门店的顾客满意度怎么样", _no_answer),
    BizCase("Z2-69", S, REFUSAL_TOPIC, "下个季度应该去哪个城市开新店", _no_answer),
    BizCase("Z2-70", S, REFUSAL_TOPIC, "会员的复购率是多少，老客回来得多吗", _no_answer),
]

BUSINESS_ZH2 = SALES + SHIFTS + CANNOT
