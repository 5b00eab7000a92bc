"""PNG charts with matplotlib (Agg, no display), for API users who want an image rather than an option.

Chinese labels need a font with CJK glyphs. One is chosen once per process: the file named by the
PLOT_FONT_PATH environment variable, else a known CJK family matplotlib can find (Noto Sans CJK,
WenQuanYi, Source Han Sans...). Without one, labels fall back to DejaVu Sans: CJK characters show as
empty boxes, a warning is logged once, and the chart is still drawn.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import logging
import math
import os
import warnings
from pathlib import Path
from typing import Any

from apps.datasets.outputs.plot import MANY_CATEGORIES, NUMERIC_KINDS, ChartData, PlotSpec, affixes, shown_value

logger = logging.getLogger(__name__)

CJK_FONT_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Microsoft YaHei",
    "SimHei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Heiti SC",
    "Droid Sans Fallback",
    "AR PL UMing CN",
    "Noto Serif CJK SC",
    "Arial Unicode MS",
)
_CJK_FILE_HINTS = ("cjk", "wqy", "wenquanyi", "droidsansfallback", "simhei", "msyh", "pingfang", "sourcehan", "uming")
MAX_TICKS = 24
MAX_LABEL_CHARS = 24
PIE_LABELLED_SLICES = 12  # more slices than this get a legend instead of labels


def _font_from_file(path: str) -> str | None:
    from matplotlib import font_manager

    try:
        font_manager.fontManager.addfont(path)
        return str(font_manager.FontProperties(fname=path).get_name())
    except (OSError, RuntimeError, ValueError) as exc:
        logger.warning("chart font %s could not be loaded: %s", path, exc)
        return None


@functools.cache
def cjk_font() -> str | None:
    """The family used for Chinese text in PNG charts, or None when the system has no CJK font."""
    from matplotlib import font_manager

    configured = os.environ.get("PLOT_FONT_PATH", "").strip()
    if configured and (name := _font_from_file(configured)):
        return name
    known = {f.name for f in font_manager.fontManager.ttflist}
    for family in CJK_FONT_FAMILIES:
        if family in known:
            return family
    # matplotlib's font cache does not see fonts installed after it was built; look at the files too
    for path in font_manager.findSystemFonts():
        squashed = Path(path).name.lower().replace("-", "").replace("_", "")
        if any(hint in squashed for hint in _CJK_FILE_HINTS) and (name := _font_from_file(path)):
            return name
    logger.warning(
        "no CJK font found: Chinese text in PNG charts shows as boxes; install fonts-noto-cjk "
        "(or fonts-wqy-microhei) or set PLOT_FONT_PATH to a .ttf/.otf/.ttc file"
    )
    return None


@functools.cache
def _configure() -> None:
    """Set matplotlib's defaults once per process (global, so concurrent renders never disagree)."""
    import matplotlib

    font = cjk_font()
    families = list(matplotlib.rcParams["font.sans-serif"])
    matplotlib.rcParams["font.family"] = "sans-serif"
    matplotlib.rcParams["font.sans-serif"] = [font, *families] if font else families
    matplotlib.rcParams["axes.unicode_minus"] = False  # CJK fonts often lack U+2212
    matplotlib.rcParams["text.parse_math"] = False  # '$' in data is text, not mathtext


def format_value(spec: PlotSpec, value: float) -> str:
    """A number as the PNG's axis labels show it."""
    prefix, suffix = affixes(spec)
    if spec.y_format == "integer":
        return f"{value:,.0f}"
    if spec.y_format == "percent":
        places = 1 if spec.decimals is None else spec.decimals
        return f"{shown_value(spec, value):,.{places}f}{suffix}"
    places = spec.decimals if spec.decimals is not None else 2
    return f"{prefix}{value:,.{places}f}"


def _value_formatter(ax: Any, spec: PlotSpec, axis: str) -> None:
    if spec.y_format == "number" and spec.decimals is None:
        return  # matplotlib's own ticks read best
    from matplotlib.ticker import FuncFormatter

    target = ax.xaxis if axis == "x" else ax.yaxis
    target.set_major_formatter(FuncFormatter(lambda value, _pos: format_value(spec, value)))


def _category_ticks(ax: Any, categories: list[Any], *, horizontal: bool) -> None:
    labels = [str(c) for c in categories]
    step = max(1, math.ceil(len(labels) / MAX_TICKS))
    ticks = list(range(0, len(labels), step))
    shown = [labels[i] if len(labels[i]) <= MAX_LABEL_CHARS else labels[i][: MAX_LABEL_CHARS - 1] + "…" for i in ticks]
    axis = ax.yaxis if horizontal else ax.xaxis
    axis.set_ticks(ticks, shown)
    if horizontal:
        ax.invert_yaxis()  # the first category on top, as in the ECharts option
    elif len(ticks) > 8 or any(len(text) > 6 for text in shown):
        for label in axis.get_ticklabels():
            label.set_rotation(30)
            label.set_horizontalalignment("right")


