"""Words that name a column or a range without its exact name: "founded" for a Founding Date column, "when"
over dates written as text, a misspelt word of a two-word column ("internationl passengers") and "in the 80,000
range" (80,000 to under 90,000)."""

from __future__ import annotations

import pytest

from tests.agent.test_offline_clarifications import ask, verified_answer
from tests.agent.test_offline_question_shape import table

CHAPTERS = [
    ["Zeta Alpha", "Detroit, MI", "1925"],
    ["Zeta Beta", "Columbus, OH", "December 14, 1926"],
    ["Zeta Gamma", "Chicago, IL", "1926"],
    ["Zeta Eta", "Cleveland, OH", "December 13, 1941"],
    ["Zeta Omega", "Toledo, OH", "May 2, 1950"],
]


@pytest.fixture
def chapters(csv_binding):
    return table(csv_binding, "chapters.csv", ["Chapter", "Location", "Founding Date"], CHAPTERS)


def test_when_a_row_was_founded_reads_its_founding_date(chapters):
    response = verified_answer(chapters, "when was zeta eta founded?")
    assert response.answer.split("\n")[0] == "Founding Date: December 13, 1941.", response.answer


def test_founded_in_a_year_filters_the_founding_date(chapters):
    response = verified_answer(chapters, "how many chapters were founded in 1926?")
    assert "Founding Date in 1926" in response.answer, response.answer
    assert response.answer.startswith("distinct Chapter is 2"), response.answer


PASSENGERS = [
    [2006, 764831, 83115],
    [2007, 764674, 75276],
    [2008, 709779, 92176],
    [2009, 605534, 82424],
    [2010, 595457, 105119],
    [2011, 850305, 123607],
]


@pytest.fixture
def airport(csv_binding):
    return table(csv_binding, "airport.csv", ["Year", "Domestic passengers", "International passengers"], PASSENGERS)


def test_a_round_number_range_is_from_it_to_under_the_next(airport):
    response = verified_answer(airport, "which years had international passengers in the 80,000 range?")
    listed = response.answer.split("Filters")[0]
    assert "2006" in listed and "2009" in listed, response.answer
    assert "2008" not in listed and "2007" not in listed and "2010" not in listed, response.answer
    assert "International passengers in the 80,000 range" in response.answer
    assert "90,000" not in response.answer, "the upper end is said as the question said it"


def test_a_range_over_groups_is_one_total_kept_between_both_ends(csv_binding):
    rows = [["North", 50000], ["North", 35000], ["South", 60000], ["South", 40000], ["East", 30000]]
    rows += [["East", 20000], ["West", 81000], ["West", 1000]]
    binding = table(csv_binding, "regions.csv", ["Region", "Passengers"], rows)
    response = verified_answer(binding, "which regions had passengers in the 80,000 range?")
    listed = response.answer.split("Filters")[0]
    assert "North" in listed and "West" in listed, response.answer
    assert "South" not in listed and "East" not in listed, response.answer
    assert "_2" not in response.answer, "both ends keep the one total"


def test_a_misspelt_word_of_a_two_word_column_reads_that_column(airport):
    response = verified_answer(airport, "what was the total of internationl passengers in 2008?")
    assert "International passengers is 92,176" in response.answer, response.answer
    other = verified_answer(airport, "2006 and what other year were internationl passengers in the 80,000 range?")
    assert other.answer.startswith("Year: 2009"), other.answer
    assert "Year ≠ 2006" in other.answer


def test_what_year_reads_the_one_column_of_years_even_with_a_footnote_mark(csv_binding):
    rows = [
        ["1993", "Tier 3", "1st"],
        ["1994", "Tier 2", "11th"],
        ["2005", "Tier 2", "4th"],
        ["2006*", "Tier 3", "3rd"],
    ]
    binding = table(csv_binding, "seasons.csv", ["Season", "Level", "Position"], rows)
    response = verified_answer(binding, "what year had the 1st position?")
    assert response.answer.split("\n")[0] == "Season: 1993.", response.answer
    marked = verified_answer(binding, "what year had the 3rd position?")
    assert marked.answer.split("\n")[0] == "Season: 2006.", marked.answer
    led = verified_answer(binding, "in which year did they finish 4th?")  # a value asked for, never a count
    assert led.answer.split("\n")[0] == "Season: 2005.", led.answer


FILMS = [
    [2014, "Manam", "Vikram Kumar"],
    [1980, "Premabhishekam", "Dasari Narayana Rao"],
    [1981, "Prema Mandiram", "Dasari Narayana Rao"],
    [1982, "Bangaru Kanuka", "V. Madhusudhana Rao"],
    [1983, "Sri Ranga Neethulu", "Dasari Narayana Rao"],
]


