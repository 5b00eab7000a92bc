"""The planner's next move, decided from the transcript alone: list tables, read the schema, run the
query, draw it, or write the final draft (plainly when the question cannot be mapped, and without any
query when it needs an analysis the tools cannot do or when it asks which of a few readings was meant)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils.translation import gettext as _
from pydantic import ValidationError

from apps.agent.clarification import Clarification, quotes_a_number, write_clarification
from apps.agent.offline import against_row
from apps.agent.offline.ambiguity import only_a_basis
from apps.agent.offline.drafts import ResultView, Writer, answer_draft, blank_notes, change_names
from apps.agent.offline.followups import fallback_draft, follow_ups
from apps.agent.offline.intent import analyze, language_of
from apps.agent.offline.plan import Anchor, Lang, Metric, Plan, filter_label
from apps.agent.offline.rankings import combined_spec, counted_one_named_row
from apps.agent.offline.refusals import refusal_draft
from apps.agent.offline.schema_terms import Schema, find_terms, fold, schema_of, singular
from apps.agent.offline.transcript import ToolResult, Transcript
from apps.agent.offline.trend_summary import change_spec, summarised
from apps.agent.offline.wording import names, speaking
from apps.datasets.ingest.profile import TableProfile


@dataclass
class Move:
    """Either tool calls (name, arguments) or a final draft."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    draft: str = ""
    purpose: Literal["", "anchor", "compared"] = ""  # the two queries of a comparison with one named row


log = logging.getLogger(__name__)
MIN_CHOICES = 2  # apps/agent/clarification.py: fewer, and the text is read as an ordinary answer
_YEAR = r"(?<!\d)(?:19|20)\d{2}(?!\d)"


def _table_args(table: str | None) -> dict[str, Any]:
    return {"table": table} if table else {}


def merged_question(previous: str, current: str, schema: Schema) -> str:
    """A follow-up ("那华北呢？", "what about 2024?") read as the previous question with its values swapped."""
    now = {t.column: t for t in find_terms(current, schema) if t.kind == "value"}
    text, used = previous, set()
    for term in sorted((t for t in find_terms(previous, schema) if t.kind == "value"), key=lambda t: -t.start):
        if term.column in now:
            text = text[: term.start] + str(now[term.column].value) + text[term.end :]
            used.add(term.column)
    rest = current
    for column in used:
        said = now[column]
        rest = rest[: said.start] + " " * (said.end - said.start) + rest[said.end :]
    years = re.findall(_YEAR, current)
    if len(set(years)) == 1 and re.search(_YEAR, text):  # "那2024年呢？": the same question for another year
        text, rest = re.sub(_YEAR, years[0], text), re.sub(_YEAR, " ", rest)
    return text.rstrip("?？。. ") + " " + rest.strip()


# "客单价呢？", "what about the average?": the same question for another measure, under the same conditions.
_ASKS_THE_SAME = re.compile(r"呢\s*[?？]?\s*$|^\s*(?:那|那么)|^\s*(?:what|how) about\b|^\s*and\b", re.IGNORECASE)


def inherit(plan: Plan, before: Plan) -> None:
    """The previous question's filters, applied to a follow-up that only swaps what is computed, and said so."""
    if before.kind == "fallback" or not before.filters:
        return
    plan.filters = [*before.filters, *plan.filters]
    with speaking(plan.lang):
        note = _("(kept from the previous question)")
    plan.filter_labels = [*before.filter_labels[:-1], before.filter_labels[-1] + note, *plan.filter_labels]


def choose_table(question: str, tables: list[str]) -> str | None:
    """The table the question names (or whose name shares most words with it), else the first."""
    if not tables:
        return None
    text = fold(question)

    def score(name: str) -> int:
        words = [singular(w) for w in fold(name).replace(".", " ").split() if len(w) >= 3]
        return sum(3 if w in text else 0 for w in words) + (5 if fold(name) in text else 0)

    return max(tables, key=lambda t: (score(t), -tables.index(t)))