def _bars(ax: Any, spec: PlotSpec, names: list[str], values: list[Any]) -> None:
    import numpy as np

    positions = np.arange(len(values[0]))
    draw = ax.barh if spec.horizontal else ax.bar
    if spec.stacked:
        above, below = np.zeros(len(positions)), np.zeros(len(positions))
        for name, series in zip(names, values, strict=True):
            heights = np.nan_to_num(series)
            base = np.where(heights >= 0, above, below)
            draw(positions, heights, 0.7, base, label=name)
            above, below = above + np.clip(heights, 0, None), below + np.clip(heights, None, 0)
        return
    width = 0.8 / len(values)
    for index, (name, series) in enumerate(zip(names, values, strict=True)):
        draw(positions - 0.4 + width * (index + 0.5), np.nan_to_num(series), width, label=name)


def _draw_categories(ax: Any, data: ChartData) -> None:
    import numpy as np

    spec = data.spec
    names = [s.name for s in data.series]
    values = [np.array([np.nan if v is None else v for v in s.y], dtype=float) for s in data.series]
    positions = np.arange(len(data.categories))
    if spec.chart_type == "bar":
        _bars(ax, spec, names, values)
    elif spec.chart_type == "area" and spec.stacked:
        ax.stackplot(positions, *(np.nan_to_num(v) for v in values), labels=names, alpha=0.85)
    else:
        marker = "o" if len(positions) <= MANY_CATEGORIES else None
        for name, series in zip(names, values, strict=True):
            (line,) = ax.plot(positions, series, marker=marker, markersize=4, label=name)
            if spec.chart_type == "area":
                ax.fill_between(positions, series, alpha=0.25, color=line.get_color())
    _category_ticks(ax, data.categories, horizontal=spec.horizontal)
    _value_formatter(ax, spec, "x" if spec.horizontal else "y")


def _scatter_x(data: ChartData, xs: list[Any]) -> list[Any]:
    if data.x_kind in NUMERIC_KINDS:
        return xs
    if data.x_kind in ("date", "datetime"):
        try:
            return [dt.datetime.fromisoformat(str(x)) for x in xs]
        except ValueError:
            pass  # not ISO after all: place them as categories
    index = {c: i for i, c in enumerate(data.categories)}
    return [index[x] for x in xs]


def _draw_scatter(ax: Any, data: ChartData) -> None:
    for s in data.series:
        ax.scatter(_scatter_x(data, s.x), s.y, s=18, alpha=0.8, label=s.name)
    if data.x_kind not in NUMERIC_KINDS and data.x_kind not in ("date", "datetime"):
        _category_ticks(ax, data.categories, horizontal=False)
    _value_formatter(ax, data.spec, "y")


def _draw_pie(ax: Any, data: ChartData) -> None:
    (only,) = data.series
    names = [str(x) for x in only.x]
    labelled = len(names) <= PIE_LABELLED_SLICES
    wedges, *_texts = ax.pie(
        only.y,
        labels=names if labelled else None,
        autopct="%1.1f%%" if labelled else "",
        startangle=90,
        counterclock=False,
        textprops={"fontsize": 9},
    )
    ax.axis("equal")
    if not labelled:
        ax.legend(wedges, names, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", ncols=2)


def _decorate(ax: Any, data: ChartData) -> None:
    spec = data.spec
    title = "\n".join(part for part in (spec.title or "", data.note) if part)
    if title:
        ax.set_title(title, pad=24 if spec.chart_type == "pie" else 6)  # clear of the top slice's label
    if spec.chart_type == "pie":
        return
    labels = (spec.x, spec.y[0] if len(spec.y) == 1 else "")
    x_label, y_label = reversed(labels) if spec.horizontal else labels
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.grid(axis="x" if spec.horizontal else "y", alpha=0.3)
    if len(data.series) > 1:
        ncols = 1 if len(data.series) <= 20 else 2
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", ncols=ncols)


def render(data: ChartData) -> bytes:
    """Draw prepared chart data as a PNG (thread-safe: a Figure per call, no pyplot state)."""
    _configure()
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 5.6), dpi=100, layout="constrained")
    ax = figure.add_subplot()
    draw = {"pie": _draw_pie, "scatter": _draw_scatter}.get(data.spec.chart_type, _draw_categories)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # without a CJK font matplotlib warns once per missing glyph; the fallback is logged once instead
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
        draw(ax, data)
        _decorate(ax, data)
        figure.savefig(buffer, format="png")
    return buffer.getvalue()
