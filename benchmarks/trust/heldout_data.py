"""The held-out set's data: two spreadsheets the first set never used, next to its SQL source.

- stock (English): warehouse shipments over 2024-2025, four warehouses, four categories, units, value in
  dollars with cents, damaged units;
- 员工 (Chinese HR roster): hires over 2024-2025, five departments, four cities, monthly salary, rating,
  status (在职 / 离职), integer employee ids;
- shop.db (the first set's SQLite source), asked new questions.

Generated deterministically and ingested through the real services; the truth is read from the same bytes
with pandas (and sqlite3 for shop.db), never with the product's query engine.
"""

from __future__ import annotations

import datetime as dt
import io
import random
from dataclasses import dataclass
from typing import Any

import pandas as pd

from apps.agent.tools import DataBinding
from apps.datasets import services
from benchmarks.trust.data import Truth, World, _csv, _yuan

WAREHOUSES = ["Dallas", "Reno", "Tampa", "Boise"]
CATEGORIES = ["Tools", "Garden", "Paint", "Lighting"]
DEPARTMENTS = ["研发部", "销售部", "市场部", "财务部", "人事部"]
CITIES = ["深圳", "武汉", "南京", "西安"]
_SURNAMES = (
    "陈林黄周吴徐孙胡朱高郭何罗马梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘"
    "杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段钱汤尹黎易常武乔贺赖龚文"
)
_GIVEN = [
    "子涵", "欣怡", "梓轩", "雨桐", "浩然", "诗琪", "宇航", "思远", "佳怡", "俊杰", "一鸣", "若曦", "天佑", "晓彤",
    "明哲", "嘉欣", "志远", "晨曦", "博文", "雅静", "泽宇", "可馨", "文博", "梦琪", "瑞霖", "婉清", "嘉懿", "煜城",
]  # fmt: skip


def stock_csv(seed: int = 41) -> bytes:
    """Shipments: Dallas grows in 2025, Reno shrinks, Tampa and Boise move a little; value peaks in autumn."""
    rng = random.Random(seed)
    growth = {"Dallas": 1.22, "Reno": 0.82, "Tampa": 1.05, "Boise": 0.97}
    season = [0.8, 0.75, 0.9, 1.0, 1.05, 1.1, 1.0, 1.05, 1.2, 1.35, 1.1, 0.95]
    rows: list[list[Any]] = []
    day0 = dt.date(2024, 1, 1)
    while len(rows) < 560:
        day = day0 + dt.timedelta(days=rng.randrange(731))
        warehouse = rng.choice(WAREHOUSES)
        keep = season[day.month - 1] * (growth[warehouse] if day.year == 2025 else 1.0) / 1.6
        if rng.random() > keep:
            continue
        units = rng.randint(5, 80)
        cents = units * rng.randint(1_500, 12_000)
        damaged = rng.randint(1, 4) if rng.random() < 0.09 else 0
        sku = f"{rng.choice(CATEGORIES)[:2].upper()}-{rng.randint(100, 160)}"
        rows.append([day.isoformat(), warehouse, sku, units, cents, damaged])
    rows.sort(key=lambda r: (r[0], r[1]))
    category = {c[:2].upper(): c for c in CATEGORIES}
    out = [
        [n, day, wh, category[sku[:2]], sku, units, _yuan(cents), damaged]
        for n, (day, wh, sku, units, cents, damaged) in enumerate(rows, start=1)
    ]
    return _csv(["shipment_id", "ship_date", "warehouse", "category", "sku", "units", "value", "damaged"], out)


def staff_csv(seed: int = 43) -> bytes:
    """A roster: more hires in 2025 than 2024 overall (but not in every department), salaries by department."""
    rng = random.Random(seed)
    base = {"研发部": 26_000, "销售部": 17_000, "市场部": 19_000, "财务部": 21_000, "人事部": 15_000}
    weight_2024 = [30, 28, 16, 14, 12]
    weight_2025 = [38, 36, 14, 14, 10]
    names = [s + g for s in _SURNAMES for g in _GIVEN]
    rng.shuffle(names)
    rows: list[list[Any]] = []
    for n in range(1, 261):
        year = 2024 if n <= 118 else 2025
        dept = rng.choices(DEPARTMENTS, weights=weight_2024 if year == 2024 else weight_2025)[0]
        hired = dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(365))
        salary = int(base[dept] * rng.uniform(0.7, 1.45)) // 10 * 10
        status = "离职" if rng.random() < (0.16 if year == 2024 else 0.08) else "在职"
        rating = rng.choices("ABC", weights=[2, 5, 2])[0]
        rows.append([hired.isoformat(), dept, rng.choice(CITIES), salary, rating, status, names[n]])
    rows.sort(key=lambda r: r[0])
    out = [[1000 + n, name, dept, city, hired, salary, rating, status] for n, (hired, dept, city, salary, rating,
           status, name) in enumerate(rows, start=1)]  # fmt: skip
    return _csv(["工号", "姓名", "部门", "城市", "入职日期", "月薪", "绩效", "状态"], out)


@dataclass
class HeldoutTruth:
    """The held-out data as pandas and sqlite3 read it, outside the product."""

    stock: pd.DataFrame
    staff: pd.DataFrame
    base: Truth  # shop.db lives here

    @classmethod
    def load(cls, base: Truth) -> HeldoutTruth:
        stock = pd.read_csv(io.BytesIO(stock_csv()), parse_dates=["ship_date"], keep_default_na=False)
        staff = pd.read_csv(io.BytesIO(staff_csv()), parse_dates=["入职日期"], keep_default_na=False)
        return cls(stock=stock, staff=staff, base=base)

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.base.sql(query, *params)


def add_heldout_data(world: World) -> HeldoutTruth:
    """Ingest the two held-out spreadsheets through the real services into the world's tenant."""
    for key, name, content in (("stock", "warehouse shipments", stock_csv()), ("staff", "员工花名册", staff_csv())):
        upload = services.upload_receive(
            tenant=world.tenant, chunks=[content], original_name=f"{key}.csv", size=len(content)
        )
        version = services.dataset_create(tenant=world.tenant, upload=upload, name=name, wait=True)
        world.bindings[key] = DataBinding.for_dataset(tenant=world.tenant, dataset=version.dataset)
    return HeldoutTruth.load(world.truth)
