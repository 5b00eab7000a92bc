"""Question coverage (apps/agent/verification/coverage.py): the anchors read from a question."""

from __future__ import annotations

from apps.agent.verification.coverage import question_anchors
from apps.agent.verification.vocabulary import Vocabulary


def _anchors(question: str) -> list[tuple[str, str]]:
    return [(a.kind, a.key) for a in question_anchors(question, None) if a.kind in ("period", "number")]


def test_a_whole_date_written_in_lower_case_is_one_day_not_a_number_and_a_year():
    questions = ["which stadium was used on 4 march 2000?", "which stadium was used on march 4, 2000?"]
    for question in [*questions, "how many wins were there before march 4,2000?"]:
        anchors = _anchors(question)
        assert ("number", "4") not in [(k, key) for k, key in anchors], (question, anchors)
        assert any(k == "period" and "2000-03-04" in key for k, key in anchors), (question, anchors)
    assert _anchors("sales may 5 rise in 2000?") == _anchors("sales may 5 rise in 2000?".replace("may", "can"))


def test_the_last_year_opening_a_clause_is_the_latest_year_not_the_year_before_this_one():
    """ "what was the last year they came 3rd": the latest of the rows' years, an extreme the queries must take;
    "sales in the last year" stays the period before now."""
    anchors = question_anchors("what was the last year they came in 3rd place", None)
    assert ("operation", "max") in [(a.kind, a.key) for a in anchors]
    assert ("period", "relative") not in [(a.kind, a.key) for a in anchors]
    assert ("period", "relative") in _anchors("what were the sales in the last year?")
    assert ("period", "relative") in _anchors("how many orders came last year they said?")


def test_a_column_name_in_the_middle_of_a_value_names_no_column():
    """ "the birth of john the baptist" over a column John: the value's words, not the column; a column name at
    a value's edge ("total sales" beside a value Total Sales) may still be the column meant."""
    from apps.agent.verification.vocabulary import Vocabulary

    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "Event", "kind": "text", "role": "dimension", "values": ["Birth of John the Baptist"]},
                    {"name": "John", "kind": "text", "role": "dimension", "values": ["John 01:01"]},
                    {"name": "Kind", "kind": "text", "role": "dimension", "values": ["Total Sales"]},
                    {"name": "Sales", "kind": "number", "role": "measure"},
                ]
            }
        ]
    )
    inside = question_anchors("what event happened previous to the Birth of John the Baptist?", vocab)
    assert ("column", "John") not in [(a.kind, a.key) for a in inside]
    assert ("value", "birth of john the baptist") in [(a.kind, a.key) for a in inside]
    edge = question_anchors("what were the total sales?", vocab)
    assert any(a.kind == "column" and "Sales" in a.key for a in edge), edge


def test_a_grain_word_inside_a_columns_name_is_that_columns_word():
    """ "哪个账号的年度目标最高" over a column 年度目标: 年度 names the column, it asks for no yearly breakdown."""
    from apps.agent.verification.vocabulary import Vocabulary

    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "账号", "kind": "text", "role": "dimension", "values": ["线下门店", "京东自营"]},
                    {"name": "年度目标", "kind": "number", "role": "measure"},
                    {"name": "日期", "kind": "date", "role": "time", "min": "2025-01-01", "max": "2025-12-31"},
                ]
            }
        ]
    )
    kinds = [(a.kind, a.key) for a in question_anchors("哪个账号的年度目标最高", vocab)]
    assert not [k for k in kinds if k[0] == "grain"], kinds
    assert ("grain", "year") in [(a.kind, a.key) for a in question_anchors("各账号年度销售额", vocab)]


def _vocabulary(*measures: str) -> Vocabulary:
    columns = [
        {"name": "Name", "kind": "text", "role": "dimension", "values": ["Labour", "Greens"], "distinct_count": 2}
    ]
    columns += [{"name": m, "kind": "integer", "role": "measure", "distinct_count": 2} for m in measures]
    return Vocabulary.from_profiles([{"row_count": 2, "columns": columns}])


def _keys(question: str, vocab: Vocabulary) -> list[tuple[str, str]]:
    return [(a.kind, a.key) for a in question_anchors(question, vocab)]


def test_a_loss_ranked_is_the_change_column_and_a_verb_names_its_own_column():
    """ "which party lost the most seats": the largest fall of the one column of changes, never the most Seats
    held (with no column of changes nothing applies it); "which coach lost the most games": the Lost column."""
    keys = _keys("which party lost the most seats?", _vocabulary("Seats", "+/–"))
    assert ("operation", "min@+/–") in keys and ("operation", "max@Seats") not in keys, keys
    assert ("column", "Seats") not in keys, keys
    unread = _keys("which party gained the most seats?", _vocabulary("Seats"))
    assert ("operation", "max@") in unread and ("operation", "max@Seats") not in unread, unread
    verb = _keys("which coach lost the most games?", _vocabulary("Games", "Won", "Lost"))
    assert ("operation", "max@Lost") in verb and ("column", "Games") not in verb, verb


def test_a_decimal_without_its_leading_zero_is_a_threshold():
    assert ("number", "0.5") in _anchors("how many coaches had a winning percentage above .500?")


def test_which_one_answered_with_a_number_over_every_row_names_no_one():
    """ "which single reached the highest position" answered "best UK is 2" (one number, no row named) is not
    covered; a row listed, a named value or the extreme of a year is."""
    from apps.agent.verification.coverage import unnamed_which
    from apps.agent.verification.queries import QueryFacts

    vocab = Vocabulary.from_profiles(
        [
            {
                "row_count": 3,
                "columns": [
                    {"name": "Title", "kind": "text", "role": "dimension", "values": ["Ember", "Gravity", "Slow Burn"]},
                    {"name": "UK", "kind": "integer", "role": "measure"},
                    {"name": "Year", "kind": "integer", "role": "time"},
                ],
            }
        ]
    )

    def fact(spec: dict[str, object]) -> QueryFacts:
        return QueryFacts(1, "run_query", {"spec": spec}, ["x"], [[2]], 1)

    best = fact({"aggregations": [{"func": "min", "column": "UK", "name": "best UK"}]})
    question = "which single reached the highest position on the uk chart?"
    assert unnamed_which(question, [best], "best UK is 2.", vocab) == "which single"
    assert unnamed_which(question, [best], "Ember: best UK is 2.", vocab) is None
    listed = fact({"columns": ["Title", "UK"], "sort": [{"by": "UK"}], "limit": 1})
    assert unnamed_which(question, [listed], "1. Ember: UK 2", vocab) is None
    first = fact({"aggregations": [{"func": "min", "column": "Year", "name": "earliest Year"}]})
    assert unnamed_which("which year was the first single released?", [first], "earliest Year is 2008.", vocab) is None
    assert unnamed_which("which single was released first?", [first], "earliest Year is 2008.", vocab) is not None
    assert unnamed_which("how many singles charted?", [best], "count is 3.", vocab) is None
