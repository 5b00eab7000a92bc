"""How the second held-out set's scripted models write numbers and build their turns: 万元/亿元 and dollars,
month names, the steps on the SQL source, and the earlier turns (with their result tables) of follow-ups."""

from __future__ import annotations

import calendar
from decimal import Decimal
from typing import Any

from benchmarks.trust.formats import num, scaled
from benchmarks.trust.heldout2_facts import Facts2, order
from benchmarks.trust.script import answer, call, query, schema, sql
from tests.agent.loopback import Turn


def wan(value: Decimal, places: int = 2) -> str:
    """1,723.06 万元"""
    return scaled(value, "万", places, space=" ") + "元"


def yi(value: Decimal, places: int = 2) -> str:
    """2.67 亿元"""
    return scaled(value, "亿", places, space=" ") + "元"


def usd(value: Decimal, places: int = 2) -> str:
    return "$" + num(value, places)


def count(value: Decimal | int) -> str:
    return num(Decimal(value), 0)


def month_name(key: str) -> str:
    """ "2024-05" -> "May"."""
    return calendar.month_name[int(key[5:7])]


def month_zh(key: str) -> str:
    """ "2025-06" -> "6 月"."""
    return f"{int(key[5:7])} 月"


def file_steps(source: str, *specs: dict[str, Any], content: str | None = None) -> list[Turn]:
    """get_schema, then one run_query per spec."""
    return [*schema(source, content=content), *(query(spec, source=source) for spec in specs)]


def file_run(source: str, spec: dict[str, Any], draft: str, *, content: str | None = None) -> list[Turn]:
    return [*file_steps(source, spec, content=content), *answer(draft)]


def shop_run(
    sql_text: str, draft: str, *, tables: tuple[str, ...] = ("订单",), content: str | None = None
) -> list[Turn]:
    """list_tables, get_schema of each table used, one execute_sql_safe, the draft."""
    steps = [call("list_tables", {}, content=content)]
    steps += [call("get_schema", {"table": table}) for table in tables]
    return [*steps, sql(sql_text), *answer(draft)]


def mk_history(f: Facts2) -> list[dict[str, Any]]:
    """The earlier turn "2025 年各渠道成交额是多少？" with the table its answer quoted."""
    rows = f.mk_channel[2025]
    ranked = order(rows, "成交额")
    text = "；".join(f"{ch} {wan(rows[ch]['成交额'])}" for ch in ranked)
    return [
        {
            "question": "2025 年各渠道成交额是多少？",
            "answer": f"2025 年各渠道成交额：{text}。",
            "tables": [{"columns": ["渠道", "成交额"], "rows": [[ch, float(rows[ch]["成交额"])] for ch in ranked]}],
        }
    ]


def sb_history(f: Facts2) -> list[dict[str, Any]]:
    """The earlier turn "New subscribers by country in 2025?" with its table."""
    rows = f.sb_country[2025]
    ranked = order(rows, "new")
    text = "; ".join(f"{c} {count(rows[c]['new'])}" for c in ranked)
    return [
        {
            "question": "New subscribers by country in 2025?",
            "answer": f"New subscribers in 2025 by country: {text}.",
            "tables": [{"columns": ["country", "new_subscribers"], "rows": [[c, int(rows[c]["new"])] for c in ranked]}],
        }
    ]
