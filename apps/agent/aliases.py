"""Tool names from the requirement documents, as aliases of the canonical tools (docs/DESIGN.md section 9).

A model may call a documented name with the documented arguments — `inspect_file`, `analyze_dataframe`,
`query`, `query_database`, `web_search` — and the canonical tool runs with the arguments translated;
`query` and `query_database` mean `run_query` for a QuerySpec and `execute_sql_safe` for SQL text. Admins
may write either name in the required-tool rules: `canonical_names` normalises them. The run and the
audit keep both the name the model used and the canonical one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from baplatform.errors import PlatformError

ALIASES: dict[str, tuple[str, ...]] = {
    "inspect_file": ("get_schema",),
    "analyze_dataframe": ("run_query",),
    "query": ("run_query", "execute_sql_safe"),
    "query_database": ("run_query", "execute_sql_safe"),
    "web_search": ("search_web",),
}
# Arguments the documents define that change nothing here: the response format is always the same, the
# connection and the file are the run's own (the model never chooses the data), search returns 3 results.
_IGNORED = {
    "inspect_file": ("response_format", "path", "file_path", "file_name"),
    "analyze_dataframe": ("response_format", "path", "file_path", "file_name"),
    "query": ("response_format", "connection"),
    "query_database": ("response_format", "connection"),
    "web_search": ("response_format", "num_results"),
}
# Keys that wrap a query rather than being part of one.
_WRAPPERS = ("table", "spec", "query", "sql", "params", "max_rows")
MAX_ROWS_LIMIT = 10_000


class AliasArgumentsError(PlatformError):
    """Arguments of a documented tool name that map onto no canonical call: the model may correct them."""

    code = "invalid_arguments"


@dataclass(frozen=True)
class CanonicalCall:
    """What runs for one call: the canonical tool, its arguments, and the name the model used."""

    name: str
    arguments: dict[str, Any]
    called_as: str
    row_cap: int | None = None  # query_database's `max_rows`: rows returned beyond it are cut

    @property
    def aliased(self) -> bool:
        return self.name != self.called_as


def canonical_names(name: str) -> tuple[str, ...]:
    """The canonical tools a name stands for (itself when it is not an alias)."""
    return ALIASES.get(name, (name,))


def documented_names(canonical: str) -> list[str]:
    """The aliases of a canonical tool, for admins and the docs."""
    return [alias for alias, names in ALIASES.items() if canonical in names]


def canonical_call(name: str, arguments: dict[str, Any]) -> CanonicalCall:
    """The canonical call for a model's call; raises AliasArgumentsError when an alias's arguments fit no tool."""
    if name not in ALIASES:
        return CanonicalCall(name=name, arguments=arguments, called_as=name)
    if not isinstance(arguments, dict):
        raise AliasArgumentsError(f"{name}: the arguments must be a JSON object")
    args = {k: v for k, v in arguments.items() if k not in _IGNORED[name]}
    if name == "inspect_file":
        return CanonicalCall(name="get_schema", arguments=args, called_as=name)
    if name == "web_search":
        return CanonicalCall(name="search_web", arguments=args, called_as=name)
    return _query_call(name, args)


def canonical_or_same(name: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The canonical name and arguments, or the call unchanged when its arguments fit no tool (for keys)."""
    try:
        call = canonical_call(name, arguments)
    except AliasArgumentsError:
        return name, arguments
    return call.name, call.arguments


def _query_call(name: str, args: dict[str, Any]) -> CanonicalCall:
    row_cap = _row_cap(name, args.pop("max_rows", None))
    sql = args.get("sql", args.get("query"))
    if isinstance(sql, str):
        if name == "analyze_dataframe":
            raise AliasArgumentsError(
                "analyze_dataframe takes a QuerySpec (spec: group_by, aggregations, filters...), not SQL text"
            )
        extra = sorted(set(args) - {"sql", "query", "params"})
        if extra or ("sql" in args and "query" in args):
            raise AliasArgumentsError(
                f"{name} with SQL text takes `query` (or `sql`) and `params`; unexpected: {extra}"
            )
        arguments: dict[str, Any] = {"sql": sql}
        if args.get("params"):
            arguments["params"] = args["params"]
        return CanonicalCall(name="execute_sql_safe", arguments=arguments, called_as=name, row_cap=row_cap)
    return CanonicalCall(name="run_query", arguments=_spec_arguments(name, args), called_as=name, row_cap=row_cap)


def _spec_arguments(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """run_query's arguments from `{"spec": {...}}`, `{"query": {...}}` or the QuerySpec's own keys."""
    if "params" in args:
        raise AliasArgumentsError(f"{name}: `params` belongs to SQL text; a QuerySpec puts values in its filters")
    table = args.get("table")
    if "spec" in args or "query" in args:
        if "spec" in args and "query" in args:
            raise AliasArgumentsError(f"{name}: give the QuerySpec once, as `spec` (or `query`)")
        spec = args["spec"] if "spec" in args else args["query"]
        extra = sorted(set(args) - {"spec", "query", "table"})
        if extra:
            raise AliasArgumentsError(f"{name}: unexpected arguments beside the QuerySpec: {extra}")
    else:
        spec = {k: v for k, v in args.items() if k not in _WRAPPERS}
    if not isinstance(spec, dict) or not spec:
        raise AliasArgumentsError(
            f"{name} needs a QuerySpec (group_by, aggregations, filters...) as `spec`, or SQL text as `query` "
            "on a SQL source"
        )
    return {"spec": spec, **({"table": table} if table is not None else {})}


def _row_cap(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROWS_LIMIT:
        raise AliasArgumentsError(f"{name}: max_rows must be a whole number from 1 to {MAX_ROWS_LIMIT:,}")
    return value
