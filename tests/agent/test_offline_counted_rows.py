"""What a count of rows says, read against its own result (apps/agent/offline/rankings.py): a count that is only
the one row a question names by its title is asked about; a context year names the whole occasion it opens,
numbers included, in the note that says it was left out. Every other count is answered as before."""

from __future__ import annotations

import re

import pytest

from apps.agent.offline import OfflinePlanner
from apps.agent.response import AskResponse
from apps.agent.runner import answer_question
from apps.agent.tools import DataBinding

ROLES = """Genre,Year,Title,Role
Film,1994,Quiet Harbour,Dock worker
TV series,1995,Night Desk,Reporter
Film,1996,Paper Kites,Tom
TV series,1998,Night Desk,Editor
Film,1998,Salt Road,Driver
TV series,2000,Harbor Lights,"Rob
Rob
Councillor Hale
Neil"
Film,2001,Blue Acre,Farmer
Film,2002,Iron Bell,Captain
TV film,2003,Long Winter,Doctor
Film,2004,Glass Garden,Gardener
Film,2005,Cold Spring,Pilot
"""

SQUAD = """Player,College,Games
Ann Lee,State,12
Bo Kim,State,9
Cy Diaz,Tech,7
Dee Moss,State,10
Ed Park,Tech,8
Ann Lee,State,11
Flo Ruiz,Tech,6
"""

REGATTA = """Rank,Boat,Helm,Points
1,Swift,Ada Byrne,8
2,Gull,Ben Cole,11
3,Tern,Cara Dunn,14
4,Kite,Dan Eyre,17
5,Wren,Eve Ford,21
6,Lark,Finn Gale,26
"""


def ask(binding: DataBinding, question: str, history: list[dict[str, str]] | None = None) -> AskResponse:
    return answer_question(binding=binding, question=question, history=history or [], model=OfflinePlanner())


def asked_back(binding: DataBinding, question: str) -> AskResponse:
    """A clarification after the count ran: verified, no numbers in the question or its choices, no result shown."""
    response = ask(binding, question)
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    assert response.clarification is not None, response.answer
    assert len(response.clarification.choices) >= 2
    assert not re.search(r"\d", response.clarification.question + " ".join(response.clarification.choices))
    return response


def verified(binding: DataBinding, question: str, history: list[dict[str, str]] | None = None) -> AskResponse:
    response = ask(binding, question, history)
    assert response.status == "answered" and response.clarification is None, response.answer
    assert response.verification.passed, response.verification.reasons
    return response


@pytest.fixture
def roles(csv_binding) -> DataBinding:
    return csv_binding("roles.csv", ROLES)


@pytest.mark.django_db
def test_a_count_of_the_one_titled_row_asks_which_column_holds_the_number(roles):
    response = asked_back(roles, "how many characters were played in the tv series harbor lights in 2000?")
    assert "Harbor Lights" in response.answer and "single row" in response.answer
    assert "count is 1" not in response.answer
    assert all("Harbor Lights" in c for c in response.clarification.choices)
    chosen = verified(roles, response.clarification.choices[0], [{"question": "", "answer": response.answer}])
    assert chosen.tables, chosen.answer


@pytest.mark.django_db
def test_counts_of_several_rows_or_by_another_column_are_answered(roles):
    assert "Role is 2" in verified(roles, "how many roles were in night desk?").answer  # a title of two rows
    assert "count is 1" in verified(roles, "how many tv films are listed?").answer  # a genre, not a title
    assert "count is 7" in verified(roles, "how many films are listed?").answer


@pytest.mark.django_db
def test_a_name_repeated_once_gets_both_counts_side_by_side(csv_binding):
    squad = csv_binding("squad.csv", SQUAD)
    answer = verified(squad, "what is the total number of players from state?").answer
    assert "3" in answer and "rows 4" in answer  # Ann Lee twice: three players, four rows


@pytest.mark.django_db
def test_a_context_year_takes_the_name_of_its_occasion_into_the_note(csv_binding):
    regatta = csv_binding("regatta.csv", REGATTA)
    response = verified(
        regatta, "in the 2019 harbour regatta 470 class final, how many boats finished with more than 12 points?"
    )
    assert "Boat is 4" in response.answer
    assert "2019 harbour regatta 470 class final" in response.answer and "left out" in response.answer
    assert {c.anchor: c.status for c in response.verification.coverage}.get("470") == "disclosed"


@pytest.mark.django_db
def test_a_number_a_column_reads_stays_a_condition_after_a_context_year(csv_binding):
    regatta = csv_binding("regatta.csv", REGATTA)
    response = verified(regatta, "in the 2019 regatta, how many boats had more than 20 points?")
    assert "Boat is 2" in response.answer and "Points > 20" in response.answer


ORDERS_ZH = "地区,渠道,销售额\n华东,线上,100\n华东,线上,120\n华北,线下,90\n华南,线下,80\n华南,线上,70\n"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "lang_word"),
    [("华东线下渠道的销售额是多少？", "满足"), ("what were the sales in 华东 through 线下?", "How many rows have")],
)
def test_conditions_no_row_meets_together_are_asked_about_and_each_choice_is_answered(csv_binding, question, lang_word):
    """No row is both 华东 and 线下: one of the two is more likely misread than a total over no rows, so which to
    keep is asked; each choice (in the question's language) is a question the data answers."""
    orders = csv_binding("orders.csv", ORDERS_ZH)
    response = asked_back(orders, question)
    assert all(lang_word in c for c in response.clarification.choices), response.clarification.choices
    history = [{"question": question, "answer": response.answer}]
    counts = {verified(orders, c, history).answer.split("\n")[0] for c in response.clarification.choices[:2]}
    assert all(re.search(r"\b2\b", c) for c in counts), counts  # two rows of 华东, two of 线下
