"""Ground truth for the fourth held-out set: pandas over the spreadsheet's bytes (门诊就诊) and sqlite3 over
clinic.db (`visits`), never through the product.

Sums of money are exact cents (`money`); averages and ratios keep the float's digits (`exact`); counts are
ints; rankings are largest first, the order the scripted queries sort by.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from decimal import Decimal

import pandas as pd

from benchmarks.trust.facts import Ranked, exact, money, ranked
from benchmarks.trust.heldout4_data import Truth4

Counts = list[tuple[str, int]]


def _counts(series: pd.Series) -> Counts:
    """Counts largest first; a tie would make the scripted order ambiguous, so there must be none."""
    ordered = series.sort_values(ascending=False)
    assert ordered.is_unique, f"tied counts: {ordered.to_dict()}"
    return [(str(k), int(v)) for k, v in ordered.items()]


def _between(d: pd.DataFrame, first: str, last: str, column: str = "月份") -> pd.DataFrame:
    return d[d[column].between(first, last)]


@dataclass
class Facts4:
    # 门诊就诊 (spreadsheet), 2025 unless named otherwise
    campus_fee: Ranked
    campus_fee_h2_2024: Ranked
    campus_dec_fee: dict[str, Decimal]  # 2025-12
    campus_wait: Ranked
    campus_visits: dict[str, int]
    total_fee: Decimal
    visits: int
    patients: int
    all_visits: int  # 2024-07..2025-12
    dept_fee: Ranked
    dept_avg_fee: Ranked
    dept_visits: Counts
    dept_fee_east: Ranked
    march_dept_visits: Counts  # 2025-03, departments with visits
    march_visits: int
    type_visits: dict[str, int]
    q3_fee: Decimal
    q4_fee: Decimal
    month_visits: dict[str, int]
    room_fee: Ranked
    wait_by_booked: dict[str, Decimal]  # 是 / 否
    booked: int
    insured: Decimal
    avg_fee: Decimal
    median_fee: Decimal
    # clinic.db (`visits`, English)
    db_campus_fee: Ranked
    db_total: Decimal
    db_q4_total: Decimal
    db_month_fee: Ranked
    db_dept_avg_fee: Ranked
    db_dept_visits: Counts
    db_ped_visits: int
    db_ped_patients: int
    db_wait_all: dict[str, Decimal]  # Y / N, 2024-07..2025-12
    db_campus_h2: dict[tuple[str, int], Decimal]  # (campus, year) -> fees July-December
    db_ped_h2: dict[int, int]  # year -> Pediatrics visits July-December
    db_campus_avg_fee: Ranked

    def campus(self, name: str) -> Decimal:
        return dict(self.campus_fee)[name]

    def dept(self, name: str) -> Decimal:
        return dict(self.dept_fee)[name]


def compute_heldout4(truth: Truth4) -> Facts4:
    d = truth.visits
    y = d[d["月份"].str.startswith("2025")]
    east = y[y["院区"] == "东院"]
    march = y[y["月份"] == "2025-03"]
    sql = truth.sql
    with closing(sqlite3.connect(truth.db_path)) as conn:
        frame = pd.read_sql_query("SELECT * FROM visits", conn)
    fy = frame[frame["month"].str.startswith("2025")]
    h2 = {
        (campus, year): money(fees)
        for campus, year, fees in sql(
            "SELECT campus, CAST(substr(month, 1, 4) AS INTEGER), SUM(fee) FROM visits "
            "WHERE CAST(substr(month, 6, 2) AS INTEGER) >= 7 GROUP BY 1, 2"
        )
    }
    ped_h2 = dict(
        sql(
            "SELECT CAST(substr(month, 1, 4) AS INTEGER), COUNT(*) FROM visits "
            "WHERE department = 'Pediatrics' AND CAST(substr(month, 6, 2) AS INTEGER) >= 7 GROUP BY 1"
        )
    )
    ((ped_visits, ped_patients),) = sql(
        "SELECT COUNT(*), COUNT(DISTINCT patient_id) FROM visits "
        "WHERE department = 'Pediatrics' AND month LIKE '2025-%'"
    )
    ((db_total,),) = sql("SELECT SUM(fee) FROM visits WHERE month LIKE '2025-%'")
    ((db_q4,),) = sql("SELECT SUM(fee) FROM visits WHERE month BETWEEN '2025-10' AND '2025-12'")
    return Facts4(
        campus_fee=ranked(y.groupby("院区")["费用"].sum()),
        campus_fee_h2_2024=ranked(_between(d, "2024-07", "2024-12").groupby("院区")["费用"].sum()),
        campus_dec_fee={k: money(v) for k, v in y[y["月份"] == "2025-12"].groupby("院区")["费用"].sum().items()},
        campus_wait=ranked(y.groupby("院区")["候诊分钟"].mean(), exact),
        campus_visits={k: int(v) for k, v in y.groupby("院区").size().items()},
        total_fee=money(y["费用"].sum()),
        visits=len(y),
        patients=int(y["患者编号"].nunique()),
        all_visits=len(d),
        dept_fee=ranked(y.groupby("科室")["费用"].sum()),
        dept_avg_fee=ranked(y.groupby("科室")["费用"].mean(), exact),
        dept_visits=_counts(y.groupby("科室").size()),
        dept_fee_east=ranked(east.groupby("科室")["费用"].sum()),
        march_dept_visits=_counts(march.groupby("科室").size()),
        march_visits=len(march),
        type_visits={k: int(v) for k, v in y.groupby("类型").size().items()},
        q3_fee=money(_between(y, "2025-07", "2025-09")["费用"].sum()),
        q4_fee=money(_between(y, "2025-10", "2025-12")["费用"].sum()),
        month_visits={k: int(v) for k, v in y.groupby("月份").size().items()},
        room_fee=ranked(y.groupby("诊室")["费用"].sum()),
        wait_by_booked={k: exact(v) for k, v in y.groupby("是否预约")["候诊分钟"].mean().items()},
        booked=int((y["是否预约"] == "是").sum()),
        insured=money(y["医保支付"].sum()),
        avg_fee=exact(y["费用"].mean()),
        median_fee=exact(y["费用"].median()),
        db_campus_fee=ranked(fy.groupby("campus")["fee"].sum()),
        db_total=money(db_total),
        db_q4_total=money(db_q4),
        db_month_fee=ranked(fy.groupby("month")["fee"].sum()),
        db_dept_avg_fee=ranked(fy.groupby("department")["fee"].mean(), exact),
        db_dept_visits=_counts(fy.groupby("department").size()),
        db_ped_visits=int(ped_visits),
        db_ped_patients=int(ped_patients),
        db_wait_all={k: exact(v) for k, v in frame.groupby("booked")["wait_min"].mean().items()},
        db_campus_h2=h2,
        db_ped_h2={int(k): int(v) for k, v in ped_h2.items()},
        db_campus_avg_fee=sorted(
            ((c, exact(v)) for c, v in sql("SELECT campus, AVG(fee) FROM visits WHERE month LIKE '2025-%' GROUP BY 1")),
            key=lambda kv: kv[1],
            reverse=True,
        ),
    )
