"""Final drafts in the question's language. Every number is a reference to a tool result
(`{{q1.金额合计[0]}}`); the only digits typed are the user's own (periods, thresholds) and years read
back from a result's labels. Follow-up questions are ones this planner can answer itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.agent import durations
from apps.agent.offline.choice_draft import choice_lines
from apps.agent.offline.lookup import shown_columns
from apps.agent.offline.mean_draft import mean_lines
from apps.agent.offline.plan import Plan, Shown
from apps.agent.offline.schema_terms import Schema
from apps.agent.offline.trend_summary import extremes
from apps.agent.offline.wording import names, speaking
from apps.datasets.ingest.profile import TableProfile
from apps.datasets.query.spec import ROW_POSITION

MAX_LISTED = 12


def compared_said(column: str, value: str) -> str:
    """A column's value beside a row: "Year 1948", or "row 3" for the row's place in the file (ROW_POSITION)."""
    return _("row %(n)s") % {"n": value} if column == ROW_POSITION else f"{column} {value}"


_REF_SAFE = re.compile(r"^[^\[\]{}|]+$")


@dataclass
class ResultView:
    """A query result as the model read it (at most the first 50 rows)."""

    ref: str
    columns: list[str]
    rows: list[list[Any]]
    row_count: int

    def cell(self, row: int, column: str) -> Any:
        if row >= len(self.rows) or column not in self.columns:
            return None
        return self.rows[row][self.columns.index(column)]


def reference(ref: str, column: str, row: int, fmt: str | None = None) -> str:
    return "{{" + f"{ref}.{column}[{row}]" + (f"|{fmt}" if fmt else "") + "}}"


def _values(items: list[str]) -> str:
    """Named values one after another: "金额合计 1,234，占比 12.3%", "total 1,234, share 12.3%"."""
    return pgettext("separator between values in an answer", ", ").join(items)


def _labelled(labels: str, said: str) -> str:
    """ "华东 · 杯子：金额合计 1,234": a row's labels, then its values."""
    return _("%(labels)s: %(values)s") % {"labels": labels, "values": said}


