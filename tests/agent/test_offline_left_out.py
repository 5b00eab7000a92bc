"""Rows left out by name ("besides X", "aside from X", "X and who else"), ages said as "24 years old", names
written without their club abbreviation ("cordoba" for "Córdoba CF") and a difference between two named rows
over a table that also has a "Goal Difference" column: each is read, applied and verified, or asked about."""

from __future__ import annotations

import pytest

from tests.agent.test_offline_clarifications import ask, verified_answer
from tests.agent.test_offline_question_shape import table

CONTESTANTS = [
    ["Panamá", "Reyna Royo", 24, "Panama City"],
    ["Colón", "Karol Guevara", 22, "Colón"],
    ["Chiriquí", "Marisela Moreno", 24, "David"],
    ["Veraguas", "Lourdes Rodriguez", 21, "Santiago"],
    ["Herrera", "Gina Correa", 20, "Chitré"],
    ["Coclé", "Ana Batista", 19, "Penonomé"],
]


@pytest.fixture
def contestants(csv_binding):
    return table(csv_binding, "contestants.csv", ["Represent", "Contestant", "Age", "Hometown"], CONTESTANTS)


@pytest.mark.parametrize(
    "question",
    [
        "who is the other person who is 24 years old besides reyna royo?",
        "which contestant is 24 years old other than reyna royo?",
        "who is 24 years old, aside from reyna royo?",
        "reyna royo and who else is 24 years old?",
    ],
)
def test_a_named_row_left_out_leaves_the_others_that_meet_the_condition(contestants, question):
    response = verified_answer(contestants, question)
    first = response.answer.split("\n")[0]
    assert first == "Contestant: Marisela Moreno.", response.answer
    assert "Contestant ≠ Reyna Royo" in response.answer and "Age = 24" in response.answer


def test_an_age_said_in_years_is_compared_with_the_age_column(contestants):
    listed = verified_answer(contestants, "who is 24 years old?").answer
    assert "Reyna Royo" in listed and "Marisela Moreno" in listed and "Karol Guevara" not in listed, listed
    counted = verified_answer(contestants, "how many contestants are over 21 years old?").answer
    assert "Age > 21" in counted and "3" in counted.split("\n")[0], counted


def test_who_else_without_anyone_left_out_is_not_answered_as_if_it_were_said(contestants):
    response = ask(contestants, "who else is 24 years old?")
    assert response.clarification is not None or "Sorry" in response.answer, response.answer
    assert "Marisela Moreno" not in response.answer


PASSENGERS = [[2005, 61000], [2006, 83000], [2007, 79000], [2008, 92176], [2009, 82424], [2010, 105119]]


def test_a_year_left_out_of_a_lookup_of_years(csv_binding):
    binding = table(csv_binding, "airport.csv", ["Year", "International passengers"], PASSENGERS)
    for question in (
        "2006 and what other year had more than 80,000 international passengers?",
        "what year other than 2006 had more than 80,000 international passengers?",
    ):
        response = verified_answer(binding, question)
        listed = response.answer.split("Filters")[0]
        assert "2008" in listed and "2010" in listed and "2006" not in listed and "2007" not in listed, question
        assert "Year ≠ 2006" in response.answer, response.answer


CLUBS = [
    [1, "Córdoba CF", 40, 26],
    [2, "CD Málaga", 38, 16],
    [3, "Granada CF", 36, 14],
    [4, "Real Jaén CF", 33, 5],
    [5, "CD Villarrobledo", 12, -30],
    [6, "UD Salamanca", 30, 0],
    [7, "CD Tenerife", 28, -3],
]


@pytest.fixture
def clubs(csv_binding):
    return table(csv_binding, "league.csv", ["Position", "Club", "Points", "Goal Difference"], CLUBS)


@pytest.mark.parametrize(("said", "club", "points"), [("cordoba", "Córdoba CF", 40), ("malaga", "CD Málaga", 38)])
def test_a_club_named_without_its_abbreviation(clubs, said, club, points):
    response = verified_answer(clubs, f"how many points did {said} get?")
    assert f"Club = {club}" in response.answer and str(points) in response.answer.split("\n")[0], response.answer


def test_a_name_the_abbreviation_leaves_in_two_cells_is_not_guessed(csv_binding):
    rows = [[1, "Real Madrid CF", 50], [2, "Real Madrid B CF", 20], [3, "Sevilla FC", 40], [4, "Betis FC", 30]]
    rows += [[5, "Cadiz CF", 25]]
    binding = table(csv_binding, "two.csv", ["Position", "Club", "Points"], rows)
    response = ask(binding, "how many points did real madrid get?")
    assert response.clarification is not None, response.answer  # Real Madrid CF or Real Madrid B CF: asked
    assert response.verification.grounding == [], "no number is shown"


def test_the_difference_between_two_rows_points_is_not_the_goal_difference_column(clubs):
    question = "what is the difference between the points earned by cordoba and the points earned by cd villarrobledo?"
    response = verified_answer(clubs, question)
    assert response.answer.startswith("difference is 28"), response.answer
    own = verified_answer(clubs, "what is the goal difference of cordoba?")
    assert "Goal Difference is 26" in own.answer, own.answer


@pytest.mark.parametrize(("column", "named"), [("Races", True), ("1 credit", False)])
def test_numbers_written_as_text_are_not_added_up_and_the_question_quotes_no_number(csv_binding, column, named):
    rows = [["Alpha", "12"], ["Beta", "—"], ["Gamma", "30"], ["Delta", "7"], ["Epsilon", "15"]]
    binding = table(csv_binding, "marks.csv", ["Name", column], rows)
    word = column.split()[-1].rstrip("s")
    response = ask(binding, f"what is the total number of {word}s?")
    said = response.answer.split("\n")[0]
    assert "numbers written as text" in said and response.status == "answered", response.answer
    assert ("“Races”" in said) == named, response.answer
    assert not any(ch.isdigit() for ch in said), "no number is claimed, so none is quoted"
    assert response.verification.grounding == []
