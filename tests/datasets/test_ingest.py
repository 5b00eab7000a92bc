"""Ingestion on its own: formats, encodings, delimiters, headers, typing, and every kind of bad file."""

from __future__ import annotations

import codecs
import datetime as dt
import io
import zipfile
from pathlib import Path

import duckdb
import openpyxl
import pytest
import xlwt
from msoffcrypto.format.ooxml import OOXMLFile

from apps.datasets.errors import IngestRejected
from apps.datasets.ingest.load import detect_format, ingest_file, list_sheets
from apps.datasets.ingest.profile import profile_table


def write(tmp_path: Path, name: str, data: bytes | str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode(encoding) if isinstance(data, str) else data)
    return path


def xlsx(tmp_path: Path, sheets: dict[str, list[list]], name: str = "book.xlsx") -> Path:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in sheets.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    path = tmp_path / name
    workbook.save(path)
    return path


def ingest(path: Path, *, sheet: str | None = None, header_row: int = 1, max_rows: int = 1_000_000):
    """Ingest like the service does; return (report, columns with types, rows) read back from DuckDB."""
    fmt = detect_format(path, path.name)
    dest = path.with_suffix(".duckdb")
    report = ingest_file(path, dest, fmt=fmt, sheet=sheet, header_row=header_row, max_rows=max_rows)
    con = duckdb.connect(str(dest), read_only=True)
    try:
        types = {row[0]: row[1] for row in con.execute('DESCRIBE "data"').fetchall()}
        rows = con.execute('SELECT * FROM "data"').fetchall()
    finally:
        con.close()
    return report, types, rows


