"""A ranking that counting rows cannot decide: "which city has the most density" over a table with one row
per city counts 1 for every city, so any "winner" would be arbitrary. Asked back with the measures the data
has ("Which city has the highest density?"), never answered."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification, quotes_a_number
from apps.agent.offline import lexicon as lx
from apps.agent.offline.cues import ONE_ROW_EACH
from apps.agent.offline.followups import measure_phrase
from apps.agent.offline.lookup import names_works
from apps.agent.offline.metrics import numbers_as_text
from apps.agent.offline.plan import Lang, Plan
from apps.agent.offline.schema_terms import ColumnView, Schema
from apps.agent.offline.wording import names, speaking
from apps.datasets.query.spec import Filter, QuerySpec

if TYPE_CHECKING:
    from apps.agent.offline.drafts import ResultView
    from apps.agent.offline.intent import Analyzer

# "who …", "which …", "what year …": a value is asked for; `wh` is the asking words as written
# "what year …", "in which year did they finish 4th", "for what film …": a value asked for, a preposition before it
ASKS_FOR_A_VALUE = re.compile(
    rf"^\s*(?:(?:in|on|at|for|from|during|by|of|to|with)\s+)?"
    rf"(?P<wh>(?:{'|'.join(lx.VALUE_QUESTION_WORDS)})(?![a-z])(?:\s+[^\s?]+)?)",
    re.I,
)
_SUPERLATIVE_BEFORE = re.compile(
    r"(?<![a-z])(?P<word>best|worst|highest|lowest|top|bottom|largest|biggest|smallest|longest|shortest|tallest|"
    r"heaviest|lightest|deepest|widest|oldest|youngest|fastest|slowest)\s+$"
)
MAX_CHOICES = 3


def counts_single_rows(a: Analyzer, plan: Plan) -> bool:
    """A ranking of groups by their row counts where (nearly) every group is one row."""
    if plan.kind != "ranking" or not plan.dims or [m.func for m in plan.metrics] != ["count"]:
        return False
    rows = max(a.schema.row_count, 1)
    # one near-unique column makes every combination with it near-unique too
    return any(a.schema.by_name[g.column].distinct >= ONE_ROW_EACH * rows for g in plan.dims)


def _ranks_the_column(a: Analyzer, plan: Plan) -> str | None:
    """ "his best position" over a text Position column ("3rd", "DNF"): the superlative is on the column's own
    values, which a count of rows does not order. The superlative, or None."""
    if plan.kind != "ranking" or not plan.dims or [m.func for m in plan.metrics] != ["count"]:
        return None
    grouped = {g.column for g in plan.dims}
    for t in a.terms:
        if t.kind != "column" or t.column not in grouped:
            continue
        said = _SUPERLATIVE_BEFORE.search(a.text, 0, t.start)
        if said is not None:
            return a.question[said.start("word") : said.end("word")]
    return None


def _ranks_an_unread_measure(a: Analyzer, plan: Plan) -> str | None:
    """ "who directed the episode with the highest viewership": a superlative of a measure ("highest", not
    "most") on a word no column matched; counting each director's rows answers "who directed the most episodes".
    The superlative and its word, or None."""
    if plan.kind != "ranking" or not plan.dims or [m.func for m in plan.metrics] != ["count"]:
        return None
    for m in _MEASURE_SUPERLATIVE.finditer(a.text):
        if a.taken.find(1, m.end("word") + 1, m.end()) == -1:
            return a.question[m.start("word") : m.end()]
    grouped = {g.column for g in plan.dims}
    for t in a.terms:  # "the episode with the fewest viewers" over viewers written as text: no count of rows
        said = _ANY_SUPERLATIVE_BEFORE.search(a.text, 0, t.start)
        if said and t.kind == "column" and t.column not in grouped and numbers_as_text(a.view(t)):
            return a.question[said.start("word") : t.end]
    return None


# superlatives of an amount ("the highest viewership"), and of a count too ("the fewest viewers")
_OF_AMOUNT = "highest|lowest|largest|smallest|biggest|greatest|best|worst|top"
_MEASURE_SUPERLATIVE = re.compile(
    rf"(?<![a-z])(?P<word>{_OF_AMOUNT})\s+(?!number|count|amount|total)(?P<noun>[a-z]{{3,}})(?![a-z])"
)
_ANY_SUPERLATIVE_BEFORE = re.compile(rf"(?<![a-z])(?P<word>{_OF_AMOUNT}|most|least|fewest)\s+$")


def ask_about_ranking(a: Analyzer, plan: Plan) -> Clarification | None:
    on_the_column = _ranks_the_column(a, plan)
    unread = None if on_the_column else _ranks_an_unread_measure(a, plan)
    if not counts_single_rows(a, plan) and on_the_column is None and unread is None:
        return None
    group = plan.dims[0].column
    measures = a.schema.of("measure")[:MAX_CHOICES]
    with speaking(a.lang):
        choices = [
            _("Which %(group)s has the highest %(measure)s?") % {"group": group, "measure": measure_phrase(m)}
            for m in measures
        ]
        if unread is not None:
            question = _(
                "“%(word)s” names no column of numbers, so counting rows cannot rank them. Which column should "
                "rank them?"
            ) % {"word": unread}
        elif on_the_column is not None:
            question = _(
                "“%(group)s” holds text, so “%(word)s” cannot order its values. Which column should rank them?"
            ) % {"group": group, "word": on_the_column}
        else:
            question = _(
                "Each %(group)s appears in about one row, so counting rows cannot rank them. "
                "Which column should rank them?"
            ) % {"group": group}
    return Clarification(question, choices) if choices else Clarification(question, [])


def ask_about_single_row(a: Analyzer, plan: Plan) -> Clarification | None:
    """ "how many grandmasters does bulgaria have listed" over a table with one row per country: counting the
    rows of Bulgaria gives 1 whatever was asked; the number sought is in one of that row's columns."""
    if not plan.metrics or any(m.func not in ("count", "nunique") for m in plan.metrics):
        return None
    if plan.kind == "grouped":
        return _single_rows_counted(a, plan)
    if plan.kind != "scalar":
        return None
    rows = max(a.schema.row_count, 1)
    single = [
        f
        for f in plan.filters
        if f.op == "="
        and isinstance(f.value, str)
        and f.column in a.schema.by_name
        and a.schema.by_name[f.column].distinct >= ONE_ROW_EACH * rows * (1 - a.schema.by_name[f.column].null_ratio)
    ]
    value = str(single[0].value) if single else ""
    if not value or any(ch.isdigit() for ch in value) or _repeats(a, single[0].column, value):
        return None
    counted = {m.column for m in plan.metrics if m.func == "nunique" and m.column}
    return single_row_asked(a.schema, single[0].column, value, counted, a.lang)


