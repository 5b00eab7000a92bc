"""The free-SQL checker on the corpus in tests/support/sql_corpus.py: gold analyst queries accepted per
dialect, injection payloads refused in every dialect, and the checker's median time per statement.

    .venv/bin/python -m benchmarks.bench_sqlsafe [--repeat 7]
"""

from __future__ import annotations

import argparse
import json

from benchmarks.common import median_seconds, report, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    setup_django()
    from django.utils import translation

    from apps.datasets.errors import QueryInvalid
    from apps.datasets.sources.sqlsafe import check_select
    from tests.support.sql_corpus import GOLD_MYSQL, GOLD_SQLITE, PAYLOADS, SHOP_TABLES

    translation.activate("en")

    def verdict(sql: str, dialect: str) -> str | None:
        """None when accepted, else the refusal message."""
        try:
            schema = None if dialect == "sqlite" else "shop"
            check_select(sql, dialect=dialect, exposed=SHOP_TABLES, schema=schema, params={}, row_cap=1000)
        except QueryInvalid as exc:
            return exc.message
        return None

    rows = []
    misses: list[str] = []
    for label, dialect, statements, want_accepted in [
        ("gold", "sqlite", GOLD_SQLITE, True),
        ("gold", "mysql", GOLD_MYSQL, True),
        *[("payloads", d, PAYLOADS, False) for d in ("sqlite", "mysql", "postgres")],
    ]:
        outcomes = [verdict(sql, dialect) for sql in statements]
        right = sum((o is None) == want_accepted for o in outcomes)
        misses += [
            f"{label}/{dialect}: {sql} -> {outcome or 'accepted'}"
            for sql, outcome in zip(statements, outcomes, strict=True)
            if (outcome is None) != want_accepted
        ]
        seconds = median_seconds(lambda s=statements, d=dialect: [verdict(q, d) for q in s], repeat=args.repeat)
        rows.append(
            {
                "set": label,
                "dialect": dialect,
                "statements": len(statements),
                "as_expected": right,
                "ms_per_statement": seconds * 1000 / len(statements),
            }
        )
    print(json.dumps(rows, indent=2) if args.json else report(rows))
    for miss in misses:
        print("UNEXPECTED", miss)
    raise SystemExit(1 if misses else 0)


if __name__ == "__main__":
    main()