def rejected(path: Path, **kwargs) -> IngestRejected:
    with pytest.raises(IngestRejected) as info:
        ingest(path, **kwargs)
    leftovers = [p.name for p in path.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == [] and not path.with_suffix(".duckdb").exists(), "a failed ingest left files behind"
    return info.value


SALES = "地区,金额,数量,日期\n华东,100.5,3,2025-01-03\n华北,200,1,2025-02-10\n"


@pytest.mark.parametrize(
    ("encoding", "prefix"),
    [("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("gbk", b""), ("gb18030", b""), ("utf-16", b"")],
)
def test_encodings_keep_chinese_text(tmp_path, encoding, prefix):
    path = write(tmp_path, "s.csv", prefix + SALES.encode(encoding))
    report, types, rows = ingest(path)
    assert list(types) == ["地区", "金额", "数量", "日期"]
    assert rows[0] == ("华东", 100.5, 3, dt.date(2025, 1, 3))
    assert report.encoding == ("utf-8" if encoding == "utf-8" else "utf-16" if encoding == "utf-16" else "gb18030")


@pytest.mark.parametrize("delimiter", [",", "\t", ";", "|"])
def test_delimiters_are_sniffed(tmp_path, delimiter):
    text = SALES.replace(",", delimiter)
    report, types, rows = ingest(write(tmp_path, "s.csv", text))
    assert report.delimiter == delimiter and len(types) == 4 and len(rows) == 2


def test_quoted_delimiters_and_newlines_inside_values(tmp_path):
    text = '客户,备注,金额\n"Acme, Ltd","第一行\n第二行",5\n'
    _report, _types, rows = ingest(write(tmp_path, "q.csv", text))
    assert rows == [("Acme, Ltd", "第一行\n第二行", 5)]


def test_header_row_skips_title_lines(tmp_path):
    text = "2025 年销售报表\n导出时间 2025-03-01\n地区,金额\n华东,1\n"
    _report, types, rows = ingest(write(tmp_path, "t.csv", text), header_row=3)
    assert list(types) == ["地区", "金额"] and rows == [("华东", 1)]


def test_types_are_inferred_without_losing_values(tmp_path):
    lines = ["编码,金额,状态,时间,备注"]
    lines += [f"{i:05d},{i},{'true' if i % 2 else 'false'},2025/01/{i % 28 + 1} 08:30,ok" for i in range(1, 30)]
    lines.append("00099,12a,true,2025/02/01 09:00,")
    _report, types, rows = ingest(write(tmp_path, "t.csv", "\n".join(lines) + "\n"))
    assert types["编码"] == "VARCHAR", "codes with leading zeros stay text"
    assert types["金额"] == "VARCHAR", "one value that is no number (12a) keeps the column as text, as written"
    assert types["状态"] == "BOOLEAN" and types["时间"] == "TIMESTAMP"
    assert rows[-1][:2] == ("00099", "12a")


def test_marks_in_place_of_numbers_are_read_as_blank_and_recorded(tmp_path):
    text = (
        "队伍,观众,进球,日期,名次\n"
        '甲,"1,200",3,2020-01-03,1\n乙,N/A,–,—,DNF\n丙,900,4,2020-02-03,2\n丁,"2,000",待定,2020-03-01,3\n'
        "戊,tbd,-,2020-03-02,4\n"
    )
    report, types, rows = ingest(write(tmp_path, "m.csv", text))
    assert types["观众"] == "BIGINT" and types["日期"] == "DATE"
    assert [r[1] for r in rows] == [1200, None, 900, 2000, None] and rows[1][3] is None
    assert report.blank_marks == {"观众": ["N/A", "tbd"], "日期": ["—"], "名次": ["DNF"]}
    assert types["进球"] == "VARCHAR" and [r[2] for r in rows] == ["3", "–", "4", "待定", "-"], (
        "a dash among numbers may mean none (0): the column stays as written"
    )
    assert types["名次"] == "BIGINT" and rows[1][4] is None, "DNF among places: no place reached, and said so"
    profile = profile_table(tmp_path / "m.duckdb")
    assert all(c.blank_marks == [] for c in profile.columns), "the table alone knows nothing of the file's marks"


def test_a_summary_rows_label_in_a_column_of_numbers_is_blank_there_while_another_column_still_names_it(tmp_path):
    text = "Rank,Nation,Gold\n1,Russia,10\n2,Germany,4\n3,Norway,4\nTotal,Total,18\n"
    report, types, rows = ingest(write(tmp_path, "t.csv", text))
    assert types["Rank"] == "BIGINT" and [r[0] for r in rows] == [1, 2, 3, None]
    assert types["Nation"] == "VARCHAR" and rows[-1][1] == "Total", "the summary row is still named as such"
    assert report.blank_marks == {"Rank": ["Total"]}
    profile = profile_table(tmp_path / "t.duckdb")
    assert next(c for c in profile.columns if c.name == "Nation").total_label == "Total"
    # the only column naming the summary row keeps its label, so that the row is never added in as a nation
    report, types, rows = ingest(write(tmp_path, "u.csv", "序号,门店,销售额\n1,北京,100\n2,上海,200\n合计,,300\n"))
    assert types["序号"] == "VARCHAR" and report.blank_marks == {} and rows[-1][0] == "合计"
    report, types, _rows = ingest(
        write(tmp_path, "v.csv", "Year,Car,Laps\n1962,98,200\n1963,12,200\nTotals,Totals,400\n")
    )
    assert types["Year"] == "BIGINT" and types["Car"] == "VARCHAR", "a column that is no year keeps the labels"
    # a label with a note: blanked among the numbers, and still found as the summary row where it is kept
    noted = "Rank,NPC,Gold\n1,China,95\n2,Britain,34\nTotal (2 NPCs),Total (2 NPCs),129\n"
    report, types, rows = ingest(write(tmp_path, "n.csv", noted))
    assert types["Rank"] == "BIGINT" and report.blank_marks == {"Rank": ["Total (2 NPCs)"]}
    kept = next(c for c in profile_table(tmp_path / "n.duckdb").columns if c.name == "NPC")
    assert kept.total_label == "Total (2 NPCs)", "the planner leaves the summary row out by this label"


def test_a_column_of_marks_beside_one_number_stays_text(tmp_path):
    report, types, rows = ingest(write(tmp_path, "o.csv", "a,b\n1,N/A\n2,5\n3,TBD\n"))
    assert types["b"] == "VARCHAR" and report.blank_marks == {} and [r[1] for r in rows] == ["N/A", "5", "TBD"]


def test_times_and_places_beside_dsq_or_a_dash_are_typed_and_a_cell_of_two_numbers_keeps_text(tmp_path):
    text = 'Athlete,Time,Result,Capacity\nA,5:38.62,14.39,"17,895"\nB,DSQ,DNS,"3,000/2,000"\nC,6:03.41,13.09,"1,500"\n'
    report, types, rows = ingest(write(tmp_path, "r.csv", text))
    assert types["Time (s)"] == "DOUBLE" and types["Result"] == "DOUBLE"
    assert [r[1] for r in rows] == [338.62, None, 363.41] and rows[1][2] is None
    assert report.blank_marks == {"Time (s)": ["DSQ"], "Result": ["DNS"]}
    assert types["Capacity"] == "VARCHAR", "“3,000/2,000” says two numbers: the column stays as written"
    places = "Season,Place,Time,Goals\n1981,17th,1:02.5,3\n1982,—,—,–\n1983,1st,59.8,0\n"
    report, types, rows = ingest(write(tmp_path, "p.csv", places))
    assert types["Place"] == "BIGINT" and [r[1] for r in rows] == [17, None, 1], "no place 0: a dash is none"
    assert types["Time (s)"] == "DOUBLE" and rows[1][2] is None and report.blank_marks["Place"] == ["—"]
    assert report.places == ["Place"], "the profile is told the file wrote places, not plain numbers"
    assert types["Goals"] == "VARCHAR", "among plain numbers a dash may mean 0: kept as written"
    ranked = "Rank,Athlete,Goals\n4,Ana,3\n5,Li,–\n—,Tom,0\n6,Eva,2\n"  # a column named as places: no place 0
    report, types, rows = ingest(write(tmp_path, "k.csv", ranked))
    assert types["Rank"] == "BIGINT" and [r[0] for r in rows] == [4, 5, None, 6] and report.blank_marks["Rank"] == ["—"]
    assert types["Goals"] == "VARCHAR"


def test_a_typographic_minus_is_a_minus_and_a_dash_among_signed_changes_is_blank(tmp_path):
    minus = "\u2212"  # "−3" as web tables and word processors write it
    text = f"Party,Seats,+/–,Change,Note\nA,48,+6,{minus}8.4%,{minus}\nB,41,{minus}3,+1.3%,x\nC,14,—,{minus} 0.5%,y\n"
    report, types, rows = ingest(write(tmp_path, "s.csv", text))
    assert types["+/–"] == "BIGINT" and [r[2] for r in rows] == [6, -3, None], "a sign says a change: — is none"
    assert report.blank_marks["+/–"] == ["—"]
    assert types["Change (%)"] == "DOUBLE" and [r[3] for r in rows] == [-8.4, 1.3, -0.5]
    assert types["Note"] == "VARCHAR" and rows[0][4] == minus, "a column with words in it is left as written"
    worded = f"a,b\n1,{minus}3\n2,{minus}\n3,New\n"
    _report, types, rows = ingest(write(tmp_path, "w.csv", worded))
    assert types["b"] == "VARCHAR" and rows[0][1] == f"{minus}3", "“New” beside the numbers: nothing rewritten"


def test_a_new_entry_among_signed_changes_is_blank_and_plus_minus_zero_is_no_change(tmp_path):
    minus = "\u2212"
    text = f"Party,Seats,+/–\nA,48,+12\nB,41,{minus}9\nC,8,New\nD,0,±0\nE,3,+1\n"
    report, types, rows = ingest(write(tmp_path, "n.csv", text))
    assert types["+/–"] == "BIGINT" and [r[2] for r in rows] == [12, -9, None, 0, 1], rows
    assert report.blank_marks["+/–"] == ["New"], "the answers say which rows had no change to state"
    unsigned = "Title,Chart\nA,3\nB,New\nC,12\n"  # no sign: "New" may be a value of its own
    _report, types, _rows = ingest(write(tmp_path, "u.csv", unsigned))
    assert types["Chart"] == "VARCHAR"


def test_a_record_charts_peak_positions_are_places_with_a_dash_where_it_did_not_chart(tmp_path):
    text = "Year,Album,US,UK,CAN,Sales\n1994,Glass,—,41,—,100\n1996,Tin,88,12,—,250\n1998,Low,23,3,31,—\n"
    report, types, rows = ingest(write(tmp_path, "d.csv", text))
    assert types["US"] == "BIGINT" and [r[2] for r in rows] == [None, 88, 23] and report.blank_marks["US"] == ["—"]
    assert sorted(report.charts) == ["CAN", "UK", "US"] and not report.places
    assert types["Sales"] == "VARCHAR", "a dash among plain amounts may be none: kept as written"
    lone = "Title,US,Sales\nA,3,100\nB,—,20\nC,12,5\n"  # one country alone may be anything
    report, types, _rows = ingest(write(tmp_path, "l.csv", lone))
    assert types["US"] == "VARCHAR" and not report.charts


def test_a_place_with_a_note_is_the_place_and_the_note_moves_to_a_column_beside(tmp_path):
    text = "Year,Position,Event\n1996,8th,200 m\n1996,11th (sf),relay\n1997,4th (tie),100 m\n1998,DNF,200 m\n"
    report, types, rows = ingest(write(tmp_path, "p.csv", text))
    assert report.columns == ["Year", "Position", "Position (note)", "Event"]
    assert types["Position"] == "BIGINT" and types["Position (note)"] == "VARCHAR"
    assert [r[1:3] for r in rows] == [(8, None), (11, "sf"), (4, "tie"), (None, None)]
    assert report.blank_marks == {"Position": ["DNF"]} and report.places == ["Position"]
    _report, types, rows = ingest(write(tmp_path, "q.csv", "a,Place\n1,3rd (tie)\n2,Test driver\n3,1st\n"))
    assert types["Place"] == "VARCHAR" and rows[1][1] == "Test driver", "text beside places keeps the column"


def test_a_number_with_a_footnote_mark_is_the_number_and_the_mark_moves_to_a_column_beside(tmp_path):
    text = (
        "Season,Level,Payout,Code\n1993,Tier 3,250,A1\n2005,Tier 2,4000*,B*\n2006†,Tier 2,500,C\n2007,Tier 3,60[a],D\n"
    )
    report, types, rows = ingest(write(tmp_path, "f.csv", text))
    assert report.columns == ["Season", "Season (note)", "Level", "Payout", "Payout (note)", "Code"]
    assert types["Season"] == "BIGINT" and types["Payout"] == "BIGINT" and types["Code"] == "VARCHAR"
    assert [r[0:2] for r in rows] == [(1993, None), (2005, None), (2006, "†"), (2007, None)]
    assert [r[3:5] for r in rows] == [(250, None), (4000, "*"), (500, None), (60, "[a]")], "nothing is lost"
    _report, types, rows = ingest(write(tmp_path, "g.csv", "a,Score\n1,3*\n2,several\n3,5\n"))
    assert types["Score"] == "VARCHAR" and rows[0][1] == "3*", "text beside the numbers keeps the column"


def test_one_quantity_in_two_units_becomes_two_columns_named_by_their_units(tmp_path):
    text = (
        "Peak,Elevation,Isolation,Weight\n"
        'A,"14,505 ft\n4421 m","1,646 mi\n2,649 km",730g (23.5 oz.)\n'
        'B,"1,677 ft\n511 m","5.4 mi\n8.7 km",690g (22 oz.)\n'
        "C,,,\n"
    )
    report, types, rows = ingest(write(tmp_path, "u.csv", text))
    assert report.columns == [
        "Peak", "Elevation (ft)", "Elevation (m)", "Isolation (mi)", "Isolation (km)", "Weight (g)", "Weight (oz)"
    ]  # fmt: skip
    assert types["Elevation (ft)"] == "BIGINT" and types["Isolation (km)"] == "DOUBLE"
    assert rows == [
        ("A", 14505, 4421, 1646.0, 2649.0, 730, 23.5),
        ("B", 1677, 511, 5.4, 8.7, 690, 22.0),
        ("C", None, None, None, None, None, None),
    ]
    two = 'Name,Score,Size\nA,"3\n4",1 m (3 ft)\nB,"5\n6",2 m (7 in)\n'
    _report, types, _rows = ingest(write(tmp_path, "v.csv", two))
    assert types == {"Name": "VARCHAR", "Score": "VARCHAR", "Size": "VARCHAR"}, "no units, or units that vary"


def test_chinese_amounts_scaled_by_wan_or_yi_and_units_with_a_power(tmp_path):
    text = '门店,销售额,目标,客单价,面积\n甲,1.2万,3亿,¥1200元,3755 km2\n乙,8000,1.5亿,"￥1,250元",120 km2\n'
    report, types, rows = ingest(write(tmp_path, "w.csv", text))
    assert report.columns == ["门店", "销售额", "目标", "客单价 (元)", "面积 (km2)"]
    assert rows == [("甲", 12000.0, 300000000.0, 1200, 3755), ("乙", 8000.0, 150000000.0, 1250, 120)]
    _report, types, _rows = ingest(write(tmp_path, "x.csv", "a,b,c\n1,12A,3月5日\n2,12B,4月1日\n"))
    assert types["b"] == "VARCHAR" and types["c"] == "VARCHAR", "seats are no amounts, a day without a year no date"


def test_numbers_with_thousands_separators_are_numbers(tmp_path):
    text = '城市,人口,密度,编号\n甲,"1,204,331","1,204.5","1,2"\n乙,987,35,"3,4"\n丙,"-12,000",0.5,"5,6"\n'
    _report, types, rows = ingest(write(tmp_path, "n.csv", text))
    assert types["人口"] == "BIGINT" and types["密度"] == "DOUBLE"
    assert [r[1:3] for r in rows] == [(1204331, 1204.5), (987, 35.0), (-12000, 0.5)]
    assert types["编号"] == "VARCHAR", "a comma that does not group thousands keeps the text"


def test_codes_that_look_like_exponents_stay_text(tmp_path):
    _report, types, rows = ingest(write(tmp_path, "ids.csv", "员工,部门\nE1001,销售\nE1002,财务\n"))
    assert types["员工"] == "VARCHAR" and rows[0] == ("E1001", "销售")
    book = xlsx(tmp_path, {"S": [["id", "n"], ["E1001", "1.5"], ["e2", ".5"]]})
    _report, types, rows = ingest(book, sheet="S")
    assert types == {"id": "VARCHAR", "n": "DOUBLE"} and rows == [("E1001", 1.5), ("e2", 0.5)]


def test_a_late_value_of_another_type_is_not_lost(tmp_path):
    body = "n,v\n" + "".join(f"{i},{i}\n" for i in range(30_000)) + "30000,abc\n"
    _report, types, rows = ingest(write(tmp_path, "late.csv", body))
    assert types["v"] == "VARCHAR" and rows[-1] == (30000, "abc") and len(rows) == 30_001


def test_empty_unnamed_columns_are_dropped_but_unnamed_data_is_refused(tmp_path):
    report, types, _rows = ingest(write(tmp_path, "e.csv", "a,,b\n1,,2\n3,,4\n"))
    assert list(types) == ["a", "b"] and report.dropped_empty_columns == [2]
    error = rejected(write(tmp_path, "d.csv", "a,,b\n1,9,2\n"))
    assert error.code == "blank_header" and "column 2 (after 'a')" in error.message


def test_duplicate_headers_are_refused_with_both_positions(tmp_path):
    error = rejected(write(tmp_path, "d.csv", "金额,地区,金额\n1,x,2\n"))
    assert error.code == "duplicate_header" and "columns 1 and 3" in error.message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a,b\n1,2\n3,4,5\n6,7\n", "line 3 has 3 values but the header has 2 columns"),
        ("a,b,c\n1,2,3\n4,5\n", "line 3 has 2 values but the header has 3"),
        ("name,amount\nAcme, Ltd,5\nB,6\n", "contains the comma without quotes"),
    ],
)
def test_ragged_rows_name_the_line(tmp_path, text, fragment):
    error = rejected(write(tmp_path, "r.csv", text))
    assert error.code == "ragged_rows" and fragment in error.message


@pytest.mark.parametrize(
    ("name", "data", "code"),
    [
        ("empty.csv", b"", "empty_file"),
        ("blank.csv", b"\n \n", "empty_file"),
        ("pic.csv", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "unsupported_format"),
        ("report.pdf", b"%PDF-1.7 ...", "unsupported_format"),
        ("table.xlsx", SALES.encode(), "format_mismatch"),
        ("bad.xlsx", b"PK\x03\x04" + b"\x00" * 200, "corrupt_file"),
    ],
)
def test_files_that_are_not_what_they_claim(tmp_path, name, data, code):
    with pytest.raises(IngestRejected) as info:
        detect_format(write(tmp_path, name, data), name)
    assert info.value.code == code


def test_gbk_text_after_a_long_ascii_start_is_still_read_as_gbk(tmp_path):
    body = b"id,region\n" + b"".join(b"%d,East\n" % i for i in range(40_000)) + "40000,华东\n".encode("gbk")
    report, _types, rows = ingest(write(tmp_path, "late-gbk.csv", body))
    assert report.encoding == "gb18030" and rows[-1] == (40000, "华东") and len(rows) == 40_001


def test_undecodable_text_is_a_clear_error(tmp_path):
    error = rejected(write(tmp_path, "x.csv", b"a,b\n\x81\x30\x81\xff,1\n"))
    assert error.code == "unsupported_encoding" and "UTF-8" in error.message


def test_row_limit(tmp_path):
    body = "n\n" + "".join(f"{i}\n" for i in range(11))
    error = rejected(write(tmp_path, "many.csv", body), max_rows=10)
    assert error.code == "too_many_rows" and "10" in error.message
    assert rejected(write(tmp_path, "none.csv", "a,b\n")).code == "no_rows"


def test_every_sheet_is_listed_and_loads_with_types(tmp_path):
    path = xlsx(
        tmp_path,
        {
            "一月": [
                ["客户", "金额", "日期", "备注"],
                ["甲", 10, dt.date(2025, 1, 2), None],
                ["乙", 2.5, None, "x"],
            ],
            "说明": [["只有说明"]],
        },
    )
    assert [s.name for s in list_sheets(path, "xlsx")] == ["一月", "说明"]
    _report, types, rows = ingest(path, sheet="一月")
    assert types == {"客户": "VARCHAR", "金额": "DOUBLE", "日期": "DATE", "备注": "VARCHAR"}
    assert rows == [("甲", 10.0, dt.date(2025, 1, 2), None), ("乙", 2.5, None, "x")]


def test_excel_header_row_and_offsets(tmp_path):
    path = xlsx(tmp_path, {"S": [["报表"], [], [None, "地区", "数量"], [None, "华东", 3], [None, "华北", 4]]})
    _report, types, rows = ingest(path, sheet="S", header_row=3)
    assert types == {"地区": "VARCHAR", "数量": "BIGINT"} and rows == [("华东", 3), ("华北", 4)]


def test_excel_text_in_a_number_column_is_kept(tmp_path):
    rows = [["n", "v", "w"]] + [[i, i * 1.5, i] for i in range(1500)] + [[1500, "见附件", "待定"]]
    report, types, loaded = ingest(xlsx(tmp_path, {"S": rows}), sheet="S")
    assert types == {"n": "BIGINT", "v": "VARCHAR", "w": "BIGINT"} and loaded[-1] == (1500, "见附件", None)
    assert report.blank_marks == {"w": ["待定"]}, "a mark in place of a number is read as blank, and recorded"


def test_excel_bad_sheets(tmp_path):
    path = xlsx(tmp_path, {"数据": [["a"], [1]], "空": []})
    assert rejected(path, sheet="三月").code == "unknown_sheet"
    assert rejected(path, sheet="空").code == "empty_sheet"
    dup = xlsx(tmp_path, {"S": [["a", "a"], [1, 2]]}, name="dup.xlsx")
    assert rejected(dup, sheet="S").code == "duplicate_header"
    real = xlsx(tmp_path, {"S": [["a", "a_1", " a "], [1, 2, 3]]}, name="real.xlsx")
    assert rejected(real, sheet="S").code == "duplicate_header", "'a' and ' a ' are the same name once trimmed"
    fine = xlsx(tmp_path, {"S": [["a", "a_1"], [1, 2]]}, name="fine.xlsx")
    assert list(ingest(fine, sheet="S")[1]) == ["a", "a_1"]


def test_legacy_xls(tmp_path):
    book = xlwt.Workbook()
    sheet = book.add_sheet("销售")
    for r, row in enumerate([["地区", "金额"], ["华东", 12.5], ["华北", 3]]):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    path = tmp_path / "old.xls"
    book.save(str(path))
    assert detect_format(path, "old.xls") == "xls"
    assert [s.name for s in list_sheets(path, "xls")] == ["销售"]
    _report, types, rows = ingest(path, sheet="销售")
    assert types == {"地区": "VARCHAR", "金额": "DOUBLE"} and rows == [("华东", 12.5), ("华北", 3.0)]


def test_password_protected_workbook(tmp_path):
    plain = xlsx(tmp_path, {"S": [["a"], [1]]})
    encrypted = tmp_path / "secret.xlsx"
    with plain.open("rb") as source, encrypted.open("wb") as out:
        OOXMLFile(source).encrypt("pw", out)
    with pytest.raises(IngestRejected) as info:
        detect_format(encrypted, "secret.xlsx")
    assert info.value.code == "password_protected" and "remove the password" in info.value.message


@pytest.mark.slow
def test_zip_bomb_disguised_as_xlsx(tmp_path):
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            block = b"<c>0</c>" * 131072  # 1 MB of one repeated cell
            for _ in range(300):
                member.write(block)
    assert path.stat().st_size < 2 * 1024**2
    with pytest.raises(IngestRejected) as info:
        detect_format(path, "bomb.xlsx")
    assert info.value.code == "zip_bomb" and "CSV" in info.value.message


def lie_about_sizes(path: Path, name: str, declared: int) -> None:
    """Rewrite a member's sizes in its local header and the central directory, as a crafted bomb does."""
    data = bytearray(path.read_bytes())
    encoded = name.encode()
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + len(encoded)] == encoded:
                data[start + size_at : start + size_at + 4] = declared.to_bytes(4, "little")
            start += 4
    path.write_bytes(bytes(data))


