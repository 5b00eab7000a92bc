"""What people read when a tool fails or finds nothing: why, and what to do, in their language — never a host,
port, path or driver text (those stay in the audit for admins); an empty result says no data matched."""

from __future__ import annotations

import json
import sqlite3

import pytest

from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding
from apps.audit.models import AuditEvent
from apps.datasets.sources import services as source_services
from tests.fakes import ScriptedChatModel, call, final, tools
from tests.support.sales import ask

NOTHING = {
    "filters": [{"column": "地区", "op": "=", "value": "西北"}],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
}


@pytest.fixture
def gone_source(tenant_a, settings, tmp_path):
    """A SQLite source whose file was removed after it was registered."""
    settings.SQLITE_SOURCES_ROOT = tmp_path
    folder = tmp_path / tenant_a.slug
    folder.mkdir()
    path = folder / "shop.db"
    with sqlite3.connect(path) as conn:
        conn.execute('CREATE TABLE "orders" (id INTEGER, region TEXT, amount REAL)')
    source = source_services.source_create(tenant=tenant_a, name="shop", kind="sqlite", database="shop.db")
    path.unlink()
    return DataBinding.for_source(tenant=tenant_a, source=source)


def everything_people_see(response, events) -> str:
    shown = [response.model_dump(mode="json"), *[e.data for e in events if e.type != "tool.started"]]
    return json.dumps(shown, ensure_ascii=False)


@pytest.mark.parametrize(
    ("question", "message", "suggestion"),
    [
        ("orders 各地区的金额合计？", "查询数据时出错：无法连接数据源。", "检查数据源连接后重试"),
        (
            "Total amount by region in orders?",
            "Reading the data failed: the data source could not be reached.",
            "Check the data source connection and try again",
        ),
    ],
)
def test_an_unreachable_source_says_why_and_what_to_do_without_technical_details(
    gone_source, question, message, suggestion
):
    model = ScriptedChatModel(turns=[tools(call("list_tables")), final("never")])
    events = []
    response = answer_question(binding=gone_source, question=question, model=model, emit=events.append)
    assert response.status == "failed" and response.error.code == "tool_failed"
    assert response.error.message == message and suggestion in response.error.suggestions
    seen = everything_people_see(response, events)
    assert "shop.db" not in seen and "sqlite" not in seen.lower() and "/" not in response.error.message
    (event,) = AuditEvent.objects.unscoped_for_admin().filter(trace_id=response.audit.trace_id)
    assert event.status == "system_error" and "shop.db" in event.error, "admins keep the technical text"


def test_a_missing_dataset_file_is_told_without_its_name(binding):
    binding.version.storage_name = "missing.duckdb"
    response, events, _model = ask(
        binding, tools(call("get_schema")), tools(call("run_query", spec=NOTHING)), final("华东 160.5")
    )
    assert response.status == "failed"
    assert response.error.message == "查询数据时出错：数据集的文件缺失。"
    assert response.error.suggestions == ["检查数据源：重新上传数据集后再提问"]
    assert "missing.duckdb" not in everything_people_see(response, events)
    assert [s.error for s in response.audit.steps] == ["", "数据集的文件缺失"]
    assert (
        "missing.duckdb"
        in AuditEvent.objects.unscoped_for_admin().get(trace_id=response.audit.trace_id, tool="run_query").error
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("西北的销售额是多少？", "西北的销售额：无匹配数据。"),
        ("What are the sales in 西北?", "西北的销售额：no data matched。"),
    ],
)
def test_an_empty_result_says_no_data_matched(binding, question, expected):
    response, _events, _model = ask(
        binding,
        tools(call("get_schema")),
        tools(call("run_query", spec=NOTHING)),
        final("西北的销售额：{{q1.销售额[0]}}。"),
        question=question,
    )
    assert response.answer == expected and "—" not in response.answer


def test_an_empty_table_is_said_in_words_in_the_ask_command(binding, capsys):
    from apps.agent.management.commands.ask import Command
    from apps.agent.response import TableOut

    command = Command()
    command._tables([TableOut(name="q1 · run_query", ref="q1", columns=["地区"], rows=[], row_count=0)], "en")
    command._tables([TableOut(name="q1", ref="q1", columns=["地区"], rows=[["华东"]], row_count=1)], "zh-hans")
    out = capsys.readouterr().out
    assert "  no data matched" in out and "无匹配数据" not in out and "华东" in out