class Writer:
    """Writes in the active language: answer_draft picks it (wording.speaking)."""

    def __init__(
        self, plan: Plan, result: ResultView, schema: Schema, *, strict: bool = False, chart: str | None = None
    ):
        self.plan, self.result, self.schema, self.strict, self.chart = plan, result, schema, strict, chart

    # --- pieces ----------------------------------------------------------------------------
    def label(self, row: int, column: str) -> str:
        value = self.result.cell(row, column)
        if value is None:
            return _("(blank)")
        if isinstance(value, bool):
            return (
                pgettext("a yes/no value in an answer", "true")
                if value
                else pgettext("a yes/no value in an answer", "false")
            )
        view = self.schema.by_name.get(column)
        year = isinstance(value, int) and (1900 <= value <= 2100 or (view is not None and view.years))
        if year and not self.strict:
            return str(value)  # a year read from the result: shown as written, without a thousands separator
        if not _REF_SAFE.match(column):
            return str(value) if isinstance(value, str) else "?"
        return reference(self.result.ref, column, row)

    def _numbered(self, row: int, column: str) -> bool:
        """The row's label is a number (Week 15, Round 3), not a year: said right after the column's name, as verify
        reads it."""
        value = self.result.cell(row, column)
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        view = self.schema.by_name.get(column)
        return not (isinstance(value, int) and (1900 <= value <= 2100 or (view is not None and view.years)))

    def value(self, row: int, name: str, fmt: str | None) -> str:
        if fmt is None and self._timed(name) and isinstance(self.result.cell(row, name), float):
            fmt = "clock"  # "1:55.72", as the file wrote the time, not 115.72 seconds
        return reference(self.result.ref, name, row, fmt)

    def _timed(self, name: str) -> bool:
        """The value is a time in seconds: a column of them, or its total, average, least or most."""
        metric = next((m for m in self.plan.metrics if m.name == name), None)
        source = (metric.column if metric.func not in ("count", "nunique") else None) if metric else name
        return bool(source) and bool(durations.IN_SECONDS.search(source or ""))

    def shown(self) -> list[Shown]:
        """The planned values, or (should the result differ) every column that is not a label."""
        shown = [s for s in self.plan.shown if s.name in self.result.columns]
        keys = {g.name for g in self.plan.groups} | set(self.plan.row_columns[:-1])
        return shown or [Shown(c) for c in self.result.columns if c not in keys]

    def row_values(self, row: int) -> str:
        """ "金额合计 1,234，占比 12.3%": each value after its name (a number never follows a bare colon)."""
        shown = self.shown()
        return _values([f"{s.name} {self.value(row, s.name, s.fmt)}" for s in shown])

    def row_line(self, row: int, keys: list[str]) -> str:
        labels = " · ".join(self.label(row, k) for k in keys)
        return f"{row + 1}. {_labelled(labels, self.row_values(row))}"

    def listing(self, keys: list[str]) -> list[str]:
        count = min(len(self.result.rows), MAX_LISTED)
        return [self.row_line(i, keys) for i in range(count)]

    def left_out_line(self) -> list[str]:
        """What the question said that no column matched, said as left out (none: no line)."""
        if not self.plan.unmapped:
            return []
        quoted = names([f"“{w}”" for w in self.plan.unmapped])
        return [_("Note: no column matches %(words)s, so it was left out.") % {"words": quoted}]

    def filters_line(self) -> list[str]:
        if not self.plan.filter_labels:
            return []
        filters = pgettext("separator between filters in an answer", "; ").join(self.plan.filter_labels)
        return [_("Filters: %(filters)s.") % {"filters": filters}]

    # --- bodies ----------------------------------------------------------------------------
    def nothing_matched(self) -> bool:
        """No row came back, or one row whose values are all empty (a sum over no rows)."""
        shown = self.shown()
        if not self.result.rows:
            return True
        return bool(shown) and all(self.result.cell(0, s.name) is None for s in shown)  # a lookup shows cells

    def scalar(self) -> list[str]:
        shown = self.shown()
        if not self.result.rows or not shown:
            return [_("The query returned no rows.")]
        if self.nothing_matched() and self.plan.notes and self.result.rows:  # a row may hold a mark, not a number
            return [
                _(
                    "There is no value to report: either no row matches these conditions, or the rows that match "
                    "hold no value there."
                )
            ]
        if self.nothing_matched():  # nothing matched: say so, not "is —"
            return [_("No rows match these conditions, so there is no value to report.")]
        head = shown[0]
        beside = self.plan.rows_beside
        if beside and self.result.cell(0, beside) == self.result.cell(0, head.name):  # as many rows as values
            shown = [s for s in shown if s.name != beside]
        said = {"measure": head.name, "value": self.value(0, head.name, head.fmt)}
        rest = [f"{s.name} {self.value(0, s.name, s.fmt)}" for s in shown[1:]]
        if rest:
            return [_("%(measure)s is %(value)s (%(others)s).") % {**said, "others": _values(rest)}]
        return [_("%(measure)s is %(value)s.") % said]

    def grouped(self) -> list[str]:
        keys = [g.name for g in self.plan.groups]
        if not self.result.rows:
            return [_("The query returned no rows (the filters may be too narrow).")]
        count = "{{" + f"{self.result.ref}.row_count" + "}}"
        said = {"groups": names(keys), "measure": self.plan.shown[0].name if self.plan.shown else "", "count": count}
        if self.plan.question_kind == "tied_extreme":
            return self.tied_count(said, keys[0])
        if self.plan.kind == "ranking":
            if self.plan.single_best and len(self.result.rows) > 1:
                return self.tied(keys, said)
            if len(self.result.rows) == 1 or self.plan.limit == 1:
                return self.best(said, keys)
            per = next((w.partition_by[0] for w in self.plan.windows if w.func == "rank" and w.partition_by), None)
            if per is not None:  # "每个月销售额最高的渠道": each period's best, in the order of the periods
                said |= {"period": per}
                if self.plan.ascending:
                    head = _("The lowest %(measure)s in each %(period)s:") % said
                else:
                    head = _("The highest %(measure)s in each %(period)s:") % said
            elif self.plan.ascending:
                head = _("Ranked by %(measure)s (lowest first):") % said
            else:
                head = _("Ranked by %(measure)s (highest first):") % said
        elif self.plan.kind == "trend":
            head = _("%(measure)s by %(groups)s (%(count)s rows):") % said
        else:
            head = _("%(measure)s by %(groups)s (%(count)s groups):") % said
        lines = [head, *self.listing(keys)]
        if self.result.row_count > MAX_LISTED:
            lines.append(_("... the rest is in the table."))
        return lines

    def best(self, said: dict[str, str], keys: list[str]) -> list[str]:
        """The one group ranked first, named with its values."""
        said |= {"label": " · ".join(self.label(0, k) for k in keys), "values": self.row_values(0)}
        edge = self.time_edge()
        if edge is not None:  # "what was her first role": the one at the earliest time, said so
            return [_("The %(groups)s with the %(edge)s is %(label)s (%(values)s).") % {**said, "edge": edge}]
        if len(keys) == 1 and self._numbered(0, keys[0]):  # "Week 15 has …": the number after its name
            if self.plan.ascending:
                return [_("The lowest %(measure)s is in %(groups)s %(label)s (%(values)s).") % said]
            return [_("The highest %(measure)s is in %(groups)s %(label)s (%(values)s).") % said]
        if self.plan.ascending:
            return [_("The %(groups)s with the lowest %(measure)s is %(label)s (%(values)s).") % said]
        return [_("The %(groups)s with the highest %(measure)s is %(label)s (%(values)s).") % said]

    def tied_count(self, said: dict[str, str], key: str) -> list[str]:
        """ "how many teams had the most seasons": the top value, then how many hold it (ties counted)."""
        said |= {"label": self.label(0, key), "value": self.value(0, said["measure"], None)}
        if self.plan.ascending:
            return [_("%(groups)s %(label)s is the lowest; %(measure)s: %(value)s.") % said]
        return [_("%(groups)s %(label)s is the highest; %(measure)s: %(value)s.") % said]

    def time_edge(self) -> str | None:
        """ "earliest Year" when the groups are ranked by the earliest (or latest) time of each (time_edge.py),
        so the answer says the earliest, not "the lowest earliest Year"; None for any other ranking."""
        primary = self.plan.shown[0].name if self.plan.shown else ""
        metric = next((m for m in self.plan.metrics if m.name == primary), None)
        view = self.schema.by_name.get(metric.column or "") if metric is not None else None
        if metric is None or view is None or view.category not in ("time", "year"):
            return None
        if (metric.func, self.plan.ascending) not in (("min", True), ("max", False)):
            return None
        return primary

    def tied(self, keys: list[str], said: dict[str, str]) -> list[str]:
        """ "Nike, Samurai tie for the highest count (count 3)": the best is shared, so no one of them is named
        alone."""
        count = min(len(self.result.rows), MAX_LISTED)
        said |= {"labels": names([self.label(i, keys[-1]) for i in range(count)]), "values": self.row_values(0)}
        edge = self.time_edge()
        if edge is not None:
            lines = [_("%(labels)s tie for the %(edge)s (%(values)s).") % {**said, "edge": edge}]
        elif self.plan.ascending:
            lines = [_("%(labels)s tie for the lowest %(measure)s (%(values)s).") % said]
        else:
            lines = [_("%(labels)s tie for the highest %(measure)s (%(values)s).") % said]
        if self.result.row_count > MAX_LISTED:
            lines.append(_("... the rest is in the table."))
        return lines

    def trend_summary(self, change: ResultView) -> list[str]:
        """Start, end, peak and trough (cells of the trend), then the overall change (the change query)."""
        primary, at = self.plan.shown[0].name, self.result.columns.index(self.plan.time_group or "")
        found = extremes(self.result.rows, self.result.columns.index(primary))
        if found is None:
            return []
        peak, trough = found
        last = len(self.result.rows) - 1
        points = {"measure": primary, "start": self.label(0, self.result.columns[at])}
        points |= {"end": self.label(last, self.result.columns[at])}
        points |= {"first": self.value(0, primary, None), "last": self.value(last, primary, None)}
        points |= {"peak": self.label(peak, self.result.columns[at]), "high": self.value(peak, primary, None)}
        points |= {"trough": self.label(trough, self.result.columns[at]), "low": self.value(trough, primary, None)}
        _first, _last, change_name, rate_name = change_names(self.plan)
        points |= {
            "change": reference(change.ref, change_name, 0),
            "rate": reference(change.ref, rate_name, 0, "pct"),
        }
        return [
            _("%(measure)s went from %(first)s in %(start)s to %(last)s in %(end)s.") % points,
            _("Highest: %(peak)s, %(high)s. Lowest: %(trough)s, %(low)s.") % points,
            _("Overall change from %(start)s to %(end)s: %(change)s (%(rate)s).") % points,
        ]

    def rows(self) -> list[str]:
        measure = self.plan.row_columns[-1]
        views = self.schema.by_name
        kinds = ("id", "dimension", "time", "year")  # the columns asked come first (哪天, 哪个产品)
        labels = [c for c in self.plan.row_columns[:-1] if c in views and views[c].category in kinds][:3]
        lowest_first = bool(self.plan.sort) and not self.plan.sort[0].desc
        if measure in views and views[measure].place:  # a place: number 1 is the best
            best = _("Records with the best %(measure)s:") if lowest_first else _("Records with the worst %(measure)s:")
            lines = [best % {"measure": measure}]
        elif measure in views and views[measure].category in ("time", "year"):  # "which ship was launched first"
            dated = (
                _("Records with the earliest %(measure)s:")
                if lowest_first
                else _("Records with the latest %(measure)s:")
            )
            lines = [dated % {"measure": measure}]
        elif lowest_first:
            lines = [_("Records with the lowest %(measure)s:") % {"measure": measure}]
        else:
            lines = [_("Records with the highest %(measure)s:") % {"measure": measure}]
        listed = range(min(len(self.result.rows), MAX_LISTED))
        if self.plan.single_best:  # the one row asked for, and every row tied with it (none other)
            listed = range(len([i for i in listed if self.result.cell(i, measure) == self.result.cell(0, measure)]))
        for i in listed:
            said = " · ".join(self.label(i, c) for c in labels)
            lines.append(f"{i + 1}. {_labelled(said, f'{measure} {self.value(i, measure, None)}')}")
        if self.plan.single_best and len(listed) == len(self.result.rows) == self.plan.limit:
            lines.append(_("... the rest is in the table."))
        return lines

    def lookup(self) -> list[str]:
        """ "City: Milwaukee, Wisconsin.": the cells of the column asked for (lookup.py), with the threshold
        columns beside them; several rows are listed."""
        shown = shown_columns(self.plan)
        column, beside = shown[0], shown[1:]
        if not self.result.rows:
            return [_("No rows match these conditions, so there is no value to report.")]
        measures = {v.name for v in self.schema.views if v.category == "measure"} | {ROW_POSITION}

        def others(row: int) -> str:  # the columns beside, each after its name
            return _values(
                [compared_said(c, self.value(row, c, None) if c in measures else self.label(row, c)) for c in beside]
            )

        def said(row: int) -> str:
            return _labelled(self.label(row, column), others(row)) if beside else self.label(row, column)

        if len(self.result.rows) == 1:
            said_one = {"column": column, "value": self.label(0, column), "others": others(0)}
            if beside:
                return [_("%(column)s: %(value)s (%(others)s).") % said_one]
            return [_("%(column)s: %(value)s.") % said_one]
        count = "{{" + f"{self.result.ref}.row_count" + "}}"
        lines = [self.lookup_head(column, count)]
        lines += [f"{i + 1}. {said(i)}" for i in range(min(len(self.result.rows), MAX_LISTED))]
        if self.result.row_count > MAX_LISTED:
            lines.append(_("... the rest is in the table."))
        return lines

    def lookup_head(self, column: str, count: str) -> str:
        """What a lookup's list is: the rows that match, or each value once (lookup.add_context); counted only
        when the count is of what is listed (not of value-and-context pairs)."""
        said = {"column": column, "count": count}
        rows, filtered = bool(self.plan.row_columns), bool(self.plan.filter_labels)
        if self.plan.limit is not None and self.result.row_count >= self.plan.limit:  # more rows than were read
            return _("%(column)s of the first %(count)s rows that match:") % said
        if not rows and len(self.plan.groups) > 1:  # "张三和李四分别在哪个地区": each pair once, not counted
            return _("%(column)s in the rows that match:") % said if filtered else _("%(column)s:") % said
        if not filtered:  # "列出所有客户": nothing narrows the rows
            return _("%(column)s (%(count)s rows):") % said if rows else _("%(column)s (%(count)s different):") % said
        if rows:
            return _("%(column)s of the %(count)s rows that match:") % said
        return _("%(column)s in the rows that match (%(count)s different):") % said

    def body(self) -> list[str]:
        if self.plan.question_kind == "named_choice":
            lines = choice_lines(self)
        elif self.plan.question_kind == "group_average":
            lines = mean_lines(self)
        elif self.plan.kind == "scalar":
            lines = self.scalar()
        elif self.plan.kind == "rows":
            lines = self.rows()
        elif self.plan.kind == "lookup":
            lines = self.lookup()
        else:
            lines = self.grouped()
        lines += self.filters_line()
        lines += self.left_out_line()
        lines += self.plan.notes
        if self.chart:
            charts = {"line": _("(Chart: line.)"), "bar": _("(Chart: bar.)"), "pie": _("(Chart: pie.)")}
            lines.append(charts[self.chart])
        return lines