def test_a_zip_bomb_with_false_sizes_is_measured_by_what_really_inflates(tmp_path, monkeypatch):
    monkeypatch.setattr("apps.datasets.ingest.excel.ZIP_RATIO_FLOOR", 1024**2)  # a smaller bomb keeps the test quick
    path = tmp_path / "liar.xlsx"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<c>0</c>" * 2 * 1024**2)  # 16 MB of one cell
    lie_about_sizes(path, "xl/worksheets/sheet1.xml", 1000)
    assert all(m.file_size < 2000 for m in zipfile.ZipFile(path).infolist()), "the declared sizes look harmless"
    with pytest.raises(IngestRejected) as info:
        detect_format(path, "liar.xlsx")
    assert info.value.code == "zip_bomb"


def test_a_real_workbook_with_false_sizes_inflates_within_limits(tmp_path):
    path = xlsx(tmp_path, {"s": [["a", "b"], [1, "x"], [2, "y"]]})
    lie_about_sizes(path, "xl/worksheets/sheet1.xml", 10)
    assert detect_format(path, path.name) == "xlsx"


def test_a_zip_that_is_not_a_workbook(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(IngestRejected) as info:
        detect_format(write(tmp_path, "x.xlsx", buffer.getvalue()), "x.xlsx")
    assert info.value.code == "unsupported_format"


def test_the_profile_names_a_summary_row(tmp_path):
    text = "Nation,Gold\nNorway,11\nChina,9\nTotal,20\n"
    path = write(tmp_path, "m.csv", text)
    dest = tmp_path / "m.duckdb"
    ingest_file(path, dest, fmt="csv", sheet=None, header_row=1, max_rows=100)
    profile = profile_table(dest)
    assert profile.column("Nation").total_label == "Total" and profile.column("Gold").total_label is None


# ---- what users' files hold: UTC times, pandas' index, month names, stray NUL bytes ----


def test_iso_times_with_a_zone_become_utc_times(tmp_path):
    body = "时间,v\n2024-01-01T10:00:00Z,1\n2024-01-02T11:30:00+08:00,2\n"
    path = write(tmp_path, "z.csv", body)
    report, types, rows = ingest(path)
    assert types["时间"] == "TIMESTAMP" and report.converted["时间"] == "TIMESTAMP"
    naive_utc = [dt.datetime(2024, 1, 1, 10, tzinfo=dt.UTC), dt.datetime(2024, 1, 2, 3, 30, tzinfo=dt.UTC)]
    assert [r[0] for r in rows] == [t.replace(tzinfo=None) for t in naive_utc]
    profile = profile_table(path.with_suffix(".duckdb"))
    assert profile.row_count == 2


def test_a_pandas_index_column_without_a_name_is_kept_as_index(tmp_path):
    report, types, rows = ingest(write(tmp_path, "p.csv", ",a,b\n0,1,x\n1,3,y\n"))
    assert list(types) == ["index", "a", "b"] and rows == [(0, 1, "x"), (1, 3, "y")]
    assert report.columns == ["index", "a", "b"] and report.dropped_empty_columns == []
    _report, types, _rows = ingest(write(tmp_path, "q.csv", ",index,,b\n0,5,,x\n"))
    assert list(types) == ["index_1", "index", "b"]


def test_a_pandas_index_column_in_a_workbook_is_kept_as_index(tmp_path):
    path = xlsx(tmp_path, {"s": [[None, "a"], [0, "x"], [1, "y"]]})
    _report, types, rows = ingest(path, sheet="s")
    assert list(types) == ["index", "a"] and rows == [(0, "x"), (1, "y")]


@pytest.mark.parametrize(
    ("values", "dates"),
    [
        (["19-Jan-18", "20-feb-18", "1-Mar-99"], [dt.date(2018, 1, 19), dt.date(2018, 2, 20), dt.date(1999, 3, 1)]),
        (["19-Jan-2018", "20 February 2018"], [dt.date(2018, 1, 19), dt.date(2018, 2, 20)]),
        (['"December 30, 2007"', '"Jan 2, 2008"'], [dt.date(2007, 12, 30), dt.date(2008, 1, 2)]),
        (["2025年1月3日", "2025年12月31日"], [dt.date(2025, 1, 3), dt.date(2025, 12, 31)]),
        (["2025.01.03", "2025.12.31"], [dt.date(2025, 1, 3), dt.date(2025, 12, 31)]),
        (["12.04.1986", "03.01.2025"], [dt.date(1986, 4, 12), dt.date(2025, 1, 3)]),
    ],
)
def test_dates_with_month_names_become_dates(tmp_path, values, dates):
    body = "d,v\n" + "".join(f"{v},{i}\n" for i, v in enumerate(values))
    _report, types, rows = ingest(write(tmp_path, "d.csv", body))
    assert types["d"] == "DATE" and [r[0] for r in rows] == dates


@pytest.mark.parametrize(
    "values", [["2025年2月30日", "2025年3月1日"], ["1.2.3", "4.5.6"], ["2025.13.01", "2025.01.02"]]
)
def test_text_that_is_not_a_real_date_stays_text(tmp_path, values):
    body = "d,v\n" + "".join(f"{v},{i}\n" for i, v in enumerate(values))
    _report, types, _rows = ingest(write(tmp_path, "d.csv", body))
    assert types["d"] == "VARCHAR"


def test_month_name_dates_in_mixed_shapes_stay_text(tmp_path):
    body = 'd,v\n19-Jan-18,1\n"December 30, 2007",2\n19-Jan-2018,3\n'
    _report, types, _rows = ingest(write(tmp_path, "d.csv", body))
    assert types["d"] == "VARCHAR"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "gb18030"])
