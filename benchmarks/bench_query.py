"""run_query against raw DuckDB on the same file, at 100k and 1M rows.

Ours = QuerySpec validation from JSON + compile + execute on the shared read-only connection +
JSON serialisation of the result. Raw = the same compiled SQL on an already open connection,
fetchall(). Target (docs/DESIGN.md section 8): ours within 1.3x of raw at 1M rows.

    .venv/bin/python -m benchmarks.bench_query [--rows 100000 1000000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from benchmarks.common import median_seconds, peak_rss_mb, report, setup_django

QUERIES: dict[str, dict] = {
    "group-by": {
        "group_by": ["地区", {"column": "日期", "grain": "month", "alias": "月份"}],
        "aggregations": [
            {"name": "销售额", "func": "sum", "column": "金额"},
            {"name": "订单数", "func": "count"},
        ],
    },
    "filter": {
        "filters": [
            {"column": "地区", "op": "in", "value": ["华东", "华北"]},
            {"column": "金额", "op": ">", "value": 100},
            {"column": "日期", "grain": "year", "op": "=", "value": 2025},
        ],
        "group_by": ["产品"],
        "aggregations": [
            {"name": "均价", "func": "avg", "column": "金额"},
            {"name": "件数", "func": "sum", "column": "数量"},
        ],
    },
    "derived": {
        "group_by": ["地区"],
        "aggregations": [
            {"name": "退货", "func": "count", "where": [{"column": "退货", "op": "=", "value": True}]},
            {"name": "订单", "func": "count"},
            {"name": "销售额", "func": "sum", "column": "金额"},
        ],
        "derived": [{"name": "退货率", "expr": "round(退货 / 订单 * 100, 2)"}],
        "windows": [{"name": "占比", "func": "share_of_total", "of": "销售额"}],
        "sort": [{"by": "销售额", "desc": True}],
    },
    "median": {"group_by": ["产品"], "aggregations": [{"name": "中位数", "func": "median", "column": "金额"}]},
}


def build(path: Path, rows: int) -> None:
    import duckdb

    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE data AS
        SELECT range AS "订单编号",
               ['华东', '华北', '华南', '西部', '东北'][CAST(hash(range) % 5 AS BIGINT) + 1] AS "地区",
               '产品' || CAST(hash(range * 7) % 40 AS VARCHAR) AS "产品",
               DATE '2024-01-01' + CAST(hash(range * 13) % 730 AS INTEGER) AS "日期",
               ROUND((hash(range * 17) % 100000) / 100.0, 2) AS "金额",
               CAST(hash(range * 19) % 10 AS INTEGER) + 1 AS "数量",
               hash(range * 23) % 20 = 0 AS "退货"
        FROM range($rows)
        """,
        {"rows": rows},
    )
    con.execute("CHECKPOINT")
    con.close()


def _rounded(rows: list) -> list:
    """Parallel float sums may differ in the last bits between runs; compare at 9 significant digits."""
    return [[float(f"{v:.9g}") if isinstance(v, float) else v for v in row] for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    setup_django()
    from apps.datasets.ingest.profile import profile_table
    from apps.datasets.query import engine
    from apps.datasets.query.compiler import compile_query
    from apps.datasets.query.results import json_safe_rows
    from apps.datasets.query.spec import QuerySpec
    from apps.datasets.selectors import execute_spec

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            path = Path(tmp) / f"bench_{rows}.duckdb"
            build(path, rows)
            kinds = profile_table(path).kinds()
            # DuckDB allows one configuration per file per process: raw uses the same open connection.
            raw_con = engine.connection(path)
            for label, spec_json in QUERIES.items():
                payload = json.dumps(spec_json, ensure_ascii=False)
                compiled = compile_query(QuerySpec.model_validate_json(payload), schema=kinds, row_cap=10_000)

                def ours(payload: str = payload, path: Path = path, kinds: dict = kinds) -> str:
                    spec = QuerySpec.model_validate_json(payload)
                    return execute_spec(path, kinds, spec).model_dump_json()

                def raw(compiled=compiled, con=raw_con) -> list:  # type: ignore[no-untyped-def]
                    return con.execute(compiled.sql, compiled.params).fetchall()

                if _rounded(json.loads(ours())["rows"]) != _rounded(json_safe_rows(raw())[: compiled.limit]):
                    raise SystemExit(f"{label}: our result differs from raw DuckDB")
                t_ours = median_seconds(ours, repeat=args.repeat)
                t_raw = median_seconds(raw, repeat=args.repeat)
                results.append(
                    {
                        "rows": rows,
                        "query": label,
                        "raw ms": t_raw * 1000,
                        "ours ms": t_ours * 1000,
                        "ratio": t_ours / t_raw,
                    }
                )
            engine.forget(path)
    print(report(results))
    print(f"peak RSS: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
