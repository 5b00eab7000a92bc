"""How the offline planner accounts for every word of a question: periods written as ranges and decades,
exclusions after an article, two named groups compared, words it cannot apply asked about (a condition with
nothing close in the data, a negation it did not read, a name that points at values it did not select, a sum
of positions), never dropped from a verified answer."""

from __future__ import annotations

import pytest

from apps.agent.offline.intent import analyze
from apps.datasets.ingest.profile import TableProfile
from tests.agent.test_offline_kinds import COFFEE, RETURNS
from tests.agent.test_offline_planner import col, kept

SINGLES = TableProfile(
    row_count=30,
    columns=[
        col("Year", "integer", "time", 20, lo=1981, hi=2004),
        col("Song", "text", "dimension", 30, values=[f"Song {i}" for i in range(30)]),
        col("Chart", "integer", "measure", 20, lo=1, hi=90),
    ],
)
MATCHES = TableProfile(
    row_count=14,
    columns=[
        col("Date", "text", "dimension", 14, values=[f"{d} August 1998" for d in range(1, 15)]),
        col("Opponent", "text", "dimension", 5, values=["Estonia", "Lithuania", "Faroe Islands", "Wales", "Chile"]),
        col("Competition", "text", "dimension", 3, values=["Friendly match", "UEFA Euro 2000 qualifying", "Cup"]),
        col("Goals", "integer", "measure", 5, lo=0, hi=4),
    ],
)
CLUBS = TableProfile(
    row_count=16,
    columns=[
        col("Position", "integer", "measure", 16, lo=1, hi=16),
        col("Club", "text", "dimension", 16, values=["Córdoba CF", "CD Málaga", "CD Villarrobledo", "Real Jaén"]),
        col("Points", "integer", "measure", 14, lo=12, hi=40),
    ],
)
MEDAL_TABLE = TableProfile(
    row_count=60,
    columns=[
        col("Nation", "text", "id", 60, values=["United States", "Russia", "Norway"] + [f"N{i}" for i in range(57)]),
        col("Gold", "integer", "measure", 20, lo=0, hi=40),
        col("Silver", "integer", "measure", 20, lo=0, hi=30),
    ],
)
DRAFT = TableProfile(
    row_count=40,
    columns=[
        col("Round", "integer", "measure", 8, lo=1, hi=8),
        col("Player", "text", "dimension", 40, values=["Greg Schaum", "Ed Bauer"] + [f"P{i}" for i in range(38)]),
        col("Position", "text", "dimension", 6, values=["QB", "OT", "DE", "WR", "RB", "LB"]),
        col("Jurisdiction", "text", "dimension", 5, values=["Texas", "Ohio", "Iowa", "Utah", "Maine"]),
        col("Courthouse", "text", "dimension", 30, values=[f"House {i}" for i in range(30)]),
    ],
)


def _filters(question: str, profile: TableProfile) -> list[tuple[str, str, object]]:
    return [(f["column"], f["op"], f["value"]) for f in analyze(question, profile).spec().get("filters", [])]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how many singles were released before the year 2000?", [("Year", "<", 2000)]),
        ("how many singles between 1985 and 1990?", [("Year", ">=", 1985), ("Year", "<=", 1990)]),
        ("how many singles from 1985 to 1990?", [("Year", ">=", 1985), ("Year", "<=", 1990)]),
        ("how many singles from 1985-1990?", [("Year", ">=", 1985), ("Year", "<=", 1990)]),
        ("how many singles in the 1980s?", [("Year", ">=", 1980), ("Year", "<=", 1989)]),
        ("how many singles through the eighties?", [("Year", ">=", 1980), ("Year", "<=", 1989)]),
        ("how many singles in the 20th century?", [("Year", ">=", 1900), ("Year", "<=", 1999)]),
        ("how many singles in the twenty-first century?", [("Year", ">=", 2000), ("Year", "<=", 2099)]),
        ("20世纪有多少首单曲", [("Year", ">=", 1900), ("Year", "<=", 1999)]),
        ("how many singles after the 1990 tour?", [("Year", ">", 1990)]),
        ("1985年到1990年有多少首单曲", [("Year", ">=", 1985), ("Year", "<=", 1990)]),
    ],
)
def test_a_range_of_years_or_a_decade_is_both_ends_not_one_year(question, expected):
    assert _filters(question, SINGLES) == expected


