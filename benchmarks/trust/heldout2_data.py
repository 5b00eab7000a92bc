"""The second held-out set's data: two new spreadsheets, generated deterministically and ingested through the
real services next to the base world's sources (the SQL source shop.db is reused with new questions).

- 营销投放 (Chinese e-commerce marketing): 2024-2025 every third day, five channels, campaigns by date
  (年货节, 618, 双十一, 日常), 曝光量, 点击量, 成交额 and 成本 in yuan with cents;
- subscriptions (English): one row per month, plan and country over 2024-2025: new_subscribers, churned,
  mrr in dollars with cents.

The truth is read back from the same bytes with pandas (heldout2_facts.py), never through the product.
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

MKT_CHANNELS = ["抖音", "小红书", "微信", "百度", "天猫"]
_CTR = {"抖音": 0.024, "小红书": 0.041, "微信": 0.017, "百度": 0.032, "天猫": 0.052}
_CPC = {"抖音": 1.10, "小红书": 1.60, "微信": 0.90, "百度": 2.40, "天猫": 1.30}
_GROWTH_2025 = {"抖音": 1.35, "小红书": 1.55, "微信": 1.0, "百度": 0.78, "天猫": 1.08}
_LIFT = {"年货节": 1.6, "618": 2.1, "双十一": 2.8, "日常": 1.0}

PLANS = ["Basic", "Pro", "Team"]
COUNTRIES = ["US", "UK", "Germany", "Japan", "Brazil"]
_PRICE = {"Basic": 900, "Pro": 2900, "Team": 7900}  # cents per subscriber and month
_BASE_NEW = {"US": 120, "UK": 60, "Germany": 55, "Japan": 40, "Brazil": 35}
_PLAN_MIX = {"Basic": 1.0, "Pro": 0.45, "Team": 0.12}


def campaign(day: dt.date) -> str:
    if day.month == 1 and 5 <= day.day <= 25:
        return "年货节"
    if day.month == 6 and day.day <= 18:
        return "618"
    if (day.month == 10 and day.day >= 20) or (day.month == 11 and day.day <= 11):
        return "双十一"
    return "日常"


def marketing_csv(seed: int = 41) -> bytes:
    rng = random.Random(seed)  # noqa: S311 - reproducible data on purpose
    rows: list[list[Any]] = []
    day = dt.date(2024, 1, 1)
    while day <= dt.date(2025, 12, 31):
        event = campaign(day)
        for channel in MKT_CHANNELS:
            growth = _GROWTH_2025[channel] if day.year == 2025 else 1.0
            shown = int(rng.randint(60_000, 400_000) * _LIFT[event] * growth)
            clicks = int(shown * _CTR[channel] * rng.uniform(0.7, 1.3))
            sales = int(clicks * rng.uniform(0.02, 0.06) * rng.uniform(90, 320) * 100)
            cost = int(clicks * _CPC[channel] * rng.uniform(0.8, 1.2) * 100)
            rows.append([day.isoformat(), channel, event, shown, clicks, _yuan(sales), _yuan(cost)])
        day += dt.timedelta(days=3)
    return _csv(["日期", "渠道", "活动", "曝光量", "点击量", "成交额", "成本"], rows)


def subscriptions_csv(seed: int = 43) -> bytes:
    rng = random.Random(seed)  # noqa: S311
    rows: list[list[Any]] = []
    active = {(p, c): int(_BASE_NEW[c] * _PLAN_MIX[p] * 8) for p in PLANS for c in COUNTRIES}
    for n in range(24):
        month = dt.date(2024 + n // 12, n % 12 + 1, 1)
        for plan in PLANS:
            for country in COUNTRIES:
                trend = 1.0 + 0.02 * n if country != "UK" else 1.0 - 0.012 * n
                new = max(1, int(_BASE_NEW[country] * _PLAN_MIX[plan] * trend * rng.uniform(0.75, 1.25)))
                churned = int(active[plan, country] * rng.uniform(0.02, 0.07))
                active[plan, country] += new - churned
                mrr = active[plan, country] * _PRICE[plan] + rng.randint(0, 99)
                rows.append([month.isoformat(), plan, country, new, churned, _yuan(mrr)])
    return _csv(["month", "plan", "country", "new_subscribers", "churned", "mrr"], rows)


@dataclass
class Truth2:
    """The new spreadsheets as pandas reads them, and the base world's SQL source."""

    marketing: pd.DataFrame
    subs: pd.DataFrame
    world: World

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.world.truth.sql(query, *params)


def load_truth() -> tuple[pd.DataFrame, pd.DataFrame]:
    marketing = pd.read_csv(io.BytesIO(marketing_csv()), parse_dates=["日期"], keep_default_na=False)
    marketing["活动"] = marketing["活动"].astype(str)
    subs = pd.read_csv(io.BytesIO(subscriptions_csv()), parse_dates=["month"], keep_default_na=False)
    return marketing, subs


def add_heldout2_data(world: World) -> Truth2:
    """Ingest the two spreadsheets for the world's tenant (bindings `mkt` and `subs`), once."""
    for key, name, content in (("mkt", "营销投放", marketing_csv()), ("subs", "subscriptions", subscriptions_csv())):
        if key in world.bindings:
            continue
        upload = services.upload_receive(
            tenant=world.tenant, chunks=[content], original_name=f"{key}.csv", size=len(content)
        )
        version = services.dataset_create(tenant=world.tenant, upload=upload, name=name, wait=True)
        world.bindings[key] = DataBinding.for_dataset(tenant=world.tenant, dataset=version.dataset)
    marketing, subs = load_truth()
    return Truth2(marketing=marketing, subs=subs, world=world)
