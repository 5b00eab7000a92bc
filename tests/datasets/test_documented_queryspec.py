"""The requirement documents' QuerySpec, sent verbatim: accepted by the query, plot and export calls and by SQL
sources, in either spelling (or both mixed), with unknown keys refused by naming the accepted spellings."""

from __future__ import annotations

import copy

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from pydantic import ValidationError

from apps.datasets.query.spec import QuerySpec
from apps.datasets.validation import parse_spec
from tests.support.contracts import (
    DOCUMENTED_PLOT,
    DOCUMENTED_SPEC,
    EXPECTED_COLUMNS,
    EXPECTED_ROWS,
    EXPLICIT_SPEC,
    MIXED_SPEC,
    by_account_and_month,
    returns_text,
    write_returns_sqlite,
)


def returns_csv() -> SimpleUploadedFile:
    return SimpleUploadedFile("returns.csv", returns_text().encode(), content_type="text/csv")


@pytest.fixture
def returns(writer):
    resp = writer.post("/api/v1/datasets/", {"file": returns_csv(), "name": "退货"}, format="multipart")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_both_spellings_and_a_mix_are_one_model_that_serialises_canonically():
    documented, explicit, mixed = (QuerySpec.model_validate(s) for s in (DOCUMENTED_SPEC, EXPLICIT_SPEC, MIXED_SPEC))
    assert documented == explicit == mixed
    dumped = documented.model_dump(mode="json")
    assert dumped["aggregations"][0] == {
        "name": "return_qty",
        "func": "sum",
        "column": "退货数量",
        "column2": None,
        "q": None,
        "where": [],
    }
    assert dumped["sort"] == [{"by": "月份", "desc": False}] and dumped["filters"][0]["column"] == "年份"
    assert QuerySpec.model_validate(dumped) == documented, "what is stored validates back (audit, replay)"
    assert QuerySpec.model_validate({**DOCUMENTED_SPEC, "sort": [{"col": "月份", "dir": "DESC"}]}).sort[0].desc
    assert documented.derived[0].name == "quality_rate" and documented.group_by[1].column == "月份"


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        ({"filters": [{"colum": "年份", "op": "=", "value": 2025}]}, ["'colum'", "column/col, op, value, grain"]),
        (
            {"aggregations": [{"alias": "n", "agg": "count"}]},
            ["'alias'", "name/as, func/agg, column/col, column2, q, where"],
        ),
        ({"sort": [{"col": "月份", "order": "asc"}]}, ["'order'", "by/col, desc/dir"]),
        ({"derived": [{"as": "r", "formula": "1"}]}, ["'formula'", "name/as, expr"]),
        ({"group_by": [{"col": "月份", "as": "m", "unit": "month"}]}, ["'unit'", "column/col, grain, alias/as"]),
        ({"filter": []}, ["'filter'", "columns, filters, group_by, aggregations"]),
    ],
)
def test_an_unknown_key_is_refused_naming_the_accepted_spellings(change, fragments):
    with pytest.raises(Exception) as err:
        parse_spec({**DOCUMENTED_SPEC, **change})
    message = err.value.message
    assert err.value.code == "invalid_spec" and "unknown key" in message
    for fragment in fragments:
        assert fragment in message, message
    assert "Value error" not in message and "extra_forbidden" not in message


def test_one_key_spelt_both_ways_and_a_bad_direction_are_refused():
    twice = copy.deepcopy(DOCUMENTED_SPEC)
    twice["aggregations"][0]["column"] = "产品质量"
    with pytest.raises(Exception) as err:
        parse_spec(twice)
    assert "'column', 'col' spell the same key" in err.value.message
    with pytest.raises(ValidationError, match="'asc' or 'desc'"):
        QuerySpec.model_validate({**DOCUMENTED_SPEC, "sort": [{"col": "月份", "dir": "up"}]})