def test_a_range_of_years_on_a_date_column_runs_from_the_first_day_to_the_day_after_the_last():
    assert _filters("2024年到2025年的销售额", STORES) == [("日期", ">=", "2024-01-01"), ("日期", "<", "2026-01-01")]


def test_an_exclusion_reads_through_an_article():
    assert _filters("how many matches were something other than a friendly match?", MATCHES) == [
        ("Competition", "!=", "Friendly match")
    ]


def test_a_negation_the_plan_does_not_apply_is_asked_about_not_answered_the_other_way():
    for question in ("how many matches were not played against a strong side?", "how many goals did they not score?"):
        plan = analyze(question, MATCHES)
        assert plan.clarification is not None and plan.kind == "fallback", question
    assert analyze("how many matches were not a friendly match?", MATCHES).clarification is None


def test_a_condition_nothing_in_the_data_matches_is_asked_about_with_the_question_without_it():
    plan = analyze("how many goals in the regular season?", MATCHES)
    assert plan.clarification is not None and "regular season" in plan.clarification.question
    assert plan.clarification.choices == ["how many goals?"]


def test_a_month_with_no_date_column_to_take_it_is_asked_about():
    plan = analyze("how many matches were played in the month of november?", MATCHES)
    assert plan.clarification is not None and "november" in plan.clarification.question


def test_a_name_that_points_at_a_value_it_does_not_equal_is_asked_about():
    plan = analyze("how many points did cordoba get?", CLUBS)
    assert plan.clarification is not None
    assert plan.clarification.choices == ["how many points did Córdoba CF get?"]


def test_accents_do_not_hide_a_value_and_every_name_of_an_id_column_is_read():
    assert _filters("how many points did córdoba cf get?", CLUBS) == [("Club", "=", "Córdoba CF")]
    assert _filters("how many points did cordoba cf get?", CLUBS) == [("Club", "=", "Córdoba CF")]
    assert _filters("how many silver medals did norway win?", MEDAL_TABLE) == [("Nation", "=", "Norway")]


def test_two_named_groups_compared_give_one_difference_computed_by_the_query():
    spec = analyze("how many more silver medals did the united states win compared to russia?", MEDAL_TABLE).spec()
    us, russia = spec["aggregations"]
    assert (us["func"], us["column"], us["where"]) == (
        "sum",
        "Silver",
        [{"column": "Nation", "op": "=", "value": "United States"}],
    )
    assert russia["where"] == [{"column": "Nation", "op": "=", "value": "Russia"}]
    assert spec["derived"] == [{"name": "more by", "expr": f"[{us['name']}] - [{russia['name']}]"}]
    assert "group_by" not in spec and "filters" not in spec
    spec = analyze("what is the difference in gold between norway and russia?", MEDAL_TABLE).spec()
    assert spec["derived"][0]["expr"].startswith("abs(")
    spec = analyze("天猫旗舰店比京东自营多卖了多少销售金额", RETURNS).spec()
    assert [a["where"][0]["value"] for a in spec["aggregations"]] == ["天猫旗舰店", "京东自营"]


def test_two_named_rows_compared_by_counting_rows_are_asked_which_column():
    plan = analyze("how many more medals did norway win than russia?", MEDAL_TABLE)
    assert plan.clarification is not None
    assert plan.clarification.choices[0] == "What is the difference in Gold between Norway and Russia?"


def test_positions_are_never_added_up():
    plan = analyze("how many rounds were there?", DRAFT)
    assert plan.clarification is not None
    assert plan.clarification.choices == ["What is the highest Round?", "How many different Round values are there?"]


def test_what_the_most_of_is_counted_not_grouped():
    spec = analyze("which jurisdiction has the most courthouses?", DRAFT).spec()
    assert [g["column"] for g in spec["group_by"]] == ["Jurisdiction"]


# The coffee chain's table with its stores and discounts beside them.
STORES = COFFEE.model_copy(
    update={
        "row_count": 2924,
        "columns": [
            *COFFEE.columns,
            col("门店", "text", "dimension", 4, values=["人民广场店", "三里屯店", "国贸店", "滨江店"]),
            col("优惠金额", "number", "measure", 1900, lo=0.0, hi=544.0),
        ],
    }
)