def _profile(result: ToolResult) -> TableProfile | None:
    try:
        return TableProfile.model_validate(result.data)
    except ValidationError:
        return None


def _synonyms(result: ToolResult) -> dict[str, list[str]]:
    """The tenant's words per column, as get_schema lists them ({column: [words]}); anything else is ignored."""
    listed = result.data.get("synonyms") if isinstance(result.data, dict) else None
    if not isinstance(listed, dict):
        return {}
    return {
        str(column): [str(w) for w in words if isinstance(w, str)]
        for column, words in listed.items()
        if isinstance(words, list)
    }


def _view(query: ToolResult) -> ResultView:
    data = query.data if isinstance(query.data, dict) else {}
    return ResultView(
        ref=query.ref or "q1",
        columns=[str(c) for c in data.get("columns", [])],
        rows=[list(r) for r in data.get("rows", [])],
        row_count=int(data.get("row_count") or 0),
    )


def _without_table(question: str, table: str | None) -> str:
    """ "Total amount by region in orders", "orders表里的金额": the SQL table the question names was chosen
    already (choose_table); it is no condition on the rows."""
    if not table:
        return question
    name = re.escape(table)
    after_word = rf"\s+(?:in|from|of)\s+(?:the\s+)?{name}(?:\s+table)?(?![\w])"
    before_word = rf"(?<![\w]){name}\s*(?:表|table)(?:里|中)?的?"
    return re.sub(f"{after_word}|{before_word}", "", question, flags=re.IGNORECASE).strip() or question


