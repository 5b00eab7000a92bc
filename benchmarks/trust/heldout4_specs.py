"""The queries the fourth held-out set's scripted models send (门诊就诊 and clinic.db), the steps they take on
each source, and how they write money (万元, ¥46.3k)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from benchmarks.trust.formats import num, scaled
from benchmarks.trust.script import Spec, answer, call, honest, sql
from tests.agent.loopback import Turn

VISITS = "visits"


def months(first: str, last: str, column: str = "月份") -> Spec:
    """Months are text ("2025-03"), so a period is a range of strings."""
    return {"column": column, "op": "between", "value": [first, last]}


def eq(column: str, value: Any) -> Spec:
    return {"column": column, "op": "=", "value": value}


Y2025 = months("2025-01", "2025-12")
COUNT = {"name": "人次", "func": "count"}
FEE = {"name": "费用", "func": "sum", "column": "费用"}


def by(
    group: str, *filters: Spec, aggs: list[Spec] | None = None, sort: str = "费用", limit: int | None = None
) -> Spec:
    spec: dict[str, Any] = {
        "filters": list(filters),
        "group_by": [group],
        "aggregations": aggs or [FEE],
        "sort": [{"by": sort, "desc": True}],
    }
    if limit:
        spec["limit"] = limit
    return spec


CAMPUS_FEE_2025 = by("院区", Y2025)
CAMPUS_FEE_H2_2024 = by("院区", months("2024-07", "2024-12"))
DEPT_FEE_2025 = by("科室", Y2025)
DEPT_VISITS_2025 = by("科室", Y2025, aggs=[COUNT], sort="人次")
MARCH_DEPT = by("科室", eq("月份", "2025-03"), aggs=[COUNT], sort="人次")
DEPT_AVG_2025 = by("科室", Y2025, aggs=[{"name": "次均费用", "func": "avg", "column": "费用"}, COUNT], sort="次均费用")
CAMPUS_WAIT_2025 = by(
    "院区", Y2025, aggs=[{"name": "平均候诊分钟", "func": "avg", "column": "候诊分钟"}], sort="平均候诊分钟"
)
WAIT_BOOKED_2025 = by(
    "是否预约", Y2025, aggs=[{"name": "平均候诊分钟", "func": "avg", "column": "候诊分钟"}], sort="平均候诊分钟"
)
TYPE_SHARE_2025 = {
    **by("类型", Y2025, aggs=[COUNT], sort="人次"),
    "windows": [{"name": "占比", "func": "share_of_total", "of": "人次"}],
}
EAST_DEPT_SHARE_2025 = {
    **by("科室", Y2025, eq("院区", "东院")),
    "windows": [{"name": "占比", "func": "share_of_total", "of": "费用"}],
}
MONTH_VISITS_2025 = {**by("月份", Y2025, aggs=[COUNT]), "sort": [{"by": "月份"}]}


def rooms(limit: int) -> Spec:
    return by("诊室", Y2025, limit=limit)


PATIENTS_2025: Spec = {
    "filters": [Y2025],
    "aggregations": [{"name": "患者数", "func": "nunique", "column": "患者编号"}, COUNT],
}
VISITS_2025: Spec = {"filters": [Y2025], "aggregations": [COUNT]}
QUARTERS_2025: Spec = {
    "aggregations": [
        {"name": "三季度", "func": "sum", "column": "费用", "where": [months("2025-07", "2025-09")]},
        {"name": "四季度", "func": "sum", "column": "费用", "where": [months("2025-10", "2025-12")]},
    ],
    "derived": [{"name": "环比", "expr": "(四季度 - 三季度) / 三季度"}],
}
INSURED_2025: Spec = {
    "filters": [Y2025],
    "aggregations": [{"name": "医保支付", "func": "sum", "column": "医保支付"}, FEE],
    "derived": [{"name": "医保占比", "expr": "医保支付 / 费用"}],
}
BOOKED_2025: Spec = {
    "filters": [Y2025],
    "aggregations": [{"name": "预约人次", "func": "count", "where": [eq("是否预约", "是")]}, COUNT],
    "derived": [{"name": "预约率", "expr": "预约人次 / 人次"}],
}
FEE_STATS_2025: Spec = {
    "filters": [Y2025],
    "aggregations": [
        {"name": "平均费用", "func": "avg", "column": "费用"},
        {"name": "费用中位数", "func": "median", "column": "费用"},
        COUNT,
    ],
}
EAST_2025: Spec = {"filters": [eq("院区", "东院"), Y2025], "aggregations": [FEE, COUNT]}
EAST_DEC_2025: Spec = {"filters": [eq("院区", "东院"), eq("月份", "2025-12")], "aggregations": [FEE, COUNT]}
SURGERY_2025: Spec = {
    "filters": [eq("科室", "外科"), Y2025],
    "aggregations": [
        {"name": "费用合计", "func": "sum", "column": "费用"},
        {"name": "次均费用", "func": "avg", "column": "费用"},
        COUNT,
    ],
}

# --- clinic.db (`visits`, English) ---------------------------------------------------------------------------

DB_CAMPUS = "SELECT campus, SUM(fee) AS fees FROM visits WHERE month LIKE '2025-%' GROUP BY campus ORDER BY fees DESC"
DB_MONTHS = (
    "SELECT month, SUM(fee) AS fees FROM visits WHERE month LIKE '2025-%' GROUP BY month ORDER BY fees DESC LIMIT 3"
)
DB_PED = (
    "SELECT COUNT(DISTINCT patient_id) AS patients, COUNT(*) AS visits FROM visits "
    "WHERE department = 'Pediatrics' AND month LIKE '2025-%'"
)
DB_DEPT_AVG = (
    "SELECT department, AVG(fee) AS avg_fee, COUNT(*) AS visits FROM visits "
    "WHERE month LIKE '2025-%' GROUP BY department ORDER BY avg_fee DESC"
)
DB_DEPT_VISITS = (
    "SELECT department, COUNT(*) AS visits FROM visits "
    "WHERE month LIKE '2025-%' GROUP BY department ORDER BY visits DESC"
)
DB_YEAR_TOTAL = "SELECT SUM(fee) AS fees, COUNT(*) AS visits FROM visits WHERE month LIKE '2025-%'"
DB_WEST_H2 = (
    "SELECT substr(month, 1, 4) AS year, SUM(fee) AS fees FROM visits "
    "WHERE campus = 'West' AND substr(month, 6, 2) >= '07' GROUP BY year ORDER BY year"
)
DB_CAMPUS_H2_2025 = (
    "SELECT campus, SUM(fee) AS fees FROM visits WHERE month BETWEEN '2025-07' AND '2025-12' "
    "GROUP BY campus ORDER BY fees DESC"
)
DB_PED_H2 = (
    "SELECT substr(month, 1, 4) AS year, COUNT(*) AS visits FROM visits "
    "WHERE department = 'Pediatrics' AND substr(month, 6, 2) >= '07' GROUP BY year ORDER BY year"
)
DB_WAIT: Spec = {
    "group_by": ["booked"],
    "aggregations": [
        {"name": "avg_wait_min", "func": "avg", "column": "wait_min"},
        {"name": "visits", "func": "count"},
    ],
    "sort": [{"by": "avg_wait_min"}],
}
DB_CAMPUS_AVG = (
    "SELECT campus, AVG(fee) AS avg_fee, COUNT(*) AS visits FROM visits "
    "WHERE month LIKE '2025-%' GROUP BY campus ORDER BY avg_fee"
)


# --- steps -------------------------------------------------------------------------------------------------


def file_run(spec: Spec, draft: str) -> list[Turn]:
    """get_schema, one run_query on the spreadsheet, the draft."""
    return honest("clinic", spec, draft)


def db_run(query: str | Spec, draft: str) -> list[Turn]:
    """list_tables, get_schema of `visits`, one execute_sql_safe (or run_query on `visits`), the draft."""
    step = sql(query) if isinstance(query, str) else call("run_query", {"table": VISITS, "spec": query})
    return [call("list_tables", {}), call("get_schema", {"table": VISITS}), step, *answer(draft)]


# --- how the drafts write money ------------------------------------------------------------------------------


def wan(value: Decimal, places: int = 2) -> str:
    """4.63万元"""
    return scaled(value, "万", places) + "元"


def yuan(value: Decimal, places: int = 2) -> str:
    """12,345.67 元"""
    return f"{num(value, places)} 元"


def k(value: Decimal, places: int = 1) -> str:
    """¥46.3k"""
    return "¥" + num(value.scaleb(-3), places) + "k"