def test_the_models_json_schema_keeps_the_explicit_names():
    schema = QuerySpec.model_json_schema()
    aggregation = schema["$defs"]["Aggregation"]
    assert set(aggregation["properties"]) == {"name", "func", "column", "column2", "q", "where"}
    assert "also spelt as" in aggregation["properties"]["name"]["description"]
    assert "dir" in schema["$defs"]["Sort"]["properties"]["desc"]["description"]


@pytest.mark.parametrize("spec", [DOCUMENTED_SPEC, EXPLICIT_SPEC, MIXED_SPEC], ids=["documented", "explicit", "mixed"])
def test_the_query_call_answers_the_documented_spec(writer, returns, spec):
    resp = writer.post(f"/api/v1/datasets/{returns['id']}/query/", spec, format="json")
    assert resp.status_code == 200, resp.json()
    body = resp.json()
    assert body["columns"] == EXPECTED_COLUMNS
    assert by_account_and_month(body["rows"]) == EXPECTED_ROWS
    assert [r[1] for r in body["rows"]] == sorted(r[1] for r in body["rows"]), "sorted by month ascending"


def test_an_unknown_key_over_the_api_is_a_400_in_the_callers_language(writer, returns):
    bad = {**DOCUMENTED_SPEC, "sort": [{"col": "月份", "direction": "asc"}]}
    url = f"/api/v1/datasets/{returns['id']}/query/"
    english = writer.post(url, bad, format="json")
    assert english.status_code == 400 and english.json()["code"] == "invalid_spec"
    assert "sort.0: unknown key 'direction'; accepted keys: by/col, desc/dir" in english.json()["message"]
    chinese = writer.post(url, bad, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["message"]
    assert "未知的键" in chinese and "by/col, desc/dir" in chinese


def test_the_plot_and_export_calls_take_the_documented_specs(writer, returns):
    base = f"/api/v1/datasets/{returns['id']}"
    plot = writer.post(f"{base}/plot/", {"query": DOCUMENTED_SPEC, "plot": DOCUMENTED_PLOT}, format="json")
    assert plot.status_code == 200, plot.json()
    option = plot.json()["option"]
    assert option["title"]["text"] == DOCUMENTED_PLOT["title"]
    assert sorted(s["name"] for s in option["series"]) == ["Amazon_A", "Amazon_B"]
    assert plot.json()["result"]["columns"] == EXPECTED_COLUMNS
    bad_plot = writer.post(
        f"{base}/plot/", {"query": DOCUMENTED_SPEC, "plot": {**DOCUMENTED_PLOT, "type": "x"}}, format="json"
    )
    assert bad_plot.status_code == 400 and "accepted keys: chart_type, x, y, series" in bad_plot.json()["message"]
    export = writer.post(f"{base}/export/?format=csv", DOCUMENTED_SPEC, format="json")
    assert export.status_code == 200 and export["X-Result-Rows"] == "4"
    header = export.content.decode("utf-8-sig").splitlines()[0]
    assert header.split(",") == EXPECTED_COLUMNS


@pytest.fixture
def returns_source(source_admin, settings, tmp_path, tenant_a):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    write_returns_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "returns.db")
    resp = source_admin.post(
        "/api/v1/sources/", {"name": "退货库", "kind": "sqlite", "database": "returns.db"}, format="json"
    )
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_a_sql_source_answers_the_documented_spec(writer, returns_source):
    base = f"/api/v1/sources/{returns_source['id']}"
    resp = writer.post(f"{base}/query/", {"table": "退货", "spec": DOCUMENTED_SPEC}, format="json")
    assert resp.status_code == 200, resp.json()
    assert resp.json()["columns"] == EXPECTED_COLUMNS
    assert by_account_and_month(resp.json()["rows"]) == EXPECTED_ROWS
    export = writer.post(f"{base}/export/?format=csv", {"table": "退货", "spec": MIXED_SPEC}, format="json")
    assert export.status_code == 200 and export["X-Result-Rows"] == "4"
