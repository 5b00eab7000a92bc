"""A choice between named values of one column (apps/agent/offline/kinds/named_choice.py): one grouped query kept to
the values named, each one's figure quoted and the one asked for named, ties said as ties, and what cannot be told
(which measure, for values of one row each or a comparative that names no column) asked back, never guessed."""

from __future__ import annotations

import pytest

from apps.agent.offline import OfflinePlanner
from apps.agent.offline.intent import analyze
from apps.agent.runner import answer_question
from apps.datasets.ingest.profile import TableProfile
from tests.agent.test_offline_planner import col

CLUBS = TableProfile(
    row_count=9,
    columns=[
        col("Season", "integer", "measure", 4, lo=2001, hi=2004),
        col("Club", "text", "dimension", 3, values=["Red Lions", "Blue Hawks", "Green Owls"]),
        col("Player", "text", "id", 9, values=["Ann Moss", "Bea Lund", "Cal Ortiz", "Dee Park"]),
        col("Goals", "integer", "measure", 9, lo=3, hi=15),
    ],
)
PEAKS = TableProfile(
    row_count=4,
    columns=[
        col("Peak", "text", "id", 4, values=["Mount Alder", "Mount Birch", "Mount Cedar", "Mount Dogwood"]),
        col("Height", "integer", "measure", 4, lo=900, hi=3100),
        col("Prominence", "integer", "measure", 4, lo=100, hi=1500),
        col("First ascent", "integer", "measure", 4, lo=1850, hi=1960),
    ],
)


def _shape(spec):
    return (
        [(f["column"], f["op"], f.get("value")) for f in spec.get("filters", [])],
        [g["column"] for g in spec.get("group_by", [])],
        [(a["func"], a.get("column")) for a in spec["aggregations"]],
        [(s["by"], s.get("desc", False)) for s in spec.get("sort", [])][:1],
    )


@pytest.mark.parametrize(
    ("question", "profile", "func", "desc"),
    [
        ("which club had more players, red lions or blue hawks?", CLUBS, ("nunique", "Player"), True),
        ("more goals came from which club, red lions or green owls?", CLUBS, ("sum", "Goals"), True),
        ("did red lions or blue hawks score fewer goals?", CLUBS, ("sum", "Goals"), False),
        ("is mount alder or mount cedar taller?", PEAKS, ("max", "Height"), True),
        ("which peak had the earlier first ascent, mount alder or mount birch?", PEAKS, ("min", "First ascent"), False),
    ],
)
def test_the_named_values_are_compared_in_one_grouped_query(question, profile, func, desc):
    plan = analyze(question, profile)
    assert plan.question_kind == "named_choice" and plan.clarification is None
    filters, groups, aggregations, sort = _shape(plan.spec())
    column = groups[0]
    assert groups == [column] and filters[0][:2] == (column, "in") and len(filters[0][2]) == 2
    assert aggregations == [func] and sort[0][1] == desc


def test_rows_are_counted_when_the_comparative_counts_what_the_values_have():
    plan = analyze("which club appears more often, red lions or green owls?", CLUBS)
    assert _shape(plan.spec())[2] == [("count", None)]


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("which peak is better, mount alder or mount birch?", None),  # no comparative this kind reads
        ("which peak had more, mount alder or mount birch?", "“mount alder” and “mount birch” are one row each."),
        ("which club was more successful, red lions or blue hawks?", "“more” does not say which column"),
        ("which is higher, mount alder or mount cedar, by height or prominence?", None),
    ],
)
def test_what_cannot_be_told_is_asked_never_guessed(question, opening):
    plan = analyze(question, PEAKS if "mount" in question else CLUBS)
    assert plan.question_kind != "named_choice" or plan.clarification is not None
    if opening is not None:
        assert plan.clarification is not None and plan.clarification.question.startswith(opening)


def test_a_comparison_with_than_is_not_a_choice():
    plan = analyze("how many more goals did red lions score than blue hawks?", CLUBS)
    assert plan.question_kind == "named_difference"


STORES = "日期,订单号,门店,地区,销售额\n" + "".join(
    f"2025-0{1 + i % 6}-1{i % 9},SO{100 + i},{store},{region},{amount}\n"
    for i, (store, region, amount) in enumerate(
        [
            ("北京店", "华北", 1200),
            ("上海店", "华东", 900),
            ("北京店", "华北", 300),
            ("上海店", "华东", 1500),
            ("广州店", "华南", 700),
            ("上海店", "华东", 400),
            ("广州店", "华南", 650),
            ("杭州店", "华东", 800),
            ("深圳店", "华南", 650),
            ("深圳店", "华南", 700),
            ("杭州店", "华东", 500),
        ]
    )
)


@pytest.fixture
def stores(csv_binding):
    return csv_binding("stores.csv", STORES)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "哪个门店的销售额更高，北京店还是上海店？",
            "上海店的销售额合计更高（上海店：销售额合计 2,800；北京店：销售额合计 1,500）",
        ),
        ("华东和华南哪个地区订单更多", "华东的订单数更高（华东：订单数 5；华南：订单数 4）"),
        ("北京店和广州店哪个销售额低", "广州店的销售额合计更低"),
    ],
)
def test_a_whole_run_names_the_one_asked_for_with_both_figures_verified(stores, question, said):
    response = answer_question(binding=stores, question=question, model=OfflinePlanner())
    assert response.status == "answered" and response.verification.passed, response.answer
    assert response.answer.startswith(said)


def test_a_tie_is_said_as_a_tie(stores):
    response = answer_question(binding=stores, question="广州店和深圳店哪个门店销售额更高", model=OfflinePlanner())
    assert response.verification.passed
    assert response.answer.startswith("广州店、深圳店持平：") or response.answer.startswith("深圳店、广州店持平：")


