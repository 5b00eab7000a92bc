"""Tool names from the requirement documents are aliases: the canonical tool runs, the audit keeps both names,
required-tool rules accept either, and replay re-runs aliased steps as their canonical tools."""

from __future__ import annotations

import io
import sqlite3

import pytest
from django.core.management import call_command

from apps.agent.aliases import AliasArgumentsError, canonical_call, canonical_names
from apps.agent.rules import canonical_rule, verification_rules
from apps.agent.runner import answer_question
from apps.agent.tools import TOOLS, DataBinding, run_tool
from apps.audit.models import AuditEvent, InterceptionLog, RequiredToolRule
from apps.audit.replay import replay
from apps.datasets.sources import services as source_services
from tests.fakes import ScriptedChatModel, call, final, tool_results, tools
from tests.support.sales import BY_REGION, ask

# The requirement document's query_database example, verbatim.
QUERY_DATABASE = {
    "query": "SELECT region, SUM(amount) AS total FROM orders GROUP BY region ORDER BY region",
    "connection": "primary",
    "params": {},
    "max_rows": 1000,
    "response_format": "standard",
}


@pytest.fixture
def sql_binding(tenant_a, settings, tmp_path):
    settings.SQLITE_SOURCES_ROOT = tmp_path
    folder = tmp_path / tenant_a.slug
    folder.mkdir()
    with sqlite3.connect(folder / "shop.db") as conn:
        conn.execute('CREATE TABLE "orders" (id INTEGER, region TEXT, amount REAL)')
        conn.executemany(
            'INSERT INTO "orders" VALUES (?, ?, ?)', [(i, ["East", "West"][i % 2], i * 1.5) for i in range(20)]
        )
    source = source_services.source_create(tenant=tenant_a, name="shop", kind="sqlite", database="shop.db")
    return DataBinding.for_source(tenant=tenant_a, source=source)


def events_of(response):
    return list(AuditEvent.objects.unscoped_for_admin().filter(trace_id=response.audit.trace_id).order_by("step", "id"))


def test_the_file_aliases_run_get_schema_and_run_query_and_the_audit_keeps_both_names(binding):
    response, events, model = ask(
        binding,
        tools(call("inspect_file", response_format="standard")),
        tools(call("analyze_dataframe", spec=BY_REGION, response_format="brief")),
        final("最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}}。"),
    )
    assert response.status == "answered", response.verification
    assert response.answer == "最高的是 华东，为 160.5。"
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query"]
    shown = tool_results(model.seen[-1])
    assert [(r["tool"], r["called_as"], r["ok"]) for r in shown] == [
        ("get_schema", "inspect_file", True),
        ("run_query", "analyze_dataframe", True),
    ]
    schema, query = events_of(response)
    assert (schema.tool, schema.called_as, schema.arguments) == ("get_schema", "inspect_file", {})
    assert schema.called_arguments == {"response_format": "standard"}
    assert (query.tool, query.called_as, query.arguments) == ("run_query", "analyze_dataframe", {"spec": BY_REGION})
    assert query.called_arguments == {"spec": BY_REGION, "response_format": "brief"}
    started = [e for e in events if e.type == "tool.started"]
    assert [(e.data["tool"], e.data["called_as"]) for e in started] == [
        ("get_schema", "inspect_file"),
        ("run_query", "analyze_dataframe"),
    ]


def test_a_canonical_call_is_audited_under_its_own_name(binding):
    response, _events, _model = ask(
        binding, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final("{{q1.地区[0]}}")
    )
    assert [(e.tool, e.called_as, e.called_arguments) for e in events_of(response)] == [
        ("get_schema", "get_schema", None),
        ("run_query", "run_query", None),
    ]


