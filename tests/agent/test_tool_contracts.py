"""The requirement documents' tool calls, sent verbatim as tool arguments: run_query with the documented QuerySpec
(flat or as `spec`, on a file dataset and a SQL source), plot with the documented PlotSpec, get_schema,
sample_rows and resolve_fields with their documented shapes, and create_dataset over a staged file."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.agent.create_dataset import CREATE_DATASET
from apps.agent.runner import answer_question
from apps.agent.tools import TOOLS, DataBinding, ToolOutcome, run_tool, tools_for
from apps.datasets import services
from apps.datasets.models import Dataset
from apps.datasets.sources import services as source_services
from tests.fakes import ScriptedChatModel, final, tools
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


@pytest.fixture
def returns(csv_binding) -> DataBinding:
    return csv_binding("returns.csv", returns_text(), name="退货")


def call(
    binding: DataBinding,
    name: str,
    arguments: dict[str, Any],
    previous: list[ToolOutcome] | None = None,
    tools: dict | None = None,
) -> ToolOutcome:
    previous = previous or []
    return run_tool(
        binding,
        tools=tools or tools_for(binding),
        name=name,
        arguments=arguments,
        call_id=f"c{len(previous) + 1}",
        step=len(previous) + 1,
        previous=previous,
    )


@pytest.mark.parametrize(
    "arguments",
    [DOCUMENTED_SPEC, {"spec": DOCUMENTED_SPEC}, {"spec": EXPLICIT_SPEC}, MIXED_SPEC],
    ids=["documented-flat", "documented-as-spec", "explicit", "mixed-flat"],
)
def test_run_query_takes_the_documented_spec_verbatim(returns, arguments):
    outcome = call(returns, "run_query", arguments)
    assert outcome.status == "ok", outcome.error
    assert outcome.columns == EXPECTED_COLUMNS and outcome.ref == "q1"
    assert by_account_and_month(outcome.rows) == EXPECTED_ROWS


def test_a_flat_call_is_recorded_in_the_nested_shape(returns):
    outcome = call(returns, "run_query", {**DOCUMENTED_SPEC, "dataset_id": returns.dataset.pk})
    assert outcome.arguments == {"dataset_id": returns.dataset.pk, "spec": DOCUMENTED_SPEC}
    chart = call(returns, "plot", DOCUMENTED_PLOT, previous=[outcome])
    assert chart.arguments == {"plot": DOCUMENTED_PLOT}


def test_a_whole_run_with_the_documented_calls_is_verified_and_explained(returns):
    calls = [
        {"name": "get_schema", "args": {"dataset_id": returns.dataset.pk}, "id": "c1", "type": "tool_call"},
        {"name": "run_query", "args": DOCUMENTED_SPEC, "id": "c2", "type": "tool_call"},
    ]
    model = ScriptedChatModel(
        turns=[
            tools(calls[0], text="先看字段。"),
            tools(calls[1], text="按账号和月份汇总。"),
            tools({"name": "plot", "args": DOCUMENTED_PLOT, "id": "c3", "type": "tool_call"}),
            final("{{q1.账号[0]}} 在 {{q1.月份[0]}} 的产品质量退货占比为 {{q1.quality_rate[0]}}。"),
        ]
    )
    question = "2025 年各账号产品质量退货占比的月度趋势"
    response = answer_question(binding=returns, question=question, model=model, model_name="scripted")
    assert response.status == "answered", response.verification
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query", "plot"]
    assert response.tables[0].columns == EXPECTED_COLUMNS and response.charts[0].type == "line"
    [explanation] = response.explanation
    assert explanation.ref == "q1" and "退货数量" in explanation.text


def test_the_documented_alias_runs_the_same_query(returns):
    outcome = call(returns, "analyze_dataframe", DOCUMENTED_SPEC)
    assert outcome.status == "ok", outcome.error
    assert outcome.name == "run_query" and outcome.called_as == "analyze_dataframe"
    assert by_account_and_month(outcome.rows) == EXPECTED_ROWS


def test_an_unknown_key_goes_back_to_the_model_with_the_accepted_spellings(returns):
    bad = {**DOCUMENTED_SPEC, "aggregations": [{"as": "n", "agg": "count", "colum": "退货数量"}]}
    outcome = call(returns, "run_query", bad)
    assert outcome.status == "validation_error" and outcome.error_code == "invalid_arguments"
    assert "colum" in outcome.error and "name/as, func/agg, column/col, column2, q, where" in outcome.error


def test_the_model_sees_one_spelling_in_its_tool_schema():
    parameters = TOOLS["run_query"].schema()["function"]["parameters"]
    assert parameters["required"] == ["spec"]
    assert set(parameters["$defs"]["Filter"]["properties"]) == {"column", "op", "value", "grain"}
    assert "also spelt col" in parameters["$defs"]["Filter"]["properties"]["column"]["description"]


def test_plot_takes_the_documented_plotspec_after_a_query(returns):
    query = call(returns, "run_query", DOCUMENTED_SPEC)
    chart = call(returns, "plot", DOCUMENTED_PLOT, previous=[query])
    assert chart.status == "ok", chart.error
    assert chart.payload is not None and chart.payload["result"] == "q1" and chart.payload["chart_type"] == "line"
    assert chart.payload["option"]["title"]["text"] == DOCUMENTED_PLOT["title"]
    nested = call(returns, "plot", {"result": "q1", "plot": DOCUMENTED_PLOT}, previous=[query])
    assert nested.payload == chart.payload
    nothing = call(returns, "plot", DOCUMENTED_PLOT)
    assert nothing.status == "validation_error" and "run_query first" in nothing.error


def test_get_schema_sample_rows_and_resolve_fields_take_the_documented_arguments(returns):
    dataset_id = returns.dataset.pk
    schema = call(returns, "get_schema", {"dataset_id": dataset_id})
    assert schema.status == "ok" and schema.payload is not None
    column = next(c for c in schema.payload["columns"] if c["name"] == "退货数量")
    assert {"name", "type", "null_ratio", "example_values"} <= set(column) and column["null_ratio"] == 0.0
    assert set(column["example_values"]) == {0, 8, 10, 20, 50}
    rows = call(returns, "sample_rows", {"dataset_id": dataset_id, "n": 5, "columns": ["账号", "月份", "退货数量"]})
    assert rows.status == "ok" and rows.columns == ["账号", "月份", "退货数量"] and rows.row_count == 5
    resolved = call(returns, "resolve_fields", {"dataset_id": str(dataset_id), "terms": ["退货", "质量"]})
    assert resolved.status == "ok" and resolved.payload is not None
    assert "退货数量" in resolved.payload["mapped_columns"] and "产品质量" in resolved.payload["mapped_columns"]
    assert [r["term"] for r in resolved.payload["resolutions"]] == ["退货", "质量"]


def test_a_dataset_id_other_than_the_runs_is_refused(returns):
    for name, arguments in (
        ("get_schema", {"dataset_id": "ds_abc123"}),
        ("run_query", {**DOCUMENTED_SPEC, "dataset_id": returns.dataset.pk + 1}),
    ):
        outcome = call(returns, name, arguments)
        assert outcome.status == "validation_error" and outcome.error_code == "other_dataset"
        assert f"give {returns.dataset.pk}" in outcome.error
    by_name = call(returns, "get_schema", {"dataset_id": "退货"})
    assert by_name.status == "ok"


@pytest.fixture
def returns_source(tenant_a, settings, tmp_path) -> DataBinding:
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    write_returns_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "returns.db")
    source = source_services.source_create(
        tenant=tenant_a, created_by=None, name="退货库", kind="sqlite", database="returns.db"
    )
    return DataBinding.for_source(tenant=tenant_a, source=source)


def test_a_sql_source_runs_the_documented_spec(returns_source):
    outcome = call(returns_source, "run_query", {**DOCUMENTED_SPEC, "table": "退货"})
    assert outcome.status == "ok", outcome.error
    assert outcome.columns == EXPECTED_COLUMNS and by_account_and_month(outcome.rows) == EXPECTED_ROWS
    refused = call(returns_source, "get_schema", {"dataset_id": 1, "table": "退货"})
    assert refused.status == "validation_error" and refused.error_code == "other_dataset"


def stage(tenant, filename: str = "returns.csv", text: str | None = None):
    file = SimpleUploadedFile(filename, (text or returns_text()).encode())
    return services.upload_receive(tenant=tenant, chunks=file.chunks(), original_name=filename, size=file.size)


def test_create_dataset_registers_a_staged_file(returns, tenant_a):
    upload = stage(tenant_a, "other.csv", returns_text().replace("Amazon_A", "Amazon_C"))
    tools = tools_for(returns, [CREATE_DATASET])
    outcome = call(returns, "create_dataset", {"file_id": upload.pk, "sheet": "Sheet1", "header_row": 1}, tools=tools)
    assert outcome.status == "ok", outcome.error
    assert outcome.payload is not None and outcome.payload["row_count"] == 5 and outcome.payload["status"] == "ready"
    created = Dataset.objects.for_tenant(tenant_a).get(pk=outcome.payload["dataset_id"])
    assert created.name == "other" and created.current_version.upload_id == upload.pk
    assert "create_dataset" not in tools_for(returns), "a write is not offered to the model in a conversation"


@pytest.mark.parametrize(
    ("arguments", "code", "fragment"),
    [
        ({"file_id": 999999}, "not_found", "POST uploads/"),
        ({"file_id": "file_xxx"}, "invalid_arguments", "file_id"),
        ({"file_id": "mine", "header_row": 0}, "invalid_arguments", "header_row"),
        ({"file_id": "mine", "header_row": 40}, "blank_header", "40"),
        ({"file_id": "mine", "name": "退货"}, "dataset_name_taken", "退货"),
        ({"file_id": "mine", "colum": 1}, "invalid_arguments", "colum"),
    ],
)
def test_create_dataset_refuses_bad_arguments_clearly(returns, tenant_a, arguments, code, fragment):
    upload = stage(tenant_a, "again.csv", returns_text() + "2025,Amazon_D,2025-03,1,1\n")
    arguments = {**arguments, "file_id": upload.pk} if arguments["file_id"] == "mine" else arguments
    outcome = call(returns, "create_dataset", arguments, tools={"create_dataset": CREATE_DATASET})
    assert outcome.status == "validation_error" and outcome.error_code == code, outcome.error
    assert fragment in outcome.error
    assert Dataset.objects.for_tenant(tenant_a).count() == 1


def test_another_tenants_file_id_is_not_found(returns, tenant_b):
    theirs = stage(tenant_b)
    outcome = call(returns, "create_dataset", {"file_id": theirs.pk}, tools={"create_dataset": CREATE_DATASET})
    assert outcome.status == "validation_error" and outcome.error_code == "not_found"
    assert not Dataset.objects.for_tenant(tenant_b).exists()
