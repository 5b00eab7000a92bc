"""Charts: PlotSpec checks, ECharts options built from the result's own values, PNGs, and the plot API."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib
import matplotlib.image
import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from pydantic import ValidationError

from apps.datasets.errors import QueryInvalid
from apps.datasets.outputs import plot_png
from apps.datasets.outputs.plot import MAX_POINTS_PER_SERIES, MAX_SERIES, PlotSpec, build_echarts, render_png
from apps.datasets.query.results import ResultTable
from apps.tenants.scopes import CONVERSATIONS_READ, DATASETS_READ, DATASETS_WRITE

ROOT = Path(__file__).resolve().parents[2]
CHART_TYPES = ["line", "bar", "area", "pie", "scatter"]


def monthly_result() -> ResultTable:
    """Sales per month and account, deliberately not in month order."""
    rows = [
        ["2025-02-01", "甲", 200.0, 7, 0.4],
        ["2025-01-01", "甲", 100.5, 3, 0.5],
        ["2025-03-01", "甲", 80.0, 2, 0.55],
        ["2025-01-01", "乙", 50.0, 1, 0.5],
        ["2025-02-01", "乙", 300.0, 9, 0.6],
    ]
    return ResultTable(
        columns=["月份", "账号", "销售额", "订单数", "占比"],
        column_types=["DATE", "VARCHAR", "DOUBLE", "BIGINT", "DOUBLE"],
        rows=rows,
        row_count=len(rows),
    )


def totals_result() -> ResultTable:
    """One row per region: what bar and pie charts usually draw."""
    rows = [["华东", 150.5, 2, 0.3], ["华北", 200.0, 1, 0.45], ["西部", 120.0, 4, 0.25]]
    return ResultTable(
        columns=["地区", "销售额", "单数", "占比"],
        column_types=["VARCHAR", "DOUBLE", "BIGINT", "DOUBLE"],
        rows=rows,
        row_count=len(rows),
    )


def spec(**fields) -> PlotSpec:
    return PlotSpec.model_validate(fields)


def by_x(result: ResultTable, x: str, y: str, **where) -> dict:
    """{x value: y value} for the result rows matching `where` (column=value)."""
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    return {r[x]: r[y] for r in rows if all(r[k] == v for k, v in where.items())}


def formatters(node) -> list:
    """Every `formatter` value anywhere in an option."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "formatter"] + [f for v in node.values() for f in formatters(v)]
    return [f for v in node for f in formatters(v)] if isinstance(node, list) else []


# ---- ECharts options: every value is the result's own ----


@pytest.mark.parametrize("chart_type", ["line", "bar", "area"])
def test_category_charts_carry_the_result_values(chart_type):
    result = totals_result() if chart_type == "bar" else monthly_result()
    x = "地区" if chart_type == "bar" else "月份"
    if chart_type != "bar":  # one series per month: keep one account
        result.rows = [row for row in result.rows if row[1] == "甲"]
    option = build_echarts(spec(chart_type=chart_type, x=x, y=["销售额"]), result)
    categories = option["xAxis"]["data"]
    assert sorted(categories) == sorted(result.column(x))
    (series,) = option["series"]
    expected = by_x(result, x, "销售额")
    assert series["data"] == [expected[c] for c in categories]
    assert series["type"] == ("bar" if chart_type == "bar" else "line")
    assert ("areaStyle" in series) == (chart_type == "area")


def test_line_over_time_runs_left_to_right():
    result = monthly_result()
    result.rows = [row for row in result.rows if row[1] == "甲"]
    option = build_echarts(spec(chart_type="line", x="月份", y="销售额"), result)
    assert option["xAxis"]["data"] == sorted(result.column("月份"))
    bar = build_echarts(spec(chart_type="bar", x="月份", y="销售额"), result)
    assert bar["xAxis"]["data"] == result.column("月份"), "bars keep the query's order"


