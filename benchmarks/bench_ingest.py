"""Ingestion against the raw readers, on the same files in the same run.

- 100k-row XLSX: ours (checks, fastexcel read, DuckDB load, type inference, checkpoint) against
  polars + fastexcel to a DataFrame (the fastest reader measured), with pandas + python-calamine
  and pandas + openpyxl for reference;
- 1M-row CSV: ours (encoding check, sniffing, DuckDB read_csv, typing, checkpoint) against
  DuckDB's own read_csv into a .duckdb file with CHECKPOINT; the same file in GBK for reference;
- a wide CSV (1,000 columns, the default INGEST_MAX_COLUMNS, by 1,000 rows), for reference: typing
  is batched, so its time grows with the width, not faster.

Each measurement runs in a fresh process, so peak memory is that case's alone.
Targets (docs/DESIGN.md section 8): within 1.5x of the raw reader for both.

    .venv/bin/python -m benchmarks.bench_ingest [--xlsx-rows 100000] [--csv-rows 1000000] [--wide-columns 1000]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import peak_rss_mb, report

COLUMNS = ["订单编号", "地区", "产品", "日期", "金额", "数量", "退货", "备注"]


def make_wide_csv(path: Path, columns: int, rows: int = 1000) -> None:
    """Numbers, text and dates side by side, `columns` wide."""
    kinds = [
        lambda r, c: str((r * c) % 997),
        lambda r, c: f"项{(r + c) % 50}",
        lambda r, c: f"2024-01-{r % 28 + 1:02d}",
    ]
    with path.open("w", encoding="utf-8") as out:
        out.write(",".join(f"列{c}" for c in range(columns)) + "\n")
        for r in range(rows):
            out.write(",".join(kinds[c % 3](r, c) for c in range(columns)) + "\n")


def make_csv(path: Path, rows: int, encoding: str = "utf-8") -> None:
    import duckdb

    utf8 = path if encoding == "utf-8" else path.with_suffix(".utf8.csv")
    duckdb.execute(  # our own temporary path and a row count, no user input
        f"""COPY (SELECT range AS "订单编号",
                 ['华东', '华北', '华南', '西部', '东北'][CAST(hash(range) % 5 AS BIGINT) + 1] AS "地区",
                 '产品' || CAST(hash(range * 7) % 40 AS VARCHAR) AS "产品",
                 DATE '2024-01-01' + CAST(hash(range * 13) % 730 AS INTEGER) AS "日期",
                 ROUND((hash(range * 17) % 100000) / 100.0, 2) AS "金额",
                 CAST(hash(range * 19) % 10 AS INTEGER) + 1 AS "数量",
                 hash(range * 23) % 20 = 0 AS "退货",
                 '备注' || CAST(range % 1000 AS VARCHAR) AS "备注"
          FROM range({int(rows)})) TO '{utf8}' (HEADER, DELIMITER ',')"""  # noqa: S608
    )
    if encoding != "utf-8":
        path.write_bytes(utf8.read_text(encoding="utf-8").encode(encoding))
        utf8.unlink()


def make_xlsx(path: Path, rows: int) -> None:
    import datetime as dt

    import openpyxl

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("订单")
    sheet.append(COLUMNS)
    regions = ["华东", "华北", "华南", "西部", "东北"]
    start = dt.date(2024, 1, 1)
    for i in range(rows):
        k = (i * 2654435761) % 1000003
        sheet.append(
            [i, regions[k % 5], f"产品{k % 40}", start + dt.timedelta(days=k % 730), round((k % 100000) / 100, 2)]
            + [k % 10 + 1, k % 20 == 0, f"备注{i % 1000}"]
        )
    workbook.save(path)


def _case(name: str, src: Path, work: Path) -> None:
    """Run one measurement in this (fresh) process and print seconds and peak memory as JSON."""
    dest = work / f"{name}-{time.monotonic_ns()}.duckdb"
    if name.startswith("ours"):
        from benchmarks.common import setup_django

        setup_django()
        from apps.datasets.ingest.load import detect_format, ingest_file

        started = time.perf_counter()
        fmt = detect_format(src, src.name)
        ingest_file(src, dest, fmt=fmt, sheet="订单" if fmt == "xlsx" else None, header_row=1, max_rows=10**8)
    elif name == "raw-duckdb-csv":
        import duckdb

        started = time.perf_counter()
        con = duckdb.connect(str(dest))
        con.execute("CREATE TABLE data AS SELECT * FROM read_csv($p)", {"p": str(src)})
        con.execute("CHECKPOINT")
        con.close()
    elif name == "raw-polars-fastexcel":
        import polars

        started = time.perf_counter()
        polars.read_excel(src, sheet_name="订单", engine="calamine")
    elif name == "raw-pandas-calamine":
        import pandas

        started = time.perf_counter()
        pandas.read_excel(src, sheet_name="订单", engine="calamine")
    elif name == "raw-pandas-openpyxl":
        import pandas

        started = time.perf_counter()
        pandas.read_excel(src, sheet_name="订单", engine="openpyxl")
    else:
        raise SystemExit(f"unknown case {name}")
    seconds = time.perf_counter() - started
    dest.unlink(missing_ok=True)
    print(json.dumps({"seconds": seconds, "rss_mb": _own_peak_mb()}))


def _own_peak_mb() -> float:
    """This process's peak memory (VmHWM starts afresh at exec; ru_maxrss keeps the parent's)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return peak_rss_mb()


