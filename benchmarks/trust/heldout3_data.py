"""The third held-out set's data: one new spreadsheet, generated deterministically and ingested through the real
services next to the base world's sources (the English retail sheet is reused with new questions).

- 物流运单 (Chinese logistics): 2024-2025 every third day, four warehouses (仓库) by three routes (线路):
  件数, 运费 in yuan with cents, 时效天数 and 是否延误 (是/否). Warehouses grow differently in 2025 (成都仓
  shrinks), the last quarter is the peak season, and cross-border (跨境) shipments are slow and often late.

The truth is read back from the same bytes with pandas (heldout3_facts.py), never through the product.
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
from benchmarks.trust.data import World, _csv, _yuan

WAREHOUSES = ["上海仓", "广州仓", "武汉仓", "成都仓"]
ROUTES = ["干线", "同城", "跨境"]
_GROWTH_2025 = {"上海仓": 1.18, "广州仓": 1.07, "武汉仓": 1.26, "成都仓": 0.84}
_PIECES = {"干线": (120, 420), "同城": (200, 700), "跨境": (30, 140)}
_RATE = {"干线": 9.5, "同城": 4.2, "跨境": 31.0}  # yuan per piece
_DAYS = {"干线": (2, 5), "同城": (1, 2), "跨境": (5, 12)}
_LATE = {"干线": 0.09, "同城": 0.04, "跨境": 0.19}


def logistics_csv(seed: int = 53) -> bytes:
    rng = random.Random(seed)  # noqa: S311 - reproducible data on purpose
    rows: list[list[Any]] = []
    day = dt.date(2024, 1, 1)
    while day <= dt.date(2025, 12, 31):
        season = 1.45 if day.month >= 10 else 1.0
        for warehouse in WAREHOUSES:
            growth = _GROWTH_2025[warehouse] if day.year == 2025 else 1.0
            for route in ROUTES:
                pieces = int(rng.randint(*_PIECES[route]) * season * growth)
                cents = int(pieces * _RATE[route] * rng.uniform(0.85, 1.15) * 100)
                days = rng.randint(*_DAYS[route]) + (1 if warehouse == "成都仓" else 0)
                late = "是" if rng.random() < _LATE[route] * (1.3 if season > 1 else 1.0) else "否"
                rows.append([day.isoformat(), warehouse, route, pieces, _yuan(cents), days, late])
        day += dt.timedelta(days=3)
    return _csv(["日期", "仓库", "线路", "件数", "运费", "时效天数", "是否延误"], rows)


@dataclass
class Truth3:
    """The new spreadsheet and the base world's English retail sheet, as pandas reads them."""

    logistics: pd.DataFrame
    retail: pd.DataFrame


def load_logistics() -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(logistics_csv()), parse_dates=["日期"], keep_default_na=False)


def add_heldout3_data(world: World) -> Truth3:
    """Ingest the logistics spreadsheet for the world's tenant (binding `logi`), once."""
    if "logi" not in world.bindings:
        content = logistics_csv()
        upload = services.upload_receive(
            tenant=world.tenant, chunks=[content], original_name="logi.csv", size=len(content)
        )
        version = services.dataset_create(tenant=world.tenant, upload=upload, name="物流运单", wait=True)
        world.bindings["logi"] = DataBinding.for_dataset(tenant=world.tenant, dataset=version.dataset)
    return Truth3(logistics=load_logistics(), retail=world.truth.retail)
