"""References in drafts are filled from results only; unresolvable ones stay visible for verify to refuse."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.agent.prompts import PROMPTS_DIR, load_prompt
from apps.agent.references import fill_references, format_value
from apps.agent.runner import PROMPT_NAME
from apps.agent.tools import ToolOutcome


def outcome(**kwargs):
    base = {"step": 2, "call_id": "c1", "name": "run_query", "status": "ok", "ref": "q1"}
    return ToolOutcome(**{**base, **kwargs})


RESULT = outcome(
    columns=["地区", "销售额", "占比"], rows=[["华东", 1234567.891, 0.1254], ["华北", 80, None]], row_count=2
)


@pytest.mark.parametrize(
    ("value", "fmt", "text"),
    [
        (1234567.891, None, "1,234,567.89"),
        (80, None, "80"),
        (2025, None, "2025"),
        (2335, None, "2,335"),
        (80.0, None, "80"),
        (0.012345, None, "0.01235"),
        (0.1254, "pct", "12.5%"),
        (0.1254, "pct0", "13%"),
        (0.1254, "pct2", "12.54%"),
        (1234567.891, "int", "1,234,568"),
        (2.5, "d0", "2"),
        (1234567.891, "wan", "123.46万"),
        (123456789, "yi", "1.23亿"),
        ("华东", "pct", "华东"),
    ],
)
def test_formats(value, fmt, text):
    assert format_value(value, fmt) == text


def test_fill_from_results_and_record_provenance():
    text, fills = fill_references(
        "{{q1.地区[0]}}：{{ q1.销售额[0] }}，占 {{q1.占比[0]|pct}}，共 {{q1.row_count}} 个地区", [RESULT]
    )
    assert text == "华东：1,234,567.89，占 12.5%，共 2 个地区"
    assert [(f.column, f.row, f.step) for f in fills] == [
        ("地区", 0, 2),
        ("销售额", 0, 2),
        ("占比", 0, 2),
        ("row_count", None, 2),
    ]


@pytest.mark.parametrize(
    "draft",
    ["{{q2.地区[0]}}", "{{q1.区域[0]}}", "{{q1.地区[5]}}", "{{q1.销售额[0]|eval}}", "{{q1.地区}}"],
)
def test_unresolvable_references_stay_for_verify(draft):
    text, fills = fill_references(draft, [RESULT])
    assert text == draft and fills == []


@pytest.mark.parametrize(
    ("language", "empty", "nothing"), [("en", "empty", "no data matched"), ("zh-hans", "空值", "无匹配数据")]
)
def test_empty_results_say_no_data_matched_and_never_show_a_dash(language, empty, nothing):
    no_rows = outcome(columns=["地区", "销售额"], rows=[], row_count=0)
    sum_of_nothing = outcome(ref="q2", columns=["销售额"], rows=[[None]], row_count=1)
    with translation.override(language):
        assert format_value(None, None) == empty
        assert fill_references("{{q1.占比[1]|pct}}", [RESULT])[0] == empty, "an empty cell among values"
        text, fills = fill_references("华东：{{q1.销售额[0]}}；合计：{{q2.销售额[0]|wan}}", [no_rows, sum_of_nothing])
    assert text == f"华东：{nothing}；合计：{nothing}" and "—" not in text
    assert [(f.ref, f.column, f.value) for f in fills] == [("q1", "销售额", None), ("q2", "销售额", None)]
    assert fill_references("{{q1.地区[0]}}", [no_rows])[0] != "{{q1.地区[0]}}"
    assert fill_references("{{q1.区域[0]}}", [no_rows])[0] == "{{q1.区域[0]}}", "an unknown column stays for verify"


def test_failed_calls_cannot_be_referenced():
    failed = outcome(status="validation_error", columns=["n"], rows=[[1]])
    assert fill_references("{{q1.n[0]}}", [failed])[0] == "{{q1.n[0]}}"


def test_every_prompt_the_code_uses_loads_with_a_version():
    prompt = load_prompt(PROMPT_NAME)
    assert prompt.version and "No data without tools" in prompt.text and "UNTRUSTED DATA" in prompt.text
    assert sorted(p.stem for p in PROMPTS_DIR.glob("*.md")) == [PROMPT_NAME], "every prompt file is used"


@pytest.mark.parametrize(
    ("value", "shown"), [(115.72, "1:55.72"), (7526.8, "2:05:26.8"), (59.8, "59.8"), (3705.0, "3705")]
)
def test_a_time_in_seconds_is_shown_as_a_race_time(value, shown):
    """A race time is shown as written (1:55.72); under a minute or in whole seconds, as the plain seconds."""
    assert format_value(value, "clock") == shown
