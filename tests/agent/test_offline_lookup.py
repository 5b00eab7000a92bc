"""A value looked up in the rows that meet the question's conditions (apps/agent/offline/lookup.py): the cells
of the column asked for are listed, not counted, and only when the question says which column and which rows."""

from __future__ import annotations

import pytest

from tests.agent.test_offline_clarifications import ask, verified_answer
from tests.agent.test_offline_question_shape import table

HEADER = ["Stadium", "Capacity", "City", "Year"]
STADIUMS = [
    ["Miller Park", 41900, "Milwaukee, Wisconsin", 2001],
    ["Wembley Stadium", 90000, "London", 2007],
    ["Millennium Stadium", 74500, "Cardiff", 1999],
    ["Safeco Field", 47476, "Seattle, Washington", 1999],
    ["Rogers Centre", 49282, "Toronto, Ontario", 1989],
]
# a table of many grounds (one row each), as a list of stadiums is: the names are row labels, not categories
GROUNDS = [[f"Ground {i}", 10000 + 500 * i, f"Town {i}", 1960 + i % 30] for i in range(60)]


@pytest.fixture
def stadiums(csv_binding):
    return table(csv_binding, "stadiums.csv", HEADER, STADIUMS + GROUNDS)


@pytest.mark.parametrize(
    "question", ["what city is miller park in?", "which city is miller park in?", "what is the city of miller park?"]
)
def test_the_column_asked_for_is_read_from_the_row_named(stadiums, question):
    response = verified_answer(stadiums, question)
    lines = response.answer.split("\n")
    assert lines[0] == "City: Milwaukee, Wisconsin.", response.answer
    assert lines[1] == "Filters: Stadium = Miller Park.", response.answer
    assert [s.tool for s in response.audit.steps] == ["get_schema", "run_query"]


def test_rows_over_a_threshold_are_listed_with_the_value_that_put_them_there(stadiums):
    response = verified_answer(stadiums, "which stadiums have a capacity over 48000?")
    lines = response.answer.split("Filters")[0].strip().split("\n")
    assert lines[0] == "Stadium of the 3 rows that match:", response.answer
    listed = "\n".join(lines[1:])
    for name, capacity, *_rest in STADIUMS:
        assert (name in listed) == (capacity > 48000), response.answer
    assert "Rogers Centre: Capacity 49,282" in listed, "the threshold's column is shown beside each row"


def test_a_year_after_is_means_that_year_not_since_it(stadiums):
    response = verified_answer(stadiums, "which stadium is from 1999?")
    listed = response.answer.split("Filters")[0]
    assert "Millennium Stadium" in listed and "Safeco Field" in listed, response.answer
    assert "Wembley" not in listed and "Miller Park" not in listed, response.answer


def test_who_reads_the_one_column_of_names_and_when_the_time_column(csv_binding):
    athletes = [[2001, "Ana Silva", "Brazil", 12], [2003, "Li Wei", "China", 30], [2005, "Tom Berg", "Norway", 8]]
    binding = table(csv_binding, "athletes.csv", ["Year", "Athlete", "Country", "Points"], athletes)
    who = verified_answer(binding, "who was from china?")
    assert who.answer.split("\n")[0] == "Athlete: Li Wei.", who.answer
    when = verified_answer(binding, "when was athlete tom berg?")
    assert when.answer.split("\n")[0] == "Year: 2005.", when.answer


def test_nothing_matching_says_so_without_a_value(stadiums):
    response = verified_answer(stadiums, "what city is the stadium of 1950 in?")
    assert response.answer.split("\n")[0].startswith("No rows match"), response.answer


@pytest.mark.parametrize(
    "question",
    [
        "how many stadiums are in london?",  # a count is still a count
        "which stadium has the largest capacity?",  # a ranking is still a ranking
        "what is the average capacity of stadiums opened in 1999?",  # an aggregate is still an aggregate
    ],
)
def test_counts_rankings_and_aggregates_are_not_lookups(stadiums, question):
    response = ask(stadiums, question)
    assert not response.answer.startswith(("City:", "Stadium:", "Stadium of the")), response.answer


def test_who_was_the_column_reads_that_column_and_never_a_column_of_scores(csv_binding):
    games = [["1996", "Nebraska-Omaha", "22-21", "Home"], ["1996", "North Dakota State", "39-28", "Away"]]
    games += [["1997", "Northern Colorado", "26-27", "Home"], ["1998", "Augustana", "30-10", "Away"]]
    binding = table(csv_binding, "games.csv", ["Year", "Opponent", "Score", "Site"], games)
    response = verified_answer(binding, "who was an opponent in 1996?")
    lines = response.answer.split("Filters")[0].strip().split("\n")
    assert lines[0] == "Opponent of the 2 rows that match:", response.answer
    assert {line.split(". ", 1)[1] for line in lines[1:]} == {"Nebraska-Omaha", "North Dakota State"}
    scores = ask(binding, "who played in 1997?")  # no column of names: scores are not names
    assert "Score" not in scores.answer.split("\n")[0], scores.answer


