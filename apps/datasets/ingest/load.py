"""Ingestion: recognise an uploaded file, check it, and load one table into a DuckDB file.

CSV goes through DuckDB's own reader (GBK/GB18030 are transcoded to UTF-8 first, since DuckDB
reads UTF-8 only); Excel through fastexcel (Rust calamine, Arrow out). Every check that can
reject a file runs before anything is written, and a failed load removes its partial file:
the caller gets either a complete `data` table at `dest` or an `IngestRejected` and no file.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
from django.utils.translation import gettext as _

from apps.datasets.errors import IngestRejected
from apps.datasets.ingest import excel, textfile
from apps.datasets.ingest.columns import DEFAULT_MAX_COLUMNS, DEFAULT_MAX_LINE_BYTES, IngestReport, Limits, Progress

log = logging.getLogger(__name__)

TEXT_EXTENSIONS = {".csv", ".txt", ".tsv"}
EXCEL_EXTENSIONS = {".xlsx", ".xlsm", ".xls"}
SUPPORTED = "CSV (.csv, .txt, .tsv), Excel (.xlsx, .xls)"


@dataclass
class SheetInfo:
    name: str


def detect_format(path: Path, original_name: str) -> str:
    """csv, xlsx or xls, from the file's content (checked against its extension)."""
    extension = Path(original_name).suffix.lower()
    if extension and extension not in TEXT_EXTENSIONS | EXCEL_EXTENSIONS:
        raise IngestRejected(
            _("files of type '%(extension)s' are not supported; upload %(supported)s")
            % {"extension": extension, "supported": SUPPORTED},
            code="unsupported_format",
        )
    with path.open("rb") as handle:
        head = handle.read(8192)
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        raise IngestRejected(_("the file is empty; upload a file with a header row and data"), code="empty_file")
    if head.startswith(b"PK\x03\x04"):
        excel.check_zip(path)
        return "xlsx"
    if head.startswith(excel.OLE_MAGIC):
        if excel.is_encrypted_ole(path):
            raise IngestRejected(
                _(
                    "the workbook is password-protected; remove the password in Excel (File > Info > Protect "
                    "Workbook) and upload it again"
                ),
                code="password_protected",
            )
        return "xls"
    if not textfile.looks_like_text(head):
        raise IngestRejected(
            _("the file is not a spreadsheet or a text CSV (it looks binary); upload %(supported)s")
            % {"supported": SUPPORTED},
            code="unsupported_format",
        )
    if extension in EXCEL_EXTENSIONS:
        raise IngestRejected(
            _("the file is named %(extension)s but holds text; rename it to .csv, or save it from Excel as .xlsx")
            % {"extension": extension},
            code="format_mismatch",
        )
    return "csv"


def list_sheets(path: Path, fmt: str) -> list[SheetInfo]:
    if fmt == "csv":
        return [SheetInfo(name="")]
    return [SheetInfo(name=name) for name in excel.sheet_names(path)]


def ingest_file(
    src: Path,
    dest: Path,
    *,
    fmt: str,
    sheet: str | None,
    header_row: int,
    max_rows: int,
    max_columns: int = DEFAULT_MAX_COLUMNS,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    progress: Progress | None = None,
) -> IngestReport:
    """Load `src` into table `data` of a new DuckDB file at `dest` (written aside, then moved in).

    `max_columns` refuses wider tables before any is loaded; `max_line_bytes` is the longest CSV line
    (so the longest value) the reader accepts — the plan's upload size, so a file the plan accepts is read.
    """
    limits = Limits(rows=max_rows, columns=max_columns, line_bytes=max(max_line_bytes, DEFAULT_MAX_LINE_BYTES))
    report_progress = progress or (lambda fraction, stage: None)
    started = time.perf_counter()
    partial = dest.with_name(f".partial-{os.getpid()}-{dest.name}")
    _remove_database(partial)
    try:
        con = duckdb.connect(str(partial), config={"threads": 2, "autoinstall_known_extensions": False})
        try:
            if fmt == "csv":
                report = textfile.load_csv(con, src, partial.parent, header_row, report_progress, limits)
            else:
                report = excel.load_sheet(con, src, sheet or "", header_row, limits, report_progress)
            _check_loaded(con, report, max_rows)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(partial, dest)
    except duckdb.OutOfMemoryException:
        raise
    except duckdb.Error as exc:  # DuckDB's own text names paths and internals: logged, not shown
        log.warning("ingest failed in DuckDB: %s", _first_line(exc))
        raise IngestRejected(
            _(
                "the file could not be loaded as a table; check that it is a plain table with one header row "
                "(no merged cells or notes above the header) and upload it again"
            ),
            code="ingest_failed",
        ) from exc
    finally:
        _remove_database(partial)
    report.seconds = round(time.perf_counter() - started, 3)
    report_progress(1.0, "loaded")
    return report


def _remove_database(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.with_name(path.name + ".wal").unlink(missing_ok=True)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0][:300]


def _check_loaded(con: duckdb.DuckDBPyConnection, report: IngestReport, max_rows: int) -> None:
    row = con.execute('SELECT count(*) FROM "data"').fetchall()[0]
    report.rows = int(row[0])
    if report.rows > max_rows:
        raise IngestRejected(
            _("the file has more than %(limit)s data rows, your plan's limit; split it or upgrade the plan")
            % {"limit": f"{max_rows:,}"},
            code="too_many_rows",
        )
    if report.rows == 0:
        raise IngestRejected(
            _("the file has a header row but no data rows; check the header row setting or upload data"),
            code="no_rows",
        )
