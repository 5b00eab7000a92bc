"""How an answer was computed: one explanation per executed query, rendered from the run's tool outcomes (never
from the model's text), in the user's language, with the assumptions a careful analyst would state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from pydantic import ValidationError

from apps.agent.explain_terms import (
    GRAINS,
    aggregate_formula,
    filter_text,
    render,
    value_text,
    walk,
)
from apps.agent.messages import Lang
from apps.agent.response import ExplanationOut, MeasureOut
from apps.agent.tools import ToolOutcome
from apps.datasets.errors import QueryInvalid
from apps.datasets.query.expressions import Bin, Node, Ref, parse_expression
from apps.datasets.query.spec import ROW_POSITION, QuerySpec, Window

SQL_CHARS = 4000
TIME_KINDS = ("date", "datetime")
BLANKS_IGNORED = ("avg", "median", "quantile", "stddev", "variance", "corr")
TOTALS = ("sum", "count")
Profiles = dict[str | None, dict[str, Any]]

_WINDOWS = {
    "share_of_total": gettext_lazy("%(name)s = %(of)s / the total of %(of)s over all groups"),
    "mean_of_groups": gettext_lazy("%(name)s = the average of %(of)s over all groups"),
    "pct_change": gettext_lazy("%(name)s = change from the previous %(order)s: (%(of)s − previous) / previous"),
    "diff": gettext_lazy("%(name)s = %(of)s − %(of)s of the previous %(order)s"),
    "cumsum": gettext_lazy("%(name)s = running total of %(of)s in order of %(order)s"),
}


class _AnyName(set[str]):
    """The query already ran, so the compiler checked its names; here every name is accepted."""

    def __contains__(self, item: object) -> bool:
        return True


class _QueryExplainer:
    """Describes one run_query: its QuerySpec, its outcome and the schema the model saw for its table."""

    def __init__(self, spec: QuerySpec, outcome: ToolOutcome, profile: dict[str, Any] | None) -> None:
        self.spec, self.outcome, self.profile = spec, outcome, profile or {}
        self.aggs = {a.name: a for a in spec.aggregations}
        self.parsed: dict[str, Node | None] = {d.name: _parse(d.expr, d.name) for d in spec.derived}

    # --- formulas ---------------------------------------------------------------------------
    def expanded(self, node: Node) -> str:
        """A derived value over base columns: 退货数量合计 / 订单数量合计 -> sum(退货数量) / sum(订单数量)."""
        return render(node, lambda name: aggregate_formula(self.aggs[name]) if name in self.aggs else name)

    def derived_formula(self, name: str, expr: str) -> str:
        node = self.parsed[name]
        if node is None:
            return expr
        plain, expanded = render(node, lambda ref: ref), self.expanded(node)
        if not self.spec.is_aggregate:
            return _("%(formula)s, on each row") % {"formula": plain}
        return (
            plain
            if plain == expanded
            else _("%(formula)s, i.e. %(expanded)s") % {"formula": plain, "expanded": expanded}
        )

    # --- the parts ----------------------------------------------------------------------------
    def filters(self) -> list[str]:
        having = [_("%(condition)s (after aggregation)") % {"condition": filter_text(f)} for f in self.spec.having]
        return [filter_text(f) for f in self.spec.filters] + having

    def grouping(self) -> list[str]:
        if not self.spec.is_aggregate:
            return [_("rows one by one, not aggregated: %(columns)s") % {"columns": ", ".join(self.spec.columns)}]
        if not self.spec.group_by:
            return [_("no grouping: one row over all matching rows")]
        out = []
        for g in self.spec.group_by:
            values = {"name": g.name, "column": g.column, "grain": GRAINS[g.grain] if g.grain else ""}
            if g.grain:
                text = (
                    _("by %(column)s (%(grain)s)") if g.name == g.column else _("by %(name)s (%(column)s, %(grain)s)")
                )
            else:
                text = _("by %(column)s") if g.name == g.column else _("by %(name)s (column %(column)s)")
            out.append(text % values)
        return out

    def measures(self) -> list[MeasureOut]:
        aggregated = [MeasureOut(name=a.name, formula=aggregate_formula(a)) for a in self.spec.aggregations]
        derived = [MeasureOut(name=d.name, formula=self.derived_formula(d.name, d.expr)) for d in self.spec.derived]
        return aggregated + derived

    def windows(self) -> list[str]:
        return [_window_text(w) for w in self.spec.windows]

    def sort_limit(self) -> str:
        spec = self.spec
        orders = [(s.by, s.desc) for s in spec.sort] or [(g.name, False) for g in spec.group_by]
        shown = [
            (_("%(column)s descending") if desc else _("%(column)s ascending")) % {"column": by} for by, desc in orders
        ]
        values = {"order": ", ".join(shown), "count": spec.limit}
        limited = "limit" in spec.model_fields_set
        if shown and limited:
            return _("sorted by %(order)s; first %(count)s rows") % values
        if shown:
            return _("sorted by %(order)s") % values
        return _("first %(count)s rows") % values if limited else ""

    def text(self) -> str:
        """One line: filters · grouping · the headline values over base columns (derived ones first)."""
        derived = [f"{d.name} = {self.expanded(n)}" for d in self.spec.derived if (n := self.parsed[d.name])]
        aggregated = [f"{a.name} = {aggregate_formula(a)}" for a in self.spec.aggregations]
        return " · ".join([*self.filters(), *self.grouping(), *(derived or aggregated)[:2]])

    # --- assumptions ----------------------------------------------------------------------------
    def assumptions(self) -> list[str]:
        notes = [
            *self.counting_notes(),
            *self.empty_value_notes(),
            *self.ratio_notes(),
            *self.period_notes(),
            *self.filter_notes(),
            *self.window_notes(),
            *self.limit_notes(),
            *self.order_notes(),
        ]
        return list(dict.fromkeys(notes))

    def order_notes(self) -> list[str]:
        """A query that reads the rows' order in the file says so: the order is the file's, nothing else."""
        used = [
            *self.spec.columns,
            *(f.column for f in self.spec.filters),
            *(g.column for g in self.spec.group_by),
            *(a.column for a in self.spec.aggregations),
        ]
        known = {c.get("name") for c in self.profile.get("columns", [])}
        if ROW_POSITION not in used or ROW_POSITION in known:
            return []
        return [
            _(
                "%(name)s is each row's place in the uploaded file (1 = the first data row): "
                "“before”, “after”, “first” and “last listed” follow the file's order of rows"
            )
            % {"name": ROW_POSITION}
        ]

    def counting_notes(self) -> list[str]:
        notes, rows = [], [a.name for a in self.spec.aggregations if a.func == "count" and a.column is None]
        if rows:
            text = ngettext(
                "%(names)s counts rows (each row once, repeated values included), not distinct values",
                "%(names)s count rows (each row once, repeated values included), not distinct values",
                len(rows),
            )
            notes.append(text % {"names": ", ".join(rows)})
        for a in self.spec.aggregations:
            values = {"name": a.name, "func": a.func, "column": ", ".join(c for c in (a.column, a.column2) if c)}
            if a.func in BLANKS_IGNORED:
                notes.append(
                    _("%(func)s ignores empty values of %(column)s: they count neither as 0 nor as rows") % values
                )
            elif a.func == "count" and a.column is not None:
                notes.append(_("%(name)s counts the rows where %(column)s is not empty") % values)
            elif a.func == "nunique":
                notes.append(_("%(name)s counts distinct values of %(column)s; empty values are not counted") % values)
        return notes

    def column_profile(self, column: str | None) -> dict[str, Any]:
        return next((c for c in self.profile.get("columns", []) if c.get("name") == column), {})

    def empty_share(self, column: str | None) -> str:
        """How often `column` is empty, as the schema the run read shows it ("" when never, or unknown)."""
        ratio = self.column_profile(column).get("null_ratio") or 0
        return f"{ratio:.1%}" if ratio > 0 else ""

    def empty_value_notes(self) -> list[str]:
        notes = []
        for g in self.spec.group_by:
            if share := self.empty_share(g.column):
                values = {"column": g.column, "share": share}
                notes.append(
                    _("%(column)s is empty in %(share)s of the rows; those rows form one group of their own") % values
                )
        for a in self.spec.aggregations:
            if a.func == "sum" and (share := self.empty_share(a.column)):
                values = {"column": a.column or "", "share": share}
                notes.append(_("%(column)s is empty in %(share)s of the rows; sum leaves them out") % values)
        return notes

    def ratio_notes(self) -> list[str]:
        notes = []
        for name, node in self.parsed.items():
            used = [self.aggs[r] for r in _refs_in_order(node) if r in self.aggs] if _divides(node) else []
            if not used or node is None:
                continue
            values = {"name": name, "formula": self.expanded(node)}
            columns = list(dict.fromkeys(a.column or str(_("the number of rows")) for a in used))
            if all(a.func == "count" and a.column is None for a in used):
                text = _(
                    "%(name)s is a ratio of row counts (%(formula)s): each row weighs the same, whatever its amount"
                )
            elif all(a.func in TOTALS for a in used):
                text = _(
                    "%(name)s is a ratio of totals (%(formula)s), weighted by %(columns)s, "
                    "not an average of per-row ratios"
                )
            else:
                text = _("%(name)s is computed from aggregated values (%(formula)s), based on %(columns)s")
            notes.append(text % {**values, "columns": ", ".join(columns)})
        if notes:
            notes.append(_("a division by zero gives an empty value, not 0"))
        return notes

    def time_columns(self) -> list[str]:
        grained = [g.column for g in self.spec.group_by if g.grain] + [f.column for f in self.spec.filters if f.grain]
        known = [c["name"] for c in self.profile.get("columns", []) if c.get("kind") in TIME_KINDS]
        return list(dict.fromkeys(grained + known))

    def period_notes(self) -> list[str]:
        times = self.time_columns()
        if not times or any(f.column in times for f in self.spec.filters):
            return []
        column = self.column_profile(times[0])
        values = {"column": times[0], "low": value_text(column.get("min")), "high": value_text(column.get("max"))}
        if column.get("min") is not None and column.get("max") is not None:
            return [_("no filter on %(column)s: every period in the data is included (%(low)s to %(high)s)") % values]
        return [_("no filter on %(column)s: every period in the data is included") % values]

    def filter_notes(self) -> list[str]:
        notes = [
            _("%(condition)s also leaves out the rows where %(column)s is empty")
            % {"condition": filter_text(f), "column": f.column}
            for f in self.spec.filters
            if f.op == "!="
        ]
        grains = [g.grain for g in self.spec.group_by] + [f.grain for f in self.spec.filters]
        if "week" in grains:
            notes.append(_("weeks start on Monday and are labelled by their Monday"))
        return notes

    def window_notes(self) -> list[str]:
        notes = []
        for w in self.spec.windows:
            values = {"name": w.name, "order": w.order_by or ""}
            if w.func in ("pct_change", "diff"):
                notes.append(
                    _(
                        "%(name)s is empty for the first %(order)s (there is no previous one); the previous "
                        "%(order)s is the previous row of the result, so a missing period is skipped, not counted as 0"
                    )
                    % values
                )
            elif w.func == "rank":
                notes.append(_("%(name)s: equal values share a rank") % values)
            elif w.func == "share_of_total" and self.spec.filters:
                notes.append(_("%(name)s is a share of the total after the filters, not of all the data") % values)
        if self.spec.windows and (self.spec.having or "limit" in self.spec.model_fields_set):
            names = ", ".join(w.name for w in self.spec.windows)
            notes.append(
                _("%(names)s: computed over all groups, before the having conditions and the row limit apply")
                % {"names": names}
            )
        return notes

    def limit_notes(self) -> list[str]:
        spec, notes, values = self.spec, [], {"count": self.outcome.row_count}
        if "limit" in spec.model_fields_set and not spec.sort and not spec.group_by:
            notes.append(_("no sort order was given, so which %(count)s rows are returned is not defined") % values)
        return notes + _truncation_notes(self.outcome)


def _parse(expr: str, name: str) -> Node | None:
    try:
        return parse_expression(expr, label=name, names=_AnyName())
    except QueryInvalid:
        return None


def _divides(node: Node | None) -> bool:
    return any(isinstance(n, Bin) and n.op == "/" for n in walk(node))


def _refs_in_order(node: Node | None) -> list[str]:
    return list(dict.fromkeys(n.name for n in walk(node) if isinstance(n, Ref)))


def _window_text(w: Window) -> str:
    values = {"name": w.name, "of": w.of, "order": w.order_by or ""}
    if w.func == "rank":
        text = (
            _("%(name)s = rank by %(of)s, largest first") if w.desc else _("%(name)s = rank by %(of)s, smallest first")
        ) % values
    else:
        text = str(_WINDOWS[w.func]) % values
    if w.partition_by:
        text = _("%(window)s, within each %(partition)s") % {"window": text, "partition": ", ".join(w.partition_by)}
    return text


def _source(source_name: str, source_type: str, table: str | None) -> str:
    if source_type == "sql":
        if table:
            return _("source %(name)s, table %(table)s") % {"name": source_name, "table": table}
        return _("source %(name)s") % {"name": source_name}
    return _("dataset %(name)s") % {"name": source_name}


def _trimmed(sql: str | None) -> str | None:
    text = (sql or "").strip()
    return text if len(text) <= SQL_CHARS else text[:SQL_CHARS] + "…"


def _explain_query(outcome: ToolOutcome, source: str, profiles: Profiles) -> ExplanationOut:
    try:
        spec = QuerySpec.model_validate(outcome.arguments.get("spec"))
    except ValidationError:  # cannot happen for a query that ran; still say where its numbers came from
        return _explain_sql(outcome, source)
    q = _QueryExplainer(spec, outcome, profiles.get(outcome.arguments.get("table")))
    return ExplanationOut(
        ref=outcome.ref or "",
        text=q.text(),
        source=source,
        filters=q.filters(),
        grouping=q.grouping(),
        measures=q.measures(),
        windows=q.windows(),
        sort_limit=q.sort_limit(),
        rows=outcome.row_count,
        truncated=outcome.truncated,
        assumptions=q.assumptions(),
    )


def _truncation_notes(outcome: ToolOutcome) -> list[str]:
    if not outcome.truncated:
        return []
    return [_("only the first %(count)s rows are included; more rows matched") % {"count": outcome.row_count}]


def _explain_sql(outcome: ToolOutcome, source: str) -> ExplanationOut:
    sql = _trimmed(str(outcome.arguments.get("sql") or outcome.sql or ""))
    params = outcome.arguments.get("params") or {}
    notes = [_("the numbers come from this SQL exactly as written; read it to see which rows and definitions it uses")]
    notes += _truncation_notes(outcome)
    return ExplanationOut(
        ref=outcome.ref or "",
        text=_("SQL written for this question, run read-only on %(source)s") % {"source": source},
        source=source,
        filters=[_("parameter :%(name)s = %(value)s") % {"name": k, "value": value_text(v)} for k, v in params.items()],
        rows=outcome.row_count,
        truncated=outcome.truncated,
        sql=sql,
        assumptions=notes,
    )


def _profiles(outcomes: Sequence[ToolOutcome], dataset_profile: dict[str, Any] | None) -> Profiles:
    """The schema of each table (None: a file dataset's one table): the one the run read, else the dataset's."""
    read = {
        o.arguments.get("table"): o.payload
        for o in outcomes
        if o.name == "get_schema" and o.status == "ok" and isinstance(o.payload, dict)
    }
    return {None: dataset_profile, **read} if dataset_profile else read


_EXPLAINERS: dict[str, Callable[[ToolOutcome, str, Profiles], ExplanationOut]] = {
    "run_query": _explain_query,
    "execute_sql_safe": lambda outcome, source, profiles: _explain_sql(outcome, source),
}


def explain(
    outcomes: Sequence[ToolOutcome],
    *,
    source_name: str,
    source_type: str,
    language: Lang,
    dataset_profile: dict[str, Any] | None = None,
) -> list[ExplanationOut]:
    """One explanation per successful query of the run, in order, in `language`. `dataset_profile` (a file
    dataset's stored profile) tells which columns are dates and how often each is empty when the run did not
    read the schema itself."""
    with translation.override("zh-hans" if language == "zh" else "en"):
        profiles = _profiles(outcomes, dataset_profile)
        return [
            _EXPLAINERS[o.name](o, _source(source_name, source_type, o.arguments.get("table")), profiles)
            for o in outcomes
            if o.status == "ok" and o.name in _EXPLAINERS
        ]