def test_series_column_splits_one_line_per_account():
    result = monthly_result()
    option = build_echarts(spec(chart_type="line", x="月份", y="销售额", series="账号"), result)
    months = option["xAxis"]["data"]
    assert months == sorted(set(result.column("月份")))
    assert [s["name"] for s in option["series"]] == list(dict.fromkeys(result.column("账号")))
    for series in option["series"]:
        values = by_x(result, "月份", "销售额", 账号=series["name"])
        assert series["data"] == [values.get(m) for m in months]  # a month without sales is a gap
    assert option["legend"]["show"] and option["legend"]["data"] == ["甲", "乙"]


def test_several_y_columns_and_series_name_each_line():
    result = monthly_result()
    option = build_echarts(spec(chart_type="bar", x="月份", y=["销售额", "订单数"], series="账号"), result)
    assert [s["name"] for s in option["series"]] == ["甲 · 销售额", "甲 · 订单数", "乙 · 销售额", "乙 · 订单数"]
    months = option["xAxis"]["data"]
    orders = by_x(result, "月份", "订单数", 账号="乙")
    assert option["series"][3]["data"] == [orders.get(m) for m in months]


def test_pie_slices_are_the_result_rows():
    result = totals_result()
    option = build_echarts(spec(chart_type="pie", x="地区", y="销售额", title="各地区销售额"), result)
    (series,) = option["series"]
    assert series["type"] == "pie" and "xAxis" not in option
    pairs = zip(result.column("地区"), result.column("销售额"), strict=True)
    assert series["data"] == [{"name": name, "value": value} for name, value in pairs]
    assert option["title"]["text"] == "各地区销售额"


def test_scatter_points_are_result_pairs():
    result = monthly_result()
    option = build_echarts(spec(chart_type="scatter", x="订单数", y="销售额", series="账号"), result)
    assert option["xAxis"]["type"] == "value"
    for series in option["series"]:
        rows = [r for r in result.rows if r[1] == series["name"]]
        assert series["data"] == [[r[3], r[2]] for r in rows]
    dated = build_echarts(spec(chart_type="scatter", x="月份", y="销售额"), result)
    assert dated["xAxis"]["type"] == "time"
    assert dated["series"][0]["data"] == [[r[0], r[2]] for r in result.rows]


def test_horizontal_and_stacked_bars():
    result = monthly_result()
    option = build_echarts(spec(chart_type="bar", x="月份", y="销售额", series="账号", stacked=True), result)
    assert {s["stack"] for s in option["series"]} == {"total"}
    flipped = build_echarts(spec(chart_type="bar", x="地区", y="销售额", horizontal=True), totals_result())
    assert flipped["yAxis"]["type"] == "category" and flipped["yAxis"]["data"] == totals_result().column("地区")
    assert flipped["xAxis"]["type"] == "value"


def test_percent_uses_a_string_template_and_percentage_points():
    result = totals_result()
    option = build_echarts(spec(chart_type="bar", x="地区", y="占比", y_format="percent"), result)
    assert option["yAxis"]["axisLabel"]["formatter"] == "{value}%"
    assert option["series"][0]["data"] == [round(v * 100, 10) for v in result.column("占比")]
    assert "%" in option["tooltip"]["formatter"]
    points = spec(chart_type="bar", x="地区", y="占比", y_format="percent", percent_scale="percent")
    already = build_echarts(points, result)
    assert already["series"][0]["data"] == result.column("占比")
    money = build_echarts(spec(chart_type="line", x="地区", y="销售额", y_format="currency", currency="USD"), result)
    assert money["yAxis"]["axisLabel"]["formatter"] == "${value}"


@pytest.mark.parametrize("chart_type", CHART_TYPES)
@pytest.mark.parametrize("y_format", ["number", "percent", "currency", "integer"])
def test_options_are_pure_json(chart_type, y_format):
    result = totals_result()
    option = build_echarts(spec(chart_type=chart_type, x="地区", y="销售额", y_format=y_format), result)
    assert json.loads(json.dumps(option, allow_nan=False)) == option
    assert "function" not in json.dumps(option) and "=>" not in json.dumps(option)
    assert all(isinstance(f, str) for f in formatters(option))
    assert {"title", "tooltip", "legend", "series"} <= option.keys()