def test_how_much_money_is_the_sales_and_what_is_taken_off_it_is_subtracted_by_the_query():
    spec = analyze("2025年一共卖了多少钱", STORES).spec()
    assert [(a["func"], a["column"]) for a in spec["aggregations"]] == [("sum", "销售额")]
    spec = analyze("2025年扣掉优惠之后实际收了多少钱", STORES).spec()
    sales, discount = sorted(spec["aggregations"], key=lambda a: a["column"] != "销售额")
    assert (sales["column"], discount["column"]) == ("销售额", "优惠金额")
    assert spec["derived"][0]["expr"] == f"[{sales['name']}] - [{discount['name']}]"


def test_a_shop_word_names_the_store_column_and_each_store_is_ranked_by_its_total():
    spec = analyze("销售额垫底的是哪家店", STORES).spec()
    assert spec["group_by"] == [{"column": "门店"}] and kept(spec) == 1
    assert spec["sort"][0]["desc"] is False
    assert analyze("优惠金额最多的前3家店", STORES).spec()["limit"] == 3


def test_which_day_groups_by_day_and_sold_best_asks_by_money_or_by_units():
    plan = analyze("2025年哪一天卖得最好", STORES)
    assert plan.clarification is not None
    assert plan.clarification.choices == ["2025年哪一天销售额最高", "2025年哪一天杯数最高"]
    spec = analyze(plan.clarification.choices[0], STORES).spec()
    assert spec["group_by"] == [{"column": "日期", "grain": "day"}] and kept(spec) == 1


def test_per_unit_divides_by_the_column_counted_in_that_unit():
    spec = analyze("各品类每杯平均卖多少钱", STORES).spec()
    assert spec["derived"] == [{"name": "销售额/杯数", "expr": "[销售额合计] / [杯数合计]"}]


def test_a_rate_of_something_the_data_does_not_record_is_asked_about():
    plan = analyze("人民广场店的复购率是多少", STORES)
    assert plan.kind == "fallback" and plan.clarification is not None and "复购" in plan.clarification.question
    plan = analyze("复购率是多少", STORES)  # nothing else to compute: refused, naming the word
    assert plan.kind == "fallback" and plan.unmapped == ["复购"]


def test_a_rise_between_two_quarters_of_two_digit_years_is_their_change():
    spec = analyze("25年三季度杯数比24年三季度涨了多少", STORES).spec()
    now, before = spec["aggregations"]
    assert now["where"][0]["value"] == "2025-Q3" and before["where"][0]["value"] == "2024-Q3"
    assert "filters" not in spec


FILMS = TableProfile(
    row_count=20,
    columns=[
        col("Year", "integer", "time", 15, lo=1988, hi=2010),
        col("Film Title", "text", "id", 20, values=[f"Film {c}" for c in "ABCDEFGHIJKLMNOPQRST"]),
        col(
            "Genre", "text", "dimension", 5, values=["Love story", "A village love story", "Thriller", "Drama", "Crime"]
        ),
    ],
)
CHESS = TableProfile(
    row_count=60,
    columns=[
        col("Country", "text", "id", 60, values=["Bulgaria", "Albania", "Argentina"] + [f"C{i}" for i in range(57)]),
        col("GM", "integer", "measure", 30, lo=0, hi=90),
        col("FIDE", "integer", "measure", 50, lo=1, hi=2000),
    ],
)


def test_a_phrase_that_names_a_few_values_in_other_words_is_asked_about_with_those_values():
    plan = analyze("what is the total number of films that are love stories?", FILMS)
    assert plan.clarification is not None
    assert plan.clarification.choices == [
        "what is the total number of films that are Love story?",
        "what is the total number of films that are A village love story?",
    ]


def test_counting_the_rows_of_a_single_named_row_is_asked_about():
    plan = analyze("how many grandmasters does bulgaria have listed?", CHESS)
    assert plan.clarification is not None
    assert plan.clarification.choices == ["What is the GM of Bulgaria?", "What is the FIDE of Bulgaria?"]


