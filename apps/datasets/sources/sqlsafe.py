"""The statement checker for `execute_sql_safe`: exactly one read-only SELECT over exposed tables.

The SQL is parsed with sqlglot for the source's dialect and every node is checked against
allowlists (statement shapes, expression nodes, functions), with a denylist in front for clear
messages about the usual attacks. What runs is the checked tree, regenerated without comments,
with a row cap applied — never the caller's original text. The database session is read-only
as well (see connectors.py), so a checker mistake still cannot write.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Mapping
from typing import Any

import sqlglot
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from apps.datasets.errors import QueryInvalid
from apps.datasets.message_parts import closest

log = logging.getLogger(__name__)

MAX_SQL_CHARS = 20_000
MAX_PARAMS = 100
MAX_DEPTH = 200  # nesting of the parsed statement; deeper trees are refused before any recursive walk
PLACEHOLDER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")

# Statements that are not a single SELECT, with the reason given to the caller. The reasons in these
# tables are marked for translation here and translated when raised, in the language of the request.
_STATEMENTS: dict[str, str] = {
    "Insert": gettext_noop("INSERT writes data"),
    "Update": gettext_noop("UPDATE writes data"),
    "Delete": gettext_noop("DELETE writes data"),
    "Merge": gettext_noop("MERGE writes data"),
    "Create": gettext_noop("CREATE changes the schema"),
    "Drop": gettext_noop("DROP changes the schema"),
    "Alter": gettext_noop("ALTER changes the schema"),
    "TruncateTable": gettext_noop("TRUNCATE deletes data"),
    "Grant": gettext_noop("GRANT changes permissions"),
    "Revoke": gettext_noop("REVOKE changes permissions"),
    "Copy": gettext_noop("COPY reads or writes files"),
    "Set": gettext_noop("SET changes session settings"),
    "Pragma": gettext_noop("PRAGMA changes or reads engine settings"),
    "Attach": gettext_noop("ATTACH opens another database"),
    "Detach": gettext_noop("DETACH changes the attached databases"),
    "Use": gettext_noop("USE switches database"),
    "Command": gettext_noop("this statement type is not a query"),
    "Describe": gettext_noop("DESCRIBE/EXPLAIN is not a query"),
    "Show": gettext_noop("SHOW is not a query"),
    "Transaction": gettext_noop("transaction control is managed by the platform"),
    "Commit": gettext_noop("transaction control is managed by the platform"),
    "Rollback": gettext_noop("transaction control is managed by the platform"),
    "LoadData": gettext_noop("LOAD DATA reads files"),
}

# Constructs refused inside a SELECT, with the reason.
_REFUSED_NODES: dict[str, str] = {
    "Into": gettext_noop("SELECT INTO creates a table or writes a file"),
    "Lock": gettext_noop("FOR UPDATE/FOR SHARE takes locks"),
    "Hint": gettext_noop("optimizer hints can override the platform's limits"),
    "Parameter": gettext_noop("use :name placeholders for values (not $1, ? or @variables)"),
    "SessionParameter": gettext_noop("server variables (@@...) are not readable"),
    "PropertyEQ": gettext_noop("assignments (:=) are not allowed"),
    "Kwarg": gettext_noop("named arguments are not allowed"),
}

_ALLOWED_NODE_NAMES = """
Select Union Intersect Except Subquery With CTE From Join Where Group Having Qualify Order Ordered Limit
Offset Distinct Column Identifier Star Literal Null Boolean Alias Aliases TableAlias Table Paren Tuple
Placeholder Var Interval DataType DataTypeParam Case If Window WindowSpec Filter WithinGroup Lateral
Values Bracket Dot Escape Is Like ILike SimilarTo In Between Not Neg BitwiseNot And Or Xor Add Sub Mul Div
IntDiv Mod DPipe EQ NEQ NullSafeEQ NullSafeNEQ GT GTE LT LTE BitwiseAnd BitwiseOr BitwiseXor
BitwiseLeftShift BitwiseRightShift Any All Collate AtTimeZone JSONPath JSONPathRoot JSONPathKey
JSONPathSubscript Slice Pow Fetch LimitOptions
""".split()

# Typed functions (sqlglot classes) that only compute over their arguments. TsOrDsTo* are conversions the
# parser itself wraps around date arguments (strftime, DATE_FORMAT); nobody writes them.
_ALLOWED_FUNCTION_CLASSES = """
Count Sum Avg Min Max Stddev StddevSamp StddevPop Variance VariancePop PercentileCont PercentileDisc Median
Quantile Corr CovarSamp CovarPop GroupConcat ArrayAgg ApproxDistinct CountIf LogicalAnd LogicalOr AnyValue
First Last RowNumber Rank DenseRank Lag Lead FirstValue LastValue NthValue Ntile CumeDist PercentRank
Lower Upper Length Substring Trim Replace Concat ConcatWs Left Right Pad StrPosition SplitPart RegexpReplace
RegexpLike RegexpExtract RegexpILike Reverse Repeat Initcap Chr Ascii Unicode Hex Unhex MD5 BitLength Format
NumberToStr ToChar TimeToStr StrToDate StrToTime Round Abs Ceil Floor Sqrt Cbrt Pow Ln Log Exp Sign
Greatest Least Mod Trunc Cot Sin Cos Tan Asin Acos Atan Atan2 Degrees Radians Pi WidthBucket Rand
Case Coalesce Nullif If Cast TryCast Exists Extract Typeof TimestampTrunc DateTrunc Date Datetime TsOrDsToDate
TsOrDsAdd CurrentDate CurrentTimestamp CurrentTime Year Month Day Quarter Week Hour Minute Second DayOfWeek
DayOfMonth DayOfYear WeekOfYear DateAdd DateSub DateDiff TimestampDiff TimestampAdd UnixToTime TimeToUnix
StrToUnix LastDay AddMonths MonthsBetween DateFromParts JSONExtract JSONExtractScalar JSONBExtract
JSONBExtractScalar ArraySize Array Unnest Explode StringToArray GenerateSeries ExplodingGenerateSeries
TsOrDsToTimestamp TsOrDsToDatetime TsOrDsToTime
""".split()

# Functions known by name only (sqlglot parses them as Anonymous), harmless on every engine.
ALLOWED_FUNCTION_NAMES = frozenset(
    """
    strftime julianday unixepoch time date_format date_part to_date to_timestamp to_number now octet_length
    printf weekday make_date make_timestamp total age date_trunc datetime dayname monthname dayofmonth
    dayofyear weekofyear yearweek str_to_date from_unixtime unix_timestamp period_diff timestampadd char_length
    character_length ucase lcase mid locate btrim strpos translate initcap substr instr ifnull nvl any_value
    bool_and bool_or every percentile_disc mode log2 div gcd lcm trunc truncate date_bin justify_days
    justify_hours isfinite regexp_substr regexp_instr regexp_count json_extract_path_text json_value
    json_unquote json_array_length jsonb_array_length json_each json_tree field elt iif likely unlikely
    glob like quote concat_ws string_agg group_concat date_add date_sub adddate subdate
    """.split()
)

# Refused by name wherever they appear, with the reason: file access, sleeping, server control, extensions.
DENIED_FUNCTIONS: dict[str, str] = {
    **dict.fromkeys(
        ("pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file"), gettext_noop("it reads server files")
    ),
    **dict.fromkeys(
        ("lo_import", "lo_export", "lo_get", "lo_put", "load_file"), gettext_noop("it reads or writes server files")
    ),
    **dict.fromkeys(("readfile", "writefile", "edit", "fts3_tokenizer"), gettext_noop("it reads or writes files")),
    **dict.fromkeys(
        ("pg_sleep", "pg_sleep_for", "pg_sleep_until", "sleep", "benchmark"), gettext_noop("it only burns time")
    ),
    **dict.fromkeys(("dblink", "dblink_exec", "dblink_connect"), gettext_noop("it connects to other databases")),
    **dict.fromkeys(("set_config", "current_setting"), gettext_noop("it reads or changes server settings")),
    **dict.fromkeys(
        ("pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf"), gettext_noop("it controls the server")
    ),
    "load_extension": gettext_noop("it loads native code"),
    "query_to_xml": gettext_noop("it runs SQL given as text"),
}
_DENIED_PREFIXES = ("pg_", "lo_", "dblink", "sqlite_", "pragma_")

SYSTEM_SCHEMAS = frozenset({"information_schema", "pg_catalog", "pg_toast", "mysql", "performance_schema", "sys"})
_SYSTEM_TABLE_PREFIXES = ("pg_", "sqlite_")


def _classes(names: list[str]) -> tuple[type, ...]:
    """The sqlglot classes for the given names (ignoring names this sqlglot version does not have)."""
    return tuple(cls for name in names if isinstance(cls := getattr(exp, name, None), type))


_ALLOWED_NODES = frozenset(_classes(_ALLOWED_NODE_NAMES))
_ALLOWED_FUNCTIONS = frozenset(_classes(_ALLOWED_FUNCTION_CLASSES))


def refuse(what: str, code: str = "sql_refused") -> QueryInvalid:
    """`what` is the reason, already in the user's language."""
    return QueryInvalid(_("SQL refused, nothing was executed: %(reason)s") % {"reason": what}, code=code)


