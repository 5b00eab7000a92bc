"""Charts from query results: PlotSpec, its checks against a result, the ECharts option, and a PNG.

A PlotSpec names result columns, never values: every plotted number is read from the ResultTable.
The ECharts option is plain JSON (string templates, no functions), so it can be stored and audited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from django.utils.translation import gettext as _
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from apps.datasets.errors import QueryInvalid
from apps.datasets.message_parts import closest
from apps.datasets.query.engine import kind_of
from apps.datasets.query.results import ResultTable
from apps.datasets.query.spec import Name, check_keys

MAX_POINTS_PER_SERIES = 2_000
MAX_SERIES = 50
MAX_PIE_SLICES = 50
MANY_CATEGORIES = 30  # above this the option gets a zoom slider
NULL_LABEL = "(null)"
CURRENCY_SYMBOLS = {"CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "HKD": "HK$"}
NUMERIC_KINDS = ("integer", "number")
ORDERED_KINDS = ("date", "datetime", "integer", "number")

ChartType = Literal["line", "bar", "pie", "scatter", "area"]
YFormat = Literal["number", "percent", "currency", "integer"]
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


class PlotSpec(BaseModel):
    """How to draw a query result. Columns are result columns (group names, aggregation names...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    chart_type: ChartType
    x: Name = Field(description="the result column on the category (or scatter x) axis; pie: slice names")
    y: list[Name] = Field(min_length=1, max_length=10, description="numeric result column(s) to plot")
    series: Name | None = Field(
        default=None, description="a result column whose distinct values become separate series (one line per 账号)"
    )
    title: str | None = Field(default=None, max_length=200, pattern=r"^[^\x00-\x1f]*$")
    y_format: YFormat = "number"
    decimals: int | None = Field(default=None, ge=0, le=6, description="decimals shown in labels (PNG)")
    percent_scale: Literal["ratio", "percent"] = Field(
        default="ratio",
        description="percent only: 'ratio' means 0.125 is 12.5% (share_of_total and pct_change give ratios); "
        "'percent' means the values are already percentages (12.5)",
    )
    currency: Literal["CNY", "USD", "EUR", "GBP", "JPY", "HKD"] = "CNY"
    stacked: bool = Field(default=False, description="bar and area: stack the series")
    horizontal: bool = Field(default=False, description="bar only: categories on the vertical axis")

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            check_keys(data, cls)
        return data

    @field_validator("y", mode="before")
    @classmethod
    def _y_shorthand(cls, value: Any) -> Any:
        """Accept "销售额" for ["销售额"]."""
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _shape(self) -> PlotSpec:
        if self.chart_type == "pie" and (len(self.y) > 1 or self.series):
            raise ValueError(_("a pie shows one y column and no series; use a bar chart to compare several"))
        if self.stacked and self.chart_type not in ("bar", "area"):
            raise ValueError(_("stacked applies to bar and area charts only"))
        if self.horizontal and self.chart_type != "bar":
            raise ValueError(_("horizontal applies to bar charts only"))
        if len(set(self.y)) != len(self.y):
            raise ValueError(_("y lists a column twice"))
        if self.x in self.y or (self.series and (self.series == self.x or self.series in self.y)):
            raise ValueError(_("x, y and series must be different columns"))
        return self


@dataclass(frozen=True)
class Series:
    """One drawn series: its name and its (x, y) values, read from the result."""

    name: str
    x: list[Any]
    y: list[float | int | None]


@dataclass(frozen=True)
class ChartData:
    """What both renderers draw: a validated spec, the x categories and the series."""

    spec: PlotSpec
    x_kind: str
    categories: list[Any]
    series: list[Series]
    note: str


def _fail(message: str, code: str = "invalid_plot") -> QueryInvalid:
    return QueryInvalid(_("plot: %(problem)s") % {"problem": message}, code=code)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _inferred_kind(values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if not present:
        return "other"
    if all(isinstance(v, bool) for v in present):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return "integer"
    if all(_is_number(v) for v in present):
        return "number"
    if all(isinstance(v, str) and _ISO_DATE.match(v) for v in present):
        return "date"
    return "text"


def column_kinds(result: ResultTable) -> dict[str, str]:
    """Each column's kind from the engine's type names, or from the values when types are unknown."""
    typed = len(result.column_types) == len(result.columns)
    kinds = {}
    for index, name in enumerate(result.columns):
        kind = kind_of(result.column_types[index]) if typed else "other"
        if kind == "other":
            kind = _inferred_kind([row[index] for row in result.rows])
        kinds[name] = kind
    return kinds


def _check_columns(spec: PlotSpec, result: ResultTable, kinds: dict[str, str]) -> None:
    named = [("x", spec.x), *(("y", y) for y in spec.y)] + ([("series", spec.series)] if spec.series else [])
    for role, name in named:
        if name not in result.columns:
            raise _fail(
                _("unknown %(role)s column '%(name)s'%(hint)s")
                % {"role": role, "name": name, "hint": closest(name, result.columns)},
                code="unknown_column",
            )
    for name in spec.y:
        values = [v for v in result.column(name) if v is not None]
        if not values:
            raise _fail(
                _("y column '%(name)s' has no values (every row is empty)") % {"name": name}, code="empty_result"
            )
        if kinds[name] not in NUMERIC_KINDS or not all(_is_number(v) for v in values):
            raise _fail(
                _(
                    "y column '%(name)s' is %(kind)s, not a number; plot a numeric column "
                    "(an aggregation such as sum/avg/count, or a measure)"
                )
                % {"name": name, "kind": kinds[name]},
                code="non_numeric_column",
            )


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (2, "")
    return (0, value) if _is_number(value) else (1, str(value))


def _label(value: Any) -> Any:
    return NULL_LABEL if value is None else value


def _too_many(what: str, cap: int) -> QueryInvalid:
    """`what` says how many of what, e.g. "2,001 slices"."""
    return _fail(
        _(
            "%(what)s is more than a chart can show (%(cap)s at most); filter the query, keep the top N "
            "(sort + limit), or use a coarser time grain (week/month instead of day)"
        )
        % {"what": what, "cap": cap},
        code="too_many_points",
    )


def _repeats(values: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    repeated = []
    for value in values:
        if value in seen:
            repeated.append(value)
        seen.add(value)
    return repeated


def _plain_series(spec: PlotSpec, rows: list[list[Any]], columns: list[str]) -> tuple[list[Any], list[Series]]:
    """One series per y column, one point per row (a bar chart may repeat a label; a line or pie may not)."""
    xi = columns.index(spec.x)
    categories = [_label(row[xi]) for row in rows]
    repeated = _repeats(categories)
    if spec.chart_type != "bar" and repeated:
        raise _fail(
            _(
                "several rows have %(x)s=%(value)s; group the query by '%(x)s' (or add a series column) "
                "so each x has one value"
            )
            % {"x": spec.x, "value": repr(repeated[0])},
            code="ambiguous_points",
        )
    series = [Series(name=y, x=categories, y=[row[columns.index(y)] for row in rows]) for y in spec.y]
    return categories, series


def _split_series(spec: PlotSpec, rows: list[list[Any]], columns: list[str], by: str) -> tuple[list[Any], list[Series]]:
    """One series per distinct value of the `by` column, aligned on the union of x values."""
    xi, si = columns.index(spec.x), columns.index(by)
    categories = list(dict.fromkeys(_label(row[xi]) for row in rows))
    groups = list(dict.fromkeys(_label(row[si]) for row in rows))
    if len(groups) * len(spec.y) > MAX_SERIES:
        what = _("%(count)s series (%(groups)s values of '%(by)s' x %(y)s y columns)") % {
            "count": len(groups) * len(spec.y),
            "groups": len(groups),
            "by": by,
            "y": len(spec.y),
        }
        raise _too_many(what, MAX_SERIES)
    cells: dict[tuple[Any, Any], list[Any]] = {}
    for row in rows:
        key = (_label(row[xi]), _label(row[si]))
        if key in cells:
            raise _fail(
                _(
                    "several rows have %(x)s=%(x_value)s and %(by)s=%(by_value)s; "
                    "group the query by '%(x)s' and '%(by)s' so each pair has one value"
                )
                % {"x": spec.x, "x_value": repr(key[0]), "by": by, "by_value": repr(key[1])},
                code="ambiguous_points",
            )
        cells[key] = row
    series = []
    for group in groups:
        for y in spec.y:
            yi = columns.index(y)
            name = str(group) if len(spec.y) == 1 else f"{group} · {y}"
            values = [cells[(c, group)][yi] if (c, group) in cells else None for c in categories]
            series.append(Series(name=name, x=categories, y=values))
    return categories, series


def _scatter_series(spec: PlotSpec, rows: list[list[Any]], columns: list[str]) -> list[Series]:
    """Scatter points (x, y) per y column or per series value; rows missing x or y are left out."""
    xi = columns.index(spec.x)
    si = columns.index(spec.series) if spec.series else None
    groups = list(dict.fromkeys(_label(row[si]) for row in rows)) if si is not None else [None]
    if len(groups) * len(spec.y) > MAX_SERIES:
        raise _too_many(_("%(count)s series") % {"count": len(groups) * len(spec.y)}, MAX_SERIES)
    series = []
    for group in groups:
        members = [row for row in rows if si is None or _label(row[si]) == group]
        for y in spec.y:
            yi = columns.index(y)
            points = [(row[xi], row[yi]) for row in members if row[xi] is not None and row[yi] is not None]
            name = y if group is None else (str(group) if len(spec.y) == 1 else f"{group} · {y}")
            series.append(Series(name=name, x=[p[0] for p in points], y=[p[1] for p in points]))
    return series


def _check_pie(data: ChartData) -> ChartData:
    (only,) = data.series
    pairs = [(x, y) for x, y in zip(only.x, only.y, strict=True) if y is not None]
    if any(y < 0 for _x, y in pairs):
        raise _fail(_("a pie cannot show negative values ('%(name)s' has some); use a bar chart") % {"name": only.name})
    if not any(y > 0 for _x, y in pairs):
        raise _fail(_("a pie needs positive values; '%(name)s' has none") % {"name": only.name}, code="empty_result")
    if len(pairs) > MAX_PIE_SLICES:
        raise _too_many(_("%(count)s slices") % {"count": len(pairs)}, MAX_PIE_SLICES)
    names = [x for x, _y in pairs]
    return ChartData(data.spec, data.x_kind, names, [Series(only.name, names, [y for _x, y in pairs])], data.note)


def prepare(spec: PlotSpec, result: ResultTable) -> ChartData:
    """Check a spec against a result and lay out its series; QueryInvalid says what to change."""
    if not result.rows:
        raise _fail(_("the query returned no rows, so there is nothing to draw; loosen the filters"), "empty_result")
    kinds = column_kinds(result)
    _check_columns(spec, result, kinds)
    rows = result.rows
    if spec.chart_type in ("line", "area") and kinds[spec.x] in ORDERED_KINDS:
        xi = result.columns.index(spec.x)
        rows = sorted(rows, key=lambda row: _sort_key(row[xi]))  # time and numbers run left to right
    note = (
        _("first %(count)s rows of a larger result (truncated)") % {"count": result.row_count}
        if result.truncated
        else ""
    )
    if spec.chart_type == "scatter":
        series = _scatter_series(spec, rows, result.columns)
        if (most := max(len(s.x) for s in series)) > MAX_POINTS_PER_SERIES:
            raise _too_many(_("%(count)s points in one series") % {"count": most}, MAX_POINTS_PER_SERIES)
        numeric_x = kinds[spec.x] in NUMERIC_KINDS
        categories = [] if numeric_x else list(dict.fromkeys(x for s in series for x in s.x))
        return ChartData(spec, kinds[spec.x], categories, series, note)
    if spec.series:
        categories, series = _split_series(spec, rows, result.columns, spec.series)
    else:
        categories, series = _plain_series(spec, rows, result.columns)
    if len(categories) > MAX_POINTS_PER_SERIES:
        what = _("%(count)s x values ('%(x)s')") % {"count": len(categories), "x": spec.x}
        raise _too_many(what, MAX_POINTS_PER_SERIES)
    data = ChartData(spec, kinds[spec.x], categories, series, note)
    return _check_pie(data) if spec.chart_type == "pie" else data


def shown_value(spec: PlotSpec, value: Any) -> Any:
    """A value as the option carries it: percent ratios become percentage points (0.125 -> 12.5)."""
    if value is None or spec.y_format != "percent" or spec.percent_scale != "ratio":
        return value
    return round(value * 100, 10)  # 10 places drop float noise (0.07 * 100 = 7.000000000000001)


def affixes(spec: PlotSpec) -> tuple[str, str]:
    """The text before and after a value in labels: ('¥', '') for currency, ('', '%') for percent."""
    if spec.y_format == "percent":
        return "", "%"
    if spec.y_format == "currency":
        return CURRENCY_SYMBOLS[spec.currency], ""
    return "", ""


def render_png(spec: PlotSpec, result: ResultTable) -> bytes:
    """The same chart as a PNG, drawn with matplotlib (imported only when a PNG is asked for)."""
    data = prepare(spec, result)
    from apps.datasets.outputs import plot_png

    return plot_png.render(data)


def _value_axis(spec: PlotSpec, name: str) -> dict[str, Any]:
    prefix, suffix = affixes(spec)
    axis: dict[str, Any] = {"type": "value", "name": name}
    if prefix or suffix:
        axis["axisLabel"] = {"formatter": f"{prefix}{{value}}{suffix}"}  # a template: the option carries no code
    return axis


def _axis_tooltip(spec: PlotSpec, count: int) -> dict[str, Any]:
    tooltip: dict[str, Any] = {"trigger": "axis"}
    prefix, suffix = affixes(spec)
    if prefix or suffix:
        lines = [f"{{a{i}}}: {prefix}{{c{i}}}{suffix}" for i in range(count)]
        tooltip["formatter"] = "{b}<br/>" + "<br/>".join(lines)
    return tooltip


def _frame(data: ChartData) -> dict[str, Any]:
    """What every option has: title, legend, grid, a save button."""
    names = [s.name for s in data.series] if data.spec.chart_type != "pie" else [str(c) for c in data.categories]
    return {
        "title": {"text": data.spec.title or "", "subtext": data.note, "left": "center"},
        "legend": {"type": "scroll", "bottom": 0, "data": names, "show": len(names) > 1},
        "grid": {"left": 16, "right": 32, "top": 64, "bottom": 48, "containLabel": True},
        "toolbox": {"feature": {"saveAsImage": {}}},
    }


def _category_option(data: ChartData) -> dict[str, Any]:
    spec = data.spec
    category_axis: dict[str, Any] = {
        "type": "category",
        "name": spec.x,
        "data": data.categories,
        "boundaryGap": spec.chart_type == "bar",
        "axisLabel": {"hideOverlap": True},
    }
    value_axis = _value_axis(spec, spec.y[0] if len(spec.y) == 1 else "")
    series = []
    for s in data.series:
        item: dict[str, Any] = {"name": s.name, "type": "bar" if spec.chart_type == "bar" else "line"}
        item["data"] = [shown_value(spec, v) for v in s.y]
        if spec.chart_type == "area":
            item["areaStyle"] = {}
        if spec.chart_type != "bar":
            item["showSymbol"] = len(data.categories) <= MANY_CATEGORIES
        if spec.stacked:
            item["stack"] = "total"
        series.append(item)
    option = _frame(data) | {"tooltip": _axis_tooltip(spec, len(series)), "series": series}
    if spec.horizontal:
        option |= {"xAxis": value_axis, "yAxis": category_axis | {"inverse": True}}
    else:
        option |= {"xAxis": category_axis, "yAxis": value_axis}
    if len(data.categories) > MANY_CATEGORIES:
        axis_key = "yAxisIndex" if spec.horizontal else "xAxisIndex"
        option["dataZoom"] = [{"type": "inside", axis_key: 0}, {"type": "slider", axis_key: 0}]
    return option


def _pie_option(data: ChartData) -> dict[str, Any]:
    spec = data.spec
    (only,) = data.series
    prefix, suffix = affixes(spec)
    slices = [{"name": str(x), "value": shown_value(spec, y)} for x, y in zip(only.x, only.y, strict=True)]
    series = {"name": only.name, "type": "pie", "radius": "60%", "data": slices, "label": {"formatter": "{b}: {d}%"}}
    tooltip = {"trigger": "item", "formatter": f"{{a}}<br/>{{b}}: {prefix}{{c}}{suffix} ({{d}}%)"}
    return _frame(data) | {"tooltip": tooltip, "series": [series]}


def _scatter_option(data: ChartData) -> dict[str, Any]:
    spec = data.spec
    x_type = {"integer": "value", "number": "value", "date": "time", "datetime": "time"}.get(data.x_kind, "category")
    x_axis: dict[str, Any] = {"type": x_type, "name": spec.x, "scale": True}
    if x_type == "category":
        x_axis["data"] = data.categories
    series = [
        {
            "name": s.name,
            "type": "scatter",
            "data": [[x, shown_value(spec, y)] for x, y in zip(s.x, s.y, strict=True)],
        }
        for s in data.series
    ]
    y_axis = _value_axis(spec, spec.y[0] if len(spec.y) == 1 else "") | {"scale": True}
    return _frame(data) | {"tooltip": {"trigger": "item"}, "xAxis": x_axis, "yAxis": y_axis, "series": series}


def build_echarts(spec: PlotSpec, result: ResultTable) -> dict[str, Any]:
    """A JSON ECharts option that draws the result as the spec says; every value comes from the result."""
    data = prepare(spec, result)
    if spec.chart_type == "pie":
        return _pie_option(data)
    if spec.chart_type == "scatter":
        return _scatter_option(data)
    return _category_option(data)