def test_query_with_a_queryspec_shape_runs_run_query(binding):
    response, _events, _model = ask(
        binding,
        tools(call("inspect_file")),
        tools(call("query", **BY_REGION)),  # the QuerySpec's own keys, unwrapped
        final("最高的是 {{q1.地区[0]}}。"),
    )
    assert response.status == "answered" and response.answer == "最高的是 华东。"
    query = events_of(response)[1]
    assert (query.tool, query.called_as, query.arguments) == ("run_query", "query", {"spec": BY_REGION})


def test_the_documented_query_database_example_runs_execute_sql_safe_on_a_sql_source(sql_binding):
    model = ScriptedChatModel(
        turns=[
            tools(call("list_tables")),
            tools(call("query_database", **QUERY_DATABASE)),
            final("{{q1.region[0]}}: {{q1.total[0]}}; {{q1.region[1]}}: {{q1.total[1]}}"),
        ]
    )
    response = answer_question(binding=sql_binding, question="Total amount by region", model=model)
    assert response.status == "answered", response.verification
    assert response.answer == "East: 135; West: 150"
    query = events_of(response)[1]
    assert (query.tool, query.called_as, query.status) == ("execute_sql_safe", "query_database", "ok")
    assert query.arguments == {"sql": QUERY_DATABASE["query"]}
    assert query.called_arguments == QUERY_DATABASE


def test_max_rows_cuts_the_rows_returned(sql_binding):
    arguments = {"query": "SELECT id FROM orders ORDER BY id", "max_rows": 3}
    outcome = run_tool(
        sql_binding, tools=TOOLS, name="query_database", arguments=arguments, call_id="c1", step=1, previous=[]
    )
    assert outcome.status == "ok" and outcome.rows == [[0], [1], [2]] and outcome.truncated
    assert outcome.name == "execute_sql_safe" and outcome.called_as == "query_database"


def test_sql_text_on_a_file_dataset_is_a_correctable_error_that_says_what_to_send(binding):
    outcome = run_tool(
        binding,
        tools={n: t for n, t in TOOLS.items() if "file" in t.source_types},
        name="query_database",
        arguments={"query": "SELECT * FROM data"},
        call_id="c1",
        step=1,
        previous=[],
    )
    assert outcome.status == "validation_error" and outcome.name == "execute_sql_safe"
    assert "SQL sources" in outcome.error and "QuerySpec" in outcome.error


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("inspect_file", {"path": "sales.xlsx"}, ("get_schema", {})),
        ("analyze_dataframe", {"query": BY_REGION}, ("run_query", {"spec": BY_REGION})),
        ("query", {"spec": BY_REGION, "table": "orders"}, ("run_query", {"spec": BY_REGION, "table": "orders"})),
        (
            "query",
            {"sql": "SELECT 1", "params": {"a": 1}},
            ("execute_sql_safe", {"sql": "SELECT 1", "params": {"a": 1}}),
        ),
        ("web_search", {"query": "国庆", "num_results": 10}, ("search_web", {"query": "国庆"})),
        ("run_query", {"spec": BY_REGION}, ("run_query", {"spec": BY_REGION})),
    ],
)
def test_alias_arguments_map_onto_the_canonical_shape(name, arguments, expected):
    resolved = canonical_call(name, arguments)
    assert (resolved.name, resolved.arguments) == expected
    assert resolved.called_as == name


@pytest.mark.parametrize(
    "arguments",
    [{"query": "SELECT 1"}, {}, {"spec": BY_REGION, "params": {"a": 1}}, {"max_rows": 0, "spec": BY_REGION}],
)
def test_analyze_dataframe_arguments_that_fit_no_tool_are_refused(arguments):
    with pytest.raises(AliasArgumentsError):
        canonical_call("analyze_dataframe", arguments)


def test_repeating_an_alias_call_is_no_progress_like_repeating_its_canonical_call(binding):
    response, _events, _model = ask(
        binding,
        tools(call("get_schema")),
        tools(call("inspect_file", response_format="standard")),
    )
    assert response.status == "failed" and response.error.code == "no_progress"