def test_types_are_inferred_when_the_result_has_none():
    result = monthly_result()
    result.column_types = []
    result.rows = [row for row in result.rows if row[1] == "甲"]
    option = build_echarts(spec(chart_type="line", x="月份", y="销售额"), result)
    assert option["xAxis"]["data"] == sorted(result.column("月份"))
    with pytest.raises(QueryInvalid) as caught:
        build_echarts(spec(chart_type="line", x="月份", y="账号"), result)
    assert caught.value.code == "non_numeric_column"


def test_truncated_results_say_so_and_many_points_can_zoom():
    rows = [[f"客户{i:04d}", float(i)] for i in range(40)]
    result = ResultTable(columns=["客户", "金额"], column_types=["VARCHAR", "DOUBLE"], rows=rows, row_count=40)
    result.truncated = True
    option = build_echarts(spec(chart_type="bar", x="客户", y="金额"), result)
    assert "truncated" in option["title"]["subtext"]
    assert option["dataZoom"] and option["series"][0]["data"] == result.column("金额")


# ---- what cannot be drawn is a clear error ----


def raises(code: str, plot: PlotSpec, result: ResultTable) -> str:
    with pytest.raises(QueryInvalid) as caught:
        build_echarts(plot, result)
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def test_unknown_columns_name_the_closest():
    message = raises("unknown_column", spec(chart_type="bar", x="地域", y="销售额"), totals_result())
    assert "'地区'" in message
    message = raises("unknown_column", spec(chart_type="bar", x="地区", y="销售"), totals_result())
    assert "'销售额'" in message


def test_non_numeric_y_is_refused():
    message = raises("non_numeric_column", spec(chart_type="bar", x="销售额", y="地区"), totals_result())
    assert "'地区'" in message and "not a number" in message


def test_empty_results_have_nothing_to_draw():
    empty = ResultTable(columns=["地区", "销售额"], column_types=["VARCHAR", "DOUBLE"])
    assert "no rows" in raises("empty_result", spec(chart_type="bar", x="地区", y="销售额"), empty)
    blank = ResultTable(columns=["地区", "销售额"], rows=[["华东", None]], row_count=1)
    raises("empty_result", spec(chart_type="bar", x="地区", y="销售额"), blank)


def test_too_many_points_and_series_say_what_to_do():
    rows = [[f"2025-01-{i % 28 + 1:02d}", f"客户{i}", float(i)] for i in range(MAX_POINTS_PER_SERIES + 1)]
    result = ResultTable(columns=["日期", "客户", "金额"], rows=rows, row_count=len(rows))
    message = raises("too_many_points", spec(chart_type="bar", x="客户", y="金额"), result)
    assert "top N" in message and "coarser time grain" in message
    accounts = [["2025-01-01", f"账号{i}", 1.0] for i in range(MAX_SERIES + 1)]
    wide = ResultTable(columns=["日期", "客户", "金额"], rows=accounts, row_count=len(accounts))
    message = raises("too_many_points", spec(chart_type="line", x="日期", y="金额", series="客户"), wide)
    assert f"{MAX_SERIES + 1} series" in message and "filter" in message


def test_ambiguous_points_ask_for_a_group_by():
    result = monthly_result()
    message = raises("ambiguous_points", spec(chart_type="line", x="月份", y="销售额"), result)
    assert "group the query by '月份'" in message
    doubled = monthly_result()
    doubled.rows = [*doubled.rows, doubled.rows[0]]
    raises("ambiguous_points", spec(chart_type="line", x="月份", y="销售额", series="账号"), doubled)