def _not_select(reason: str) -> str:
    return _("only one SELECT may run, and %(reason)s") % {"reason": reason}


def function_name(node: exp.Func) -> str:
    return (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()


def written_name(node: exp.Expr, sql: str) -> str | None:
    """The function name as the caller spelled it. Parsing adds conversions nobody wrote (strftime's
    argument becomes ts_or_ds_to_timestamp(...)); those have no source position, so the nearest
    enclosing function that was written is named instead, never a name the caller did not write."""
    current: exp.Expr | None = node
    while current is not None:
        meta = current.meta if isinstance(current, exp.Func) else {}
        start, end = meta.get("start"), meta.get("end")
        if isinstance(start, int) and isinstance(end, int) and 0 <= start <= end < len(sql):
            return sql[start : end + 1]
        current = current.parent
    return None


def _function_refused(node: exp.Func, sql: str, reason: str | None) -> QueryInvalid:
    """`reason` None: the function is simply not on the allow-list."""
    name = written_name(node, sql)
    if name is None:
        text = reason or _("it is not on the list of allowed functions")
        return refuse(
            _("a function in this query is not allowed: %(reason)s") % {"reason": text}, "sql_function_refused"
        )
    if reason is None:
        return refuse(
            _(
                "function %(name)s() is not on the list of allowed functions; use standard aggregates, "
                "string, number and date functions"
            )
            % {"name": name},
            "sql_function_refused",
        )
    return refuse(
        _("function %(name)s() is not allowed: %(reason)s") % {"name": name, "reason": reason}, "sql_function_refused"
    )


def _check_function(node: exp.Func, sql: str) -> None:
    name = function_name(node)
    written = (written_name(node, sql) or name).lower()
    for candidate in (name, written):
        if candidate in DENIED_FUNCTIONS:
            raise _function_refused(node, sql, _(DENIED_FUNCTIONS[candidate]))
        if candidate.startswith(_DENIED_PREFIXES):
            raise _function_refused(node, sql, _("system functions are refused"))
    allowed = name in ALLOWED_FUNCTION_NAMES if isinstance(node, exp.Anonymous) else type(node) in _ALLOWED_FUNCTIONS
    if not allowed:
        raise _function_refused(node, sql, None)


def _check_node(node: exp.Expr, sql: str) -> None:
    kind = type(node).__name__
    if kind in _REFUSED_NODES:
        raise refuse(_(_REFUSED_NODES[kind]))
    if kind in _STATEMENTS:
        raise refuse(_not_select(_(_STATEMENTS[kind])), "sql_not_select")
    if isinstance(node, exp.Placeholder) and not PLACEHOLDER_NAME.match(node.name or ""):
        # xgettext:no-python-format
        raise refuse(_("use :name placeholders for values (not ? or %s)"))
    if type(node) in _ALLOWED_NODES:  # exact classes: a subclass is not trusted by inheritance
        return
    if isinstance(node, exp.Func):
        _check_function(node, sql)
    else:
        raise refuse(_("the construct %(kind)s is not allowed in a read-only query") % {"kind": kind})


class _Tables:
    """Checks every table reference against the exposed tables, with CTE names scoped as the engines do."""

    def __init__(self, dialect: str, exposed: Collection[str], schema: str | None) -> None:
        self.dialect, self.schema = dialect, schema
        self.exposed = {self.fold(name): name for name in exposed}

    def fold(self, name: str, quoted: bool = True) -> str:
        """A name as the engine compares it: PostgreSQL folds unquoted names to lower case, SQLite ignores case."""
        if self.dialect == "sqlite" or (self.dialect == "postgres" and not quoted):
            return name.lower()
        return name

    def ident(self, node: exp.Expr | str | None) -> str:
        if isinstance(node, exp.Identifier):
            return self.fold(node.name, bool(node.args.get("quoted")))
        if isinstance(node, exp.Expr):
            return self.fold(node.name)
        return self.fold(node or "")  # the parser leaves an empty string for the missing part of `a..b`

    def walk(self, node: exp.Expr, visible: frozenset[str]) -> None:
        with_ = node.args.get("with_") or node.args.get("with")
        if isinstance(with_, exp.With):
            defined: list[str] = []
            recursive = bool(with_.args.get("recursive"))
            for cte in with_.expressions:
                name = self.ident(cte.args["alias"].this)
                self.walk(cte.this, visible | set(defined) | ({name} if recursive else set()))
                defined.append(name)
            visible = visible | set(defined)
        for child in node.iter_expressions():
            if child is with_:
                continue
            if isinstance(child, exp.Table):
                self.check(child, visible)
            self.walk(child, visible)

    def check(self, table: exp.Table, visible: frozenset[str]) -> None:
        if isinstance(table.this, exp.Func):
            return  # a table-valued function: checked as a function
        if table.args.get("catalog") is not None:
            raise refuse(_("%(table)s: other databases are not reachable") % {"table": table.name}, "sql_table_refused")
        name, db = self.ident(table.this), self.ident(table.args.get("db"))
        shown = table.name
        if db:
            if db.lower() in SYSTEM_SCHEMAS:
                raise refuse(
                    _("'%(table)s': system catalogs (%(schema)s) are not readable") % {"table": shown, "schema": db},
                    "sql_table_refused",
                )
            if db != self.fold(self.schema or "", quoted=True) and not (self.dialect == "sqlite" and db == "main"):
                raise refuse(
                    _("'%(table)s': schema '%(schema)s' is not this source's schema") % {"table": shown, "schema": db},
                    "sql_table_refused",
                )
        elif name in visible:
            return  # a CTE defined around this reference
        if name.lower() in SYSTEM_SCHEMAS or name.lower().startswith(_SYSTEM_TABLE_PREFIXES):
            raise refuse(_("'%(table)s': system catalogs are not readable") % {"table": shown}, "sql_table_refused")
        if name not in self.exposed:
            raise refuse(
                _("table '%(table)s' is not exposed by this source%(hint)s")
                % {"table": shown, "hint": closest(shown, self.exposed.values())},
                "sql_table_refused",
            )


def _parse_one(sql: str, dialect: str) -> exp.Expr:
    try:
        tokens = sqlglot.tokenize(sql, read=dialect)
        statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except (ParseError, TokenError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else _("syntax error")
        raise refuse(_("the SQL could not be parsed (%(error)s)") % {"error": first}, "sql_syntax") from None
    except RecursionError:
        raise refuse(_("the SQL is nested too deeply"), "sql_too_complex") from None
    for token in tokens:
        if any(c.lstrip().startswith(("!", "M!", "+")) for c in token.comments):
            raise refuse(_("executable comments and hints (/*! ... */, /*+ ... */) are not allowed"))
    if not statements:
        raise refuse(_("no statement was given"), "sql_syntax")
    if len(statements) > 1:
        raise refuse(
            _("exactly one statement may run, and %(count)s were given") % {"count": len(statements)},
            "sql_multiple_statements",
        )
    return statements[0]


def _check_depth(tree: exp.Expr) -> None:
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise refuse(_("the SQL is nested more than %(max)s levels deep") % {"max": MAX_DEPTH}, "sql_too_complex")
        stack.extend((child, depth + 1) for child in node.iter_expressions())


def _apply_row_cap(tree: exp.Expr, row_cap: int) -> None:
    """LIMIT row_cap + 1 (so truncation shows), lowering a bigger LIMIT; a computed LIMIT is refused."""
    wanted = row_cap + 1
    limit = tree.args.get("limit")
    if isinstance(limit, exp.Fetch):
        options = limit.args.get("limit_options")
        if options is not None and (options.args.get("percent") or options.args.get("with_ties")):
            raise refuse(_("FETCH with PERCENT or WITH TIES is not supported; use LIMIT"))
        limit = exp.Limit(expression=limit.args.get("count") or exp.Literal.number(1))
    if limit is None:
        count = wanted
    else:
        value = limit.expression
        if not (isinstance(value, exp.Literal) and not value.is_string and value.name.isdigit()):
            raise refuse(_("LIMIT must be a whole number"))
        count = min(int(value.name), wanted)
    tree.set("limit", exp.Limit(expression=exp.Literal.number(count)))


def check_params(tree: exp.Expr, params: Mapping[str, Any]) -> None:
    used = {p.name for p in tree.find_all(exp.Placeholder)}
    if len(params) > MAX_PARAMS:
        raise refuse(_("at most %(max)s parameters are accepted") % {"max": MAX_PARAMS}, "sql_params")
    for name, value in params.items():
        if value is not None and not isinstance(value, str | int | float | bool):
            raise refuse(
                _("parameter '%(name)s' must be text, a number, true/false or null") % {"name": name}, "sql_params"
            )
    if missing := sorted(used - params.keys()):
        names = ", ".join(f":{n}" for n in missing)
        raise refuse(_("no value given for %(names)s in params") % {"names": names}, "sql_params")
    if unused := sorted(params.keys() - used):
        raise refuse(_("params not used by the SQL: %(names)s") % {"names": ", ".join(unused)}, "sql_params")


def check_select(
    sql: str,
    *,
    dialect: str,
    exposed: Collection[str],
    schema: str | None,
    params: Mapping[str, Any],
    row_cap: int,
) -> exp.Expr:
    """The checked statement, ready to run, or QueryInvalid saying what was refused and why."""
    if not isinstance(sql, str) or not sql.strip():
        raise refuse(_("no SQL was given"), "sql_syntax")
    if len(sql) > MAX_SQL_CHARS:
        raise refuse(_("the SQL is longer than %(max)s characters") % {"max": MAX_SQL_CHARS}, "sql_too_long")
    if "\x00" in sql:
        raise refuse(_("the SQL contains a NUL character"), "sql_syntax")
    try:
        return _checked(sql, dialect=dialect, exposed=exposed, schema=schema, params=params, row_cap=row_cap)
    except QueryInvalid:
        raise
    except Exception as exc:  # a shape the checks did not foresee is refused, never a server error
        log.warning("SQL checker could not check a statement", extra={"error": type(exc).__name__})
        raise refuse(_("the SQL could not be checked; simplify the statement"), "sql_syntax") from None


def _checked(
    sql: str, *, dialect: str, exposed: Collection[str], schema: str | None, params: Mapping[str, Any], row_cap: int
) -> exp.Expr:
    tree = _parse_one(sql, dialect)
    _check_depth(tree)
    if not isinstance(tree, exp.Select | exp.SetOperation):
        kind = type(tree).__name__
        reason = _(_STATEMENTS[kind]) if kind in _STATEMENTS else _("it is not a SELECT")
        raise refuse(_not_select(reason), "sql_not_select")
    for node in tree.walk():
        _check_node(node, sql)
    _Tables(dialect, exposed, schema).walk(tree, frozenset())
    check_params(tree, params)
    _apply_row_cap(tree, row_cap)
    return tree