def test_counting_the_rows_of_a_value_that_repeats_is_answered():
    """ "never used" is the most frequent of the execution dates, so it is in several rows: they are counted."""
    executions = TableProfile(
        row_count=40,
        columns=[
            col("State", "text", "id", 40, values=[f"S{i}" for i in range(40)]),
            col("Last execution date", "text", "dimension", 36, examples=["never used", "May 1, 1990", "June 3, 1979"]),
        ],
    )
    plan = analyze("what is the total number of states that have never used capital punishment?", executions)
    assert plan.clarification is None, plan.clarification
    assert [(f.column, f.value) for f in plan.filters] == [("Last execution date", "never used")]
    single = TableProfile(
        row_count=40, columns=[*executions.columns[:1], {**executions.columns[1].model_dump(), "distinct_count": 40}]
    )
    assert analyze("how many states have never used capital punishment?", single).clarification is not None


def test_the_same_as_another_row_is_refused_as_a_comparison_of_rows():
    plan = analyze("how many countries have the same number of grandmasters as bulgaria?", CHESS)
    assert plan.reason == "unsupported" and plan.unsupported == "row_compare"


PLAYERS = TableProfile(
    row_count=10,
    columns=[
        col("Rank", "integer", "measure", 10, lo=1, hi=10),
        col("Name", "text", "dimension", 10, values=[f"Player {c}" for c in "ABCDEFGHIJ"]),
        col("Points", "integer", "measure", 10, lo=10, hi=99),
    ],
)


def test_on_a_column_of_places_the_best_is_number_one():
    assert analyze("which player has the highest rank?", PLAYERS).spec()["sort"] == [{"by": "Rank", "desc": False}]
    assert analyze("which player has the lowest rank?", PLAYERS).spec()["sort"] == [{"by": "Rank", "desc": True}]
    assert analyze("which player has the most points?", PLAYERS).spec()["sort"][0]["desc"] is True


def test_an_english_question_over_chinese_names_reads_total_then_the_data_s_own_name():
    spec = analyze("What is the total revenue in 2025?", STORES).spec()
    assert [a["name"] for a in spec["aggregations"]] == ["total 销售额"]


GAMES = TableProfile(
    row_count=30,
    columns=[
        col("Date", "date", "time", 30, lo="2004-09-12", hi="2005-04-20"),
        col("Opponent", "text", "dimension", 8, values=["Purdue", "Iowa", "Ohio State", "Michigan"]),
        col("Attendance", "integer", "measure", 30, lo=8000, hi=78000),
    ],
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how many games were played in december?", [("Date", "=", "2004-12")]),
        ("how many games were played during the month of march?", [("Date", "=", "2005-03")]),
        ("how many games were played on dec 24, 2004?", [("Date", ">=", "2004-12-24"), ("Date", "<", "2004-12-25")]),
        ("how many games were played on 4 march 2005?", [("Date", ">=", "2005-03-04"), ("Date", "<", "2005-03-05")]),
        ("how many games were played on january 29?", [("Date", ">=", "2005-01-29"), ("Date", "<", "2005-01-30")]),
        ("how many games were played before march 4,2005?", [("Date", "<", "2005-03-04")]),
        ("how many games were played after january 29?", [("Date", ">=", "2005-01-30")]),
    ],
)
def test_a_day_or_a_month_without_its_year_is_read_in_the_one_year_the_data_has_it(question, expected):
    assert _filters(question, GAMES) == expected


def test_a_month_the_data_has_in_several_years_is_not_given_a_year():
    """The data runs from September to April: September comes once (2004), but "in may" is not in the data at
    all, and over two seasons December comes twice: every December, whatever the year, and none pinned to one."""
    two_seasons = TableProfile(
        row_count=60, columns=[col("Date", "date", "time", 60, lo="2003-09-01", hi="2005-04-20"), *GAMES.columns[1:]]
    )
    december = analyze("how many games were played in december?", two_seasons)
    assert december.clarification is None and [(f.column, f.op, f.value, f.grain) for f in december.filters] == [
        ("Date", "=", 12, "month_of_year")
    ]
    assert "December of every year" in december.filter_labels[0]
    assert _filters("how many games were played in may?", GAMES) == []
    for question in ("how many games were played by the end of march?", "how many games since the start of march?"):
        assert not any(f[1] == "=" for f in _filters(question, GAMES)), "the end of a month is not the month"


def test_an_amount_no_column_holds_is_asked_about_not_answered_with_a_count_of_rows():
    """ "the total number of points" over a table of games with no points column: counting the games answers
    another question."""
    for question in ("what is the total number of points earned in december?", "how many goals did iowa score?"):
        plan = analyze(question, GAMES)
        assert plan.clarification is not None and plan.kind == "fallback", question
    assert analyze("how many games were played against iowa?", GAMES).clarification is None
    assert analyze("how many days had an attendance over 50000?", GAMES).clarification is None


