"""Demo datasets: a year of orders (CSV) and a two-sheet workbook, ingested through the real services.

The data is generated deterministically (same rows on every machine) and seeded idempotently:
a dataset that already exists is left as it is.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from typing import Any

import openpyxl

from apps.datasets import services
from apps.datasets.models import Dataset, DatasetVersion
from apps.tenants.models import Tenant

ORDERS = "销售订单"
TARGETS = "年度目标"
_ACCOUNTS = ["天猫旗舰店", "京东自营", "抖音小店", "线下门店"]
_REGIONS = ["华东", "华北", "华南", "西部"]
_PRODUCTS = {"保温杯": 89.0, "电热水壶": 159.0, "空气炸锅": 399.0, "榨汁机": 259.0, "电饭煲": 329.0}
_RETURN_REASONS = ["质量问题", "尺寸不符", "七天无理由", "物流破损"]


def orders_csv(rows: int = 3000, seed: int = 2025) -> bytes:
    """Orders of 2025 with account, region, product, amount and return reason (UTF-8 with BOM)."""
    rng = random.Random(seed)  # noqa: S311 - demo data, reproducible on purpose
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["订单编号", "下单日期", "账号", "地区", "产品", "数量", "金额", "是否退货", "退货原因"])
    start = dt.date(2025, 1, 1)
    for i in range(rows):
        product = rng.choice(list(_PRODUCTS))
        quantity = rng.choice([1, 1, 1, 2, 2, 3])
        returned = rng.random() < 0.08
        writer.writerow(
            [
                f"SO{2025_000_000 + i}",
                (start + dt.timedelta(days=rng.randrange(365))).isoformat(),
                rng.choice(_ACCOUNTS),
                rng.choice(_REGIONS),
                product,
                quantity,
                round(_PRODUCTS[product] * quantity * rng.uniform(0.85, 1.0), 2),
                "true" if returned else "false",
                rng.choice(_RETURN_REASONS) if returned else "",
            ]
        )
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def targets_xlsx() -> bytes:
    """A workbook with a title row above the header (header on row 2) and a notes sheet."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "目标"
    sheet.append(["2025 年各账号季度销售目标（单位：元）"])
    sheet.append(["账号", "季度", "目标金额"])
    for account_index, account in enumerate(_ACCOUNTS):
        for quarter in range(1, 5):
            sheet.append([account, f"2025-Q{quarter}", 120_000 + 15_000 * account_index + 5_000 * quarter])
    notes = workbook.create_sheet("说明")
    notes.append(["说明"])
    notes.append(["目标由销售部制定"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _seed_one(
    tenant: Tenant, name: str, content: bytes, file_name: str, user: Any, *, sheet: str | None = None, header: int = 1
) -> DatasetVersion:
    existing = Dataset.objects.for_tenant(tenant).filter(name=name).select_related("current_version").first()
    if existing is not None and existing.current_version is not None:
        return existing.current_version
    if existing is not None:  # a dataset left without data (e.g. an interrupted seed): start it again
        services.dataset_delete(tenant=tenant, dataset=existing)
    upload = services.upload_receive(
        tenant=tenant, chunks=[content], original_name=file_name, size=len(content), created_by=user
    )
    return services.dataset_create(
        tenant=tenant, upload=upload, name=name, sheet=sheet, header_row=header, created_by=user, wait=True
    )


def demo_datasets_seed(*, tenant: Tenant, user: Any = None) -> list[DatasetVersion]:
    return [
        _seed_one(tenant, ORDERS, orders_csv(), "orders-2025.csv", user),
        _seed_one(tenant, TARGETS, targets_xlsx(), "targets-2025.xlsx", user, sheet="目标", header=2),
    ]
