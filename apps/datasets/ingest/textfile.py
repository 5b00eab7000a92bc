"""CSV and other delimited text: encoding, delimiter, header, then DuckDB's own fast reader.

DuckDB reads UTF-8 only here (its encodings extension cannot be installed), so GBK/GB18030 and
UTF-16 files are transcoded to a UTF-8 copy first. Problems DuckDB reports tersely (ragged rows,
a delimiter inside an unquoted value) are located in Python afterwards, so the message names the
line — that extra pass runs only on the failure path.
"""

from __future__ import annotations

import codecs
import csv
import io
import logging
import os
import re
import threading
from pathlib import Path

import duckdb
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
from apps.datasets.message_parts import human_size

log = logging.getLogger(__name__)
DELIMITERS = (",", "\t", ";", "|")
_SAMPLE_BYTES = 256 * 1024
_CHUNK = 4 * 1024 * 1024
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def looks_like_text(head: bytes) -> bool:
    if head.startswith(_UTF16_BOMS):
        return True
    if b"\x00" in head:
        return False
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 13, 12))
    return controls <= len(head) // 100


def sniff_encoding(path: Path) -> str:
    """utf-16 (by its BOM), utf-8 when the start of the file is valid UTF-8, else gb18030 (GBK's superset).

    A UTF-8 guess is confirmed by DuckDB while it loads (it refuses invalid UTF-8), so the common case
    costs no extra pass over the file; a file that turns out not to be UTF-8 is loaded again as GB18030.
    """
    with path.open("rb") as handle:
        head = handle.read(_SAMPLE_BYTES)
    if head.startswith(_UTF16_BOMS):
        return "utf-16"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "gb18030"
    return "utf-8"


class _NotUtf8(Exception):
    """DuckDB found bytes that are not UTF-8 after a UTF-8 start."""


def transcode(src: Path, dest: Path, encoding: str) -> None:
    try:
        with (
            src.open("r", encoding=encoding, newline="") as source,
            dest.open("w", encoding="utf-8", newline="") as out,
        ):
            while chunk := source.read(_CHUNK):
                out.write(chunk)
    except UnicodeDecodeError as exc:
        dest.unlink(missing_ok=True)
        raise IngestRejected(
            _(
                "the file's text encoding is not recognised (tried UTF-8, UTF-16 and GBK/GB18030); save it as "
                "'CSV UTF-8' and upload it again"
            ),
            code="unsupported_encoding",
        ) from exc


def refuse_nul_bytes(path: Path) -> None:
    """A NUL byte anywhere in a (UTF-8) text file is refused, as one in its first bytes already is.

    Spreadsheet programs never write one; it comes from a damaged or partly binary file, and stored
    in a value it would cut that value short in other programs.
    """
    line = 1
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            position = chunk.find(b"\x00")
            if position >= 0:
                line += chunk.count(b"\n", 0, position)
                raise IngestRejected(
                    _(
                        "line %(line)s of the file contains a NUL character (byte 0), which text files do not "
                        "hold; the file looks damaged or partly binary. Open it in a spreadsheet program, save "
                        "it again as CSV UTF-8 and re-upload"
                    )
                    % {"line": f"{line:,}"},
                    code="nul_byte",
                )
            line += chunk.count(b"\n")


def _sample_lines(path: Path, header_row: int) -> list[str]:
    """The header line and the lines after it, from the start of a UTF-8 file."""
    with path.open("rb") as handle:
        raw = handle.read(_SAMPLE_BYTES)
    text = raw.decode("utf-8-sig", errors="ignore")
    lines = text.splitlines()
    if len(raw) == _SAMPLE_BYTES and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut in the middle
    lines = lines[header_row - 1 :]
    if not lines or not lines[0].strip():
        raise IngestRejected(
            _("line %(line)s of the file is empty or missing; set the header row to the line with the column names")
            % {"line": header_row},
            code="blank_header",
        )
    return lines[:200]


def sniff_delimiter(lines: list[str]) -> str:
    """The delimiter that splits the header and the most following lines into the same number of fields."""
    best, best_score = ",", (-1.0, 0)
    for delimiter in DELIMITERS:
        rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
        width = len(rows[0]) if rows else 0
        if width < 2:
            continue
        consistent = sum(1 for row in rows[1:] if len(row) == width) / max(len(rows) - 1, 1)
        score = (consistent, width)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def load_csv(
    con: duckdb.DuckDBPyConnection,
    src: Path,
    workdir: Path,
    header_row: int,
    progress: Progress,
    limits: Limits | None = None,
) -> IngestReport:
    """Load a delimited text file into table `data` (rows are counted against the plan by the caller)."""
    limits = limits or Limits(rows=0)
    csv.field_size_limit(max(csv.field_size_limit(), limits.line_bytes))  # Python's default is 128 KB a value
    encoding = sniff_encoding(src)
    try:
        delimiter, names, blanks = _load_as(con, src, workdir, header_row, progress, encoding, limits)
    except _NotUtf8:
        encoding = "gb18030"
        delimiter, names, blanks = _load_as(con, src, workdir, header_row, progress, encoding, limits)
    drop_blank_columns(con, names, blanks, header_row)
    progress(0.85, "typing")
    report = IngestReport(reader="duckdb", encoding=encoding, delimiter=delimiter)
    report.columns = [n for i, n in enumerate(names) if i not in blanks]
    report.dropped_empty_columns = [i + 1 for i in blanks]
    type_columns(con, report, ("VARCHAR", "TIMESTAMP WITH TIME ZONE"))
    return report


