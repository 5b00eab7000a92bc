"""Rows named by their place in an uploaded file (apps/agent/offline/position.py, against_row.py): the first or
last row listed, a row's number, the row right before or after a named one. A file keeps its rows' order, so
these are answered from the engine's row position, with the row's number shown; a database table keeps none,
so there the same questions are refused as before."""

from __future__ import annotations

import sqlite3

import pytest

from apps.agent.tools import DataBinding
from apps.datasets.query.spec import ROW_POSITION
from apps.datasets.sources import services as source_services
from tests.agent.test_offline_clarifications import ask, verified_answer
from tests.agent.test_offline_question_shape import table

HEADER = ["Title", "Performer", "Plays", "Fate"]
SONGS = [  # not sorted by any column: only the file says which comes first
    ["Morning Light", "Ana Ruiz", 420, "Kept"],
    ["Paper Boats", "Leo Park", 185, "Dropped"],
    ["Down The Charts", "Ana Ruiz", 930, "Kept"],
    ["Blue Harbour", "Mia Chen", 77, "Dropped"],
    ["Quiet Hours", "Leo Park", 512, "Kept"],
    ["Salt and Stone", "Mia Chen", 264, "Dropped"],
]


@pytest.fixture
def songs(csv_binding):
    return table(csv_binding, "songs.csv", HEADER, SONGS)


@pytest.mark.parametrize(
    ("question", "wanted", "row"),
    [
        ("what is the first title listed?", "Morning Light", 1),
        ("what is the last title on the list?", "Salt and Stone", 6),
        ("which title is listed at the top?", "Morning Light", 1),
        ("what is the last title listed that was dropped?", "Salt and Stone", 6),
        ("what is the first title on the list by leo park?", "Paper Boats", 2),
        ("how many plays does the last entry have?", "264", 6),
        ("what is the title of the last song?", "Salt and Stone", 6),
    ],
)
def test_the_first_or_last_row_listed_is_read_from_the_files_order(songs, question, wanted, row):
    response = verified_answer(songs, question)
    head = response.answer.split("\n")[0]
    assert wanted in head and f"row {row}" in head, response.answer
    assert ROW_POSITION in response.tables[0].columns
    assert len(response.tables[0].rows) == 1, "only the row at that place is read"
    assert any("place in the uploaded file" in a for e in response.explanation for a in e.assumptions)


def test_the_first_of_a_kind_is_the_first_listed_where_no_date_orders_them(songs, csv_binding):
    response = verified_answer(songs, "what is the name of the first title?")
    assert "Morning Light" in response.answer.split("\n")[0] and "row 1" in response.answer, response.answer
    last = verified_answer(songs, "who was the performer of the last title?")
    assert "Mia Chen" in last.answer.split("\n")[0] and "row 6" in last.answer, last.answer
    dated = table(csv_binding, "dated.csv", ["Title", "Year"], [["Gamma", 1952], ["Alpha", 1948], ["Beta", 1949]])
    earliest = ask(dated, "what is the name of the first title?")
    assert "row 1" not in earliest.answer and "Gamma" not in earliest.answer.split("\n")[0], earliest.answer


def test_a_chinese_row_number_reads_that_row(songs):
    response = verified_answer(songs, "第3行的Title是什么？")
    assert "Down The Charts" in response.answer.split("\n")[0], response.answer
    first = verified_answer(songs, "第一条记录的Plays是多少？")
    assert "420" in first.answer.split("\n")[0] and "1,926" not in first.answer, "that row's value, not a total"


@pytest.mark.parametrize(
    ("question", "wanted", "unwanted"),
    [
        ('which song comes directly before "down the charts"?', "Paper Boats", "Blue Harbour"),
        ("what title comes after down the charts?", "Blue Harbour", "Paper Boats"),
        ("which title is listed above quiet hours?", "Blue Harbour", "Salt and Stone"),
        ("what title is previous to paper boats?", "Morning Light", "Down The Charts"),
    ],
)
def test_the_row_right_before_or_after_a_named_one_follows_the_file(songs, question, wanted, unwanted):
    response = verified_answer(songs, question)
    lines = response.answer.split("\n")
    nearest = next(line for line in lines if line.startswith("Right"))
    assert wanted in nearest and unwanted not in nearest, response.answer
    assert "file's order of rows" in nearest
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query", "run_query"]


def test_a_named_value_in_several_rows_is_no_one_place(songs):
    response = ask(songs, "which title comes after ana ruiz?")
    assert response.status == "answered" and response.verification.passed
    assert "Morning Light" not in response.answer.split("\n")[0] or "Sorry" in response.answer, response.answer
    assert "Sorry" in response.answer and "Right after" not in response.answer, "two rows: no one place to start from"
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query"], "only the named rows were read"


def test_before_a_named_row_reads_the_tables_own_time_column_not_the_file(csv_binding):
    rows = [["Gamma", 1952], ["Alpha", 1948], ["Delta", 1950], ["Beta", 1949]]
    binding = table(csv_binding, "films.csv", ["Title", "Year"], rows)
    response = verified_answer(binding, "what film was released before delta?")
    nearest = next(line for line in response.answer.split("\n") if line.startswith("Right"))
    assert "Beta" in nearest and "Alpha" not in nearest, "1949 is right before 1950, whatever the file's order"
    assert ROW_POSITION not in response.tables[-1].columns


@pytest.fixture
def sql_songs(tenant_a, settings, tmp_path) -> DataBinding:
    settings.SQLITE_SOURCES_ROOT = tmp_path
    folder = tmp_path / tenant_a.slug
    folder.mkdir()
    with sqlite3.connect(folder / "music.db") as conn:
        conn.execute('CREATE TABLE "songs" ("Title" TEXT, "Performer" TEXT, "Plays" INTEGER, "Fate" TEXT)')
        conn.executemany('INSERT INTO "songs" VALUES (?, ?, ?, ?)', SONGS)
    source = source_services.source_create(tenant=tenant_a, name="music", kind="sqlite", database="music.db")
    return DataBinding.for_source(tenant=tenant_a, source=source)


