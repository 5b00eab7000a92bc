"""The fourth held-out set's data: one clinic's outpatient visits (门诊就诊), generated deterministically and
ingested twice through the real services, next to the base world's sources:

- 门诊就诊 (spreadsheet, Chinese headers and labels): one row per visit from 2024-07 to 2025-12, the month
  stored as text ("2025-03"), three campuses (院区), five departments (科室), consulting rooms whose codes look
  like numbers ("112", "231"), patients who come back (类型 is 复诊 from a patient's second visit on), 费用 and
  医保支付 in yuan with cents, 候诊分钟 and 是否预约 (是/否);
- clinic.db (SQLite source): the same visits as table `visits`, English column names and labels.

西院 grows in 2025 and 南院 shrinks; children's visits peak in winter; booked patients wait less. Just under
half of the 2025 visits were booked (so "50%" is a rounding, "more than half" is false).

The truth is read back from the same bytes with pandas and sqlite3 (heldout4_facts.py), never through the
product.
"""

from __future__ import annotations

import io
import random
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from django.conf import settings

from apps.agent.tools import DataBinding
from apps.datasets import services
from apps.datasets.sources import services as source_services
from benchmarks.trust.data import World, _csv, _yuan

CAMPUSES = ["东院", "西院", "南院"]
DEPARTMENTS = ["内科", "外科", "儿科", "口腔科", "眼科"]
EN_CAMPUS = {"东院": "East", "西院": "West", "南院": "South"}
EN_DEPARTMENT = {"内科": "Internal", "外科": "Surgery", "儿科": "Pediatrics", "口腔科": "Dental", "眼科": "Eye"}
EN_KIND = {"初诊": "first", "复诊": "follow-up"}
HEADER = ["就诊编号", "月份", "院区", "科室", "诊室", "患者编号", "类型", "费用", "医保支付", "候诊分钟", "是否预约"]
SQL_COLUMNS = [
    "visit_id", "month", "campus", "department", "room", "patient_id", "visit_type", "fee", "insured", "wait_min",
    "booked",
]  # fmt: skip
MONTHS = [f"2024-{m:02d}" for m in range(7, 13)] + [f"2025-{m:02d}" for m in range(1, 13)]
_CAMPUS_WEIGHT = {"东院": 1.0, "西院": 0.8, "南院": 0.7}
_GROWTH_2025 = {"东院": 1.04, "西院": 1.35, "南院": 0.82}
_DEPT_WEIGHT = {"内科": 1.0, "外科": 0.55, "儿科": 0.7, "口腔科": 0.45, "眼科": 0.35}
_FEE = {"内科": (180, 650), "外科": (300, 1800), "儿科": (120, 480), "口腔科": (250, 1500), "眼科": (150, 900)}


def _month_rows(rng: random.Random, month: str) -> list[tuple[str, str]]:
    """(campus, department) of each visit in `month`: 14-22 visits, weighted, children more in winter."""
    year, mon = int(month[:4]), int(month[5:])
    campuses = [c for c in CAMPUSES for _ in range(3)]
    weights = [_CAMPUS_WEIGHT[c] * (_GROWTH_2025[c] if year == 2025 else 1.0) for c in campuses]
    dept_w = [_DEPT_WEIGHT[d] * (1.8 if d == "儿科" and mon in (1, 2, 11, 12) else 1.0) for d in DEPARTMENTS]
    return [
        (rng.choices(campuses, weights)[0], rng.choices(DEPARTMENTS, dept_w)[0]) for _ in range(rng.randint(14, 22))
    ]


def visits(seed: int = 67) -> list[list[Any]]:
    """Every visit as [id, month, campus, department, room, patient, type, fee, insured, wait, booked]."""
    rng = random.Random(seed)  # noqa: S311 - reproducible data on purpose
    seen: set[str] = set()
    raw: list[list[Any]] = []
    for month in MONTHS:
        for n, (campus, dept) in enumerate(_month_rows(rng, month), start=1):
            room = f"{CAMPUSES.index(campus) + 1}{DEPARTMENTS.index(dept) + 1}{rng.choice([1, 2])}"
            patient = f"P{rng.randint(1, 170):04d}"
            kind = "复诊" if patient in seen else "初诊"
            seen.add(patient)
            cents = rng.randint(_FEE[dept][0] * 100, _FEE[dept][1] * 100)
            insured = int(cents * rng.uniform(0.35, 0.75))
            raw.append([f"V{month[2:4]}{month[5:]}{n:03d}", month, campus, dept, room, patient, kind, cents, insured])
    # Booked: 40% of the 2024 visits; in 2025 exactly (n - 1) // 2 of n, just under half.
    in_2025 = [i for i, row in enumerate(raw) if row[1].startswith("2025")]
    booked = set(rng.sample(in_2025, (len(in_2025) - 1) // 2))
    booked |= {i for i, row in enumerate(raw) if row[1].startswith("2024") and rng.random() < 0.4}
    rows = []
    for i, (vid, month, campus, dept, room, patient, kind, cents, insured) in enumerate(raw):
        wait = rng.randint(4, 22) if i in booked else rng.randint(15, 58)
        yes = "是" if i in booked else "否"
        rows.append([vid, month, campus, dept, room, patient, kind, _yuan(cents), _yuan(insured), wait, yes])
    return rows


def visits_csv() -> bytes:
    return _csv(HEADER, visits())


def make_clinic_db(path: Path) -> Path:
    """The same visits as the SQLite table `visits`, in English."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    rows = [
        (vid, month, EN_CAMPUS[c], EN_DEPARTMENT[d], room, p, EN_KIND[k], float(fee), float(ins), wait, yes == "是")
        for vid, month, c, d, room, p, k, fee, ins, wait, yes in visits()
    ]
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(
            "CREATE TABLE visits (visit_id TEXT, month TEXT, campus TEXT, department TEXT, room TEXT, "
            "patient_id TEXT, visit_type TEXT, fee REAL, insured REAL, wait_min INTEGER, booked TEXT)"
        )
        conn.executemany(
            "INSERT INTO visits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*r[:10], "Y" if r[10] else "N") for r in rows],
        )
        conn.commit()
    return path


@dataclass
class Truth4:
    """The visits as pandas reads the spreadsheet's bytes, and the SQLite file for sqlite3."""

    visits: pd.DataFrame
    db_path: Path

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(self.db_path)) as conn:
            return list(conn.execute(query, params).fetchall())


def load_visits() -> pd.DataFrame:
    """Months and room codes stay text, as they are written."""
    return pd.read_csv(io.BytesIO(visits_csv()), dtype={"月份": str, "诊室": str}, keep_default_na=False)


def add_heldout4_data(world: World) -> Truth4:
    """Ingest the visits spreadsheet (binding `clinic`) and register clinic.db (binding `clinicdb`), once."""
    db_path = Path(settings.SQLITE_SOURCES_ROOT) / world.tenant.slug / "clinic.db"
    if "clinic" not in world.bindings:
        content = visits_csv()
        upload = services.upload_receive(
            tenant=world.tenant, chunks=[content], original_name="clinic.csv", size=len(content)
        )
        version = services.dataset_create(tenant=world.tenant, upload=upload, name="门诊就诊", wait=True)
        world.bindings["clinic"] = DataBinding.for_dataset(tenant=world.tenant, dataset=version.dataset)
        make_clinic_db(db_path)
        source = source_services.source_create(tenant=world.tenant, name="门诊库", kind="sqlite", database="clinic.db")
        world.bindings["clinicdb"] = DataBinding.for_source(tenant=world.tenant, source=source)
    return Truth4(visits=load_visits(), db_path=db_path)
