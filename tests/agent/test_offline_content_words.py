"""Every content word of an English question accounted for: a word no reading took that may carry a condition
("set a personal best", "are democrats", "their home games", "lasted a single year") is asked about instead of
answered over every row; the nouns of what is counted, the verbs that only link rows to their figures and the
table's own context ("in their career") are read as they are. Letters without a separate accent ("Suðuroy")
are typed plainly. A column the file wrote as places ("1st", "25th") is a place whatever its name."""

from __future__ import annotations

import pytest

from apps.agent.offline.schema_terms import fold
from apps.datasets.query.resolve import plain
from tests.agent.test_offline_clarifications import ask, verified_answer
from tests.agent.test_offline_question_shape import table


def asked_about(binding, question: str, word: str) -> None:
    """No figure given: the question names the word it could not apply, and no rows were computed."""
    response = ask(binding, question)
    assert response.clarification is not None, response.answer
    assert f"“{word}”" in response.answer, response.answer
    assert not response.tables and not response.verification.grounding, response.answer


RUNNERS = [
    ["Habtamu Fayisa", "5:38.62", "PB"],
    ["Peter Mutuku", "5:38.72", "PB"],
    ["Zakaria Kiprotich", "5:44.51", ""],
    ["Ali Kaya", "5:50.10", "SB"],
    ["Tom Lee", "5:52.00", ""],
]


@pytest.fixture
def runners(csv_binding):
    return table(csv_binding, "runners.csv", ["Athlete", "Time", "Notes"], RUNNERS)


def test_a_verb_with_an_object_nothing_read_is_asked_about(runners):
    asked_about(runners, "how many runners set a personal best?", "set")


def test_the_counted_noun_and_a_linking_verb_are_read(runners):
    response = verified_answer(runners, "how many runners finished in less than 5:45?")
    assert response.answer.split("\n")[0].endswith(" 3."), response.answer


SENATE = [
    [1, "Ogden Driskill", "Republican"],
    [2, "Jim Anderson", "Republican"],
    [3, "Chris Rothfuss", "Democratic"],
    [4, "Floyd Esquibel", "Democratic"],
    [5, "Curt Meier", "Republican"],
]


@pytest.fixture
def senate(csv_binding):
    return table(csv_binding, "senate.csv", ["District", "Representative", "Party"], SENATE)


def test_a_word_said_of_the_rows_that_no_value_holds_is_asked_about(senate):
    asked_about(senate, "how many of the senators are democrats?", "democrats")


def test_a_value_said_of_the_rows_is_applied(senate):
    response = verified_answer(senate, "how many of these senators were democratic?")
    assert "Party = Democratic" in response.answer and " 2" in response.answer.split("\n")[0], response.answer


GAMES = [
    ["16 September 1992", "Lyngby", "H", 40036],
    ["30 September 1992", "Lyngby", "A", 4273],
    ["21 October 1992", "Leeds United", "H", 43251],
    ["4 November 1992", "Leeds United", "A", 25118],
]


@pytest.fixture
def games(csv_binding):
    return table(csv_binding, "games.csv", ["Date", "Opponent", "Venue", "Attendance"], GAMES)


def test_an_adjective_nothing_read_is_asked_about_not_dropped(games):
    asked_about(games, "what was the total attendance at their home games?", "home")


def test_the_table_context_named_with_their_is_read(games):
    response = verified_answer(games, "what was the total attendance over their whole season?")
    assert "112,678" in response.answer, response.answer


COACHES = [
    ["1933", "Sam McAllister", 1],
    ["1934", "Herschel Bobo", 1],
    ["1934–1939", "Del Morgan", 6],
    ["1940–1942", "Bill Dow", 3],
]


def test_a_verb_of_duration_nothing_read_is_asked_about(csv_binding):
    binding = table(csv_binding, "coaches.csv", ["Tenure", "Coach", "Years"], COACHES)
    asked_about(binding, "how many coaches only lasted a single year?", "lasted")


def test_nouns_of_what_is_counted_run_over_several_words(csv_binding):
    rows = [["Sun Quan", 222], ["Sun Liang", 252], ["Sun Xiu", 258], ["Sun Hao", 264]]
    binding = table(csv_binding, "rulers.csv", ["Ruler", "Reign from"], rows)
    response = verified_answer(binding, "how many eastern wu rulers were there?")
    assert response.answer.split("\n")[0].endswith(" 4."), response.answer


VILLAGES = [
    ["Akrar", 28, "Suðuroy"],
    ["Argir", 1907, "Streymoy"],
    ["Porkeri", 329, "Suðuroy"],
    ["Ánir", 13, "Borðoy"],
]


def test_a_letter_without_a_separate_accent_is_typed_plainly(csv_binding):
    assert fold("Suðuroy Ørsted Łódź") == "suduroy orsted lodz"
    assert plain("Suðuroy Ørsted Łódź") == "suduroy orsted lodz"
    binding = table(csv_binding, "villages.csv", ["Village", "Population", "Island"], VILLAGES)
    response = verified_answer(binding, "how many of the villages are on suduroy?")
    assert "Island = Suðuroy" in response.answer and " 2" in response.answer.split("\n")[0], response.answer


RESULTS = [
    ["1996", "Pukekohe Park Raceway", "1st"],
    ["2008", "Hamilton Street Circuit", "25th"],
    ["2009", "Hamilton Street Circuit", "14th"],
    ["2010", "Hamilton Street Circuit", "18th"],
]


def test_places_written_as_ordinals_rank_one_as_the_best_whatever_the_column_is_called(csv_binding):
    binding = table(csv_binding, "results.csv", ["Year", "Track", "Round Result"], RESULTS)
    from apps.agent.tools import _schema

    profile = _schema(binding, None)
    assert profile.column("Round Result").written_as == "place"
    response = verified_answer(binding, "what was his best round result at the hamilton street circuit?")
    assert "Round Result 14" in response.answer and "25" not in response.answer, response.answer
    asked = ask(binding, "what is the total round result?")
    assert asked.clarification is not None, "places are never added up"


def test_a_greeting_is_a_word_of_its_own_not_the_start_of_his(csv_binding):
    rows = [[1, "2001-03-01", "Bahrain"], [2, "2001-05-02", "Oman"], [3, "2002-01-09", "Qatar"]]
    binding = table(csv_binding, "goals.csv", ["#", "Date", "Opponent"], rows)
    assert ask(binding, "hi").answer.startswith("Hello"), "a greeting is greeted"
    response = ask(binding, "who was his last goal against")
    assert not response.answer.startswith("Hello"), response.answer