def _load_as(
    con: duckdb.DuckDBPyConnection,
    src: Path,
    workdir: Path,
    header_row: int,
    progress: Progress,
    encoding: str,
    limits: Limits,
) -> tuple[str, list[str], list[int]]:
    utf8 = src
    if encoding != "utf-8":
        utf8 = workdir / f".transcoded-{os.getpid()}-{threading.get_ident()}-{src.stem}.csv"
        progress(0.05, "converting to UTF-8")
        transcode(src, utf8, encoding)
    try:
        refuse_nul_bytes(utf8)
        lines = _sample_lines(utf8, header_row)
        delimiter = sniff_delimiter(lines)
        header = next(csv.reader([lines[0]], delimiter=delimiter))
        check_width(len(header), limits)
        names, blanks = check_header(header, header_row)
        _read_into_table(con, utf8, delimiter, names, header_row, progress, limits.line_bytes)
    finally:
        if utf8 != src:
            utf8.unlink(missing_ok=True)
    return delimiter, names, blanks


_LOAD = (
    "CREATE TABLE \"data\" AS SELECT * FROM read_csv($path, delim = $delim, quote = '\"', escape = '\"', "
    "header = true, skip = $skip, names = $names, strict_mode = true, null_padding = false, "
    "sample_size = $sample, max_line_size = $max_line)"
)  # no LIMIT: it would serialise the load; the plan's file size bounds the rows, counted afterwards


def _read_into_table(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    delimiter: str,
    names: list[str],
    header_row: int,
    progress: Progress,
    max_line_bytes: int,
) -> None:
    params = {"path": str(path), "delim": delimiter, "skip": header_row - 1, "names": names, "max_line": max_line_bytes}
    for sample in (20_480, -1):  # a type guess from the first rows can be wrong; then read all rows to guess
        try:
            with _watch_progress(con, progress):
                con.execute(_LOAD, {**params, "sample": sample})
            return
        except duckdb.ConversionException:
            con.execute('DROP TABLE IF EXISTS "data"')
            continue
        except duckdb.Error as exc:
            con.execute('DROP TABLE IF EXISTS "data"')
            if "Invalid unicode" in str(exc):
                raise _NotUtf8 from exc
            raise _explain(path, delimiter, len(names), header_row, exc, max_line_bytes) from exc
    raise IngestRejected(
        _("some values do not match the type of their column; check the file for mixed values"), code="ingest_failed"
    )


class _watch_progress:  # noqa: N801 - used as a context manager
    """Copies DuckDB's own progress of the running load to the version row."""

    def __init__(self, con: duckdb.DuckDBPyConnection, progress: Progress) -> None:
        self.con, self.progress, self.done = con, progress, threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.done.wait(0.25):
            try:
                percent = self.con.query_progress()
            except duckdb.Error:
                return
            if percent >= 0:
                self.progress(0.1 + 0.7 * percent / 100, "loading")

    def __enter__(self) -> _watch_progress:
        self.con.execute("SET enable_progress_bar = true; SET enable_progress_bar_print = false")
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()


def _explain(
    path: Path, delimiter: str, width: int, header_row: int, exc: duckdb.Error, max_line_bytes: int
) -> IngestRejected:
    """Turn a DuckDB CSV error into a message that names the line and says what to do."""
    try:
        ragged = _ragged_line(path, delimiter, width, header_row)
    except csv.Error:
        ragged = None
    if ragged is not None:
        return ragged
    if _LINE_TOO_LONG.search(str(exc)):
        return IngestRejected(
            _(
                "a line of the file is longer than %(limit)s, the most one line may hold; check for a quote that "
                "is never closed, or split very long values"
            )
            % {"limit": human_size(max_line_bytes)},
            code="line_too_long",
        )
    log.warning("CSV reader refused %s: %s", path.name, str(exc).split("\n")[0][:300])  # paths stay in the log
    return IngestRejected(
        _(
            "the CSV could not be read; check that it is a plain CSV with one header row and the same number of values "
            "on every line"
        ),
        code="invalid_csv",
    )


_LINE_TOO_LONG = re.compile(r"maximum line size of [0-9]+ bytes exceeded", re.IGNORECASE)


def _ragged_line(path: Path, delimiter: str, width: int, header_row: int) -> IngestRejected | None:
    """The first line with too many or too few values, as a message that names it."""
    shown = {"\t": _("tab"), ",": _("comma"), ";": _("semicolon"), "|": _("vertical bar")}[delimiter]
    with path.open("r", encoding="utf-8-sig", newline="") as handle:
        for _skipped in range(header_row - 1):
            handle.readline()
        reader = csv.reader(handle, delimiter=delimiter, strict=False)
        for row in reader:
            if not row or row == [""]:
                continue
            counts = {"line": reader.line_num + header_row - 1, "values": len(row), "width": width}
            if len(row) > width:
                return IngestRejected(
                    _(
                        "line %(line)s has %(values)s values but the header has %(width)s columns: a value probably "
                        'contains the %(delimiter)s without quotes; put such values in double quotes ("a, b") or '
                        "fix that line"
                    )
                    % {**counts, "delimiter": shown},
                    code="ragged_rows",
                )
            if len(row) < width:
                return IngestRejected(
                    _(
                        "line %(line)s has %(values)s values but the header has %(width)s columns; add the missing "
                        "values (empty is fine) or fix that line"
                    )
                    % counts,
                    code="ragged_rows",
                )
    return None
