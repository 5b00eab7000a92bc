"""Exports: CSV and XLSX round trips, formula injection neutralised, safe file names, the export API."""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import re
from urllib.parse import unquote

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.datasets.outputs.export import (
    XLSX_MAX_CELL_CHARS,
    content_disposition,
    download_filename,
    export_csv,
    export_xlsx,
    neutralise,
    sheet_title,
)
from apps.datasets.query.results import ResultTable
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE

INJECTIONS = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


def sample_result() -> ResultTable:
    rows = [
        ["华东", 100.5, -5, "2025-01-03", "2025-01-03 09:30:00", True, "=1+1"],
        ["华北", None, 3, "2025-02-10", None, False, "+cmd"],
        ["西部", -0.25, None, None, "2025-03-01 18:00:00+08:00", None, "-2+3"],
        ["华南", 1e-05, 0, "2025-04-01", "2025-04-01 00:00:00", True, "@SUM(A1)"],
        ["东北", 7.0, 12, "2025-05-05", "2025-05-05 12:00:00", False, "正常 -5 备注"],
    ]
    return ResultTable(
        columns=["地区", "金额", "数量", "日期", "时间", "有效", "备注"],
        column_types=["VARCHAR", "DOUBLE", "BIGINT", "DATE", "TIMESTAMP", "BOOLEAN", "VARCHAR"],
        rows=rows,
        row_count=len(rows),
    )


def read_csv(content: bytes) -> list[list[str]]:
    assert content.startswith(codecs.BOM_UTF8), "Excel needs the BOM to read UTF-8 Chinese"
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def read_xlsx(content: bytes) -> openpyxl.worksheet.worksheet.Worksheet:
    return openpyxl.load_workbook(io.BytesIO(content)).active


def as_csv_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return neutralise(value) if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)


# ---- neutralising ----


