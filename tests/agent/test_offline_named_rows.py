"""Rows named one by one over a column of one row each: counting each named row (or its years) gives 1 whatever
was asked, so which of their columns holds the number is asked, never "1" and "1" shown."""

from __future__ import annotations

from tests.agent.test_offline_clarifications import ask
from tests.agent.test_offline_question_shape import table

FILMS = [
    [2001, "Save the Last Dance", "Paramount"],
    [2006, "Save the Last Dance 2", "Paramount"],
    [2009, "Notorious", "Fox"],
    [2012, "Red Tails", "Lucasfilm"],
]


def test_counting_named_rows_of_one_row_each_asks_for_their_column(csv_binding):
    binding = table(csv_binding, "films.csv", ["Year", "Title", "Studio"], FILMS)
    response = ask(binding, "how many years after save the last dance 2 did red tails come out?")
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    assert response.answer.startswith("I cannot count") and "“Year”" in response.answer, response.answer
    assert "2" not in response.answer, "a name with a number is not quoted back"
    assert not response.tables and not response.verification.grounding
    named = ask(binding, "how many studios did notorious and red tails have?").clarification
    assert named is not None and "“Notorious”" in named.question and "“Red Tails”" in named.question
    assert any("Studio" in choice for choice in named.choices), named.choices


def test_named_rows_that_repeat_are_still_counted(csv_binding):
    rows = [["Paramount", 2001], ["Paramount", 2006], ["Fox", 2009], ["Fox", 2010], ["Lucasfilm", 2012]]
    binding = table(csv_binding, "studios.csv", ["Studio", "Year"], rows)
    response = ask(binding, "how many films did paramount and fox release?")
    assert response.clarification is None, response.answer
    assert "Paramount" in response.answer and "2" in response.answer, response.answer