def test_chinese_questions_asking_which_rows_list_them_and_never_count_them(csv_binding):
    orders = [["A1001", "张三", "华东", "保温杯", 59], ["A1002", "李四", "华北", "咖啡机", 899]]
    orders += [["A1003", "王五", "华南", "保温杯", 59], ["A1004", "赵六", "华东", "电水壶", 199]]
    orders += [[f"B{2000 + i}", f"客户{i}", "西南", "电水壶", 100 + i] for i in range(60)]
    binding = table(csv_binding, "订单.csv", ["订单号", "客户", "地区", "产品", "单价"], orders)
    which = verified_answer(binding, "哪些订单的单价超过500？")
    assert which.answer.split("\n")[0] == "订单号：A1002（单价 899）。", which.answer
    region = verified_answer(binding, "张三在哪个地区？")
    assert region.answer.split("\n")[:2] == ["地区：华东。", "筛选条件：客户 = 张三。"], region.answer
    product = verified_answer(binding, "A1004的产品是什么？")
    assert product.answer.split("\n")[0] == "产品：电水壶。", product.answer
    products = verified_answer(binding, "西南有哪些产品？")  # a value many rows repeat is listed once
    assert products.answer.split("\n")[:2] == ["产品：电水壶。", "筛选条件：地区 = 西南。"], products.answer
    east = verified_answer(binding, "华东地区有哪些产品？")
    assert east.answer.split("\n")[:3] == ["符合条件的产品（共 2 个）：", "1. 保温杯", "2. 电水壶"], east.answer
    both = verified_answer(binding, "张三和李四分别在哪个地区？")  # whose region each is, said beside it
    assert both.answer.split("\n")[:3] == ["符合条件的地区：", "1. 华东：客户 张三", "2. 华北：客户 李四"], both.answer
    who = verified_answer(binding, "谁买了咖啡机？")  # 谁: the column whose header names people
    assert who.answer.split("\n")[0] == "客户：李四。", who.answer
    everyone = verified_answer(binding, "列出所有客户")
    assert everyone.answer.split("\n")[:2] == ["客户（共 64 行）：", "1. 张三"], everyone.answer
    follow = ask(binding, "那李四呢？", history=[{"question": "张三在哪个地区？", "answer": region.answer}])
    assert follow.verification.passed and follow.answer.split("\n")[0] == "地区：华北。", follow.answer
    counted = verified_answer(binding, "单价超过500的订单有多少个？")  # a count is still a count
    assert not counted.answer.startswith("符合条件"), counted.answer


def test_a_list_longer_than_what_was_read_says_it_shows_the_first_rows(csv_binding):
    binding = table(csv_binding, "players.csv", ["Player", "Goals"], [[f"Player {i:03d}", i % 7] for i in range(150)])
    response = verified_answer(binding, "list all the players")
    lines = response.answer.split("\n")
    assert lines[0] == "Player of the first 100 rows that match:", response.answer
    assert lines[-1] == "... the rest is in the table.", response.answer


def test_chinese_when_reads_the_time_column_of_the_rows_named(csv_binding):
    rows = [[f"A{i}", f"客户{i % 20}", f"2025-0{1 + i % 9}-1{i % 10}", 100 + i] for i in range(60)]
    binding = table(csv_binding, "订单.csv", ["订单号", "客户", "下单日期", "金额"], rows)
    response = verified_answer(binding, "客户7什么时候下的单？")
    dates = sorted({f"2025-0{1 + i % 9}-1{i % 10}" for i in range(60) if i % 20 == 7})
    lines = response.answer.split("\n")
    assert lines[0] == f"符合条件的 {len(dates)} 行的下单日期：", response.answer
    assert lines[1 : 1 + len(dates)] == [f"{i + 1}. {d}" for i, d in enumerate(dates)], "in the order of time"


def test_where_reads_the_one_column_of_places(csv_binding):
    rows = [[2001, "World Championships", "Edmonton, Canada", "5th"]]
    rows += [[2003, "World Championships", "Paris, France", "2nd"], [2004, "Olympic Games", "Athens, Greece", "1st"]]
    rows += [[2005, "World Championships", "Helsinki, Finland", "3rd"]]
    binding = table(csv_binding, "results.csv", ["Year", "Competition", "Venue", "Position"], rows)
    response = verified_answer(binding, "where were the world championships in 2005?")
    assert response.answer.split("\n")[0] == "Venue: Helsinki, Finland.", response.answer
    zh = verified_answer(binding, "2004年的Olympic Games在哪里？")
    assert zh.answer.split("\n")[0] == "Venue：Athens, Greece。", zh.answer