def blank_notes(plan: Plan, profile: TableProfile) -> list[str]:
    """ "Rows where Attendance reads “N/A” have no value there and are left out": said for each column the plan
    computes on, filters, groups or orders by whose file had marks in place of values (ColumnProfile.blank_marks)."""
    used = [c for m in plan.metrics for c in (m.column, m.column2) if c]
    used += [f.column for f in [*plan.filters, *(w for m in plan.metrics for w in m.where)] if f.op != "is_null"]
    used += [g.column for g in plan.groups] + [s.by for s in plan.sort]
    used += [plan.anchor.measured] if plan.anchor is not None else []
    marked = {c.name: c.blank_marks for c in profile.columns if c.blank_marks}
    notes = []
    with speaking(plan.lang):
        for column in dict.fromkeys(c for c in used if c in marked):
            marks = names([f"“{m}”" for m in marked[column]])
            notes.append(
                _("Rows where %(column)s reads %(marks)s have no value there and are left out.")
                % {"column": column, "marks": marks}
            )
    return notes


def _strip_typed_numbers(lines: list[str], columns: list[str]) -> list[str]:
    """After a failed verification: keep only lines whose digits all sit inside references or in the names of
    the result's columns ("Population 2010: {{q1.…}}")."""
    kept = []
    named = [c for c in columns if re.search(r"\d", c)]
    for line in lines:
        outside = re.sub(r"\{\{.*?\}\}", "", re.sub(r"^\d+\. ", "", line))
        for name in named:
            outside = outside.replace(name, "")
        if line.startswith(">> ") or not re.search(r"\d", outside):
            kept.append(line)
    return kept


