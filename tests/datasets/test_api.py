"""Dataset API: upload and ingest, schema, sample rows, queries, versions, tenancy and bad input."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.datasets import services
from apps.datasets.models import Dataset, DatasetVersion, Upload
from apps.datasets.storage import tenant_dir
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE
from tests.support.waiting import wait_until

SALES_CSV = (
    "地区,产品,金额,日期\n华东,A,100.5,2025-01-03\n华北,B,200,2025-02-10\n华东,B,50,2025-02-11\n西部,A,,2025-03-01\n"
)


def csv_file(text: str = SALES_CSV, name: str = "sales.csv", encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv")


def xlsx_file(sheets: dict[str, list[list]], name: str = "book.xlsx") -> SimpleUploadedFile:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in sheets.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile(name, buffer.getvalue())


@pytest.fixture
def sales(writer):
    resp = writer.post("/api/v1/datasets/", {"file": csv_file(), "name": "销售"}, format="multipart")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_upload_csv_gives_schema_and_rows(sales):
    assert sales["name"] == "销售" and sales["row_count"] == 4 and sales["version"] == 1
    columns = {c["name"]: c for c in sales["schema"]}
    assert list(columns) == ["地区", "产品", "金额", "日期"]
    assert columns["金额"]["role"] == "measure" and columns["日期"]["role"] == "time"
    assert columns["地区"]["role"] == "dimension" and columns["金额"]["null_ratio"] == 0.25
    assert sales["versions"][0]["status"] == "ready"


def test_list_detail_and_sample_rows(writer, sales):
    listing = writer.get("/api/v1/datasets/").json()
    assert [d["name"] for d in listing["results"]] == ["销售"]
    rows = writer.get(f"/api/v1/datasets/{sales['id']}/rows/?n=2&columns=地区,金额").json()
    assert rows["columns"] == ["地区", "金额"] and rows["rows"] == [["华东", 100.5], ["华北", 200.0]]
    bad = writer.get(f"/api/v1/datasets/{sales['id']}/rows/?n=500")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_sample_size"
    unknown = writer.get(f"/api/v1/datasets/{sales['id']}/rows/?columns=区域")
    assert unknown.json()["code"] == "unknown_column" and "地区" in unknown.json()["message"]


def test_sample_columns_may_be_listed_with_spaces(writer, sales):
    rows = writer.get(f"/api/v1/datasets/{sales['id']}/rows/?n=2&columns=地区, 金额").json()
    assert rows["columns"] == ["地区", "金额"] and rows["rows"] == [["华东", 100.5], ["华北", 200.0]]


def test_query_returns_tool_computed_numbers(writer, sales):
    spec = {
        "group_by": ["地区"],
        "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}, {"name": "单数", "func": "count"}],
        "sort": [{"by": "销售额", "desc": True}],
    }
    body = writer.post(f"/api/v1/datasets/{sales['id']}/query/", spec, format="json").json()
    assert body["columns"] == ["地区", "销售额", "单数"]
    assert body["rows"] == [["华北", 200.0, 1], ["华东", 150.5, 2], ["西部", None, 1]]
    assert body["row_count"] == 3 and not body["truncated"] and "SELECT" in body["sql"]
    assert body["dataset_version"] == 1


@pytest.mark.parametrize(
    ("spec", "code", "fragment"),
    [
        ({"columns": ["区域"]}, "unknown_column", "地区"),
        ({"columns": ["地区"], "limit": 100000}, "invalid_spec", "limit"),
        ({"aggregations": [{"name": "x", "func": "eval", "column": "金额"}]}, "invalid_spec", "func"),
        (
            {
                "group_by": ["地区"],
                "aggregations": [{"name": "n", "func": "count"}],
                "derived": [{"name": "d", "expr": "n; DROP TABLE data"}],
            },
            "invalid_expression",
            "unexpected",
        ),
    ],
)
def test_bad_queries_are_400_with_a_reason(writer, sales, spec, code, fragment):
    resp = writer.post(f"/api/v1/datasets/{sales['id']}/query/", spec, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == code and fragment in resp.json()["message"]


def test_new_version_and_same_file_again(writer, sales):
    url = f"/api/v1/datasets/{sales['id']}/versions/"
    again = writer.post(url, {"file": csv_file()}, format="multipart").json()
    assert again["version"] == 1, "identical content does not make a new version"
    more = SALES_CSV + "华南,C,300,2025-04-01\n"
    second = writer.post(url, {"file": csv_file(more)}, format="multipart")
    assert second.status_code == 201 and second.json()["version"] == 2 and second.json()["row_count"] == 5
    total = writer.post(
        f"/api/v1/datasets/{sales['id']}/query/",
        {"aggregations": [{"name": "n", "func": "count"}]},
        format="json",
    ).json()
    assert total["rows"] == [[5]] and total["dataset_version"] == 2
    assert writer.get(f"/api/v1/datasets/{sales['id']}/versions/1/").json()["row_count"] == 4


def test_workbook_sheets_become_datasets(writer):
    book = xlsx_file({"一月": [["客户", "金额"], ["张三", 10], ["李四", 20]], "二月": [["客户", "金额"], ["王五", 5]]})
    staged = writer.post("/api/v1/uploads/", {"file": book}, format="multipart").json()
    assert staged["sheets"] == ["一月", "二月"] and staged["format"] == "xlsx"
    for sheet in staged["sheets"]:
        resp = writer.post("/api/v1/datasets/", {"upload": staged["id"], "sheet": sheet}, format="json")
        assert resp.status_code == 201
    names = [d["name"] for d in writer.get("/api/v1/datasets/").json()["results"]]
    assert names == ["book - 一月", "book - 二月"]
    unknown = writer.post("/api/v1/datasets/", {"upload": staged["id"], "sheet": "三月"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_sheet"
    assert "一月" in unknown.json()["message"]


def test_failed_ingest_leaves_nothing_behind(writer, tenant_a):
    resp = writer.post("/api/v1/datasets/", {"file": csv_file("a,a\n1,2\n", name="dup.csv")}, format="multipart")
    assert resp.status_code == 400 and resp.json()["code"] == "duplicate_header"
    assert not Dataset.objects.for_tenant(tenant_a).exists()
    assert not DatasetVersion.objects.for_tenant(tenant_a).exists()
    versions = tenant_dir(tenant_a) / "versions"
    assert not versions.exists() or not any(versions.iterdir())


def test_empty_and_unsupported_files(writer, tenant_a):
    empty = writer.post("/api/v1/datasets/", {"file": csv_file("", name="e.csv")}, format="multipart")
    assert empty.status_code == 400 and empty.json()["code"] == "empty_file"
    png = SimpleUploadedFile("pic.csv", b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    wrong = writer.post("/api/v1/datasets/", {"file": png}, format="multipart")
    assert wrong.status_code == 400 and wrong.json()["code"] == "unsupported_format"
    assert not Upload.objects.for_tenant(tenant_a).exists()
    assert not any(p for p in (tenant_dir(tenant_a) / "uploads").iterdir())


def test_file_over_the_plan_limit(writer, tenant_a, settings):
    settings.PLAN_LIMITS = {**settings.PLAN_LIMITS, "free": {"max_upload_bytes": 50, "max_rows": 10}}
    resp = writer.post("/api/v1/datasets/", {"file": csv_file()}, format="multipart")
    assert resp.status_code == 400 and resp.json()["code"] == "file_too_large"
    assert not Upload.objects.for_tenant(tenant_a).exists()


def test_rows_over_the_plan_limit(writer, tenant_a, settings):
    settings.PLAN_LIMITS = {**settings.PLAN_LIMITS, "free": {"max_upload_bytes": 10**6, "max_rows": 3}}
    resp = writer.post("/api/v1/datasets/", {"file": csv_file()}, format="multipart")
    assert resp.status_code == 400 and resp.json()["code"] == "too_many_rows"


def test_missing_file_and_both_file_and_upload(writer):
    assert writer.post("/api/v1/datasets/", {}, format="multipart").json()["code"] == "invalid"
    assert writer.post("/api/v1/uploads/", {}, format="multipart").json()["code"] == "file_required"


def test_reader_token_cannot_upload(tenant_a, make_token, api_client):
    reader = api_client(make_token(tenant_a, [DATASETS_READ]))
    resp = reader.post("/api/v1/datasets/", {"file": csv_file()}, format="multipart")
    assert resp.status_code == 403 and resp.json()["code"] == "missing_scope"
    assert not Upload.objects.for_tenant(tenant_a).exists()


def test_another_tenants_dataset_is_a_404(sales, tenant_b, make_token, api_client, tenant_a):
    other = api_client(make_token(tenant_b, [DATASETS_READ, DATASETS_WRITE]))
    dataset_id = sales["id"]
    upload_id = Upload.objects.for_tenant(tenant_a).get().pk
    attempts = [
        other.get(f"/api/v1/datasets/{dataset_id}/"),
        other.get(f"/api/v1/datasets/{dataset_id}/rows/"),
        other.post(f"/api/v1/datasets/{dataset_id}/query/", {"columns": ["地区"]}, format="json"),
        other.get(f"/api/v1/datasets/{dataset_id}/versions/1/"),
        other.post(f"/api/v1/datasets/{dataset_id}/versions/", {"file": csv_file()}, format="multipart"),
        other.delete(f"/api/v1/datasets/{dataset_id}/"),
        other.post("/api/v1/datasets/", {"upload": upload_id}, format="json"),
    ]
    assert [r.status_code for r in attempts] == [404] * len(attempts)
    assert all(r.json()["code"] == "not_found" for r in attempts)
    assert Dataset.objects.for_tenant(tenant_a).filter(pk=dataset_id).exists()


def test_delete_removes_data_files(writer, sales, tenant_a):
    files = list((tenant_dir(tenant_a) / "versions").iterdir())
    assert files
    assert writer.delete(f"/api/v1/datasets/{sales['id']}/").status_code == 204
    assert not any((tenant_dir(tenant_a) / "versions").iterdir())
    assert writer.get(f"/api/v1/datasets/{sales['id']}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_large_uploads_ingest_in_the_background(tenant_a, make_token, api_client, monkeypatch):
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 10)
    client = api_client(make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE]))
    body = "n,v\n" + "".join(f"{i},{i * 2}\n" for i in range(5000))
    resp = client.post("/api/v1/datasets/", {"file": csv_file(body, name="big.csv")}, format="multipart")
    assert resp.status_code == 202
    dataset = resp.json()
    assert dataset["ingest"]["status"] in ("pending", "ingesting", "ready")

    def ingested():
        status = client.get(f"/api/v1/datasets/{dataset['id']}/versions/1/").json()
        return status if status["status"] in ("ready", "failed") else None

    status = wait_until(ingested, timeout=30, what="the background ingest finished", interval=0.1)
    assert status["status"] == "ready" and status["progress"] == 1.0 and status["row_count"] == 5000


def test_query_before_ingest_finishes_is_a_clear_error(writer, tenant_a, monkeypatch):
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 10)
    monkeypatch.setattr(services, "_start_background_ingest", lambda *args: None)  # never runs: stays pending
    dataset = writer.post("/api/v1/datasets/", {"file": csv_file()}, format="multipart").json()
    resp = writer.post(f"/api/v1/datasets/{dataset['id']}/query/", {"columns": ["地区"]}, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == "dataset_not_ready"
    assert "try again shortly" in resp.json()["message"]


def test_gbk_csv_keeps_chinese(writer):
    resp = writer.post(
        "/api/v1/datasets/", {"file": csv_file(SALES_CSV, name="gbk.csv", encoding="gbk")}, format="multipart"
    )
    assert resp.status_code == 201
    assert [c["name"] for c in resp.json()["schema"]][:2] == ["地区", "产品"]