def test_what_before_a_column_of_names_ranks_like_which_and_its_verb_is_a_link(csv_binding):
    binding = table(csv_binding, "films.csv", ["Year", "Film", "Director"], FILMS)
    for question in ("what director directed the most films?", "which director directed the most films?"):
        response = verified_answer(binding, question)
        first = response.answer.split("\n")[0]
        assert "Dasari Narayana Rao" in first and "3" in first, (question, response.answer)
    latest = verified_answer(binding, "what is the most recent film?").answer  # "what is": not a which-question
    assert latest.startswith("The Film with the latest Year is Manam"), latest


SQUADS = [
    ["CCP Bobcats", 70.5, "Champion"],
    ["UP Pep Squad", 71.0, "Runner-up"],
    ["Altas Perp Squad", 69.5, "Third place"],
    ["EAC Generals Pep Squad", 66.0, "Fourth place"],
    ["Adamson Pep Squad", 66.0, "Sixth place"],
]


def test_a_value_of_several_words_said_with_one_slip_in_a_long_word_is_that_value(csv_binding):
    binding = table(csv_binding, "squads.csv", ["Team", "Pyramids", "Result"], SQUADS)
    response = verified_answer(binding, "how many teams had more pyramids than the atlas perp squad?")
    assert "Rows with a higher Pyramids than Altas Perp Squad: 2." in response.answer, response.answer
    asked = verified_answer(binding, "what was the result of the eac generls pep squad?")  # the question's slip
    assert asked.answer.split("\n")[0] == "Result: Fourth place.", asked.answer


def test_a_name_two_cells_are_one_slip_from_is_not_guessed(csv_binding):
    rows = [["Blue Tigers Squad", 10], ["Blue Tiger Squad", 12], ["Red Lions Squad", 9], ["Gold Hawks Squad", 7]]
    binding = table(csv_binding, "close.csv", ["Team", "Points"], rows)
    response = ask(binding, "how many points did the blue tigerz squad get?")
    assert "12" not in response.answer.split("\n")[0] and "10" not in response.answer.split("\n")[0], response.answer


def test_a_choice_whose_other_side_the_data_does_not_hold_is_not_answered_as_a_count(csv_binding):
    rows = [
        ["2013–14", "UEFA Europa League", "Group A", "Sevilla"],
        ["2013–14", "UEFA Europa League", "Group A", "Lyon"],
    ]
    rows += [["2012–13", "UEFA Cup", "First round", "Chelsea"], ["2013–14", "UEFA Europa League", "Group A", "Porto"]]
    binding = table(csv_binding, "europe.csv", ["Season", "Competition", "Round", "Opponent"], rows)
    response = ask(binding, "group a or group b in 2013-2014 uefa europa league?")
    assert "“group b”" in response.answer and response.verification.grounding == [], response.answer


def test_a_value_said_in_the_plural_is_that_value_unless_another_cell_holds_it_too(csv_binding):
    rows = [["Tarka", "Love story"], ["Utkarsha", "Comedy"], ["Sangarsha", "Love story"], ["Nishkarsha", "Thriller"]]
    binding = table(csv_binding, "genres.csv", ["Film Title", "Genre"], rows)
    plain = verified_answer(binding, "how many films are comedies?")
    assert "Genre = Comedy" in plain.answer and plain.answer.split("\n")[0].endswith("is 1."), plain.answer
    shared = table(csv_binding, "genres2.csv", ["Film Title", "Genre"], [*rows, ["Gauri", "A village love story"]])
    response = ask(shared, "how many films are love stories?")  # Love story, or A village love story as well?
    assert response.clarification is not None, response.answer
    assert any("A village love story" in c for c in response.clarification.choices), response.clarification


def test_how_long_is_the_list_of_counts_the_rows(csv_binding):
    rows = [[1, "Nigeria", 14, 35], [2, "Algeria", 9, 17], [3, "Kenya", 0, 4], [4, "Egypt", 1, 2]]
    binding = table(csv_binding, "medals.csv", ["Rank", "Nation", "Gold", "Total"], rows)
    response = verified_answer(binding, "how long is the list of nations that won any gold medals?")
    assert response.answer.split("\n")[0].endswith("is 3."), response.answer


def test_a_row_before_or_after_a_named_one_with_the_occasion_said_by_its_year(csv_binding):
    rows = [
        [1, "Valentino Rossi", "Yamaha", 25],
        [2, "Dani Pedrosa", "Honda", 20],
        [3, "Andrea Dovizioso", "Honda", 16],
    ]
    rows += [[4, "Casey Stoner", "Ducati", 13]]
    binding = table(csv_binding, "race.csv", ["Pos", "Rider", "Manufacturer", "Points"], rows)
    response = verified_answer(
        binding, "who came in after valentino rossi in the 2008 malaysian motorcycle grand prix?"
    )
    assert "Dani Pedrosa" in response.answer.split("\n")[1], response.answer
    assert "“in the 2008 malaysian motorcycle grand prix”, so it was left out" in response.answer, response.answer