def test_a_nul_byte_anywhere_in_a_text_file_is_refused(tmp_path, encoding):
    body = "a,b\n" + "文本,1\n" * 5000 + "y\x00z,2\n"
    error = rejected(write(tmp_path, "n.csv", body, encoding=encoding))
    assert error.code == "nul_byte" and "line 5,002" in error.message


def test_numbers_written_with_a_unit_become_numbers_and_the_unit_moves_to_the_name(tmp_path):
    body = (
        "Class,Winnings,Displacement,Share,Finish,From,Size,Price,Price ($)\n"
        'A,$535,"1,450 tonnes",70.20%,12th,328 BC,"1,96 m",1200元,$3\n'
        'B,"$1,975","1,440 tonnes",0.39%,1st,311 BC,"1,87 m",35元,$4\n'
        'C,$12.5,,5%,3rd,300 BC,"1,80 m",4元,$5\n'
    )
    report, types, rows = ingest(write(tmp_path, "u.csv", body))
    assert types == {
        "Class": "VARCHAR",
        "Winnings ($)": "DOUBLE",
        "Displacement (tonnes)": "BIGINT",
        "Share (%)": "DOUBLE",
        "Finish": "BIGINT",
        "From": "VARCHAR",  # 328 BC is a year of an era, not an amount
        "Size": "VARCHAR",  # "1,96 m": a decimal comma, not 196 metres
        "Price (元)": "BIGINT",
        "Price ($)": "BIGINT",  # the name already says the unit
    }
    assert report.columns == list(types) and report.converted["Winnings ($)"] == "DOUBLE"
    assert [r[1:5] for r in rows] == [(535.0, 1450, 70.2, 12), (1975.0, 1440, 0.39, 1), (12.5, None, 5.0, 3)]
    assert [r[7] for r in rows] == [1200, 35, 4]


