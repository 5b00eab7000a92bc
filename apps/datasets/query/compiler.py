"""Compile a QuerySpec into SQL for one engine, as a sqlglot AST with bound parameters.

Identifiers are quoted nodes, values are named placeholders, expressions come from the checked
AST of `expressions.py`, engine differences from `dialects.py`. The aggregate shape is:

    base    = SELECT group keys, aggregations FROM t WHERE filters GROUP BY keys
    derived = SELECT *, derived values FROM base
    windows = SELECT *, window values FROM derived        (over all groups, before the limit)
    final   = SELECT outputs FROM windows WHERE having ORDER BY ... LIMIT row_cap + 1
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from sqlglot import exp

from apps.datasets.errors import QueryInvalid
from apps.datasets.message_parts import closest
from apps.datasets.query import dialects
from apps.datasets.query.expressions import Bin, Call, Neg, Node, Num, Ref, parse_expression
from apps.datasets.query.spec import ROW_POSITION, Aggregation, Filter, QuerySpec, Window

NUMERIC = {"integer", "number", "boolean"}
_COMPARISONS = {"=": exp.EQ, "!=": exp.NEQ, ">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}


@dataclass
class CompiledQuery:
    sql: str
    params: dict[str, Any]
    columns: list[str]
    limit: int


@dataclass
class _Params:
    values: dict[str, Any] = field(default_factory=dict)

    def bind(self, value: Any) -> exp.Placeholder:
        name = f"p{len(self.values)}"
        self.values[name] = value
        return exp.Placeholder(this=name)


def ident(name: str) -> exp.Column:
    return exp.column(exp.to_identifier(name, quoted=True))


def _coerce(value: Any, kind: str, label: str) -> Any:
    """A filter value as the column's kind needs it; a clear error when it cannot be."""
    if value is None:
        return None
    shown = {"label": label, "value": repr(value)}
    if kind in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise QueryInvalid(_("%(label)s: expected a number, got %(value)s") % shown, code="invalid_value")
        try:
            number = float(value) if isinstance(value, str) else value
        except ValueError:
            raise QueryInvalid(_("%(label)s: expected a number, got %(value)s") % shown, code="invalid_value") from None
        return int(number) if kind == "integer" and float(number).is_integer() else number
    if kind in ("date", "datetime"):
        text = str(value).strip()
        try:
            return dt.date.fromisoformat(text) if len(text) <= 10 else dt.datetime.fromisoformat(text)
        except ValueError:
            raise QueryInvalid(
                _("%(label)s: expected a date like 2025-01-31, got %(value)s") % shown, code="invalid_value"
            ) from None
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        raise QueryInvalid(_("%(label)s: expected true or false, got %(value)s") % shown, code="invalid_value")
    return str(value)


