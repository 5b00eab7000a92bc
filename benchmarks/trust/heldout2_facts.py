"""Ground truth for the second held-out set, computed with pandas (the two new spreadsheets) and sqlite3
(shop.db), never through the product.

Money sums are exact cents (`money`), ratios keep the float's digits (`exact`). Each measure is keyed by
the data's own labels: channel, campaign, plan, country, month ("2025-03"), city, user.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd

from benchmarks.trust.facts import exact, money
from benchmarks.trust.heldout2_data import Truth2

Row = dict[str, Decimal]


def _marketing_rows(frame: pd.DataFrame) -> Row:
    shown, clicks = int(frame["曝光量"].sum()), int(frame["点击量"].sum())
    sales, cost = frame["成交额"].sum(), frame["成本"].sum()
    return {
        "曝光量": Decimal(shown),
        "点击量": Decimal(clicks),
        "成交额": money(sales),
        "成本": money(cost),
        "点击率": exact(clicks / shown),
        "ROI": exact(sales / cost),
    }


def _subs_rows(frame: pd.DataFrame) -> Row:
    return {
        "new": Decimal(int(frame["new_subscribers"].sum())),
        "churned": Decimal(int(frame["churned"].sum())),
        "mrr": money(frame["mrr"].sum()),
    }


def order(rows: dict[str, Row], measure: str) -> list[str]:
    """Keys sorted by `measure`, largest first."""
    return sorted(rows, key=lambda k: rows[k][measure], reverse=True)


@dataclass
class Facts2:
    # 营销投放
    mk_channel: dict[int, dict[str, Row]]  # year -> channel -> measures
    mk_channel_all: dict[str, Row]  # both years together
    mk_year: dict[int, Row]
    mk_all: Row
    mk_campaign: dict[int, dict[str, Row]]  # year -> campaign -> measures
    mk_month: dict[str, Row]  # "2025-03" -> measures (all channels)
    mk_channel_month: dict[tuple[str, str], Row]  # (channel, "2025-03")
    mk_channel_campaign: dict[tuple[int, str, str], Row]  # (year, channel, campaign)
    mk_top_day: tuple[str, int]  # the day with the most clicks (all channels)
    mk_row_max_clicks: int  # the largest 点击量 of one row (what the schema's max shows)
    # subscriptions
    sb_month: dict[str, Row]  # "2025-12" -> new, churned, mrr (all plans and countries)
    sb_country: dict[int, dict[str, Row]]
    sb_plan: dict[int, dict[str, Row]]
    sb_year: dict[int, Row]
    sb_plan_month: dict[tuple[str, str], Row]
    sb_country_month: dict[tuple[str, str], Row]
    sb_country_plan: dict[tuple[int, str, str], Row]
    sb_row_max_mrr: Decimal
    sb_months_per_year: int
    # shop.db
    sh_status: dict[str, tuple[int, Decimal]]  # 状态 -> (orders, amount)
    sh_channel_status: dict[tuple[str, str], tuple[int, Decimal]]
    sh_city: dict[str, tuple[int, Decimal]]  # city -> (orders, amount)
    sh_city_users: dict[str, int]
    sh_user_top: list[tuple[str, Decimal]]  # users by amount, largest first
    sh_q4_channel: dict[str, Decimal]
    sh_done_avg: Decimal
    sh_total: Decimal


def _grouped(frame: pd.DataFrame, keys: Any, rows: Any) -> dict[Any, Row]:
    return {key: rows(part) for key, part in frame.groupby(keys)}


def compute_heldout2(truth: Truth2) -> Facts2:
    m = truth.marketing.copy()
    m["年"] = m["日期"].dt.year
    m["月"] = m["日期"].dt.strftime("%Y-%m")
    s = truth.subs.copy()
    s["year"] = s["month"].dt.year
    s["ym"] = s["month"].dt.strftime("%Y-%m")
    daily = m.groupby(m["日期"].dt.strftime("%Y-%m-%d"))["点击量"].sum()
    sql = truth.sql
    status = {k: (int(n), money(v)) for k, n, v in sql('SELECT "状态", COUNT(*), SUM("金额") FROM "订单" GROUP BY 1')}
    channel_status = {
        (c, st): (int(n), money(v))
        for c, st, n, v in sql('SELECT "渠道", "状态", COUNT(*), SUM("金额") FROM "订单" GROUP BY 1, 2')
    }
    join = 'FROM "订单" o JOIN "用户" u ON o."用户ID" = u."用户ID"'
    city = {c: (int(n), money(v)) for c, n, v in sql(f'SELECT u."城市", COUNT(*), SUM(o."金额") {join} GROUP BY 1')}
    users = sql(f'SELECT u."姓名", SUM(o."金额") AS t {join} GROUP BY u."用户ID" ORDER BY t DESC')
    q4 = sql('SELECT "渠道", SUM("金额") FROM "订单" WHERE "日期" BETWEEN \'2025-10-01\' AND \'2025-12-31\' GROUP BY 1')
    ((done_avg,),) = sql('SELECT AVG("金额") FROM "订单" WHERE "状态" = \'完成\'')
    ((total,),) = sql('SELECT SUM("金额") FROM "订单"')
    return Facts2(
        mk_channel={y: _grouped(part, "渠道", _marketing_rows) for y, part in m.groupby("年")},
        mk_channel_all=_grouped(m, "渠道", _marketing_rows),
        mk_year=_grouped(m, "年", _marketing_rows),
        mk_all=_marketing_rows(m),
        mk_campaign={y: _grouped(part, "活动", _marketing_rows) for y, part in m.groupby("年")},
        mk_month=_grouped(m, "月", _marketing_rows),
        mk_channel_month=_grouped(m, ["渠道", "月"], _marketing_rows),
        mk_channel_campaign=_grouped(m, ["年", "渠道", "活动"], _marketing_rows),
        mk_top_day=(str(daily.idxmax()), int(daily.max())),
        mk_row_max_clicks=int(m["点击量"].max()),
        sb_month=_grouped(s, "ym", _subs_rows),
        sb_country={y: _grouped(part, "country", _subs_rows) for y, part in s.groupby("year")},
        sb_plan={y: _grouped(part, "plan", _subs_rows) for y, part in s.groupby("year")},
        sb_year=_grouped(s, "year", _subs_rows),
        sb_plan_month=_grouped(s, ["plan", "ym"], _subs_rows),
        sb_country_month=_grouped(s, ["country", "ym"], _subs_rows),
        sb_country_plan=_grouped(s, ["year", "country", "plan"], _subs_rows),
        sb_row_max_mrr=money(s["mrr"].max()),
        sb_months_per_year=int(s[s["year"] == 2025]["ym"].nunique()),
        sh_status=status,
        sh_channel_status=channel_status,
        sh_city=city,
        sh_city_users={c: int(n) for c, n in sql('SELECT "城市", COUNT(*) FROM "用户" GROUP BY 1')},
        sh_user_top=[(name, money(v)) for name, v in users],
        sh_q4_channel={c: money(v) for c, v in q4},
        sh_done_avg=exact(done_avg),
        sh_total=money(total),
    )


def change(new: Decimal, old: Decimal) -> Decimal:
    """(new - old) / old, as the pct_change window computes it."""
    return exact(float(new) / float(old) - 1)


def ratio(part: Decimal, whole: Decimal) -> Decimal:
    return exact(float(part) / float(whole))
