"""Excel workbooks: container checks (zip bombs, encryption), sheet listing, and loading one sheet.

fastexcel (Rust calamine, Arrow out) reads 10-20x faster than openpyxl. Cells are read as text
and typed afterwards in DuckDB, so a stray "N/A" in a numeric column keeps the column as text
instead of silently becoming a missing value.
"""

from __future__ import annotations

import copy
import re
import zipfile
import zlib
from pathlib import Path

import duckdb
import fastexcel
import pyarrow as pa
from django.utils.translation import gettext as _

from apps.datasets.errors import IngestRejected
from apps.datasets.ingest.columns import (
    IngestReport,
    Limits,
    Progress,
    check_header,
    check_width,
    drop_blank_columns,
)
from apps.datasets.ingest.typed import type_columns
from apps.datasets.message_parts import human_size, quoted_list

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_STREAM = "EncryptedPackage".encode("utf-16-le")

ZIP_MAX_MEMBERS = 10_000
ZIP_MAX_UNPACKED = 2 * 1024**3  # what a workbook may expand to in all
ZIP_MAX_RATIO = 200  # real sheets compress 5-50x; zip bombs 1,000x and more
ZIP_RATIO_FLOOR = 10 * 1024**2  # small members may compress as well as they like
_INFLATE_CHUNK = 1024 * 1024


def _zip_bomb(unpacked: int, ratio: float) -> IngestRejected:
    return IngestRejected(
        _(
            "the workbook would expand to %(size)s when opened (%(ratio)sx its packed size); it looks like a "
            "zip bomb. If it is a real workbook, export the sheet as CSV and upload that"
        )
        % {"size": human_size(unpacked), "ratio": f"{ratio:,.0f}"},
        code="zip_bomb",
    )


def _corrupt() -> IngestRejected:
    return IngestRejected(
        _("the workbook is damaged and cannot be opened; open it in Excel, save it again as .xlsx and re-upload"),
        code="corrupt_file",
    )


