"""The requirement documents' other calls over the API: create_dataset from a staged file (file_id -> dataset_id),
get_schema's columns (name, type, null_ratio, example_values), sample_rows (n, columns) and resolve_fields
(terms -> mapped_columns), each beside the richer answer the API already gave."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.datasets.models import Dataset
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE

RETURNS_ROWS = [
    ["账号", "月份", "退货数量", "产品质量", "物流异常"],
    ["Amazon_A", "2025-01", 12, 4, 1],
    ["Amazon_A", "2025-02", 35, 9, 3],
    ["Amazon_B", "2025-01", 8, 2, 0],
]


def workbook(rows: list[list], *, title_rows: int = 0) -> SimpleUploadedFile:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for _ in range(title_rows):
        sheet.append(["2025 退货报表"])
    for row in rows:
        sheet.append(row)
    book.create_sheet("说明").append(["本表仅供内部使用"])
    buffer = io.BytesIO()
    book.save(buffer)
    return SimpleUploadedFile("returns.xlsx", buffer.getvalue())


@pytest.fixture
def staged(writer):
    """A workbook whose header sits on row 2 of Sheet1, staged with POST uploads/."""
    resp = writer.post("/api/v1/uploads/", {"file": workbook(RETURNS_ROWS, title_rows=1)}, format="multipart")
    assert resp.status_code == 201, resp.json()
    return resp.json()


@pytest.fixture
def returns(writer, staged):
    resp = writer.post(
        "/api/v1/datasets/", {"file_id": staged["file_id"], "sheet": "Sheet1", "header_row": 2}, format="json"
    )
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_create_dataset_from_a_staged_file(staged, returns, writer, tenant_a):
    assert staged["file_id"] == staged["id"] and staged["sheets"] == ["Sheet1", "说明"]
    assert returns["dataset_id"] == returns["id"] and returns["row_count"] == 3
    assert returns["source_type"] == "excel" and returns["ingest"]["header_row"] == 2
    assert [c["name"] for c in returns["schema"]] == RETURNS_ROWS[0]
    dataset = Dataset.objects.for_tenant(tenant_a).get(pk=returns["dataset_id"])
    assert dataset.current_version.sheet == "Sheet1"
    listed = writer.get("/api/v1/datasets/").json()["results"]
    assert [d["dataset_id"] for d in listed] == [returns["dataset_id"]]


@pytest.mark.parametrize(
    ("body", "status", "code", "fragment"),
    [
        ({"file_id": 999999, "sheet": "Sheet1", "header_row": 1}, 404, "not_found", ""),
        ({"file_id": "file_xxx", "sheet": "Sheet1"}, 400, "invalid", "file_id"),
        ({"sheet": "Sheet9"}, 400, "unknown_sheet", "'Sheet1', '说明'"),
        ({"header_row": 0}, 400, "invalid", "header_row"),
        ({"header_row": 1001}, 400, "invalid", "header_row"),
        ({"header_row": 9}, 400, "empty_sheet", ""),
        ({"upload": "same", "header_row": 2}, 400, "invalid", "either a file"),
    ],
)
def test_create_dataset_refuses_bad_input_clearly(writer, staged, tenant_a, body, status, code, fragment):
    body = {"file_id": staged["file_id"], **body}
    if body.get("upload") == "same":
        body["upload"] = staged["file_id"]
    resp = writer.post("/api/v1/datasets/", body, format="json")
    assert resp.status_code == status, resp.json()
    assert resp.json()["code"] == code and fragment in str(resp.json()), resp.json()
    assert not Dataset.objects.for_tenant(tenant_a).exists()


def test_another_tenants_file_id_is_a_404(staged, tenant_b, make_token, api_client):
    other = api_client(make_token(tenant_b, [DATASETS_READ, DATASETS_WRITE]))
    resp = other.post("/api/v1/datasets/", {"file_id": staged["file_id"], "sheet": "Sheet1"}, format="json")
    assert resp.status_code == 404 and resp.json()["code"] == "not_found"
    assert not Dataset.objects.for_tenant(tenant_b).exists()


def test_get_schema_answers_the_documented_columns(writer, returns):
    schema = writer.get(f"/api/v1/datasets/{returns['id']}/schema/").json()
    assert schema["dataset_id"] == returns["id"] and schema["row_count"] == 3
    column = next(c for c in schema["columns"] if c["name"] == "退货数量")
    assert {"name", "type", "null_ratio", "example_values"} <= set(column)
    assert column["null_ratio"] == 0.0 and sorted(column["example_values"]) == [8, 12, 35]
    assert column["example_values"] == column["examples"] and column["role"] == "measure"
    detail = next(c for c in returns["schema"] if c["name"] == "退货数量")
    assert detail["example_values"] == column["example_values"], "the dataset's detail shows the same columns"


def test_sample_rows_take_the_documented_body(writer, returns):
    url = f"/api/v1/datasets/{returns['id']}/rows/"
    body = {"dataset_id": returns["dataset_id"], "n": 2, "columns": ["账号", "月份", "退货数量"]}
    rows = writer.post(url, body, format="json").json()
    assert rows["columns"] == ["账号", "月份", "退货数量"] and rows["rows"] == [
        ["Amazon_A", "2025-01", 12],
        ["Amazon_A", "2025-02", 35],
    ]
    assert writer.get(f"{url}?n=2&columns=账号,月份,退货数量").json()["rows"] == rows["rows"]
    other = writer.post(url, {**body, "dataset_id": "ds_abc123"}, format="json")
    assert other.status_code == 400 and other.json()["code"] == "dataset_mismatch"
    assert str(returns["id"]) in other.json()["message"]
    too_many = writer.post(url, {"n": 51}, format="json")
    assert too_many.status_code == 400 and "n" in too_many.json()["message"]


def test_resolve_fields_answers_mapped_columns(writer, returns):
    resp = writer.post(f"/api/v1/datasets/{returns['id']}/resolve/", {"terms": ["产品质量", "物流"]}, format="json")
    body = resp.json()
    assert body["mapped_columns"][:2] == ["产品质量", "物流异常"]
    assert [r["term"] for r in body["resolutions"]] == ["产品质量", "物流"], "the detail stays"
    documented = {"dataset_id": returns["dataset_id"], "terms": ["退货原因", "质量问题"]}
    answer = writer.post(f"/api/v1/datasets/{returns['id']}/resolve/", documented, format="json").json()
    assert isinstance(answer["mapped_columns"], list) and "resolutions" in answer
