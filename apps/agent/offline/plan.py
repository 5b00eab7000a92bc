"""What the planner decided to compute for a question, and the QuerySpec / PlotSpec arguments it becomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from apps.agent.clarification import Clarification
from apps.datasets.query.spec import Aggregation, Derived, Filter, GroupBy, QuerySpec, Sort, Window

PlanKind = Literal["scalar", "grouped", "ranking", "rows", "lookup", "trend", "fallback"]
Lang = Literal["zh", "en"]


@dataclass(frozen=True)
class Anchor:
    """One named row (column = value) that the other rows are compared with on another column (against_row.py).
    When the named value spans several rows (a region of an orders table), its groups are compared instead:
    `func` of the compared column per group, named `name`."""

    column: str
    value: Any
    compared: str
    op: str  # ">", "<" or "="
    said: str = ""  # the question's words for the comparison ("the same", "than"), for a refusal
    func: str | None = None
    name: str = ""
    nearest: bool = False  # "before"/"after" the named row: the rows nearest it first, those tied nearest named

    @property
    def compared_op(self) -> str:
        """The second query's comparison: rows nearest the named one keep those tied with it too (said apart)."""
        return f"{self.op}=" if self.nearest else self.op

    @property
    def measured(self) -> str:
        """The result column holding the value compared: the column itself, or its aggregate per group."""
        return self.name or self.compared

    def spec(self, scope: list[Filter]) -> dict[str, Any]:
        """The first query: the named row's value of the compared column, one row per different value (two rows:
        no single value to compare with), or its group's aggregate under the question's other conditions
        (`scope`: 华东's 保温杯 total, for the regions' 保温杯 totals)."""
        named = [Filter(column=self.column, op="=", value=self.value)]
        if self.func:
            aggregate = Aggregation(name=self.name, func=self.func, column=self.compared)
            query = QuerySpec(aggregations=[aggregate], filters=[*named, *scope])
        else:
            rows = Aggregation(name=f"{self.compared} rows", func="count")
            query = QuerySpec(group_by=[self.compared], aggregations=[rows], filters=named, limit=2)
        return _compact(query.model_dump(mode="json", exclude_unset=True))

    def conditions(self, value: Any) -> tuple[list[Filter], list[Filter]]:
        """The second query's row filters and group conditions once the named value is known: the others,
        compared with it."""
        others = [Filter(column=self.column, op="!=", value=self.value)]
        compared = Filter(column=self.measured, op=self.compared_op, value=value)
        return (others, [compared]) if self.func else ([compared, *others], [])


@dataclass
class Metric:
    name: str
    func: str
    column: str | None = None
    column2: str | None = None
    q: float | None = None
    where: list[Filter] = field(default_factory=list)

    def aggregation(self) -> Aggregation:
        return Aggregation(
            name=self.name, func=self.func, column=self.column, column2=self.column2, q=self.q, where=self.where
        )


@dataclass
class Shown:
    """A result column the answer quotes, and how (None: plain number; "pct": a ratio as percent)."""

    name: str
    fmt: str | None = None


@dataclass
class Group:
    column: str
    name: str
    grain: str | None = None

    def group_by(self) -> GroupBy:
        return GroupBy(column=self.column, grain=self.grain, alias=self.name if self.name != self.column else None)


@dataclass
class Plan:
    lang: Lang
    kind: PlanKind = "scalar"
    filters: list[Filter] = field(default_factory=list)
    filter_labels: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    metrics: list[Metric] = field(default_factory=list)
    derived: list[Derived] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    having: list[Filter] = field(default_factory=list)
    sort: list[Sort] = field(default_factory=list)
    limit: int | None = None
    row_columns: list[str] = field(default_factory=list)
    shown: list[Shown] = field(default_factory=list)
    ascending: bool = False
    anchor: Anchor | None = None  # compared with one named row: its value is read by a query first
    rows_beside: str | None = None  # the row count shown beside a distinct count, when the two differ
    single_best: bool = False  # the best group is asked for: every group tied with it is kept (rank 1)
    combined_top: bool = False  # "the top two parties combined": the top groups' total, by a second query
    chart: str | None = None
    time_group: str | None = None
    unmapped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said under the answer: marks read as blank (blank_notes)
    reason: str = ""
    clarification: Clarification | None = None  # asked back instead of computing anything
    unsupported: str = ""  # the family of analysis the tools cannot do (lexicon.UNSUPPORTED_ANALYSES)
    question_kind: str = ""  # the kind that built it (kinds.REGISTRY)

    @property
    def dims(self) -> list[Group]:
        return [g for g in self.groups if g.name != self.time_group]

    def query(self) -> QuerySpec:
        """The QuerySpec this plan runs (validated: a plan the engine would refuse fails here)."""
        fields: dict[str, Any] = {
            "columns": list(self.row_columns),
            "filters": self.filters,
            "group_by": [g.group_by() for g in self.groups],
            "aggregations": [m.aggregation() for m in self.metrics],
            "derived": self.derived,
            "windows": self.windows,
            "having": self.having,
            "sort": self.sort,
        }
        if self.limit is not None:
            fields["limit"] = self.limit
        return QuerySpec(**fields)

    def spec(self) -> dict[str, Any]:
        """The run_query arguments: the QuerySpec as JSON, without defaults."""
        return _compact(self.query().model_dump(mode="json", exclude_unset=True))

    def plot(self, ref: str, row_count: int) -> dict[str, Any] | None:
        """Arguments of a `plot` call for this plan's result, or None when a chart would not help."""
        if self.kind in ("scalar", "rows", "lookup", "fallback") or not self.groups or not 2 <= row_count <= 2000:
            return None
        primary = self.shown[0] if self.shown else None
        if primary is None:
            return None
        x = self.time_group or self.groups[0].name
        others = [g.name for g in self.groups if g.name != x]
        chart = self.chart or ("line" if self.time_group else "pie" if self._pie() else "bar")
        if chart == "pie" and (others or row_count > 50):
            chart = "bar"
        spec: dict[str, Any] = {"chart_type": chart, "x": x, "y": [primary.name]}
        if others and chart != "pie":
            spec["series"] = others[0]
        if primary.fmt and primary.fmt.startswith("pct"):
            spec["y_format"] = "percent"
        spec["title"] = primary.name + (" · " + x if x != primary.name else "")
        return {"result": ref, "plot": spec}

    def _pie(self) -> bool:
        return any(w.func == "share_of_total" for w in self.windows) and len(self.groups) == 1


def _compact(value: Any) -> Any:
    """JSON without the empty parts (None, [], {}): what a person writing the spec would have written."""
    if isinstance(value, dict):
        kept = {k: _compact(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in (None, [], {})}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def filter_label(column: str, op: str, value: Any, lang: Lang) -> str:
    """How a filter is shown back to the user: 地区 = 华东, 是否退货 = 是, remote = true."""
    shown = value
    if isinstance(value, bool):
        shown = ("是" if value else "否") if lang == "zh" else str(value).lower()
    elif isinstance(value, list):
        shown = "、".join(str(v) for v in value) if lang == "zh" else ", ".join(str(v) for v in value)
    words = {"in": "属于" if lang == "zh" else "in", "!=": "≠", "contains": "包含" if lang == "zh" else "contains"}
    return f"{column} {words.get(op, op)} {shown}"