def test_a_difference_the_plan_does_not_compute_is_asked_about_not_answered_with_the_measure():
    """Before: "total Time (s) is 971.37", verified, for the gap between two finishers."""
    results = TableProfile(
        row_count=8,
        columns=[
            col("Rank", "integer", "measure", 8, lo=1, hi=8),
            col("Athlete", "text", "dimension", 8, values=[f"Runner {c}" for c in "ABCDEFGH"]),
            col("Time (s)", "number", "measure", 8, lo=120.06, hi=123.01),
        ],
    )
    question = "what was the time difference between the first place finisher and the eighth place finisher?"
    plan = analyze(question, results)
    assert plan.clarification is not None and plan.kind == "fallback", plan
    assert "difference" in plan.clarification.question


def test_a_year_nothing_in_the_data_could_hold_is_the_occasion_and_said_to_be_left_out():
    """A medal table has no date, no year and no number reaching 2013: "the 2013 competition" is what the table
    is about, so the count is answered and the occasion noted as left out. A bound ("before 2013") is asked about as
    before; a table that could hold the year (a column of years, cells that write one) reads it there."""
    plan = analyze("what was the number of gold medals won by norway during the 2013 competition?", MEDAL_TABLE)
    assert plan.clarification is None and plan.unmapped == ["during the 2013 competition"], plan
    assert analyze("how many gold medals did norway win before 2013?", MEDAL_TABLE).clarification is not None
    in_data = analyze("how many singles did they release in the 2003 season?", SINGLES)
    assert in_data.unmapped == [] and ("Year", "=", 2003) in _filters("how many singles in the 2003 season?", SINGLES)
    dated = TableProfile(
        row_count=3,
        columns=[
            col("Player", "text", "dimension", 3, values=["A", "B", "C"]),
            col("Born", "text", "dimension", 3, values=["August 7, 1986 (age 27)", "June 3, 1979", "May 1, 1990"]),
        ],
    )
    question = "how many players were born in 1988?"  # cells write years: the ones that write 1988
    born = analyze(question, dated)
    assert born.unmapped == [] and born.clarification is None
    assert [(f.column, f.op, f.value) for f in born.filters] == [("Born", "contains", "1988")]


def test_the_top_of_a_measure_alone_is_its_largest_value():
    spec = analyze("what was the top gold?", MEDAL_TABLE).spec()
    assert [a["func"] for a in spec["aggregations"]] == ["max"], spec
    ranked = analyze("what was greg schaum's top round?", DRAFT).spec()  # a place: number 1 is the top
    assert [a["func"] for a in ranked["aggregations"]] == ["min"], ranked


PURSUIT = TableProfile(
    row_count=16,
    columns=[
        col("Rank", "integer", "measure", 16, lo=1, hi=16),
        col("Team", "text", "id", 16, values=["France", "Italy", "Spain"] + [f"T{i}" for i in range(13)]),
        col("Qualification", "text", "dimension", 1, values=["q"], null_ratio=0.5),
    ],
)


@pytest.mark.parametrize(
    "question",
    [
        "how many teams have no qualification?",
        "which teams were without a qualification?",
        "没有Qualification的队伍有几个",
    ],
)
def test_a_text_column_said_to_be_lacking_keeps_the_rows_where_it_is_blank(question):
    plan = analyze(question, PURSUIT)
    assert plan.clarification is None and not plan.groups, question
    assert [(f.column, f.op, f.value) for f in plan.filters] == [("Qualification", "is_null", True)]


def test_a_text_column_never_left_blank_is_not_read_as_lacking():
    full = PURSUIT.model_copy(deep=True)
    full.columns[2].null_ratio = 0.0
    assert not any(f.op == "is_null" for f in analyze("how many teams have no qualification?", full).filters)


SERIES = TableProfile(
    row_count=14,
    columns=[
        col("Series", "integer", "measure", 14, lo=1, hi=14),
        col("Episodes", "integer", "measure", 8, lo=10, hi=21),
    ],
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how many episodes are in series 1-3 combined?", [("Series", ">=", 1), ("Series", "<=", 3)]),
        ("how many episodes did series 2 to 4 have?", [("Series", ">=", 2), ("Series", "<=", 4)]),
        ("how many episodes were in series 3?", [("Series", "=", 3)]),
    ],
)
def test_numbered_occasions_said_by_number_or_as_a_span_are_filters_not_amounts(question, expected):
    plan = analyze(question, SERIES)
    assert _filters(question, SERIES) == expected and [m.column for m in plan.metrics] == ["Episodes"]