def _single_rows_counted(a: Analyzer, plan: Plan) -> Clarification | None:
    """ "how many years after save the last dance 2 did red tails come out" over one row per film: each named row
    counted on its own gives 1 whatever was asked; which of their columns holds the number is asked."""
    if len(plan.groups) != 1:
        return None
    column = plan.groups[0].column
    view = a.schema.by_name.get(column)
    named = next((f for f in plan.filters if f.column == column and f.op == "in" and isinstance(f.value, list)), None)
    if view is None or named is None or view.distinct < ONE_ROW_EACH * a.schema.row_count * (1 - view.null_ratio):
        return None
    values = [str(v) for v in named.value] if isinstance(named.value, list) else []
    if len(values) < 2 or any(_repeats(a, column, v) for v in values):
        return None
    measures = _columns_offered(a.schema, column, {m.column for m in plan.metrics if m.column})
    with speaking(a.lang):
        if any(quotes_a_number(v) for v in values):  # a question asked back quotes no number: no names, no choices
            question = _(
                "I cannot count the rows this question names: each is a single row, so the count says nothing. "
                "Please ask for the column that holds the number you mean (%(columns)s)."
            ) % {"columns": names([f"“{m.name}”" for m in measures])}
            return Clarification(question, [])
        question = _(
            "%(values)s are a single row each, so counting their rows says nothing. Which of their columns holds "
            "the number you mean?"
        ) % {"values": names([f"“{v}”" for v in values])}
        pair = names(values)
        choices = [_("What is the %(column)s of %(value)s?") % {"column": m.name, "value": pair} for m in measures]
    return Clarification(question, choices)


def _columns_offered(schema: Schema, column: str, counted: set[str]) -> list[ColumnView]:
    """The columns a named row's number may be in: one the question counted first, then the measures, else any
    (never the naming column, nor one whose name holds a digit: a question asked back quotes no number)."""
    others = [v for v in schema.views if v.name != column and not any(ch.isdigit() for ch in v.name)]
    first = [v for v in others if v.name in counted]
    return list(dict.fromkeys(first + ([v for v in others if v.category == "measure"] or others)))[:MAX_CHOICES]


def single_row_asked(schema: Schema, column: str, value: str, counted: set[str], lang: Lang) -> Clarification:
    """Which column of the one row named `value` holds the number asked for: its columns as choices (one
    counted by the question first, then the measures, else any)."""
    measures = _columns_offered(schema, column, counted)
    with speaking(lang):
        question = _(
            "“%(value)s” is a single row, so counting its rows says nothing. Which of its columns holds the "
            "number you mean?"
        ) % {"value": value}
        choices = [_("What is the %(column)s of %(value)s?") % {"column": m.name, "value": value} for m in measures]
    return Clarification(question, choices)


