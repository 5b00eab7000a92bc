"""Ground truth for every scenario, computed once with pandas (spreadsheets) and sqlite3 (the SQL source).

Sums of money are exact cents (`money`); ratios and averages keep the float's digits (`exact`). Rankings
are largest first, the order the scripted queries sort by.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd

from benchmarks.trust.data import Truth

Ranked = list[tuple[str, Decimal]]


def money(value: Any) -> Decimal:
    """A sum of cents read as floats, back to its exact cents."""
    return Decimal(f"{float(value):.2f}")


def exact(value: Any) -> Decimal:
    return Decimal(repr(float(value)))


def ranked(series: pd.Series, convert: Any = money) -> Ranked:
    ordered = series.sort_values(ascending=False)
    return [(str(key), convert(value)) for key, value in ordered.items()]


@dataclass
class Facts:
    # 订单 (orders, 2025)
    region_sales: Ranked
    region_share: dict[str, Decimal]
    region_avg: Ranked
    region_orders: dict[str, int]
    months: list[tuple[int, Decimal]]  # calendar order
    mom: dict[int, Decimal]  # month-over-month change, from February
    march: Ranked  # March sales by region
    returns: int
    quantity: int
    return_rate: Decimal
    orders: int
    largest_order: Decimal
    customers: int
    customer_sales: Ranked
    order_days: int
    # retail (2024-2025)
    en_region_2025: Ranked
    en_region_2024: dict[str, Decimal]
    en_yoy: dict[str, Decimal]
    en_channel: Ranked
    en_channel_share: dict[str, Decimal]
    en_months_2025: list[tuple[int, Decimal]]
    en_avg_units: Ranked
    en_avg_revenue: Ranked
    # shop.db
    shop_channel: Ranked
    shop_total: Decimal
    shop_orders: int
    shop_channel_orders: Ranked
    shop_channel_avg: dict[str, Decimal]
    shop_users: int
    shop_user_id_sum: int

    def region(self, name: str) -> Decimal:
        return dict(self.region_sales)[name]

    def month(self, number: int) -> Decimal:
        return dict(self.months)[number]


def compute(truth: Truth) -> Facts:
    o, r = truth.orders, truth.retail
    region_total = o.groupby("地区")["金额"].sum()
    monthly = o.groupby(o["日期"].dt.month)["金额"].sum().sort_index()
    months = [(int(k), money(v)) for k, v in monthly.items()]
    mom = {m: exact((v - monthly[m - 1]) / monthly[m - 1]) for m, v in monthly.items() if m > 1}
    march = o[o["日期"].dt.month == 3]
    r25, r24 = r[r["order_date"].dt.year == 2025], r[r["order_date"].dt.year == 2024]
    y25, y24 = r25.groupby("region")["revenue"].sum(), r24.groupby("region")["revenue"].sum()
    channel = r.groupby("channel")["revenue"].sum()
    en_monthly = r25.groupby(r25["order_date"].dt.month)["revenue"].sum().sort_index()
    shop_channel = truth.sql('SELECT "渠道", SUM("金额") FROM "订单" GROUP BY "渠道"')
    shop_counts = truth.sql('SELECT "渠道", COUNT(*), AVG("金额") FROM "订单" GROUP BY "渠道"')
    (shop_total, shop_orders), = truth.sql('SELECT SUM("金额"), COUNT(*) FROM "订单"')  # fmt: skip
    (users, id_sum), = truth.sql('SELECT COUNT(*), SUM("用户ID") FROM "用户"')  # fmt: skip
    return Facts(
        region_sales=ranked(region_total),
        region_share={k: exact(v / region_total.sum()) for k, v in region_total.items()},
        region_avg=ranked(o.groupby("地区")["金额"].mean(), exact),
        region_orders={k: int(v) for k, v in o.groupby("地区").size().items()},
        months=months,
        mom=mom,
        march=ranked(march.groupby("地区")["金额"].sum()),
        returns=int(o["退货数量"].sum()),
        quantity=int(o["数量"].sum()),
        return_rate=exact(o["退货数量"].sum() / o["数量"].sum()),
        orders=len(o),
        largest_order=money(o["金额"].max()),
        customers=int(o["客户"].nunique()),
        customer_sales=ranked(o.groupby("客户")["金额"].sum()),
        order_days=int(o["日期"].nunique()),
        en_region_2025=ranked(y25),
        en_region_2024={k: money(v) for k, v in y24.items()},
        en_yoy={k: exact((y25[k] - y24[k]) / y24[k]) for k in y25.index},
        en_channel=ranked(channel),
        en_channel_share={k: exact(v / channel.sum()) for k, v in channel.items()},
        en_months_2025=[(int(k), money(v)) for k, v in en_monthly.items()],
        en_avg_units=ranked(r.groupby("channel")["units"].mean(), exact),
        en_avg_revenue=ranked(r.groupby("region")["revenue"].mean(), exact),
        shop_channel=sorted(((k, money(v)) for k, v in shop_channel), key=lambda kv: kv[1], reverse=True),
        shop_total=money(shop_total),
        shop_orders=int(shop_orders),
        shop_channel_orders=sorted(((k, Decimal(n)) for k, n, _ in shop_counts), key=lambda kv: kv[1], reverse=True),
        shop_channel_avg={k: exact(avg) for k, _, avg in shop_counts},
        shop_users=int(users),
        shop_user_id_sum=int(id_sum),
    )
