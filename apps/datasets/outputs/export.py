"""Query results as downloads: CSV (UTF-8 with BOM, so Excel reads Chinese) and XLSX.

Spreadsheet programs run text that looks like a formula. Every text cell, headers included, that
starts with = + - @ tab or carriage return gets a leading apostrophe (OWASP's CSV injection advice);
numbers stay numbers, so a real -5 is still -5. Control characters that a file cannot carry are
removed first and the test looks past leading invisible characters (controls, Unicode spaces, the
byte-order mark), because spreadsheet programs skip them too: "\x0b=HYPERLINK(...)" is a formula.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from typing import Any
from urllib.parse import quote

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter

from apps.datasets.query.engine import kind_of
from apps.datasets.query.results import ResultTable

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
XLSX_MAX_CELL_CHARS = 32_767  # Excel's limit; longer text makes Excel "repair" the file
XLSX_DATE_FORMATS = {"date": "yyyy-mm-dd", "datetime": "yyyy-mm-dd hh:mm:ss"}
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
MAX_FILENAME_CHARS = 100
_UNSAFE_IN_FILENAME = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|;]+')
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}


_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})


def _leading_visible(text: str) -> str:
    """The text from its first character a spreadsheet program would not skip."""
    for index, char in enumerate(text):
        if not (char.isspace() or unicodedata.category(char) in _INVISIBLE_CATEGORIES):
            return text[index:]
    return ""


def neutralise(value: Any) -> Any:
    """Text a spreadsheet would run as a formula gets a leading apostrophe; other values pass unchanged.

    Characters invalid in a spreadsheet cell (ASCII controls other than tab, line feed, carriage return)
    are removed first, so what is tested is what the file holds.
    """
    if not isinstance(value, str):
        return value
    text = ILLEGAL_CHARACTERS_RE.sub("", value)
    if text.startswith(FORMULA_TRIGGERS) or _leading_visible(text).startswith(FORMULA_TRIGGERS):
        return "'" + text
    return text


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return neutralise(value)


def export_csv(result: ResultTable) -> bytes:
    """The result as CSV: a UTF-8 BOM, a header row, then the rows; empty cells for missing values."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow([neutralise(name) for name in result.columns])
    for row in result.rows:
        writer.writerow([_csv_cell(value) for value in row])
    return buffer.getvalue().encode("utf-8")


def _xlsx_text(value: str) -> str:
    return str(neutralise(value))[:XLSX_MAX_CELL_CHARS]


def _xlsx_date(value: str, kind: str) -> dt.date | dt.datetime | None:
    try:
        if kind == "date":
            return dt.date.fromisoformat(value)
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.replace(tzinfo=None)  # Excel has no time zones; keep the wall-clock time the result shows


def _xlsx_cell(sheet: Any, value: Any, kind: str) -> Any:
    if isinstance(value, str) and kind in XLSX_DATE_FORMATS:
        moment = _xlsx_date(value, kind)
        if moment is not None:
            cell = WriteOnlyCell(sheet, value=moment)
            cell.number_format = XLSX_DATE_FORMATS[kind]
            return cell
    if isinstance(value, str):
        return _xlsx_text(value)
    return value


def _column_width(name: str, values: list[Any]) -> float:
    """A width that fits the header and the first rows; CJK characters count double."""
    texts = [name, *(str(v) for v in values[:100] if v is not None)]
    longest = max(sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text) for text in texts)
    return float(min(max(longest + 2, 8), 60))


def sheet_title(name: str) -> str:
    """A worksheet title Excel accepts: at most 31 characters, none of []:*?/\\."""
    cleaned = re.sub(r"[\[\]:*?/\\\x00-\x1f]+", " ", name).strip(" '")
    return cleaned[:31].strip() or "result"


def export_xlsx(result: ResultTable, *, title: str = "result") -> bytes:
    """The result as one worksheet (write-only mode): header row, rows, real dates for date columns."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=sheet_title(title))
    typed = len(result.column_types) == len(result.columns)
    kinds = [kind_of(t) for t in result.column_types] if typed else ["other"] * len(result.columns)
    for index, name in enumerate(result.columns):
        width = _column_width(name, [row[index] for row in result.rows])
        sheet.column_dimensions[get_column_letter(index + 1)].width = width
    sheet.freeze_panes = "A2"
    sheet.append([_xlsx_text(name) for name in result.columns])
    for row in result.rows:
        sheet.append([_xlsx_cell(sheet, value, kind) for value, kind in zip(row, kinds, strict=True)])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def download_filename(name: str, extension: str) -> str:
    """A file name safe on every system, from a user-chosen name (Chinese kept): '销售 2025.csv'."""
    cleaned = _UNSAFE_IN_FILENAME.sub("_", unicodedata.normalize("NFC", name))
    cleaned = re.sub(r"\s+", " ", cleaned).strip(" .")[:MAX_FILENAME_CHARS].strip(" .")
    if not cleaned:
        cleaned = "result"
    if cleaned.split(".")[0].upper() in _WINDOWS_RESERVED:
        cleaned = "_" + cleaned
    return f"{cleaned}.{extension}"


def content_disposition(filename: str, *, inline: bool = False) -> str:
    """The header value: an ASCII fallback for old clients and RFC 5987 `filename*` with the real name."""
    stem, dot, extension = filename.rpartition(".")
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    ascii_stem = re.sub(r"[^A-Za-z0-9._ -]+", "", ascii_stem).strip(" .") or "download"
    fallback = f"{ascii_stem}{dot}{extension}" if dot else ascii_stem
    disposition = "inline" if inline else "attachment"
    return f"{disposition}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"