def test_a_column_with_two_units_or_words_among_the_numbers_stays_text(tmp_path):
    body = "Name,Height,Note,Speed\nA,1.65 m,12 kg,5 Mb\nB,166 cm,light,7 MB\nC,1.70 m,15 kg,8 Mbs\n"
    _report, types, rows = ingest(write(tmp_path, "t.csv", body))
    assert types == {"Name": "VARCHAR", "Height": "VARCHAR", "Note": "VARCHAR", "Speed": "VARCHAR"}
    assert rows[1] == ("B", "166 cm", "light", "7 MB")


def test_a_unit_written_in_the_singular_and_the_plural_is_one_unit(tmp_path):
    body = "Name,Left,Score\nA,1 year,3 pts\nB,6 years,1 pt\nC,11 years,10 pts\n"
    _report, types, rows = ingest(write(tmp_path, "t.csv", body))
    assert types == {"Name": "VARCHAR", "Left (years)": "BIGINT", "Score (pts)": "BIGINT"}
    assert [r[1:] for r in rows] == [(1, 3), (6, 1), (11, 10)]


def test_codes_that_look_like_numbers_with_a_unit_stay_as_written(tmp_path):
    """Seats (12A), codes with leading zeros (007A, 02134 MA) and numbers too long for an integer keep their
    text; a unit whose letters the name merely contains ("g" in Weight) still joins the name."""
    body = (
        "Seat,Code,Zip,Mass,Weight,Price,price ($)\n"
        "12A,007A,02134 MA,12345678901234567890 kg,500 g,$5,1\n"
        "14A,012A,02135 MA,5 kg,250 g,$7,2\n"
    )
    report, types, rows = ingest(write(tmp_path, "c.csv", body))
    assert [types[n] for n in ("Seat", "Code", "Zip", "Mass")] == ["VARCHAR"] * 4
    assert types["Weight (g)"] == "BIGINT" and [r[4] for r in rows] == [500, 250]
    assert types["Price"] == "BIGINT", "Price ($) is taken (names ignore case): the name stays, the value is 5"
    assert report.columns == list(types) and [r[5] for r in rows] == [5, 7]


def test_times_written_with_a_fraction_of_a_second_become_seconds(tmp_path):
    body = "Name,Time,Kick-off,Gap\nA,1:54.32,13:30,+0.52\nB,1:01:45.5,19:45,+1.10\nC,59.10,20:00,\n"
    _report, types, rows = ingest(write(tmp_path, "d.csv", body))
    assert list(types) == ["Name", "Time (s)", "Kick-off", "Gap"] and types["Time (s)"] == "DOUBLE"
    assert types["Kick-off"] == "TIME", "a time of day, without a fraction of a second, is no duration"
    assert [r[1] for r in rows] == pytest.approx([114.32, 3705.5, 59.1])