def test_one_row_each_without_a_measure_is_asked(stores):
    response = answer_question(binding=stores, question="北京店还是上海店更大", model=OfflinePlanner())
    assert response.status != "answered" or "哪一列" in response.answer


def test_rows_of_another_column_asked_for_are_no_choice():
    plan = analyze("which players from red lions or blue hawks scored the most goals?", CLUBS)
    assert plan.question_kind != "named_choice"


def test_a_place_said_first_is_no_date():
    plan = analyze("which peak finished first, mount alder or mount birch?", PEAKS)
    assert plan.question_kind != "named_choice" or plan.clarification is not None


BEETLES = "Species,Country of origin,Released\n" + "".join(
    f"{name},{origin},{n}\n"
    for name, origin, n in [
        ("Aphodius a", '"France, Spain"', 10),
        ("Aphodius b", "Spain", 20),
        ("Bubas c", "South Africa", 5),
        ("Bubas d", "South Africa (via Hawaii)", 7),
        ("Copris e", "South Africa", 3),
        ("Copris f", "Kenya", 1),
    ]
)


def test_values_listed_among_others_are_each_counted_over_the_cells_holding_them(csv_binding):
    binding = csv_binding("beetles.csv", BEETLES)
    question = "more beetles came from which country, spain or south africa?"
    response = answer_question(binding=binding, question=question, model=OfflinePlanner())
    assert response.verification.passed, response.answer
    assert response.answer.startswith("South Africa has the higher count (South Africa: count 3; Spain: count 2).")
    assert "some of those cells list several values" in response.answer


def test_two_years_are_compared_as_the_values_named(csv_binding):
    binding = csv_binding("clubs.csv", CLUB_SEASONS)
    question = "were more goals scored in 2003 or 2004?"
    response = answer_question(binding=binding, question=question, model=OfflinePlanner())
    assert response.verification.passed, response.answer
    assert response.answer.startswith("2003 has the higher total Goals (2003: total Goals 19; 2004: total Goals 3).")


CLUB_SEASONS = """Season,Club,Player,Goals
2001,Red Lions,Ann Moss,12
2001,Blue Hawks,Bea Lund,7
2002,Red Lions,Cal Ortiz,9
2002,Blue Hawks,Dee Park,9
2003,Red Lions,Eli Ford,4
2003,Green Owls,Fay Gold,15
2004,Blue Hawks,Gus Hale,3
"""


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("which club had more players, red lions or blue hawks?", "Blue Hawks, Red Lions are level: each has"),
        ("did red lions or blue hawks score fewer goals?", "Blue Hawks has the lower total Goals"),
        ("which player scored more goals, cal ortiz or dee park?", "Cal Ortiz, Dee Park are level: each has Goals"),
    ],
)
def test_english_choices_are_answered_and_verified(csv_binding, question, said):
    binding = csv_binding("clubs.csv", CLUB_SEASONS)
    response = answer_question(binding=binding, question=question, model=OfflinePlanner())
    assert response.verification.passed, response.answer
    assert response.answer.startswith(said), response.answer


SQUAD = TableProfile(
    row_count=3,
    columns=[
        col("Name", "text", "id", 3, values=["Ann Moss", "Bea Lund", "Cal Ortiz"]),
        col("Age", "integer", "measure", 3, lo=27, hi=35),
        col("Season", "integer", "measure", 3, lo=2001, hi=2003),
    ],
)


def test_older_is_the_age_when_no_date_is_named_never_the_season():
    spec = analyze("which player is older, ann moss or bea lund?", SQUAD).spec()
    assert _shape(spec)[2:] == ([("max", "Age")], [(spec["aggregations"][0]["name"], True)])
    assert analyze("which player is younger, ann moss or bea lund?", SQUAD).spec()["sort"][0].get("desc") is not True


@pytest.mark.parametrize(
    "question",
    ["which club had more players, red lions or paris?", "who scored more goals, red lions or ann moss?"],
)
def test_a_value_not_in_the_data_or_of_another_column_is_no_choice(question):
    plan = analyze(question, CLUBS)
    assert plan.question_kind != "named_choice" and plan.kind == "fallback"


def test_chinese_more_without_what_is_counted_is_asked(stores):
    response = answer_question(binding=stores, question="北京店和上海店哪个卖得多", model=OfflinePlanner())
    assert "没有说明按哪一列比较" in response.answer and response.clarification is not None


def test_a_named_value_without_rows_under_the_conditions_is_said_and_no_one_is_named(csv_binding):
    binding = csv_binding("clubs.csv", CLUB_SEASONS)
    question = "which club scored more goals in 2001, red lions or green owls?"
    response = answer_question(binding=binding, question=question, model=OfflinePlanner())
    assert response.verification.passed, response.answer
    assert response.answer.startswith(
        "Green Owls has no total Goals in the rows that match (Red Lions: total Goals 12)"
    )


def test_a_count_over_cells_listing_the_value_says_how_many_hold_it_alone(csv_binding):
    binding = csv_binding("beetles.csv", BEETLES)
    response = answer_question(binding=binding, question="how many species came from spain?", model=OfflinePlanner())
    assert response.verification.passed, response.answer
    head = response.answer.split("\n")[0]
    assert " is 2 " in head and "Spain alone 1" in head, response.answer  # "France, Spain" and "Spain"
    single = answer_question(binding=binding, question="how many species came from kenya?", model=OfflinePlanner())
    assert "alone" not in single.answer, "Kenya is in no shared cell: one count"
