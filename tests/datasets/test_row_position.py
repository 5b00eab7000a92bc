"""A row's place in an uploaded file (ROW_POSITION, "@row"): the rows keep the file's order through ingest (CSV
read in parallel, Excel, typed and cleaned), so "the first row listed" and "the row before X" are that file's;
a database table keeps no order, so there the name is refused with a clear message; a real column of that
name wins."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import Workbook

from apps.datasets.errors import QueryInvalid
from apps.datasets.ingest.load import detect_format, ingest_file
from apps.datasets.query import engine
from apps.datasets.query.compiler import compile_query
from apps.datasets.query.spec import ROW_POSITION, QuerySpec

ROWS = 5000  # enough for the CSV reader to split the file between threads


def _codes(n: int) -> list[str]:
    return [f"K{(i * 7919) % 100_003:06d}" for i in range(n)]  # in no sorted order


def _ingested(path: Path, sheet: str | None = None) -> Path:
    dest = path.with_suffix(".duckdb")
    ingest_file(path, dest, fmt=detect_format(path, path.name), sheet=sheet, header_row=1, max_rows=1_000_000)
    return dest


def _run(path: Path, spec: dict, schema: dict[str, str], *, ordered: bool = True) -> list[list]:
    compiled = compile_query(QuerySpec.model_validate(spec), schema=schema, row_cap=10_000, ordered=ordered)
    try:
        return engine.execute(path, compiled.sql, compiled.params, row_cap=compiled.limit).rows
    finally:
        engine.forget(path)


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    path = tmp_path / "codes.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Code", "Amount", "Note"])
        for i, code in enumerate(_codes(ROWS)):
            writer.writerow([code, f"{(i * 37) % 1000},{i % 10}00" if i % 3 == 0 else str(i % 97), "x" * (i % 5)])
    return path


SCHEMA = {"Code": "text", "Amount": "number", "Note": "text"}


def test_every_row_keeps_its_place_in_the_csv(csv_file):
    dest = _ingested(csv_file)
    rows = _run(dest, {"columns": ["Code", ROW_POSITION], "sort": [{"by": ROW_POSITION}], "limit": ROWS}, SCHEMA)
    assert [r[0] for r in rows] == _codes(ROWS)
    assert [r[1] for r in rows] == list(range(1, ROWS + 1))


def test_the_row_before_a_named_one_and_the_last_row(csv_file):
    dest = _ingested(csv_file)
    codes = _codes(ROWS)
    named = _run(
        dest, {"columns": [ROW_POSITION], "filters": [{"column": "Code", "op": "=", "value": codes[1234]}]}, SCHEMA
    )
    assert named == [[1235]]
    before = _run(
        dest,
        {
            "columns": ["Code", ROW_POSITION],
            "filters": [{"column": ROW_POSITION, "op": "<", "value": 1235}],
            "sort": [{"by": ROW_POSITION, "desc": True}],
            "limit": 1,
        },
        SCHEMA,
    )
    assert before == [[codes[1233], 1234]]
    last = _run(
        dest, {"columns": ["Code", ROW_POSITION], "sort": [{"by": ROW_POSITION, "desc": True}], "limit": 1}, SCHEMA
    )
    assert last == [[codes[-1], ROWS]]
    first_of_group = _run(
        dest, {"group_by": ["Note"], "aggregations": [{"name": "first", "func": "min", "column": ROW_POSITION}]}, SCHEMA
    )
    assert sorted(r[1] for r in first_of_group) == [1, 2, 3, 4, 5]


def test_an_excel_sheet_keeps_its_order(tmp_path):
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Team", "Points"])
    teams = ["Wolves", "Ants", "Owls", "Bears", "Cats"]
    for i, team in enumerate(teams):
        sheet.append([team, 10 - i])
    path = tmp_path / "teams.xlsx"
    workbook.save(path)
    dest = _ingested(path, "Sheet")
    rows = _run(
        dest, {"columns": ["Team", ROW_POSITION], "sort": [{"by": ROW_POSITION}]}, {"Team": "text", "Points": "integer"}
    )
    assert rows == [[team, i + 1] for i, team in enumerate(teams)]


@pytest.mark.parametrize("dialect", ["postgres", "mysql", "sqlite"])
def test_a_database_table_has_no_row_position(dialect):
    with pytest.raises(QueryInvalid) as err:
        compile_query(QuerySpec.model_validate({"columns": [ROW_POSITION]}), schema=SCHEMA, dialect=dialect, row_cap=10)
    assert err.value.code == "no_row_order"
    assert "only for uploaded files" in err.value.message and "sort by one of its columns" in err.value.message


def test_a_file_query_not_marked_ordered_has_no_row_position():
    with pytest.raises(QueryInvalid) as err:
        compile_query(QuerySpec.model_validate({"columns": [ROW_POSITION]}), schema=SCHEMA, row_cap=10)
    assert err.value.code == "no_row_order"


def test_a_real_column_of_that_name_wins_and_a_rowid_column_hides_the_position(tmp_path):
    path = tmp_path / "own.csv"
    path.write_text("@row,Name\n30,b\n10,a\n20,c\n", encoding="utf-8")
    dest = _ingested(path)
    rows = _run(
        dest, {"columns": ["Name", ROW_POSITION], "sort": [{"by": ROW_POSITION}]}, {"@row": "integer", "Name": "text"}
    )
    assert rows == [["a", 10], ["c", 20], ["b", 30]]
    with pytest.raises(QueryInvalid) as err:
        compile_query(
            QuerySpec.model_validate({"columns": [ROW_POSITION]}), schema={"rowid": "integer"}, row_cap=10, ordered=True
        )
    assert err.value.code == "no_row_order"
