"""A clarification (apps/agent/clarification.py): its text form, how narrate turns it into the response's
`clarification` (and `recommended_questions`), and how verify checks it — it asks, so it claims nothing, yet a
number it was not given still fails."""

from __future__ import annotations

import pytest

from apps.agent.clarification import Clarification, read_clarification, strip_marker, write_clarification
from apps.agent.nodes.narrate import answer_parts
from apps.agent.response import AskResponse
from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding
from apps.agent.verification.check import ToolCallRecord, VerifyInput, verify
from apps.agent.verification.vocabulary import Vocabulary
from tests.fakes import ScriptedChatModel, call, final, tools

ASKED = Clarification(
    "请确认：“华东”在这几列中都出现了：发货地区、收货地区。你指的是哪一列？",
    ["华东（发货地区）的销售额", "华东（收货地区）的销售额"],
)


def test_a_clarification_is_written_and_read_back():
    text = write_clarification(ASKED)
    assert text.splitlines()[0] == "[clarify]" and text.splitlines()[2] == ">> 华东（发货地区）的销售额"
    assert read_clarification(text) == ASKED
    assert strip_marker(text)[1].startswith("请确认")


@pytest.mark.parametrize(
    "text",
    [
        "请确认：你指的是哪一个？\n>> 销售数量是多少\n>> 销售额是多少",  # no marker: an ordinary answer
        "[clarify]\n请确认：只有一个选择？\n>> 销售额是多少",  # one choice is no choice
        "[clarify]\n华东销售额为 1,234，你想看哪一个？\n>> 销售数量是多少\n>> 销售额是多少",  # a number: a claim
        "[clarify]\n>> 销售数量是多少\n>> 销售额是多少",  # no question
    ],
)
def test_only_a_marked_question_without_numbers_and_with_choices_is_a_clarification(text):
    assert read_clarification(text) is None
    answer, _questions, clarification = answer_parts(text)
    assert clarification is None and "[clarify]" not in answer


def test_narrate_shows_the_question_and_offers_the_choices():
    answer, questions, clarification = answer_parts(write_clarification(ASKED))
    assert answer == ASKED.question and questions == ASKED.choices
    assert clarification is not None and clarification.model_dump() == {
        "question": ASKED.question,
        "choices": ASKED.choices,
    }
    plain = answer_parts("销售额合计为 120。\n>> 各地区的销售额是多少？")
    assert plain == ("销售额合计为 120。", ["各地区的销售额是多少？"], None)


def test_the_response_documents_clarification():
    schema = AskResponse.model_json_schema()
    assert "clarification" in schema["properties"]
    out = schema["$defs"]["ClarificationOut"]
    assert set(out["properties"]) == {"question", "choices"} and out["description"]


SCHEMA = ToolCallRecord(step=1, name="get_schema", status="ok", columns=["name"], rows=[["地区"]], row_count=1)
VOCAB = Vocabulary.from_profiles(
    [
        {
            "columns": [
                {"name": "发货地区", "kind": "text", "role": "dimension", "values": ["华东", "华北"]},
                {"name": "收货地区", "kind": "text", "role": "dimension", "values": ["华东", "华北"]},
                {"name": "销售额", "kind": "number", "role": "measure"},
                {"name": "Population 2000", "kind": "number", "role": "measure"},
            ]
        }
    ]
)


def check(draft: str, question: str = "2025年华东前5名产品的销售额"):
    return verify(VerifyInput(question=question, draft=draft, tool_calls=[SCHEMA], vocabulary=VOCAB))


def test_verify_passes_a_clarification_that_names_the_data_without_a_query():
    draft = write_clarification(
        Clarification(
            "请确认：“华东”在这几列中都出现了：发货地区、收货地区。你指的是哪一列？",
            ["2025年华东（发货地区）前5名产品的销售额", "2025年华东（收货地区）前5名产品的销售额"],
        )
    )
    verdict = check(draft)
    assert verdict.passed, verdict.reasons
    assert not verdict.coverage and not verdict.grounding
    assert {e.why for e in verdict.exempt} >= {"the question's own figure, repeated in a question offered as a choice"}
    names = check(write_clarification(Clarification("请确认：是哪一列？", ["Population 2000 的合计", "销售额合计"])))
    assert names.passed, names.reasons  # digits inside a column's name are part of the name


def test_verify_fails_a_clarification_whose_choices_invent_a_number():
    draft = write_clarification(Clarification("请确认：你指的是哪一个？", ["华东销售额 8,888 的产品", "华北的销售额"]))
    verdict = check(draft)
    assert not verdict.passed and "ungrounded_number" in [r.code for r in verdict.reasons]
    assert [u.text for u in verdict.ungrounded] == ["8,888"]


def test_the_same_answer_without_the_marker_is_checked_as_an_answer():
    draft = write_clarification(ASKED).removeprefix("[clarify]\n")
    verdict = check(draft, question="华东的销售额")
    assert not verdict.passed and verdict.reasons[0].code == "required_tools_missing"


@pytest.fixture
def binding(csv_binding) -> DataBinding:
    return csv_binding("ship.csv", "发货地区,收货地区,销售额\n华东,华北,10\n华北,华东,20\n")


def test_any_model_can_ask_and_the_marker_never_reaches_people(binding):
    model = ScriptedChatModel(turns=[tools(call("get_schema")), final(write_clarification(ASKED))])
    response = answer_question(binding=binding, question="华东的销售额是多少？", model=model, model_name="scripted")
    assert response.status == "answered" and response.verification.passed
    assert response.clarification is not None and response.clarification.choices == ASKED.choices
    assert response.answer == ASKED.question and response.recommended_questions == ASKED.choices
    assert "[clarify]" not in response.model_dump_json()