@pytest.mark.parametrize(
    "question", ["how many epiodes are in series 1-3 combined?", "how many episdoes did series 2 have?"]
)
def test_a_column_name_misspelt_by_one_slip_is_still_that_column(question):
    assert [m.column for m in analyze(question, SERIES).metrics] == ["Episodes"]


def test_a_word_two_slips_from_a_column_or_a_stop_word_is_not_read_as_one():
    assert analyze("how many epsodse are in series 2?", SERIES).kind == "fallback"


def test_a_change_between_two_years_of_a_word_no_column_matches_is_not_answered_with_row_counts():
    plan = analyze("what is the difference between the qualfying time in 1985 and 1990?", SINGLES)
    assert plan.kind == "fallback" and "qualfying" in plan.unmapped
    counted = analyze("how many more singles in 1990 than in 1985?", SINGLES)
    assert counted.kind != "fallback" and all(m.func == "count" for m in counted.metrics)


def test_a_half_year_without_its_year_is_in_the_year_the_question_names():
    plan = analyze("2025年下半年比上半年销售额增长了多少", STORES)
    assert plan.question_kind == "period_change"
    said = [(f.column, f.op, f.value) for m in plan.metrics for f in m.where]
    assert ("日期", ">=", "2025-07-01") in said and ("日期", ">=", "2025-01-01") in said, said
    assert any("2025-H2" in m.name for m in plan.metrics), plan.metrics


def test_one_quantity_in_two_units_is_read_without_asking():
    """ "Isolation (mi)" and "Isolation (km)" order the peaks alike: the first is read, its unit in its name;
    two different quantities of one word ("Year opened", "Year abandoned") are still asked about."""
    peaks = TableProfile(
        row_count=20,
        columns=[
            col("Mountain Peak", "text", "id", 20, values=[f"Peak {i}" for i in range(20)]),
            col("Isolation (mi)", "number", "measure", 20, lo=1, hi=1646),
            col("Isolation (km)", "number", "measure", 20, lo=2, hi=2649),
        ],
    )
    plan = analyze("which mountain peak has the most isolation?", peaks)
    assert plan.clarification is None, plan.clarification
    assert [m.column for m in plan.metrics] == ["Isolation (mi)"]
    canals = TableProfile(
        row_count=20,
        columns=[
            col("Canal", "text", "id", 20, values=[f"Canal {i}" for i in range(20)]),
            col("Length (miles)", "number", "measure", 20, lo=1, hi=90),
            col("Year opened", "integer", "measure", 20, lo=1700, hi=1900),
            col("Year abandoned", "integer", "measure", 20, lo=1800, hi=1990),
        ],
    )
    assert analyze("what is the average year of the canals?", canals).clarification is not None


def test_medals_alone_are_a_medal_tables_total():
    medals = TableProfile(
        row_count=60,
        columns=[
            *MEDAL_TABLE.columns,
            col("Bronze", "integer", "measure", 20, lo=0, hi=30),
            col("Total", "integer", "measure", 40, lo=1, hi=90),
        ],
    )
    spec = analyze("how many more medals did the united states win compared to russia?", medals).spec()
    assert {a["column"] for a in spec["aggregations"]} == {"Total"}, spec
    assert [a["name"] for a in spec["aggregations"]] == ["total Total (United States)", "total Total (Russia)"]
    bronze = analyze("how many bronze medals did norway win?", medals).spec()  # the longer name is the metal's
    assert [a["column"] for a in bronze["aggregations"]] == ["Bronze"], bronze


def test_a_country_named_by_its_people_is_that_countrys_rows():
    swimmers = TableProfile(
        row_count=16,
        columns=[
            col("Rank", "integer", "measure", 16, lo=1, hi=16),
            col("Name", "text", "id", 16, values=[f"Swimmer {i}" for i in range(16)]),
            col(
                "Nationality", "text", "dimension", 5, values=["Australia", "Canada", "Japan", "United States", "Spain"]
            ),
        ],
    )
    for question, country in [
        ("how many australians are there?", "Australia"),
        ("how many american swimmers are there?", "United States"),
        ("how many swimmers are spanish?", "Spain"),
    ]:
        assert _filters(question, swimmers) == [("Nationality", "=", country)], question