def _like_pattern(value: str) -> str:
    escaped = value.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class _Compiler:
    def __init__(
        self, spec: QuerySpec, schema: dict[str, str], table: str, dialect: str, row_cap: int, ordered: bool
    ) -> None:
        self.spec, self.schema, self.dialect = spec, schema, dialect
        # DuckDB's rowid is the insertion order of a table loaded once from a file (a real column named rowid
        # would hide it, so such a table has no row position)
        self.ordered = ordered and dialect == "duckdb" and not any(n.lower() == "rowid" for n in schema)
        self.table = exp.Table(this=exp.to_identifier(table, quoted=True))
        self.row_cap = min(spec.limit, row_cap)
        self.params = _Params()
        self.output_kinds: dict[str, str] = {}

    # --- names and types -------------------------------------------------------------
    def column_kind(self, name: str, where: str) -> str:
        if name == ROW_POSITION and name not in self.schema:
            if not self.ordered:
                raise QueryInvalid(
                    _(
                        "%(where)s: '%(name)s' (a row's place in an uploaded file) is known only for uploaded "
                        "files; a database table keeps no order of its own, so sort by one of its columns instead"
                    )
                    % {"where": where, "name": name},
                    code="no_row_order",
                )
            return "integer"
        if name not in self.schema:
            raise QueryInvalid(
                _("%(where)s: unknown column '%(name)s'%(hint)s")
                % {"where": where, "name": name, "hint": closest(name, self.schema)},
                code="unknown_column",
            )
        return self.schema[name]

    def column_expr(self, name: str) -> exp.Expr:
        """A column of the table, or the row's place in the file (1-based) for ROW_POSITION."""
        if name == ROW_POSITION and name not in self.schema:
            return exp.Paren(this=exp.Add(this=exp.column("rowid"), expression=exp.Literal.number(1)))
        return ident(name)

    def output(self, name: str, where: str) -> str:
        if name not in self.output_kinds:
            raise QueryInvalid(
                _("%(where)s: '%(name)s' is not an output of this query%(hint)s")
                % {"where": where, "name": name, "hint": closest(name, self.output_kinds)},
                code="unknown_name",
            )
        return self.output_kinds[name]

    # --- filters ---------------------------------------------------------------------
    def condition(self, f: Filter, target: exp.Expr, kind: str, label: str) -> exp.Expr:
        if f.op == "is_null":
            test = exp.Is(this=target, expression=exp.Null())
            return test if f.value else exp.Not(this=test)
        if f.op == "contains":
            text = exp.Lower(this=exp.Cast(this=target, to=exp.DataType.build("text")))
            pattern = self.params.bind(_like_pattern(str(f.value)))
            like = exp.Like(this=text, expression=pattern)
            return exp.Escape(this=like, expression=exp.Literal.string("\\"))
        if f.op == "in":
            values = [self.params.bind(_coerce(v, kind, label)) for v in f.value]  # type: ignore[union-attr]
            return exp.In(this=target, expressions=values)
        if f.op == "between":
            low, high = (_coerce(v, kind, label) for v in f.value)  # type: ignore[union-attr]
            return exp.Between(this=target, low=self.params.bind(low), high=self.params.bind(high))
        compared = _COMPARISONS[f.op](this=target, expression=self.params.bind(_coerce(f.value, kind, label)))
        if f.op == "!=":  # "not Debut" keeps the rows with no value too (a blank is not Debut), as pandas does
            return exp.Paren(this=exp.Or(this=compared, expression=exp.Is(this=target.copy(), expression=exp.Null())))
        return compared

    def column_filter(self, f: Filter, where: str = "filter") -> exp.Expr:
        kind = self.column_kind(f.column, where)
        target: exp.Expr = self.column_expr(f.column)
        if f.grain:
            self.require_time(f.column, kind, where)
            target, kind = dialects.time_bucket(target, f.grain, self.dialect), dialects.BUCKET_KIND[f.grain]
        return self.condition(f, target, kind, _on(where, f.column))

    def require_time(self, column: str, kind: str, where: str) -> None:
        if kind not in ("date", "datetime"):
            raise QueryInvalid(
                _("%(where)s: a time grain needs a date column, and '%(column)s' is %(kind)s")
                % {"where": where, "column": column, "kind": kind},
                code="not_a_date",
            )

    def where(self, filters: list[Filter], where: str = "filter") -> exp.Expr | None:
        conditions = [self.column_filter(f, where) for f in filters]
        return exp.and_(*conditions) if conditions else None

    # --- aggregations ----------------------------------------------------------------
    def aggregation(self, agg: Aggregation) -> exp.Expr:
        where = _("aggregation '%(name)s'") % {"name": agg.name}
        condition = self.where(agg.where, where)
        kind = "integer" if agg.column is None else self.column_kind(agg.column, where)
        value: exp.Expr = exp.Star() if agg.column is None else self.column_expr(agg.column)
        numeric_only = agg.func not in ("count", "nunique", "min", "max")
        if numeric_only and kind not in NUMERIC:
            raise QueryInvalid(
                _("%(where)s: %(func)s needs a numeric column, and '%(column)s' is %(kind)s")
                % {"where": where, "func": agg.func, "column": agg.column, "kind": kind},
                code="not_numeric",
            )
        if condition is not None:
            value = exp.Case(ifs=[exp.If(this=condition, true=exp.Literal.number(1) if agg.column is None else value)])
        self.output_kinds[agg.name] = (
            "integer" if agg.func in ("count", "nunique") else (kind if agg.func in ("min", "max") else "number")
        )
        if agg.func == "count":
            return exp.Count(this=value)
        if agg.func == "nunique":
            return exp.Count(this=exp.Distinct(expressions=[value]))
        simple = {"sum": exp.Sum, "avg": exp.Avg, "min": exp.Min, "max": exp.Max}
        if agg.func in simple:
            return simple[agg.func](this=value)
        slots: dict[str, exp.Expr] = {"c": value}
        if agg.func == "corr":
            kind2 = self.column_kind(agg.column2 or "", where)
            if kind2 not in NUMERIC:
                raise QueryInvalid(_("%(where)s: corr needs numeric columns") % {"where": where}, code="not_numeric")
            second: exp.Expr = ident(agg.column2 or "")
            slots["c2"] = exp.Case(ifs=[exp.If(this=condition, true=second)]) if condition is not None else second
        if agg.func == "quantile":
            slots["q"] = exp.Literal.number(agg.q)
        return dialects.statistic(agg.func, self.dialect, **slots)

    # --- derived expressions and windows ---------------------------------------------
    def expression(self, node: Node, refer: Any) -> exp.Expr:
        if isinstance(node, Num):
            return exp.Literal.number(node.value)
        if isinstance(node, Ref):
            return refer(node.name)
        if isinstance(node, Neg):
            return exp.Neg(this=exp.Paren(this=self.expression(node.operand, refer)))
        if isinstance(node, Bin):
            left, right = self.expression(node.left, refer), self.expression(node.right, refer)
            if node.op == "/":
                return exp.Div(
                    this=dialects.as_double(left), expression=exp.Nullif(this=right, expression=exp.Literal.number(0))
                )
            ops = {"+": exp.Add, "-": exp.Sub, "*": exp.Mul}
            return exp.Paren(this=ops[node.op](this=left, expression=right))
        if not isinstance(node, Call):  # pragma: no cover - the parser yields no other node
            raise QueryInvalid(
                _("unsupported expression node %(node)s") % {"node": repr(node)}, code="invalid_expression"
            )
        args = [self.expression(a, refer) for a in node.args]
        if node.func == "nullif":
            return exp.Nullif(this=args[0], expression=args[1])
        if node.func == "coalesce":
            return exp.Coalesce(this=args[0], expressions=args[1:])
        if node.func == "abs":
            return exp.Abs(this=args[0])
        return dialects.rounded(args[0], args[1] if len(args) > 1 else None, self.dialect)

    def window(self, w: Window) -> exp.Expr:
        where = _("window '%(name)s'") % {"name": w.name}
        kind = self.output(w.of, where)
        if kind not in NUMERIC:
            raise QueryInvalid(
                _("%(where)s: '%(name)s' is not numeric") % {"where": where, "name": w.of}, code="not_numeric"
            )
        partition = [ident(p) for p in w.partition_by if self.output(p, where)]
        of = ident(w.of)
        order = None
        if w.order_by:
            self.output(w.order_by, where)
            order = exp.Order(expressions=[exp.Ordered(this=ident(w.order_by), nulls_first=False)])

        def over(func: exp.Expr, ordered: bool = True, **extra: Any) -> exp.Window:
            return exp.Window(this=func, partition_by=partition or None, order=order if ordered else None, **extra)

        self.output_kinds[w.name] = "integer" if w.func == "rank" else "number"
        if w.func == "share_of_total":
            total = over(exp.Sum(this=of.copy()), ordered=False)
            return exp.Div(
                this=dialects.as_double(of), expression=exp.Nullif(this=total, expression=exp.Literal.number(0))
            )
        if w.func == "mean_of_groups":  # the average of the groups' values ("平均每月销售额": of the months' totals)
            return over(exp.Avg(this=of), ordered=False)
        if w.func == "rank":
            ranking = exp.Order(expressions=[exp.Ordered(this=of, desc=w.desc, nulls_first=False)])
            return exp.Window(this=exp.Anonymous(this="RANK"), partition_by=partition or None, order=ranking)
        if w.func == "cumsum":
            frame = exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING", end="CURRENT ROW")
            return over(exp.Sum(this=of), spec=frame)
        previous = over(exp.Anonymous(this="LAG", expressions=[of.copy()]))
        change = exp.Sub(this=of, expression=previous)
        if w.func == "diff":
            return change
        return exp.Div(
            this=dialects.as_double(exp.Paren(this=change)),
            expression=exp.Nullif(this=previous.copy(), expression=exp.Literal.number(0)),
        )

    # --- sort, having, limit ---------------------------------------------------------
    def finish(self, select: exp.Select, having: exp.Expr | None = None) -> exp.Select:
        if having is not None:
            select = select.where(having, copy=False)
        orders = [
            exp.Ordered(this=ident(s.by), desc=s.desc, nulls_first=False)
            for s in self.spec.sort
            if self.output(s.by, "sort")
        ]
        if not orders and self.spec.is_aggregate:
            orders = [exp.Ordered(this=ident(g.name), nulls_first=False) for g in self.spec.group_by]
        if orders:
            select = select.order_by(*orders, copy=False)
        return select.limit(self.row_cap + 1, copy=False)

    def having(self) -> exp.Expr | None:
        conditions = []
        for f in self.spec.having:
            kind = self.output(f.column, "having")
            if f.grain:
                raise QueryInvalid(_("having: grain is for filters on date columns"), code="invalid_having")
            conditions.append(self.condition(f, ident(f.column), kind, _on("having", f.column)))
        return exp.and_(*conditions) if conditions else None

    # --- the two query shapes --------------------------------------------------------
    def aggregate(self) -> exp.Select:
        keys, selects = [], []
        for g in self.spec.group_by:
            kind = self.column_kind(g.column, "group_by")
            key: exp.Expr = self.column_expr(g.column)
            if g.grain:
                self.require_time(g.column, kind, _("group_by '%(column)s'") % {"column": g.column})
                key, kind = dialects.time_bucket(key, g.grain, self.dialect), dialects.BUCKET_KIND[g.grain]
            keys.append(key)
            selects.append(exp.alias_(key.copy(), exp.to_identifier(g.name, quoted=True), copy=False))
            self.output_kinds[g.name] = kind
        for agg in self.spec.aggregations:
            selects.append(exp.alias_(self.aggregation(agg), exp.to_identifier(agg.name, quoted=True), copy=False))
        base = exp.select(*selects, copy=False).from_(self.table, copy=False)
        if (condition := self.where(self.spec.filters)) is not None:
            base = base.where(condition, copy=False)
        if keys:
            base = base.group_by(*keys, copy=False)
        current = base
        if self.spec.derived:
            names = set(self.output_kinds)
            derived = [
                exp.alias_(
                    self.expression(parse_expression(d.expr, label=d.name, names=names), ident),
                    exp.to_identifier(d.name, quoted=True),
                    copy=False,
                )
                for d in self.spec.derived
            ]
            for d in self.spec.derived:
                self.output_kinds[d.name] = "number"
            current = exp.select(exp.Star(), *derived, copy=False).from_(
                current.subquery("base", copy=False), copy=False
            )
        if self.spec.windows:
            windows = [
                exp.alias_(self.window(w), exp.to_identifier(w.name, quoted=True), copy=False)
                for w in self.spec.windows
            ]
            current = exp.select(exp.Star(), *windows, copy=False).from_(
                current.subquery("calc", copy=False), copy=False
            )
        outputs = [ident(name) for name in self.spec.output_names()]
        final = exp.select(*outputs, copy=False).from_(current.subquery("result", copy=False), copy=False)
        return self.finish(final, self.having())

    def rows(self) -> exp.Select:
        selects: list[exp.Expr] = []
        for name in self.spec.columns:
            self.output_kinds[name] = self.column_kind(name, "columns")
            value = self.column_expr(name)
            named = isinstance(value, exp.Column)
            selects.append(value if named else exp.alias_(value, exp.to_identifier(name, quoted=True), copy=False))
        names = set(self.schema)
        for d in self.spec.derived:
            node = parse_expression(d.expr, label=d.name, names=names)
            for ref in _refs_of(node):
                if self.schema[ref] not in NUMERIC:
                    raise QueryInvalid(
                        _("derived '%(name)s': '%(column)s' is not numeric") % {"name": d.name, "column": ref},
                        code="not_numeric",
                    )
            selects.append(exp.alias_(self.expression(node, ident), exp.to_identifier(d.name, quoted=True), copy=False))
            self.output_kinds[d.name] = "number"
        select = exp.select(*selects, copy=False).from_(self.table, copy=False)
        if (condition := self.where(self.spec.filters)) is not None:
            select = select.where(condition, copy=False)
        return self.finish(select)


def _on(where: str, column: str) -> str:
    """Where a filter sits, for messages: "filter on '地区'"."""
    return _("%(where)s on '%(column)s'") % {"where": where, "column": column}


def _refs_of(node: Node) -> set[str]:
    from apps.datasets.query.expressions import refs

    return refs(node)


def compile_query(
    spec: QuerySpec,
    *,
    schema: dict[str, str],
    table: str = "data",
    dialect: str = "duckdb",
    row_cap: int,
    ordered: bool = False,
) -> CompiledQuery:
    """`schema` maps column name -> kind (integer, number, text, date, datetime, boolean, other); `ordered`: the
    table is an uploaded file's, whose rows keep the file's order (ROW_POSITION may be used)."""
    compiler = _Compiler(spec, schema, table, dialect, row_cap, ordered)
    tree = compiler.aggregate() if spec.is_aggregate else compiler.rows()
    return CompiledQuery(
        sql=tree.sql(dialect=dialect),
        params=compiler.params.values,
        columns=spec.output_names(),
        limit=compiler.row_cap,
    )