@pytest.mark.parametrize("text", INJECTIONS)
def test_formula_text_is_neutralised(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("value", [-5, -0.25, 0, 3.5, None, True, "正常", "a=b", "5-3", "'quoted"])
def test_other_values_pass_unchanged(value):
    assert neutralise(value) == value


# ---- CSV ----


def test_csv_round_trip_equals_the_result():
    result = sample_result()
    table = read_csv(export_csv(result))
    assert table[0] == result.columns
    assert table[1:] == [[as_csv_text(v) for v in row] for row in result.rows]
    numbers = [float(row[1]) if row[1] else None for row in table[1:]]
    assert numbers == result.column("金额")


def test_csv_neutralises_cells_and_headers_but_not_numbers():
    result = ResultTable(
        columns=['=HYPERLINK("http://x")', "值", "文本"],
        column_types=["VARCHAR", "BIGINT", "VARCHAR"],
        rows=[[text, -5, "-5"] for text in INJECTIONS],
        row_count=len(INJECTIONS),
    )
    table = read_csv(export_csv(result))
    assert table[0][0] == "'" + result.columns[0]
    assert [row[0] for row in table[1:]] == ["'" + t for t in INJECTIONS]
    assert {row[1] for row in table[1:]} == {"-5"}, "a real negative number stays a number"
    assert {row[2] for row in table[1:]} == {"'-5"}, "text that merely looks negative is text"


# ---- XLSX ----


def test_xlsx_round_trip_keeps_numbers_dates_and_text():
    result = sample_result()
    sheet = read_xlsx(export_xlsx(result, title="销售"))
    assert sheet.title == "销售" and sheet.freeze_panes == "A2"
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == result.columns
    for got, want in zip(rows[1:], result.rows, strict=True):
        assert list(got[:3]) == want[:3]
        assert got[3] == (dt.datetime.fromisoformat(want[3]) if want[3] else None)
        assert got[4] == (dt.datetime.fromisoformat(want[4]).replace(tzinfo=None) if want[4] else None)
        assert got[5] is want[5] and got[6] == neutralise(want[6])
    assert sheet.cell(row=2, column=4).number_format == "yyyy-mm-dd"
    assert sheet.cell(row=2, column=5).number_format == "yyyy-mm-dd hh:mm:ss"
    assert sheet.cell(row=2, column=3).value == -5 and sheet.cell(row=2, column=3).data_type == "n"


def test_xlsx_neutralises_injection_cells_and_headers():
    result = ResultTable(
        columns=["@cmd", "值"],
        column_types=["VARCHAR", "DOUBLE"],
        rows=[[text, -5.0] for text in INJECTIONS],
        row_count=len(INJECTIONS),
    )
    sheet = read_xlsx(export_xlsx(result))
    assert sheet.cell(row=1, column=1).value == "'@cmd"
    for index, text in enumerate(INJECTIONS, start=2):
        cell = sheet.cell(row=index, column=1)
        # XML reads a stored carriage return back as a line feed; the apostrophe is what matters
        assert cell.value == "'" + text.replace("\r", "\n") and cell.data_type == "s", "never a formula"
        assert sheet.cell(row=index, column=2).value == -5.0


HIDDEN_PREFIXES = [chr(c) for c in (*range(0x20), 0x7F)] + [
    "\u00a0",
    "\u1680",
    "\u2000",
    "\u2007",
    "\u200b",
    "\u2028",
    "\u202f",
    "\u205f",
    "\u2060",
    "\u3000",
    "\ufeff",
    " ",
    "\x0b \u3000\x00",
]
HIDDEN_INJECTIONS = (
    [prefix + trigger + 'HYPERLINK("http://x","y")' for prefix in HIDDEN_PREFIXES for trigger in ("=", "+", "-", "@")]
    + [prefix + "\t=1" for prefix in HIDDEN_PREFIXES]
    + [prefix + "\r=1" for prefix in HIDDEN_PREFIXES]
)


def test_invisible_characters_before_a_formula_do_not_hide_it():
    for text in HIDDEN_INJECTIONS:
        assert neutralise(text).startswith("'"), repr(text)


def test_csv_neutralises_formulas_behind_invisible_characters():
    result = ResultTable(columns=["\x0b=cmd", "备注"], rows=[["x", t] for t in HIDDEN_INJECTIONS], row_count=1)
    table = read_csv(export_csv(result))
    assert table[0][0] == "'=cmd"
    for row in table[1:]:
        assert row[1].startswith("'"), repr(row[1])


def test_xlsx_neutralises_formulas_behind_invisible_characters():
    result = ResultTable(columns=["\x0b=cmd"], rows=[[t] for t in HIDDEN_INJECTIONS], row_count=1)
    sheet = read_xlsx(export_xlsx(result))
    assert sheet.cell(row=1, column=1).value == "'=cmd"
    for index, text in enumerate(HIDDEN_INJECTIONS, start=2):
        cell = sheet.cell(row=index, column=1)
        assert cell.data_type == "s" and str(cell.value).startswith("'"), repr(text)


def test_xlsx_survives_control_characters_and_huge_text():
    long = "长" * (XLSX_MAX_CELL_CHARS + 10)
    result = ResultTable(columns=["文本"], rows=[["a\x00b\x07c"], [long]], row_count=2)
    sheet = read_xlsx(export_xlsx(result, title="a/b:c*?[d]" + "x" * 40))
    assert sheet.cell(row=2, column=1).value == "abc"
    assert len(sheet.cell(row=3, column=1).value) == XLSX_MAX_CELL_CHARS
    assert len(sheet.title) <= 31 and not re.search(r"[\[\]:*?/\\]", sheet.title)


def test_untyped_results_export_their_values_as_is():
    result = ResultTable(columns=["日期", "n"], rows=[["2025-01-01", 1]], row_count=1)
    sheet = read_xlsx(export_xlsx(result))
    assert [c.value for c in sheet[2]] == ["2025-01-01", 1]


# ---- file names ----


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("销售", "销售.csv"),
        ("../../etc/passwd", "_.._etc_passwd.csv"),
        ('报表: "Q1"?', "报表_ _Q1_.csv"),
        ("a\r\nContent-Type: text/html", "a_Content-Type_ text_html.csv"),
        ("  ...  ", "result.csv"),
        ("CON", "_CON.csv"),
    ],
)
def test_download_names_are_safe(name, expected):
    assert download_filename(name, "csv") == expected


def test_content_disposition_carries_chinese_names():
    header = content_disposition(download_filename("销售 2025", "xlsx"))
    assert header.startswith('attachment; filename="2025.xlsx"; ')
    encoded = header.split("filename*=UTF-8''", 1)[1]
    assert unquote(encoded) == "销售 2025.xlsx" and " " not in encoded
    assert content_disposition("销售.csv").split('"')[1] == "download.csv"
    assert content_disposition("plot.png", inline=True).startswith("inline;")
    assert sheet_title("") == "result"