def test_two_values_sharing_their_last_word_are_both_read():
    athletes = TableProfile(
        row_count=30,
        columns=[
            col("Name", "text", "id", 30, values=[f"Athlete {i}" for i in range(30)]),
            col("Nationality", "text", "dimension", 4, values=["North Korea", "South Korea", "Japan", "China"]),
        ],
    )
    assert _filters("how many competitors were from north and south korea combined?", athletes) == [
        ("Nationality", "in", ["North Korea", "South Korea"])
    ]


def test_what_a_unit_measures_names_its_column():
    """ "Top speed (km/h)" is a speed and "Weight (kg)" a weight: "the highest cruise speed" and "the average
    weight" read the columns whose units say so."""
    aircraft = TableProfile(
        row_count=12,
        columns=[
            col("Model", "text", "id", 12, values=[f"M{i}" for i in range(12)]),
            col("Cruise (km/h)", "integer", "measure", 12, lo=300, hi=900),
            col("Empty (kg)", "integer", "measure", 12, lo=9000, hi=90000),
            col("Range (nmi)", "integer", "measure", 12, lo=500, hi=9000),
        ],
    )
    speed = analyze("what is the highest cruise speed?", aircraft).spec()
    assert [(a["func"], a["column"]) for a in speed["aggregations"]] == [("max", "Cruise (km/h)")]
    weight = analyze("what is the average weight?", aircraft).spec()
    assert [a["column"] for a in weight["aggregations"]] == ["Empty (kg)"]


def test_people_living_somewhere_are_its_population():
    towns = TableProfile(
        row_count=20,
        columns=[
            col("Town", "text", "id", 20, values=[f"T{i}" for i in range(20)]),
            col("Population", "integer", "measure", 20, lo=30, hi=12000),
            col("Island", "text", "dimension", 4, values=["North", "South", "East", "West"]),
        ],
    )
    for question in ("which town has the highest number of people?", "which town has the most residents?"):
        spec = analyze(question, towns).spec()
        assert [a.get("column") for a in spec["aggregations"]] == ["Population"], (question, spec)
        assert spec["sort"][0]["desc"] is True, (question, spec)


def test_a_value_named_without_its_kind_word_and_a_word_that_names_one_column_of_several():
    """ "forth and clyde" is the Forth and Clyde Canal of a column Canal whose values end with "Canal" (a name of
    one word is no such value: "crinan" may be a common word); "the year … restored" reads Year restored, not
    Year opened or Year abandoned."""
    canals = TableProfile(
        row_count=4,
        columns=[
            col("Canal", "text", "id", 4, values=["Forth and Clyde Canal", "Crinan Canal", "Union Canal", "Monkland"]),
            col("Year opened", "integer", "measure", 4, lo=1790, hi=1822),
            col("Year abandoned", "integer", "measure", 3, lo=1854, hi=1963),
            col("Year restored", "integer", "time", 2, lo=2001, hi=2002),
        ],
    )
    plan = analyze("which year was the forth and clyde restored?", canals)
    assert plan.clarification is None, plan.clarification
    assert [g.column for g in plan.groups] == ["Year restored"], plan
    assert ("Canal", "=", "Forth and Clyde Canal") in _filters("which year was the forth and clyde restored?", canals)
    assert ("Canal", "=", "Crinan Canal") not in _filters("how many locks does crinan have?", canals)


def test_a_word_that_is_a_value_itself_is_read_as_that_value_before_the_value_it_stands_for():
    """ "french" is a Language of the data: the songs in French, not those from France (its demonym)."""
    songs = TableProfile(
        row_count=6,
        columns=[
            col("Country", "text", "dimension", 4, values=["France", "Belgium", "Luxembourg", "Italy"]),
            col("Language", "text", "dimension", 3, values=["French", "Dutch", "Italian"]),
            col("Points", "integer", "measure", 6, lo=1, hi=20),
        ],
    )
    assert _filters("how many songs were sung in french?", songs) == [("Language", "=", "French")]
    assert _filters(
        "how many points did the french entry get?", TableProfile(row_count=6, columns=songs.columns[::2])
    ) == [("Country", "=", "France")]
