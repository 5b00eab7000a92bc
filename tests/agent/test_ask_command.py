"""`manage.py ask`: the whole graph from the command line, text or JSON, with clear errors."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from apps.agent import providers
from tests.fakes import ScriptedChatModel, call, final, tools
from tests.support.sales import BY_REGION


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with translation.override("en"):  # data-engine messages follow the active language
        call_command("ask", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def scripted(monkeypatch):
    def use(*turns):
        model = ScriptedChatModel(turns=list(turns))
        monkeypatch.setattr(providers, "default_chat_model", lambda: (model, "scripted"))
        return model

    return use


def test_text_and_json_output(binding, scripted):
    turns = [
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        final("最高：{{q1.地区[0]}}，{{q1.销售额[0]}}\n>> 按客户看呢？"),
    ]
    scripted(*turns)
    out, err = run("各地区销售额？", "--tenant", "alpha", "--dataset", "销售", "--steps")
    assert out.startswith("最高：华东，160.5") and "地区 | 销售额" in out and ">> 按客户看呢？" in out
    assert "verified: 1 numbers" in out and "[tool.finished]" in err
    how = out.split("\n计算方式\n", 1)[1]
    assert "q1 · 按 地区 分组 · 销售额 = sum(金额)" in how and "数据来源：数据集 销售" in how
    assert "指标：销售额 = sum(金额)" in how and "返回行数：3" in how
    scripted(*turns)
    body = json.loads(run("各地区销售额？", "--tenant", "alpha", "--dataset", str(binding.dataset.pk), "--json")[0])
    assert body["status"] == "answered" and body["tables"][0]["rows"][0] == ["华东", 160.5]
    assert body["audit"]["prompt_version"] and body["verification"]["passed"] is True
    assert body["explanation"][0]["measures"] == [{"name": "销售额", "formula": "sum(金额)"}]


def test_interceptions_print_the_friendly_message(binding, scripted):
    scripted(final("销售额 999"), final("销售额 999"))
    out, _err = run("销售额？", "--tenant", "alpha", "--dataset", "销售")
    assert out.startswith("[intercepted] 这个回答未能通过核对，已被拦截：回答陈述了数据，却没有查询数据。")
    assert "VERIFY FAILED" not in out and "run_query" not in out, "never the text the model was given"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["q", "--tenant", "nope", "--dataset", "销售"], "no tenant with slug 'nope'"),
        (["q", "--tenant", "alpha", "--dataset", "销"], "no dataset named '销'"),
        (["", "--tenant", "alpha", "--dataset", "销售"], "ask a question"),
    ],
)
def test_bad_input_is_a_clear_error(binding, args, fragment):
    with pytest.raises(CommandError) as info:
        run(*args)
    assert fragment in str(info.value)
