"""A returns workbook for the Chinese business question set, generated deterministically at run time.

Two years (2024-2025) of daily rows per account, region and product: orders, sales, returned units,
returned amount and the main return reason, in one sheet (`退货明细`) of an XLSX with a notes sheet.
The same rows on every machine; nothing binary is committed. References read the workbook back with
pandas, so they do not share code with the generator.
"""

from __future__ import annotations

import datetime as dt
import io
import random
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import openpyxl
import pandas as pd

SHEET = "退货明细"
FILE_NAME = "returns-2024-2025.xlsx"
HEADER = ["日期", "账号", "地区", "产品", "订单数量", "销售金额", "退货数量", "退货金额", "退货原因"]
ACCOUNTS = ["天猫旗舰店", "京东自营", "抖音小店", "线下门店"]
REGIONS = {"华东": 1.3, "华北": 1.0, "华南": 1.1, "西部": 0.7}
PRODUCTS = {  # price, return rate
    "保温杯": (89.0, 0.04),
    "电热水壶": (159.0, 0.05),
    "空气炸锅": (399.0, 0.09),
    "榨汁机": (259.0, 0.07),
    "电饭煲": (329.0, 0.06),
}
REASONS = {"质量问题": 4, "尺寸不符": 1, "七天无理由": 3, "物流破损": 2}
ROWS_PER_DAY = 8


def _season(day: dt.date) -> float:
    """Busier in the shopping months (June, November, December) and quieter in February."""
    return {2: 0.8, 6: 1.25, 11: 1.45, 12: 1.2}.get(day.month, 1.0) * (1.12 if day.year == 2025 else 1.0)


def returns_rows(seed: int = 2024) -> list[list[object]]:
    rng = random.Random(seed)  # noqa: S311 - test data, reproducible on purpose
    combos = [(a, r, p) for a in ACCOUNTS for r in REGIONS for p in PRODUCTS]
    rows: list[list[object]] = []
    day = dt.date(2024, 1, 1)
    while day <= dt.date(2025, 12, 31):
        for account, region, product in sorted(rng.sample(combos, ROWS_PER_DAY)):
            price, rate = PRODUCTS[product]
            orders = max(1, int(rng.randint(4, 30) * REGIONS[region] * _season(day)))
            sales = round(orders * price * rng.uniform(0.88, 1.05), 2)
            returned = sum(rng.random() < rate for _ in range(orders))
            refund = round(returned * price * rng.uniform(0.8, 1.0), 2) if returned else 0.0
            reason = rng.choices(list(REASONS), weights=list(REASONS.values()))[0] if returned else ""
            rows.append([day, account, region, product, orders, sales, returned, refund, reason])
        day += dt.timedelta(days=1)
    return rows


def data_workbook(name: str, header: list[str], rows: Iterable[list[Any]], note: str) -> bytes:
    """A workbook as people export one: the data sheet first (header on row 1), then a sheet of notes."""
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet(name)
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    notes = workbook.create_sheet("说明")
    notes.append(["说明"])
    notes.append([note])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@lru_cache(maxsize=2)
def returns_xlsx(seed: int = 2024) -> bytes:
    return data_workbook(
        SHEET, HEADER, returns_rows(seed), "每行是某天某账号在某地区某产品的订单与退货汇总；退货原因为当天的主要原因"
    )


@lru_cache(maxsize=2)
def returns_frame(seed: int = 2024) -> pd.DataFrame:
    """The data sheet as pandas reads it from the workbook's bytes (dates parsed, empty reasons missing)."""
    df = pd.read_excel(io.BytesIO(returns_xlsx(seed)), sheet_name=SHEET, engine="openpyxl")
    df["日期"] = pd.to_datetime(df["日期"])
    return df