def change_names(plan: Plan) -> tuple[str, str, str, str]:
    """Result names of a trend's overall-change query: first period, last period, change, rate."""
    with speaking(plan.lang):
        return (_("first period"), _("last period"), _("overall change"), _("overall change rate"))


def answer_draft(
    plan: Plan,
    result: ResultView,
    schema: Schema,
    follow_ups: list[str],
    *,
    strict: bool,
    chart: str | None,
    change: ResultView | None = None,
    combined: ResultView | None = None,
) -> str:
    with speaking(plan.lang):
        writer = Writer(plan, result, schema, strict=strict, chart=chart)
        lines = writer.body()
        if change is not None:
            lines[1:1] = writer.trend_summary(change)
        if combined is not None and plan.shown and plan.dims:  # "the top two parties combined"
            listed = "; ".join(writer.label(i, plan.dims[0].name) for i in range(len(result.rows)))
            shown = plan.shown[0]
            lines.insert(
                0,
                _("Together, %(names)s: %(measure)s %(value)s.")
                % {"names": listed, "measure": shown.name, "value": reference(combined.ref, shown.name, 0, shown.fmt)},
            )
    lines += [f">> {q}" for q in follow_ups]
    return "\n".join(_strip_typed_numbers(lines, result.columns) if strict else lines)
