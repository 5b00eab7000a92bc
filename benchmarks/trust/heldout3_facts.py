"""Ground truth for the third held-out set, computed with pandas from the same bytes the product ingests.

Sums of money are exact cents (`money`); ratios and averages keep the float's digits (`exact`); rankings are
largest first, the order the scripted queries sort by.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from benchmarks.trust.facts import Ranked, exact, money, ranked
from benchmarks.trust.heldout3_data import Truth3


@dataclass
class Facts3:
    # 物流运单
    wh_2025: Ranked  # 运费 by 仓库, 2025
    wh_2024: dict[str, Decimal]
    wh_yoy: dict[str, Decimal]
    months_2025: dict[int, Decimal]  # 运费 by month, 2025
    mom_2025: dict[int, Decimal]
    top_piece_months: Ranked  # 件数 by month, 2025, largest first ("10", "11", ...)
    route_late: dict[str, tuple[int, int, Decimal]]  # 线路 -> late rows, rows, rate (2024-2025)
    late_route_rank: Ranked  # 线路 by late rate
    cross_late_2025: Decimal
    wh_late_rank: Ranked  # 仓库 by late rate (2024-2025), largest first
    route_pieces_2025: Ranked
    route_piece_share_2025: dict[str, Decimal]
    route_freight_2025: Ranked
    route_freight_share_2025: dict[str, Decimal]
    pieces_2025: int
    freight_2025: Decimal
    rows_2025: int
    late_rows_2025: int
    wh_days_2025: Ranked  # average 时效天数
    sh_june_2025: Decimal
    sh_2025: Decimal
    # retail (English)
    en_region_2025: Ranked
    en_region_2024: dict[str, Decimal]
    en_yoy: dict[str, Decimal]
    en_channel: Ranked
    en_channel_share: dict[str, Decimal]
    en_channel_share_2025: dict[str, Decimal]
    en_total_2025: Decimal
    en_orders_2025: int
    en_months_2025: dict[int, Decimal]
    en_avg_units: Ranked
    en_avg_revenue_2025: Ranked

    def wh(self, name: str) -> Decimal:
        return dict(self.wh_2025)[name]


def compute_heldout3(truth: Truth3) -> Facts3:
    d, r = truth.logistics, truth.retail
    d25, d24 = d[d["日期"].dt.year == 2025], d[d["日期"].dt.year == 2024]
    w25, w24 = d25.groupby("仓库")["运费"].sum(), d24.groupby("仓库")["运费"].sum()
    monthly = d25.groupby(d25["日期"].dt.month)["运费"].sum().sort_index()
    pieces_month = d25.groupby(d25["日期"].dt.month)["件数"].sum()
    late = d["是否延误"] == "是"
    route_late = {
        k: (int(late[g.index].sum()), len(g), exact(late[g.index].sum() / len(g))) for k, g in d.groupby("线路")
    }
    cross25 = d25[d25["线路"] == "跨境"]
    route_pieces = d25.groupby("线路")["件数"].sum()
    route_freight = d25.groupby("线路")["运费"].sum()
    sh25 = d25[d25["仓库"] == "上海仓"]
    r25, r24 = r[r["order_date"].dt.year == 2025], r[r["order_date"].dt.year == 2024]
    y25, y24 = r25.groupby("region")["revenue"].sum(), r24.groupby("region")["revenue"].sum()
    channel, channel25 = r.groupby("channel")["revenue"].sum(), r25.groupby("channel")["revenue"].sum()
    en_monthly = r25.groupby(r25["order_date"].dt.month)["revenue"].sum()
    return Facts3(
        wh_2025=ranked(w25),
        wh_2024={k: money(v) for k, v in w24.items()},
        wh_yoy={k: exact((w25[k] - w24[k]) / w24[k]) for k in w25.index},
        months_2025={int(k): money(v) for k, v in monthly.items()},
        mom_2025={int(m): exact((v - monthly[m - 1]) / monthly[m - 1]) for m, v in monthly.items() if m > 1},
        top_piece_months=ranked(pieces_month, lambda v: Decimal(int(v))),
        route_late=route_late,
        late_route_rank=sorted(((k, v[2]) for k, v in route_late.items()), key=lambda kv: kv[1], reverse=True),
        cross_late_2025=exact((cross25["是否延误"] == "是").mean()),
        wh_late_rank=ranked(d.assign(late=late).groupby("仓库")["late"].mean(), exact),
        route_pieces_2025=ranked(route_pieces, lambda v: Decimal(int(v))),
        route_piece_share_2025={k: exact(v / route_pieces.sum()) for k, v in route_pieces.items()},
        route_freight_2025=ranked(route_freight),
        route_freight_share_2025={k: exact(v / route_freight.sum()) for k, v in route_freight.items()},
        pieces_2025=int(d25["件数"].sum()),
        freight_2025=money(d25["运费"].sum()),
        rows_2025=len(d25),
        late_rows_2025=int((d25["是否延误"] == "是").sum()),
        wh_days_2025=ranked(d25.groupby("仓库")["时效天数"].mean(), exact),
        sh_june_2025=money(sh25[sh25["日期"].dt.month == 6]["运费"].sum()),
        sh_2025=money(sh25["运费"].sum()),
        en_region_2025=ranked(y25),
        en_region_2024={k: money(v) for k, v in y24.items()},
        en_yoy={k: exact((y25[k] - y24[k]) / y24[k]) for k in y25.index},
        en_channel=ranked(channel),
        en_channel_share={k: exact(v / channel.sum()) for k, v in channel.items()},
        en_channel_share_2025={k: exact(v / channel25.sum()) for k, v in channel25.items()},
        en_total_2025=money(r25["revenue"].sum()),
        en_orders_2025=len(r25),
        en_months_2025={int(k): money(v) for k, v in en_monthly.items()},
        en_avg_units=ranked(r.groupby("channel")["units"].mean(), exact),
        en_avg_revenue_2025=ranked(r25.groupby("region")["revenue"].mean(), exact),
    )