@pytest.mark.parametrize(
    "question",
    ["what is the first title listed in songs?", 'which title in songs comes directly before "quiet hours"?'],
)
def test_a_database_table_keeps_no_order_so_places_are_refused(sql_songs, question):
    response = ask(sql_songs, question)
    assert response.status == "answered" and response.verification.passed
    assert "Sorry" in response.answer and not response.tables, response.answer
    assert "run_query" not in [s.tool for s in response.audit.steps], "nothing is computed"


def test_a_title_quoted_in_its_cell_is_named_without_quotes(csv_binding):
    rows = [['"Blue Moon"', "Ana"], ['"Stay Around"', "Leo"], ['"Hot Thing"', "Mia"], ['"Last Call"', "Ana"]]
    binding = table(csv_binding, "tracks.csv", ["Title", "Performer"], rows)
    response = verified_answer(binding, "what song was previous to hot thing?")
    nearest = next(line for line in response.answer.split("\n") if line.startswith("Right"))
    assert '"Stay Around"' in nearest and "Blue Moon" not in nearest, response.answer


def test_a_rank_left_blank_for_the_medallists_leaves_the_finishing_order_to_the_list(csv_binding):
    rows = [["", "Mark Henderson", 54.11], ["", "Eduardo Piccinini", 54.63], ["", "Brian Alderman", 54.75]]
    rows += [[str(i), f"Swimmer {i}", 55 + i / 10] for i in range(4, 9)]
    binding = table(csv_binding, "final.csv", ["Rank", "Name", "Time"], rows)
    response = verified_answer(binding, "who finished before eduardo piccinini?")
    nearest = next(line for line in response.answer.split("\n") if line.startswith("Right"))
    assert "Mark Henderson" in nearest and "Brian" not in nearest, response.answer


def test_above_a_named_row_is_the_row_listed_before_it_unless_a_measure_is_compared(songs):
    response = verified_answer(songs, "which title was above paper boats?")
    nearest = next(line for line in response.answer.split("\n") if line.startswith("Right"))
    assert "Morning Light" in nearest, response.answer
    compared = ask(songs, "which titles had plays above paper boats?")
    assert "file's order" not in compared.answer, "plays above another's: more plays, not the row above"


def test_a_row_asked_for_by_its_place_alone_is_read_from_the_list_not_ranked(csv_binding):
    """ "who is at the top of the list?": the first row, whatever the numbers in it (top is no highest here); who
    is the one column of people when there is one, else the row's leading cells are shown (a car number kept as
    text, "60", is that cell's number, grounded like any other)."""
    header = ["Team", "#", "Driver", "Sponsor", "Points"]
    rows = [["Harbour Racing", "60", "Ana Ruiz", "Salt Co", 12], ["Ridge Motors", "07", "Leo Park", "Kite", 30]]
    teams = table(csv_binding, "teams.csv", header, rows)
    top = verified_answer(teams, "who is at the top of the list?")
    assert "Ana Ruiz" in top.answer and "row 1" in top.answer and "Leo Park" not in top.answer, top.answer
    bottom = verified_answer(teams, "who is at the bottom of the list?")
    assert "Leo Park" in bottom.answer and "row 2" in bottom.answer, bottom.answer
    header = ["Team", "#", "Driver", "Owner", "Points"]
    crews = table(csv_binding, "crews.csv", header, [[*r[:3], "Kim Ode", r[4]] for r in rows])
    whole = verified_answer(crews, "who is at the top of the list?")
    assert "Harbour Racing" in whole.answer and "# 60" in whole.answer and "row 1" in whole.answer, whole.answer
    assert "Points" not in whole.answer and "Ridge" not in whole.answer


def test_the_words_that_place_the_neighbour_are_read_even_where_a_cell_holds_them(csv_binding):
    """ "what event comes before harbour night #14": "comes before" says which row, it is no condition, even where
    a note's sentence happens to hold the words."""
    rows = [
        ["Harbour Night #6", "Opened the season"],
        ["Harbour Night #8", "The title changed hands before the main event came to town"],
        ["Harbour Night #14", ""],
        ["Harbour Night #15", "Held outdoors"],
    ]
    events = table(csv_binding, "events.csv", ["Event", "Notes"], rows)
    response = verified_answer(events, "what event comes before harbour night #14?")
    nearest = next(line for line in response.answer.split("\n") if line.startswith("Right"))
    assert "Harbour Night #8" in nearest and "#15" not in nearest, response.answer


def test_a_period_beside_a_neighbour_question_is_one_more_condition_on_the_rows_listed(csv_binding):
    """'before "paper moon", what song is listed in 1999?': the 1999 songs before it, nearest first; a period
    that is left out ("excluding 1999") is not read here, so it is not answered."""
    rows = [[1998, "Tin Roof"], [1999, "Glass Bay"], [1999, "Paper Moon"], [2001, "Cold Lake"]]
    singles = table(csv_binding, "singles.csv", ["Year", "Title"], rows)
    response = verified_answer(singles, 'before "paper moon", what song is listed in 1999?')
    assert "Glass Bay" in response.answer and "Tin Roof" not in response.answer, response.answer
    assert any("1999" in f for e in response.explanation for f in e.filters), response.explanation
    refused = ask(singles, 'before "paper moon", what song is listed excluding 1999?')
    assert "Glass Bay" not in refused.answer and "Tin Roof" not in refused.answer, refused.answer