# ---- the API ----

REMARKS_CSV = (
    "日期,账号,金额,备注\n2025-01-05,甲,100.5,=1+1\n2025-01-20,乙,-5,+cmd\n"
    "2025-02-03,甲,200,-2+3\n2025-02-14,乙,50,@SUM(A1)\n2025-03-01,甲,80,正常\n"
)
ROWS = {"columns": ["日期", "账号", "金额", "备注"], "sort": [{"by": "日期"}]}


@pytest.fixture
def remarks(writer):
    file = SimpleUploadedFile("remarks.csv", REMARKS_CSV.encode(), content_type="text/csv")
    resp = writer.post("/api/v1/datasets/", {"file": file, "name": "客户备注"}, format="multipart")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def queried(client, dataset, spec) -> ResultTable:
    resp = client.post(f"/api/v1/datasets/{dataset['id']}/query/", spec, format="json")
    assert resp.status_code == 200, resp.json()
    return ResultTable.model_validate(resp.json())


def test_export_csv_download(writer, remarks):
    resp = writer.post(f"/api/v1/datasets/{remarks['id']}/export/?format=csv", ROWS, format="json")
    assert resp.status_code == 200 and resp["Content-Type"] == "text/csv; charset=utf-8"
    assert resp["Content-Disposition"].endswith("filename*=UTF-8''%E5%AE%A2%E6%88%B7%E5%A4%87%E6%B3%A8.csv")
    assert resp["Content-Disposition"].startswith("attachment;") and resp["Cache-Control"] == "private, no-store"
    result = queried(writer, remarks, ROWS)
    assert resp["X-Result-Rows"] == str(result.row_count) and resp["X-Result-Truncated"] == "false"
    table = read_csv(resp.content)
    assert table[0] == result.columns
    assert table[1:] == [[as_csv_text(v) for v in row] for row in result.rows]
    assert [row[3] for row in table[1:5]] == ["'=1+1", "'+cmd", "'-2+3", "'@SUM(A1)"]
    assert float(table[2][2]) == -5, "a real negative number is written as a number, not neutralised"


def test_export_xlsx_download(writer, remarks):
    spec = {**ROWS, "filters": [{"column": "账号", "op": "=", "value": "乙"}]}
    resp = writer.post(f"/api/v1/datasets/{remarks['id']}/export/?format=xlsx", spec, format="json")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "filename*=UTF-8''" in resp["Content-Disposition"] and ".xlsx" in resp["Content-Disposition"]
    result = queried(writer, remarks, spec)
    sheet = read_xlsx(resp.content)
    assert sheet.title == "客户备注"
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == result.columns
    for got, want in zip(rows[1:], result.rows, strict=True):
        assert got[0] == dt.datetime.fromisoformat(want[0]), "dates stay dates"
        assert list(got[1:3]) == want[1:3] and got[3] == neutralise(want[3])
    assert rows[1][2] == -5 and rows[1][3] == "'+cmd"


def test_export_bad_format_and_bad_query_are_400_json(writer, remarks):
    pdf = writer.post(f"/api/v1/datasets/{remarks['id']}/export/?format=pdf", ROWS, format="json")
    assert pdf.status_code == 400 and pdf.json()["code"] == "invalid_format" and "csv, xlsx" in pdf.json()["message"]
    unknown = writer.post(f"/api/v1/datasets/{remarks['id']}/export/", {"columns": ["金"]}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_column"
    assert "金额" in unknown.json()["message"]
    default = writer.post(f"/api/v1/datasets/{remarks['id']}/export/", ROWS, format="json")
    assert default.status_code == 200 and default["Content-Type"].startswith("text/csv")


def test_export_of_another_tenants_dataset_is_a_404(remarks, tenant_b, make_token, api_client):
    other = api_client(make_token(tenant_b, [DATASETS_READ, DATASETS_WRITE]))
    for fmt in ("csv", "xlsx"):
        resp = other.post(f"/api/v1/datasets/{remarks['id']}/export/?format={fmt}", ROWS, format="json")
        assert resp.status_code == 404 and resp.json()["code"] == "not_found"
    missing = other.post("/api/v1/datasets/999999/export/", ROWS, format="json")
    assert missing.status_code == 404