def measure(name: str, src: Path, work: Path, repeat: int) -> dict[str, float]:
    samples, rss = [], 0.0
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_ingest", "--case", name, str(src), str(work)],
            check=True,
            capture_output=True,
            text=True,
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
        samples.append(result["seconds"])
        rss = max(rss, result["rss_mb"])
    return {"seconds": statistics.median(samples), "rss_mb": rss}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--xlsx-rows", type=int, default=100_000)
    parser.add_argument("--csv-rows", type=int, default=1_000_000)
    parser.add_argument("--wide-columns", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-openpyxl", action="store_true", help="openpyxl takes ~15 s per 100k rows")
    parser.add_argument("--case", nargs=3, metavar=("NAME", "SRC", "WORKDIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        _case(args.case[0], Path(args.case[1]), Path(args.case[2]))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        xlsx, csv, gbk = work / "orders.xlsx", work / "orders.csv", work / "orders-gbk.csv"
        make_xlsx(xlsx, args.xlsx_rows)
        make_csv(csv, args.csv_rows)
        make_csv(gbk, args.csv_rows, encoding="gbk")
        wide = work / "wide.csv"
        make_wide_csv(wide, args.wide_columns)
        plan = [
            (f"XLSX {args.xlsx_rows:,}", xlsx, "ours", "raw-polars-fastexcel"),
            (f"XLSX {args.xlsx_rows:,}", xlsx, "raw-pandas-calamine", "raw-polars-fastexcel"),
            (f"CSV {args.csv_rows:,}", csv, "ours", "raw-duckdb-csv"),
            (f"CSV {args.csv_rows:,} GBK", gbk, "ours", "raw-duckdb-csv"),
            (f"CSV {args.wide_columns:,} columns", wide, "ours", "raw-duckdb-csv"),
        ]
        if not args.skip_openpyxl:
            plan.insert(2, (f"XLSX {args.xlsx_rows:,}", xlsx, "raw-pandas-openpyxl", "raw-polars-fastexcel"))
        cache: dict[tuple[str, Path], dict[str, float]] = {}
        for label, src, ours, raw in plan:
            for name in (ours, raw):
                if (name, src) not in cache:
                    # GBK is read raw from the UTF-8 file: DuckDB itself cannot read GBK here.
                    raw_src = csv if (name == "raw-duckdb-csv" and src == gbk) else src
                    cache[(name, src)] = measure(name, raw_src, work, args.repeat)
            mine, theirs = cache[(ours, src)], cache[(raw, src)]
            rows.append(
                {
                    "file": label,
                    "reader": ours,
                    "seconds": mine["seconds"],
                    "baseline": raw,
                    "baseline s": theirs["seconds"],
                    "ratio": mine["seconds"] / theirs["seconds"],
                    "peak MB": mine["rss_mb"],
                    "baseline MB": theirs["rss_mb"],
                }
            )
    print(report(rows))


if __name__ == "__main__":
    main()