def test_pie_refuses_negative_values():
    result = totals_result()
    result.rows[0][1] = -1.0
    assert "negative" in raises("invalid_plot", spec(chart_type="pie", x="地区", y="销售额"), result)


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"chart_type": "pie", "x": "地区", "y": ["销售额", "单数"]}, "one y column"),
        ({"chart_type": "pie", "x": "地区", "y": "销售额", "series": "账号"}, "no series"),
        ({"chart_type": "line", "x": "地区", "y": "销售额", "stacked": True}, "stacked"),
        ({"chart_type": "line", "x": "地区", "y": "销售额", "horizontal": True}, "horizontal"),
        ({"chart_type": "radar", "x": "地区", "y": "销售额"}, "chart_type"),
        ({"chart_type": "bar", "x": "地区", "y": "销售额", "data": [1, 2, 3]}, "data"),
        ({"chart_type": "bar", "x": "地区", "y": "地区"}, "different columns"),
        ({"chart_type": "bar", "x": "地区", "y": "销售额", "y_format": "js"}, "y_format"),
    ],
)
def test_plotspec_rejects_bad_shapes(fields, fragment):
    with pytest.raises(ValidationError) as caught:
        PlotSpec.model_validate(fields)
    assert fragment in str(caught.value)


# ---- PNG ----


def decoded(png: bytes) -> np.ndarray:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) > 5_000
    return matplotlib.image.imread(io.BytesIO(png), format="png")


@pytest.mark.slow
@pytest.mark.parametrize("chart_type", CHART_TYPES)
def test_png_is_a_real_picture(chart_type):
    result = totals_result()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # missing glyphs must not leak warnings (nor crash)
        png = render_png(spec(chart_type=chart_type, x="地区", y="销售额", title="各地区销售额"), result)
    pixels = decoded(png)
    assert pixels.shape[0] > 300 and pixels.shape[1] > 500
    assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 10, "not a blank image"


def test_png_with_series_percent_and_stacking():
    result = monthly_result()
    areas = spec(chart_type="area", x="月份", y="占比", series="账号", stacked=True, y_format="percent")
    assert decoded(render_png(areas, result)).std() > 0
    bars = spec(chart_type="bar", x="月份", y=["销售额", "订单数"], series="账号", horizontal=True, stacked=True)
    assert decoded(render_png(bars, result)).std() > 0


def test_png_checks_the_spec_like_the_option():
    with pytest.raises(QueryInvalid) as caught:
        render_png(spec(chart_type="bar", x="地域", y="销售额"), totals_result())
    assert caught.value.code == "unknown_column"


def test_dollar_signs_in_data_are_text_not_math():
    result = ResultTable(columns=["名称", "金额"], rows=[["$a$ and $\\frac{", 1.0], ["$x", 2.0]], row_count=2)
    decoded(render_png(spec(chart_type="bar", x="名称", y="金额"), result))


@pytest.fixture
def fresh_font_choice():
    plot_png.cjk_font.cache_clear()
    yield
    plot_png.cjk_font.cache_clear()


def test_without_a_cjk_font_the_fallback_is_logged(fresh_font_choice, monkeypatch, caplog):
    monkeypatch.delenv("PLOT_FONT_PATH", raising=False)
    monkeypatch.setattr(plot_png, "CJK_FONT_FAMILIES", ())
    monkeypatch.setattr(matplotlib.font_manager, "findSystemFonts", lambda *args, **kwargs: [])
    with caplog.at_level(logging.WARNING, logger="apps.datasets.outputs.plot_png"):
        assert plot_png.cjk_font() is None
    assert "no CJK font found" in caplog.text


def test_a_configured_font_file_is_used(fresh_font_choice, monkeypatch):
    dejavu = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    monkeypatch.setenv("PLOT_FONT_PATH", str(dejavu))
    assert plot_png.cjk_font() == "DejaVu Sans"


@pytest.mark.process
def test_matplotlib_is_imported_only_for_pngs():
    code = "import sys, django; django.setup(); import apps.datasets.outputs.plot; print('matplotlib' in sys.modules)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "baplatform.settings", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


# ---- the API ----

