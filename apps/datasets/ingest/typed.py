"""The typing pass over a freshly loaded table: which steps run, in which order, and what the report says."""

from __future__ import annotations

import duckdb

from apps.datasets.ingest.columns import (
    IngestReport,
    blank_marks,
    chart_places,
    infer_types,
    minus_signs,
    name_units,
    total_cells,
)
from apps.datasets.ingest.split import split_cells


def type_columns(con: duckdb.DuckDBPyConnection, report: IngestReport, sources: tuple[str, ...]) -> None:
    """Cells of two things split in two (split_cells), a typographic minus made "-" (minus_signs), marks in
    place of values made blank (total_cells, blank_marks), types for the loaded columns (infer_types), then
    numbers written with a unit (name_units); the report names each converted column as the table now does."""
    converted: dict[str, str] = {}
    if "VARCHAR" in sources:
        split = split_cells(con)
        report.columns, converted = split.columns, split.converted
        minus_signs(con)
    marks = total_cells(con) if "VARCHAR" in sources else {}
    charts = chart_places(con)
    marks |= blank_marks(con, tuple(charts)) if "VARCHAR" in sources else {}
    report.converted = converted | infer_types(con, sources=sources)
    renamed, places = name_units(con)
    report.columns = [renamed[n][0] if n in renamed else n for n in report.columns]
    report.converted.update(dict(renamed.values()))
    report.blank_marks = {renamed[n][0] if n in renamed else n: found for n, found in marks.items()}
    report.places = [renamed[n][0] for n in places]
    report.charts = [n for n in charts if n not in renamed]
