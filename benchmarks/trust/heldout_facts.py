"""Ground truth for the held-out set, computed once with pandas (the two spreadsheets) and sqlite3 (shop.db).

Money sums are exact cents (`money`), ratios and averages keep the float's digits (`exact`), counts are ints.
Rankings are largest first unless named otherwise; a ranking a scenario reads by position must have no tie
at that position (`strict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd

from benchmarks.trust.facts import Ranked, exact, money, ranked
from benchmarks.trust.heldout_data import HeldoutTruth

Counts = list[tuple[str, int]]


def counted(series: pd.Series) -> Counts:
    ordered = series.sort_values(ascending=False, kind="stable")
    return [(str(k), int(v)) for k, v in ordered.items()]


def strict(values: list[Decimal] | list[int], *positions: int) -> None:
    """No tie at `positions` of a ranking (so "the highest", "the two lowest" name one set of rows)."""
    for p in positions:
        neighbours = [values[i] for i in (p - 1, p + 1) if 0 <= i < len(values)]
        assert values[p] not in neighbours, f"a tie at rank {p}: {values}"


@dataclass
class HeldoutFacts:
    # stock (shipments, 2024-2025)
    units_2025: Counts  # by warehouse
    value_2025: Ranked  # by warehouse
    value_2024: Ranked  # by warehouse
    value_by_year: dict[tuple[str, int], Decimal]  # (warehouse, year)
    yoy: dict[str, Decimal]  # by warehouse, 2025 on 2024
    category_value: Ranked  # both years
    category_value_2024: Ranked
    category_share: dict[str, Decimal]  # of all shipments, both years
    dallas_2025_category_share: dict[str, Decimal]
    dallas_tools_2025: Decimal
    month_value_2025: list[tuple[int, Decimal]]  # calendar order
    month_value_2024: dict[int, Decimal]
    month_mom_2025: dict[int, Decimal]
    quarter_value_2025: list[tuple[int, Decimal]]
    total_2025: Decimal
    total_both: Decimal
    warehouse_share_2025: dict[str, Decimal]
    damaged_shipments_2025: int
    damaged_units_2025: Counts  # by warehouse
    skus: int
    skus_2025: int
    shipments: int
    shipments_2025: int
    tampa_q4_2025_units: int
    tampa_avg_units: Decimal
    # 员工 (roster, hires 2024-2025)
    active_by_dept: Counts
    headcount_by_dept: Counts
    staff: int
    avg_salary_by_dept: Ranked
    avg_salary_by_city: Ranked
    hires_by_year: dict[int, int]
    hires_by_dept_year: dict[tuple[str, int], int]
    hires_by_month_2025: list[tuple[int, int]]
    hires_by_month_2024: dict[int, int]
    hires_by_quarter_2024: Counts
    leavers: int
    leaver_ids_2025: list[int]
    rated_a_2025: int
    rd_active_avg: Decimal
    # shop.db
    shop_city: Ranked
    shop_top_users: Counts
    shop_months: list[tuple[int, Decimal]]
    shop_mom: dict[int, Decimal]
    shop_quarters: list[tuple[int, Decimal]]
    shop_refunds: int
    shop_orders: int
    shop_channel: dict[str, tuple[int, Decimal, Decimal]]  # orders, average, total


def _stock(s: pd.DataFrame) -> dict[str, Any]:
    year, month = s["ship_date"].dt.year, s["ship_date"].dt.month
    s25, s24 = s[year == 2025], s[year == 2024]
    m25 = s25.groupby(s25["ship_date"].dt.month)["value"].sum().sort_index()
    m24 = s24.groupby(s24["ship_date"].dt.month)["value"].sum()
    by_year = s.groupby(["warehouse", year])["value"].sum()
    category = s.groupby("category")["value"].sum()
    dallas = s25[s25["warehouse"] == "Dallas"]
    dallas_category = dallas.groupby("category")["value"].sum()
    w25 = s25.groupby("warehouse")["value"].sum()
    tampa = s["warehouse"] == "Tampa"
    q4 = tampa & (year == 2025) & (month >= 10)
    return {
        "units_2025": counted(s25.groupby("warehouse")["units"].sum()),
        "value_2025": ranked(w25),
        "value_2024": ranked(s24.groupby("warehouse")["value"].sum()),
        "value_by_year": {(w, int(y)): money(v) for (w, y), v in by_year.items()},
        "yoy": {w: exact((by_year[w, 2025] - by_year[w, 2024]) / by_year[w, 2024]) for w in w25.index},
        "category_value": ranked(category),
        "category_value_2024": ranked(s24.groupby("category")["value"].sum()),
        "category_share": {k: exact(v / category.sum()) for k, v in category.items()},
        "dallas_2025_category_share": {k: exact(v / dallas_category.sum()) for k, v in dallas_category.items()},
        "dallas_tools_2025": money(dallas_category["Tools"]),
        "month_value_2025": [(int(k), money(v)) for k, v in m25.items()],
        "month_value_2024": {int(k): money(v) for k, v in m24.items()},
        "month_mom_2025": {m: exact((v - m25[m - 1]) / m25[m - 1]) for m, v in m25.items() if m > 1},
        "quarter_value_2025": [
            (int(k), money(v)) for k, v in s25.groupby(s25["ship_date"].dt.quarter)["value"].sum().items()
        ],
        "total_2025": money(s25["value"].sum()),
        "total_both": money(s["value"].sum()),
        "warehouse_share_2025": {k: exact(v / w25.sum()) for k, v in w25.items()},
        "damaged_shipments_2025": int((s25["damaged"] > 0).sum()),
        "damaged_units_2025": counted(s25.groupby("warehouse")["damaged"].sum()),
        "skus": int(s["sku"].nunique()),
        "skus_2025": int(s25["sku"].nunique()),
        "shipments": len(s),
        "shipments_2025": len(s25),
        "tampa_q4_2025_units": int(s[q4]["units"].sum()),
        "tampa_avg_units": exact(s[tampa]["units"].mean()),
    }


def _staff(h: pd.DataFrame) -> dict[str, Any]:
    year, month = h["入职日期"].dt.year, h["入职日期"].dt.month
    h25, h24 = h[year == 2025], h[year == 2024]
    active = h[h["状态"] == "在职"]
    by_dept_year = h.groupby(["部门", year]).size()
    rd_active = active[active["部门"] == "研发部"]
    return {
        "active_by_dept": counted(active.groupby("部门").size()),
        "headcount_by_dept": counted(h.groupby("部门").size()),
        "staff": len(h),
        "avg_salary_by_dept": ranked(h.groupby("部门")["月薪"].mean(), exact),
        "avg_salary_by_city": ranked(h.groupby("城市")["月薪"].mean(), exact),
        "hires_by_year": {int(k): int(v) for k, v in h.groupby(year).size().items()},
        "hires_by_dept_year": {(d, int(y)): int(v) for (d, y), v in by_dept_year.items()},
        "hires_by_month_2025": [(int(k), int(v)) for k, v in h25.groupby(month[year == 2025]).size().items()],
        "hires_by_month_2024": {int(k): int(v) for k, v in h24.groupby(month[year == 2024]).size().items()},
        "hires_by_quarter_2024": counted(h24.groupby(h24["入职日期"].dt.quarter).size()),
        "leavers": int((h["状态"] == "离职").sum()),
        "leaver_ids_2025": [int(i) for i in h25[h25["状态"] == "离职"]["工号"]],
        "rated_a_2025": int((h25["绩效"] == "A").sum()),
        "rd_active_avg": exact(rd_active["月薪"].mean()),
    }


def _shop(truth: HeldoutTruth) -> dict[str, Any]:
    city = truth.sql(
        'SELECT u."城市", SUM(o."金额") FROM "订单" AS o JOIN "用户" AS u ON o."用户ID" = u."用户ID" GROUP BY u."城市"'
    )
    users = truth.sql(
        'SELECT u."姓名", COUNT(*) FROM "订单" AS o JOIN "用户" AS u ON o."用户ID" = u."用户ID" '
        'GROUP BY u."用户ID", u."姓名"'
    )
    months = truth.sql('SELECT CAST(strftime(\'%m\', "日期") AS INTEGER) AS m, SUM("金额") FROM "订单" GROUP BY m')
    monthly = dict(months)
    quarters = truth.sql(
        'SELECT (CAST(strftime(\'%m\', "日期") AS INTEGER) + 2) / 3 AS q, SUM("金额") FROM "订单" GROUP BY q'
    )
    (refunds, orders), = truth.sql('SELECT SUM("状态" = \'退款\'), COUNT(*) FROM "订单"')  # fmt: skip
    channel = truth.sql('SELECT "渠道", COUNT(*), AVG("金额"), SUM("金额") FROM "订单" GROUP BY "渠道"')
    return {
        "shop_city": sorted(((k, money(v)) for k, v in city), key=lambda kv: kv[1], reverse=True),
        "shop_top_users": sorted(((k, int(n)) for k, n in users), key=lambda kv: kv[1], reverse=True),
        "shop_months": sorted((int(m), money(v)) for m, v in months),
        "shop_mom": {m: exact((v - monthly[m - 1]) / monthly[m - 1]) for m, v in monthly.items() if m > 1},
        "shop_quarters": sorted((int(q), money(v)) for q, v in quarters),
        "shop_refunds": int(refunds),
        "shop_orders": int(orders),
        "shop_channel": {k: (int(n), exact(avg), money(total)) for k, n, avg, total in channel},
    }


def compute_heldout(truth: HeldoutTruth) -> HeldoutFacts:
    return HeldoutFacts(**_stock(truth.stock), **_staff(truth.staff), **_shop(truth))