ACCOUNTS_CSV = (
    "日期,账号,金额\n2025-01-05,甲,100.5\n2025-01-20,乙,-5\n2025-02-03,甲,200\n"
    "2025-02-14,乙,50\n2025-03-01,甲,80\n2025-03-09,甲,20\n"
)
MONTHLY = {
    "group_by": [{"column": "日期", "grain": "month", "alias": "月份"}, "账号"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "sort": [{"by": "月份"}, {"by": "账号"}],
}
LINES = {"chart_type": "line", "x": "月份", "y": "销售额", "series": "账号", "title": "月度销售额"}


@pytest.fixture
def accounts(writer):
    file = SimpleUploadedFile("accounts.csv", ACCOUNTS_CSV.encode(), content_type="text/csv")
    resp = writer.post("/api/v1/datasets/", {"file": file, "name": "账号销售"}, format="multipart")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_plot_api_draws_the_query_result(writer, accounts):
    url = f"/api/v1/datasets/{accounts['id']}/plot/"
    resp = writer.post(url, {"query": MONTHLY, "plot": LINES}, format="json")
    assert resp.status_code == 200, resp.json()
    body = resp.json()
    queried = writer.post(f"/api/v1/datasets/{accounts['id']}/query/", MONTHLY, format="json").json()
    assert body["result"]["rows"] == queried["rows"] and body["result"]["row_count"] == queried["row_count"]
    result = ResultTable.model_validate(body["result"])
    months = body["option"]["xAxis"]["data"]
    assert months == list(dict.fromkeys(result.column("月份")))
    for series in body["option"]["series"]:
        values = by_x(result, "月份", "销售额", 账号=series["name"])
        assert series["data"] == [values.get(m) for m in months]
    assert body["option"]["title"]["text"] == "月度销售额" and body["result"]["dataset_version"] == 1


def test_plot_api_png(writer, accounts):
    url = f"/api/v1/datasets/{accounts['id']}/plot/?format=png"
    resp = writer.post(url, {"query": MONTHLY, "plot": LINES}, format="json")
    assert resp.status_code == 200 and resp["Content-Type"] == "image/png"
    assert resp["Content-Disposition"].startswith("inline;") and "filename*=UTF-8''" in resp["Content-Disposition"]
    assert resp["Cache-Control"] == "private, no-store"
    assert decoded(resp.content).std() > 0


@pytest.mark.parametrize(
    ("query_string", "body", "code", "fragment"),
    [
        ("?format=pdf", {"query": MONTHLY, "plot": LINES}, "invalid_format", "json, png"),
        ("", {"query": MONTHLY}, "invalid_spec", "plot"),
        ("", {"query": MONTHLY, "plot": {**LINES, "chart_type": "radar"}}, "invalid_spec", "chart_type"),
        ("", {"query": MONTHLY, "plot": {**LINES, "x": "月"}}, "unknown_column", "月份"),
        ("", {"query": MONTHLY, "plot": {**LINES, "y": "账号", "series": None}}, "non_numeric_column", "账号"),
        ("", {"query": {"columns": ["日起"]}, "plot": LINES}, "unknown_column", "日期"),
        ("?format=png", {"query": MONTHLY, "plot": {**LINES, "x": "月"}}, "unknown_column", "月份"),
    ],
)
def test_plot_api_errors_are_400_json(writer, accounts, query_string, body, code, fragment):
    resp = writer.post(f"/api/v1/datasets/{accounts['id']}/plot/{query_string}", body, format="json")
    assert resp.status_code == 400 and resp["Content-Type"] == "application/json"
    assert resp.json()["code"] == code and fragment in resp.json()["message"]


def test_plot_needs_read_scope_and_the_right_tenant(accounts, tenant_a, tenant_b, make_token, api_client):
    url = f"/api/v1/datasets/{accounts['id']}/plot/"
    reader = api_client(make_token(tenant_a, [DATASETS_READ]))
    assert reader.post(url, {"query": MONTHLY, "plot": LINES}, format="json").status_code == 200
    chat_only = api_client(make_token(tenant_a, [CONVERSATIONS_READ]))
    assert chat_only.post(url, {"query": MONTHLY, "plot": LINES}, format="json").status_code == 403
    other = api_client(make_token(tenant_b, [DATASETS_READ, DATASETS_WRITE]))
    for query_string in ("", "?format=png"):
        resp = other.post(url + query_string, {"query": MONTHLY, "plot": LINES}, format="json")
        assert resp.status_code == 404 and resp.json()["code"] == "not_found"