NAMES_ROWS = 0.8  # distinct values per present row from which a column of titles names the rows


def counted_one_named_row(plan: Plan, result: ResultView, schema: Schema) -> Clarification | None:
    """ "how many characters were played in the tv series d.c." over a table of roles: the rows counted are the
    one row the question names by its title (a Title, Film or Show column, mostly one row each), so the count is 1
    whatever was asked; the number sought is in a column of that row (or listed inside its cells), which is
    asked rather than "1" shown. Known only from the result: such a column has a few repeated values."""
    if plan.kind != "scalar" or not plan.metrics or any(m.func != "count" or m.column or m.where for m in plan.metrics):
        return None
    if result.cell(0, plan.metrics[0].name) != 1:
        return None
    rows = max(schema.row_count, 1)
    named = [
        f
        for f in plan.filters
        if f.op == "="
        and isinstance(f.value, str)
        and not any(ch.isdigit() for ch in f.value)
        and f.column in schema.by_name
        and schema.by_name[f.column].category in ("dimension", "id")
        and names_works(f.column)
        and schema.by_name[f.column].distinct >= NAMES_ROWS * rows * (1 - schema.by_name[f.column].null_ratio)
    ]
    if len(named) != 1:
        return None
    return single_row_asked(schema, named[0].column, str(named[0].value), set(), plan.lang)


def _repeats(a: Analyzer, column: str, value: str) -> bool:
    """The value is its column's most frequent one in a column where some value repeats ("never used" among
    execution dates): it is in two rows at least, so counting its rows (of another column: states) says
    something."""
    profile = a.profile.column(column)
    counted = a.cues.count_target
    if profile is None or not profile.examples or (counted is not None and counted.column == column):
        return False  # "how many titles are in the nfl blitz series": titles named so are not what is counted
    present = round(a.schema.row_count * (1 - profile.null_ratio))
    return profile.distinct_count < present and str(profile.examples[0]).casefold() == value.casefold()


def ask_about_breakdown(a: Analyzer, plan: Plan) -> Clarification | None:
    """ "how many teams share a common kit manufacturer", "how many goals did brazil score": a count question
    names a column without "each", "per" or "by". Counting per value of it answers another question than one
    total, and a total that ignores it may miss a condition: which is meant is asked."""
    if not a.ungrouped:
        return None
    column = a.ungrouped[0].column
    asked = a.question.strip().rstrip("?？").strip()
    with speaking(a.lang):
        if quotes_a_number(column):  # a clarification's question quotes no number
            question = _("The question names a column without saying “each” or “per”. Count for each, or one total?")
        else:
            question = _(
                "The question names “%(column)s” without saying “each” or “per”. Count for each %(column)s, or "
                "one total?"
            ) % {"column": column}
        choices = [
            _("%(question)s, for each %(column)s?") % {"question": asked, "column": column},
            _("%(question)s, in total whatever the %(column)s?") % {"question": asked, "column": column},
        ]
    return Clarification(question, choices)


def ask_for_the_value(a: Analyzer, plan: Plan) -> Clarification:
    """ "what year was the first success?": the question asks for a value (who, which, when, what year), but
    only its conditions could be read. Counting the rows that meet them would answer "how many", another
    question: which column holds the value is asked."""
    asked = a.question.strip().rstrip("?？").strip()
    wh = ASKS_FOR_A_VALUE.match(asked)
    columns = [v.name for v in a.schema.views if not quotes_a_number(v.name)][:MAX_CHOICES]
    with speaking(a.lang):
        question = _(
            "The question asks “%(wh)s”, but I could not tell which column holds the answer or which row is "
            "meant, so I have not answered. Which column should I read?"
        ) % {"wh": wh["wh"] if wh and not quotes_a_number(wh["wh"]) else asked.split()[0]}
        choices = [_("%(question)s (from the %(column)s column)?") % {"question": asked, "column": c} for c in columns]
    return Clarification(question, choices)


def combined_spec(plan: Plan, result: ResultView) -> dict[str, Any] | None:
    """ "the top two parties combined": the query totalling the ranked groups' measure (the groups the ranking
    returned, by name), or None when a group has no name to keep it by."""
    group = plan.dims[0]
    names = [row[result.columns.index(group.name)] for row in result.rows] if group.name in result.columns else []
    metric = next((m for m in plan.metrics if plan.shown and m.name == plan.shown[0].name), None)
    if len(names) < 2 or any(n is None for n in names) or metric is None or metric.func not in ("sum", "count", "avg"):
        return None
    spec = QuerySpec(
        filters=[*plan.filters, Filter(column=group.column, op="in", value=names)],
        aggregations=[metric.aggregation()],
    )
    return spec.model_dump(mode="json", exclude_unset=True, exclude_none=True)
