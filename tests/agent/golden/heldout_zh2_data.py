"""Two tables of a coffee-shop chain for the held-out Chinese business set (cases_business_zh2.py),
generated deterministically at run time; nothing binary is committed.

- 咖啡门店销售 (CSV, UTF-8 with BOM): two years (2024-2025), four rows a day, each the sales of one store,
  one drink category and one kind of customer (会员 or not): 日期 门店 城市 品类 是否会员 订单数 杯数 销售额
  优惠金额. 销售额 is before the discount.
- 门店排班 (XLSX, sheet 排班, with a notes sheet): December 2025's shifts, three a store and day:
  日期 门店 员工 岗位 班次 工时.

References read the bytes back with pandas, so they share no code with the generators.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from functools import lru_cache

import pandas as pd

from tests.agent.golden.returns_data import data_workbook

SALES_FILE = "coffee-sales-2024-2025.csv"
SALES_NAME = "咖啡门店销售"
SALES_HEADER = ["日期", "门店", "城市", "品类", "是否会员", "订单数", "杯数", "销售额", "优惠金额"]
SHIFTS_FILE = "shifts-2025-12.xlsx"
SHIFTS_NAME = "门店排班"
SHIFTS_SHEET = "排班"
SHIFTS_HEADER = ["日期", "门店", "员工", "岗位", "班次", "工时"]

STORES = {  # store: (city, traffic)
    "人民广场店": ("上海", 1.35),
    "静安寺店": ("上海", 1.2),
    "三里屯店": ("北京", 1.25),
    "国贸店": ("北京", 1.1),
    "西湖店": ("杭州", 1.0),
    "滨江店": ("杭州", 0.8),
    "春熙路店": ("成都", 0.95),
    "太古里店": ("成都", 0.9),
}
CATEGORIES = {  # price of a cup, months it sells more in
    "美式": (22.0, ()),
    "拿铁": (28.0, (1, 2, 11, 12)),
    "手冲": (38.0, ()),
    "冷萃": (32.0, (6, 7, 8)),
    "茶饮": (20.0, (5, 6, 7, 8, 9)),
}
ROWS_PER_DAY = 4

STAFF = {  # store: [(employee, role)]
    "人民广场店": [
        ("王晓婷", "店长"),
        ("陈思远", "咖啡师"),
        ("刘佳怡", "咖啡师"),
        ("赵子豪", "店员"),
        ("孙雨桐", "店员"),
    ],
    "静安寺店": [("周明轩", "店长"), ("吴欣然", "咖啡师"), ("郑浩然", "咖啡师"), ("冯诗琪", "店员")],
    "三里屯店": [
        ("李梦瑶", "店长"),
        ("马俊杰", "咖啡师"),
        ("胡晓雯", "咖啡师"),
        ("郭宇航", "店员"),
        ("何婉清", "店员"),
    ],
    "国贸店": [("高志强", "店长"), ("林雪儿", "咖啡师"), ("罗一鸣", "咖啡师"), ("梁静怡", "店员")],
    "西湖店": [("宋嘉豪", "店长"), ("谢雨欣", "咖啡师"), ("韩子墨", "咖啡师"), ("唐心怡", "店员")],
    "滨江店": [("许文博", "店长"), ("邓可馨", "咖啡师"), ("曹天宇", "店员"), ("彭若曦", "店员")],
    "春熙路店": [("曾凯文", "店长"), ("萧雅琪", "咖啡师"), ("田昊天", "咖啡师"), ("董乐瑶", "店员")],
    "太古里店": [("袁博文", "店长"), ("潘思彤", "咖啡师"), ("蒋一凡", "店员"), ("蔡静雯", "店员")],
}
SHIFT_HOURS = {"早班": (6.0, 7.5, 8.0), "晚班": (5.0, 6.0, 6.5)}


def _season(day: dt.date, category: str) -> float:
    """Quieter around the Spring Festival (February) and in a rainy July 2025; the busy months of each drink;
    2025 a little above 2024."""
    factor = {2: 0.75, 10: 1.1, 12: 1.15}.get(day.month, 1.0)
    if day.month in CATEGORIES[category][1]:
        factor *= 1.3
    if day.year == 2025:
        factor *= 0.82 if day.month == 7 else 1.09
    return factor


def sales_rows(seed: int = 2402) -> list[list[object]]:
    rng = random.Random(seed)  # noqa: S311 - test data, reproducible on purpose
    combos = [(s, c, m) for s in STORES for c in CATEGORIES for m in ("是", "否")]
    rows: list[list[object]] = []
    day = dt.date(2024, 1, 1)
    while day <= dt.date(2025, 12, 31):
        for store, category, member in sorted(rng.sample(combos, ROWS_PER_DAY)):
            city, traffic = STORES[store]
            price = CATEGORIES[category][0]
            orders = max(3, int(rng.randint(10, 55) * traffic * _season(day, category)))
            cups = orders + sum(rng.random() < 0.35 for _ in range(orders))
            sales = round(cups * price * rng.uniform(0.96, 1.06), 2)
            discount = round(sales * (rng.uniform(0.06, 0.14) if member == "是" else rng.uniform(0.0, 0.04)), 2)
            rows.append([day.isoformat(), store, city, category, member, orders, cups, sales, discount])
        day += dt.timedelta(days=1)
    return rows


@lru_cache(maxsize=2)
def sales_csv(seed: int = 2402) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(SALES_HEADER)
    writer.writerows(sales_rows(seed))
    return out.getvalue().encode("utf-8-sig")


def shift_rows(seed: int = 2512) -> list[list[object]]:
    rng = random.Random(seed)  # noqa: S311 - test data, reproducible on purpose
    rows: list[list[object]] = []
    for day_number in range(1, 32):
        day = dt.date(2025, 12, day_number)
        for store, staff in STAFF.items():
            for employee, role in sorted(rng.sample(staff, 3)):
                shift = rng.choice(list(SHIFT_HOURS))
                rows.append([day, store, employee, role, shift, rng.choice(SHIFT_HOURS[shift])])
    return rows


@lru_cache(maxsize=2)
def shifts_xlsx(seed: int = 2512) -> bytes:
    return data_workbook(
        SHIFTS_SHEET, SHIFTS_HEADER, shift_rows(seed), "每行是一名员工某天在某门店的一个班次，工时单位为小时"
    )


@lru_cache(maxsize=2)
def zh2_frame(name: str) -> pd.DataFrame:
    """sales: 咖啡门店销售 as pandas reads the CSV; shifts: the 排班 sheet as pandas reads the workbook."""
    if name == "sales":
        return pd.read_csv(io.BytesIO(sales_csv()), encoding="utf-8-sig", parse_dates=["日期"])
    if name == "shifts":
        df = pd.read_excel(io.BytesIO(shifts_xlsx()), sheet_name=SHIFTS_SHEET, engine="openpyxl")
        df["日期"] = pd.to_datetime(df["日期"])
        return df
    raise KeyError(name)