class Planner:
    def __init__(self, transcript: Transcript, tools: set[str]) -> None:
        self.t, self.tools = transcript, tools
        self.lang: Lang = language_of(transcript.question)
        self.sql = "list_tables" in tools

    def table(self) -> str | None:
        listed = self.t.last_ok("list_tables")
        tables = listed.data.get("tables", []) if listed and isinstance(listed.data, dict) else []
        return choose_table(self.t.question, [str(t) for t in tables]) if self.sql else None

    def next_move(self) -> Move:
        schema_call = self.t.last_ok("get_schema")
        if schema_call is None:
            return self.read_schema()
        profile = _profile(schema_call)
        if profile is None or "run_query" not in self.tools:
            return Move(draft=self.cannot_read())
        synonyms = _synonyms(schema_call)
        plan, schema = self.plan_for(profile, synonyms), schema_of(profile, synonyms)
        if plan.clarification is not None:  # ambiguous: ask which reading was meant before computing anything
            return Move(draft=write_clarification(self.padded(plan.clarification, schema)))
        if plan.reason == "unsupported":  # nothing to compute: no query, so no number to quote
            return Move(draft=refusal_draft(plan, schema, self.t.question))
        return self.query_moves(plan, schema, schema_call.args.get("table"))

    def padded(self, asked: Clarification, schema: Schema) -> Clarification:
        """A clarification offers at least two choices (else it is no clarification): questions the data
        answers are added after the planner's own."""
        choices = list(dict.fromkeys(asked.choices))
        for extra in follow_ups(schema, None, self.lang, self.t.question):
            if len(choices) >= MIN_CHOICES:
                break
            if extra not in choices:
                choices.append(extra)
        return Clarification(asked.question, choices)

    def read_schema(self) -> Move:
        if self.sql and not self.t.of("list_tables"):
            return Move(calls=[("list_tables", {})])
        table = self.table()
        tried = self.t.of("get_schema")
        if "get_schema" not in self.tools or any(c.args == _table_args(table) for c in tried):
            return Move(draft=self.cannot_read())
        return Move(calls=[("get_schema", _table_args(table))])

    def plan_for(self, profile: TableProfile, synonyms: Mapping[str, Sequence[str]]) -> Plan:
        try:
            plan = self._plan_for(profile, synonyms)
            plan.query()  # a plan the engine would refuse is a planner fault, not the user's
            plan.notes += blank_notes(plan, profile)
            return plan
        except Exception:  # a question the planner trips over gets the plain answer, never a guess
            log.exception("the offline planner could not read %r", self.t.question[:200])
            plan = Plan(lang=self.lang, kind="fallback", reason="unmapped")
            plan.metrics = [Metric("行数" if self.lang == "zh" else "row_count", "count")]
            return plan

    def _plan_for(self, profile: TableProfile, synonyms: Mapping[str, Sequence[str]]) -> Plan:
        plan = analyze(_without_table(self.t.question, self.table()), profile, self.lang, synonyms, not self.sql)
        replies = only_a_basis(self.t.question)  # "按金额": the reply to a rate asked back about
        # "那李四呢？" alone asks nothing the data answers (or is asked back): the previous question for 李四
        follows = plan.reason == "clarify" and _ASKS_THE_SAME.search(self.t.question)
        if (replies or follows or plan.reason in ("unmapped", "default_count")) and self.t.history:
            merged = merged_question(self.t.history[-1], self.t.question, schema_of(profile, synonyms))
            follow = analyze(merged, profile, self.lang, synonyms, not self.sql)
            if follow.kind != "fallback":
                return follow
        if self.t.history and _ASKS_THE_SAME.search(self.t.question) and plan.kind != "fallback" and not plan.filters:
            inherit(plan, analyze(self.t.history[-1], profile, self.lang, synonyms, not self.sql))
        return plan

    def query_moves(self, plan: Plan, schema: Schema, table: str | None) -> Move:
        if plan.anchor is not None:
            return self.anchored_moves(plan, plan.anchor, schema, table)
        queries = self.t.of("run_query")
        if not queries:
            return Move(calls=[("run_query", {"spec": plan.spec(), **_table_args(table)})])
        main = queries[0]
        if not main.ok:
            last = queries[-1]
            if len(queries) == 1 and plan.kind != "fallback":
                counting = Plan(lang=self.lang, kind="fallback", reason="query_failed")
                counting.metrics = [Metric("行数" if self.lang == "zh" else "row_count", "count")]
                return Move(calls=[("run_query", {"spec": counting.spec(), **_table_args(table)})])
            if not last.ok:
                return Move(draft=self.cannot_read())
            # the main query failed and a plain count stood in for it
            plan = Plan(lang=self.lang, kind="fallback", reason="query_failed", metrics=plan.metrics[:0])
            plan.metrics = [Metric("行数" if self.lang == "zh" else "row_count", "count")]
            return self.after_query(plan, schema, last, table)
        return self.after_query(plan, schema, main, table, queries[1] if len(queries) > 1 else None)

    def anchored_moves(self, plan: Plan, anchor: Anchor, schema: Schema, table: str | None) -> Move:
        """Compared with one named row: its value first, then the rows compared with it (against_row.py)."""
        queries = self.t.of("run_query")
        if not queries:
            spec = anchor.spec(plan.filters)
            return Move(calls=[("run_query", {"spec": spec, **_table_args(table)})], purpose="anchor")
        first = _view(queries[0]) if queries[0].ok else None
        value = against_row.anchor_value(anchor, first) if first is not None else None
        if first is None or value is None:  # the named row holds no single value to compare with
            refused = Plan(lang=self.lang, kind="fallback", unmapped=[anchor.said], reason="unsupported")
            refused.unsupported = "row_compare"
            return Move(draft=refusal_draft(refused, schema, self.t.question))
        edge = against_row.beyond_the_file(anchor, value, schema, self.lang)
        if edge is not None:  # the named row is the file's first (last): nothing before (after) it to name
            return Move(draft="\n".join(edge + [f">> {q}" for q in follow_ups(schema, None, self.lang, "")]))
        where, having = anchor.conditions(value)
        plan.filters, plan.having = [*plan.filters, *where], [*plan.having, *having]
        if len(queries) == 1:
            return Move(calls=[("run_query", {"spec": plan.spec(), **_table_args(table)})], purpose="compared")
        if not queries[1].ok:
            return Move(draft=self.cannot_read())
        questions = follow_ups(schema, plan, self.lang, self.t.question)
        return Move(draft=against_row.draft(plan, first, _view(queries[1]), schema, questions))

    def after_query(
        self, plan: Plan, schema: Schema, query: ToolResult, table: str | None, change: ToolResult | None = None
    ) -> Move:
        result = _view(query)
        if plan.kind == "fallback":
            metric = plan.metrics[0].name
            return Move(draft=fallback_draft(plan, schema, query.ref, metric, self.lang, self.t.question))
        plots = self.t.of("plot")
        plot_args = plan.plot(result.ref, result.row_count) if "plot" in self.tools else None
        if plot_args is not None and not plots:
            return Move(calls=[("plot", plot_args)])
        chart = plots[-1].args.get("plot", {}).get("chart_type") if plots and plots[-1].ok else None
        summary = summarised(plan, result.columns, result.rows, result.row_count)
        together = combined_spec(plan, result) if plan.combined_top else None
        if together is not None and change is None:  # "the top two parties combined": their total, queried
            return Move(calls=[("run_query", {"spec": together, **_table_args(table)})])
        if summary and change is None:  # the overall change of a trend, computed by a query of its own
            spec = change_spec(plan, result.columns, result.rows, change_names(plan))
            return Move(calls=[("run_query", {"spec": spec, **_table_args(table)})])
        # nothing meets every condition together, or the count is the one row the question names: a misreading
        # more often than a fact
        emptied = empty_under_conditions(plan, result, schema) or counted_one_named_row(plan, result, schema)
        if emptied is not None:
            return Move(draft=write_clarification(self.padded(emptied, schema)))
        questions = follow_ups(schema, plan, self.lang, self.t.question)
        strict = self.t.verify_failed
        overall = _view(change) if summary and change is not None and change.ok else None
        combined = _view(change) if together is not None and change is not None and change.ok else None
        draft = answer_draft(
            plan, result, schema, questions, strict=strict, chart=chart, change=overall, combined=combined
        )
        return Move(draft=draft)

    def cannot_read(self) -> str:
        if self.lang == "zh":
            return "抱歉，我没能读取这份数据的结构或执行查询，所以无法回答这个问题。请检查数据源后重试。"
        return (
            "Sorry, I could not read this data's structure or run a query, so I cannot answer. "
            "Check the data source and try again."
        )