def check_zip(path: Path) -> None:
    """An XLSX is a zip: refuse archives that are not workbooks or that would expand absurdly.

    The sizes a zip declares can be false, and the workbook reader inflates what is really there, so
    after a cheap check of the declared sizes every member is inflated once through a capped stream
    (nothing kept): the limits hold on the bytes actually inflated, and a bomb is stopped as soon as
    it passes them.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            _check_members(members)
            packed = max(path.stat().st_size, 1)
            unpacked = 0
            for member in members:
                unpacked = _inflate_capped(archive, member, unpacked, packed)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, zlib.error) as exc:
        raise _corrupt() from exc


def _check_members(members: list[zipfile.ZipInfo]) -> None:
    names = {m.filename for m in members}
    if "[Content_Types].xml" not in names or "xl/workbook.xml" not in names:
        raise IngestRejected(
            _("the file is a zip archive but not an Excel workbook; upload .xlsx, .xls or .csv"),
            code="unsupported_format",
        )
    if len(members) > ZIP_MAX_MEMBERS:
        raise IngestRejected(
            _("the workbook holds %(count)s parts, more than a spreadsheet has; it looks like a zip bomb")
            % {"count": f"{len(members):,}"},
            code="zip_bomb",
        )
    unpacked = sum(m.file_size for m in members)
    worst = max(members, key=lambda m: m.file_size / max(m.compress_size, 1))
    ratio = worst.file_size / max(worst.compress_size, 1)
    if unpacked > ZIP_MAX_UNPACKED or (worst.file_size > ZIP_RATIO_FLOOR and ratio > ZIP_MAX_RATIO):
        raise _zip_bomb(unpacked, ratio)


def _inflate_capped(archive: zipfile.ZipFile, member: zipfile.ZipInfo, before: int, packed: int) -> int:
    """Inflate one member without keeping it; the running total, or a refusal once a limit is passed."""
    if member.is_dir():
        return before
    real = copy.copy(member)
    real.file_size = ZIP_MAX_UNPACKED + 1  # read to the end of the real data, not to the declared size
    member_cap = max(ZIP_RATIO_FLOOR, ZIP_MAX_RATIO * max(member.compress_size, 1))
    total_cap = min(ZIP_MAX_UNPACKED, max(ZIP_RATIO_FLOOR, ZIP_MAX_RATIO * packed))
    inflated = 0
    with archive.open(real) as stream:
        while chunk := stream.read(_INFLATE_CHUNK):
            inflated += len(chunk)
            if inflated > member_cap or before + inflated > total_cap:
                ratio = (
                    (before + inflated) / packed
                    if before + inflated > total_cap
                    else inflated / max(member.compress_size, 1)
                )
                raise _zip_bomb(before + inflated, ratio)
    return before + inflated


def is_encrypted_ole(path: Path) -> bool:
    """Password-protected .xlsx files are OLE containers holding an 'EncryptedPackage' stream."""
    tail = b""
    with path.open("rb") as handle:
        while chunk := handle.read(1024 * 1024):
            if _ENCRYPTED_STREAM in tail + chunk:
                return True
            tail = chunk[-len(_ENCRYPTED_STREAM) :]
    return False


def _open(path: Path) -> fastexcel.ExcelReader:
    try:
        return fastexcel.read_excel(str(path))
    except fastexcel.FastExcelError as exc:
        text = str(exc).lower()
        if "password" in text or "encrypt" in text:
            raise IngestRejected(
                _("the workbook is password-protected; remove the password in Excel and upload it again"),
                code="password_protected",
            ) from exc
        raise IngestRejected(
            _(
                "the workbook is damaged or not a real Excel file; open it in Excel, save it again as .xlsx and "
                "re-upload (or export the sheet as CSV)"
            ),
            code="corrupt_file",
        ) from exc


def sheet_names(path: Path) -> list[str]:
    names = list(_open(path).sheet_names)
    if not names:
        raise IngestRejected(_("the workbook has no sheets"), code="empty_file")
    return names


_DEDUPED = re.compile(r"(.+)_([0-9]+)")


def _sheet_error(exc: Exception, sheet: str, names: list[str]) -> IngestRejected:
    if isinstance(exc, fastexcel.SheetNotFoundError):
        return unknown_sheet(sheet, names)
    return IngestRejected(
        _("sheet '%(sheet)s' could not be read; open the workbook in Excel, save it again and re-upload")
        % {"sheet": sheet},
        code="corrupt_file",
    )


def unknown_sheet(sheet: str, names: list[str]) -> IngestRejected:
    return IngestRejected(
        _("the workbook has no sheet '%(sheet)s'; its sheets are: %(sheets)s")
        % {"sheet": sheet, "sheets": quoted_list(names)},
        code="unknown_sheet",
    )


def _raw_header(reader: fastexcel.ExcelReader, sheet: str, header_row: int) -> list[object]:
    batch = reader.load_sheet(sheet, header_row=None, skip_rows=header_row - 1, n_rows=1, dtypes="string").to_arrow()
    return list(batch.to_pylist()[0].values()) if batch.num_rows else []


def _typed(reader: fastexcel.ExcelReader, sheet: str, header_row: int, limits: Limits) -> pa.Table:
    """The fast path: cells with their own types; refused (by fastexcel) when a column mixes types."""
    loaded = reader.load_sheet(
        sheet, header_row=header_row - 1, n_rows=limits.rows + 1, schema_sample_rows=None, dtype_coercion="strict"
    )
    found = [None if c.column_name_from == "generated" else c.name for c in loaded.available_columns()]
    check_width(len(found), limits)
    if not found:
        return pa.table({})
    seen: set[str] = set()
    suspicious = False
    for name in found:  # fastexcel renames a repeated header "a" to "a_1": check the real header then
        match = _DEDUPED.fullmatch(name or "")
        suspicious = suspicious or bool(match and match.group(1) in seen)
        seen.add(name or "")
    header = _raw_header(reader, sheet, header_row) if suspicious else found
    names, _blanks = check_header(header, header_row)
    return pa.Table.from_batches([loaded.to_arrow()]).rename_columns(names)


def _as_text(reader: fastexcel.ExcelReader, sheet: str, header_row: int, limits: Limits) -> pa.Table:
    """The careful path for columns that mix types: every cell as text, typed afterwards in DuckDB."""
    batch = reader.load_sheet(
        sheet, header_row=None, skip_rows=header_row - 1, n_rows=limits.rows + 2, dtypes="string"
    ).to_arrow()
    if batch.num_rows == 0:
        return pa.table({})
    check_width(batch.num_columns, limits)
    names, _blanks = check_header(batch.slice(0, 1).to_pylist()[0].values(), header_row)
    return pa.Table.from_batches([batch.slice(1)]).rename_columns(names)


def load_sheet(
    con: duckdb.DuckDBPyConnection, src: Path, sheet: str, header_row: int, limits: Limits, progress: Progress
) -> IngestReport:
    """Read one sheet into table `data`; the header row gives the column names."""
    reader = _open(src)
    progress(0.1, "reading")
    report = IngestReport(reader="fastexcel")
    try:
        try:
            table = _typed(reader, sheet, header_row, limits)
        except fastexcel.UnsupportedColumnTypeCombinationError:
            report.reader = "fastexcel (text cells)"
            table = _as_text(reader, sheet, header_row, limits)
    except fastexcel.FastExcelError as exc:
        raise _sheet_error(exc, sheet, reader.sheet_names) from exc
    if table.num_columns == 0:
        raise IngestRejected(
            _("sheet '%(sheet)s' has nothing at or below row %(row)s; choose another sheet or header row")
            % {"sheet": sheet, "row": header_row},
            code="empty_sheet",
        )
    names = table.column_names
    blanks = [i for i, name in enumerate(names) if name.startswith("__blank_")]
    progress(0.6, "loading")
    con.register("incoming", table)
    con.execute('CREATE TABLE "data" AS SELECT * FROM incoming')
    con.unregister("incoming")
    drop_blank_columns(con, names, blanks, header_row)
    report.columns = [n for i, n in enumerate(names) if i not in blanks]
    report.dropped_empty_columns = [i + 1 for i in blanks]
    progress(0.8, "typing")
    type_columns(con, report, ("VARCHAR", "DOUBLE", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE"))
    return report