def test_required_tool_rules_accept_the_documented_names(binding):
    RequiredToolRule.objects.filter(source_type="file").update(all_of=["inspect_file", "analyze_dataframe"])
    RequiredToolRule.objects.update_or_create(
        source_type="sql", defaults={"all_of": [], "any_of": ["query", "execute_sql_safe"]}
    )
    rules = verification_rules().required_tools
    assert rules["file"] == {"all": ["get_schema", "run_query"], "any": []}
    assert rules["sql"] == {"all": [], "any": ["run_query", "execute_sql_safe"]}

    answered, _events, _model = ask(
        binding, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final("{{q1.地区[0]}}")
    )
    assert answered.status == "answered", "canonical calls satisfy a rule written with aliases"
    draft = "最高的是 {{q1.地区[0]}}，为 160.5。"
    held, _events, _model = ask(binding, tools(call("sample_rows", n=5)), final(draft), final(draft))
    assert held.status == "intercepted"
    reason = InterceptionLog.objects.for_tenant(binding.tenant).get().reasons[0]
    assert reason["code"] == "required_tools_missing" and "get_schema" in reason["message"]


@pytest.mark.parametrize(
    ("source_type", "all_of", "any_of", "expected"),
    [
        ("file", ["inspect_file", "query"], [], {"all": ["get_schema", "run_query"], "any": []}),
        ("sql", ["query_database"], [], {"all": [], "any": ["run_query", "execute_sql_safe"]}),
        (
            "sql",
            ["list_tables"],
            ["query", "execute_sql_safe"],
            {"all": ["list_tables"], "any": ["run_query", "execute_sql_safe"]},
        ),
        ("sql", ["query"], ["execute_sql_safe", "sample_rows"], {"all": [], "any": ["execute_sql_safe"]}),
    ],
)
def test_rules_are_normalised_to_canonical_names(source_type, all_of, any_of, expected):
    assert canonical_rule(source_type, all_of, any_of) == expected


def test_the_admin_accepts_alias_names_in_required_tool_rules(admin_client, db):
    rule = RequiredToolRule.objects.get(source_type="file")
    url = f"/admin/audit/requiredtoolrule/{rule.pk}/change/"
    resp = admin_client.post(
        url, {"source_type": "file", "all_of": '["inspect_file", "analyze_dataframe"]', "any_of": "[]"}
    )
    assert resp.status_code == 302
    rule.refresh_from_db()
    assert rule.all_of == ["inspect_file", "analyze_dataframe"]
    assert set(canonical_names("query")) == {"run_query", "execute_sql_safe"}


def test_a_run_called_by_aliases_replays_without_difference(binding):
    response, _events, _model = ask(
        binding,
        tools(call("inspect_file")),
        tools(call("analyze_dataframe", spec=BY_REGION)),
        final("{{q1.地区[0]}} {{q1.销售额[0]}}"),
    )
    trace = response.audit.trace_id
    report = replay(trace_id=trace, tenant=binding.tenant)
    assert [(s.tool, s.called_as, s.same) for s in report.steps] == [
        ("get_schema", "inspect_file", True),
        ("run_query", "analyze_dataframe", True),
    ]
    out = io.StringIO()
    call_command("replay", trace, stdout=out)
    assert "run_query (called as analyze_dataframe): same" in out.getvalue() and "No difference" in out.getvalue()


def test_an_older_row_recorded_under_an_alias_still_replays(binding):
    response, _events, _model = ask(
        binding, tools(call("get_schema")), tools(call("run_query", spec=BY_REGION)), final("{{q1.地区[0]}}")
    )
    trace = response.audit.trace_id
    AuditEvent.objects.unscoped_for_admin().filter(trace_id=trace, tool="run_query").update(
        tool="analyze_dataframe", called_as=""
    )
    report = replay(trace_id=trace, tenant=binding.tenant)
    assert [s.replayed_status for s in report.steps] == ["ok", "ok"] and report.differences == []