def test_a_kind_of_thing_at_the_head_reads_the_column_of_that_kind(csv_binding):
    riders = [["Mattia Pasini", "Aprilia", 25], ["Ana Carrasco", "Kawasaki", 12], ["Tom Lüthi", "Honda", 31]]
    riders += [["Jorge Martín", "KTM", 7]]
    binding = table(csv_binding, "riders.csv", ["Rider", "Manufacturer", "Points"], riders)
    listed = verified_answer(binding, "name a racer that had at least 20 points.").answer
    body = listed.split("Filters")[0]
    assert "Mattia Pasini" in body and "Tom Lüthi" in body, listed
    assert "Ana Carrasco" not in body and "Jorge Martín" not in body, listed
    films = [[1991, "Shadow of the Wolf", "Igiyook"], [1995, "Dead Man", "Nobody"], [1998, "Smoke Signals", "Arnold"]]
    binding = table(csv_binding, "films.csv", ["Year", "Title", "Role"], films)
    response = verified_answer(binding, "which film had the role igiyook?")
    assert response.answer.split("\n")[0] == "Title: Shadow of the Wolf.", response.answer


def test_a_kind_of_thing_with_no_single_column_of_that_kind_is_not_guessed(csv_binding):
    """Two columns of names (Gold, Silver), neither with a header naming people: "which athlete" could be
    either, so nothing is listed."""
    rows = [[2001, "Ana Silva", "Li Wei", 12], [2003, "Li Wei", "Tom Berg", 30], [2005, "Tom Berg", "Ana Silva", 8]]
    binding = table(csv_binding, "finals.csv", ["Year", "Gold", "Silver", "Points"], rows)
    response = ask(binding, "which athlete had more than 10 points?")
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    assert "“athlete”" in response.answer, response.answer
    assert not any(name in response.answer for name in ("Ana Silva", "Li Wei", "Tom Berg")), response.answer


def test_who_reads_the_column_whose_header_names_people_before_another_column_of_names(csv_binding):
    rows = [
        ["Brazilian Grand Prix", "Michael Schumacher", "Ferrari"],
        ["Monaco Grand Prix", "David Coulthard", "McLaren"],
    ]
    rows += [["Spanish Grand Prix", "Michael Schumacher", "Ferrari"]]
    binding = table(csv_binding, "races.csv", ["Race", "Winner", "Constructor"], rows)
    response = verified_answer(binding, "who had the constructor mclaren?")
    assert response.answer.split("\n")[0] == "Winner: David Coulthard.", response.answer


def test_a_part_of_and_took_place_only_link_the_row_to_what_is_asked(csv_binding):
    """ "are a part of what prefecture", "did it take place in …": the rows named, their column asked for."""
    rows = [
        ["Ryozen-ji", "Naruto", "Tokushima"],
        ["Ido-ji", "Tokushima", "Tokushima"],
        ["Zentsu-ji", "Zentsuji", "Kagawa"],
    ]
    temples = table(csv_binding, "temples.csv", ["Temple", "City", "Prefecture"], rows)
    part = verified_answer(temples, "the ido-ji temple is a part of what prefecture?")
    assert "Tokushima" in part.answer and "Kagawa" not in part.answer, part.answer
    games = table(
        csv_binding, "games.csv", ["Year", "Venue"], [[2001, "Oslo"], [2003, "Sherbrooke, Canada"], [2005, "Oslo"]]
    )
    took = verified_answer(games, "what year did it take place in sherbrooke, canada?")
    assert "2003" in took.answer and "2001" not in took.answer, took.answer


def test_the_verb_of_a_column_says_which_column_a_name_in_two_columns_is_meant_in(csv_binding):
    """Ana Ruiz is in Winner and in Second: "did ana ruiz win" reads Winner; without such a verb it is asked."""
    rows = [["Open A", "Ana Ruiz", "Leo Park"], ["Open B", "Leo Park", "Ana Ruiz"], ["Open C", "Ana Ruiz", "Mia Chen"]]
    events = table(csv_binding, "events.csv", ["Event", "Winner", "Second"], rows)
    won = verified_answer(events, "how many events did ana ruiz win?")
    assert "is 2" in won.answer and "Winner = Ana Ruiz" in won.answer, won.answer
    which = verified_answer(events, "which event did leo park win?")
    assert "Open B" in which.answer and "Open A" not in which.answer, which.answer
    assert ask(events, "how many events did ana ruiz enter?").clarification is not None