def empty_under_conditions(plan: Plan, result: ResultView, schema: Schema) -> Clarification | None:
    """ "how many seats did liberal and country league win" read as Party = … and Votes = WIN: when no row
    meets two or more conditions of the question together, the likelier story is that one of them was misread,
    not that the answer is "none". Which condition to keep is asked (each alone is a question the data
    answers), rather than "no rows" shown as a verified answer."""
    # "is not blank" and "without the summary row" are the planner's own conditions, not the question's
    asked = [f for f in plan.filters if f.op not in ("is_null", "!=")]
    if len(asked) < 2 or not Writer(plan, result, schema).nothing_matched():
        return None
    columns = list(dict.fromkeys(f.column for f in asked))
    with speaking(plan.lang):
        if any(quotes_a_number(c) for c in columns):
            question = _(
                "No row meets all the conditions together, so one of them may not be what you meant. "
                "Which one should I keep?"
            )
        else:
            question = _(
                "No row meets the conditions on %(columns)s together, so one of them may not be what you meant. "
                "Which one should I keep?"
            ) % {"columns": names([f"“{c}”" for c in columns])}
        labels = [filter_label(f.column, f.op, f.value, plan.lang) for f in asked]
        choices = [_("How many rows have %(condition)s?") % {"condition": label} for label in labels]
    return Clarification(question, choices)


def next_move(transcript: Transcript, tools: set[str]) -> Move:
    if not transcript.question:
        return Move(draft="请提出一个关于数据的问题。 / Ask a question about your data.")
    return Planner(transcript, tools).next_move()
