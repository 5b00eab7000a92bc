"""verify(): the checks of docs/VERIFY.md, in order — output hygiene, tool failure, fake data, number grounding (query
results only), claim binding, required tools by what the answer claims, question coverage; and check_plan_text()
for the text streamed beside tool calls. Deterministic and fast (one index per run, O(1) per number)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from apps.agent import durations
from apps.agent.clarification import choice_spans
from apps.agent.verification.binding import Binder, ClauseLabels, clause_around, specific_periods
from apps.agent.verification.coverage import (
    cover,
    excluded_but_kept,
    question_anchors,
    quoted_as_not_applied,
    unnamed_which,
)
from apps.agent.verification.evidence import Evidence, months_of_quarters
from apps.agent.verification.grounding import (
    Provenance,
    date_is_known,
    date_tokens_of_prose,
)
from apps.agent.verification.hygiene import split_follow_ups, strip_think, unknown_urls, urls_in
from apps.agent.verification.inputs import (
    DEFAULT_REQUIRED_TOOLS,
    EarlierTurn,
    SourceType,
    ToolCallRecord,
    VerifyInput,
)
from apps.agent.verification.numbers import UNITS, Mention, canonical_date, count_word, find_mentions, mentions_of
from apps.agent.verification.patterns import find_fake_data
from apps.agent.verification.queries import QueryFacts
from apps.agent.verification.superlatives import (
    comparison_problems,
    confirmed_direction_problems,
    confirmed_superlative_problems,
    half_problems,
    superlative_problems,
)
from apps.agent.verification.verdict import Coverage, Exempt, Grounded, MatchedPattern, Reason, Ungrounded, Verdict
from apps.agent.verification.vocabulary import LabelFinder, norm
from apps.datasets.ingest.profile import total_label

# The verify node's public names: callers import the inputs from here, as from one module.
__all__ = [
    "DEFAULT_REQUIRED_TOOLS",
    "EarlierTurn",
    "SourceType",
    "ToolCallRecord",
    "VerifyInput",
    "check_plan_text",
    "verify",
]

_COMPARED = re.compile(
    r"没有|未|不到|不足|达到|超过|低于|高于|少于|多于|相比|比|差|距离|而非|不是|\bnot\b|cannot|below|above|short of|"
    r"less than|more than|fewer than|exceed|compared|versus|\bvs\b|rather than|instead of|\bthan\b",
    re.IGNORECASE,
)


def _tool_failures(calls: list[ToolCallRecord]) -> list[ToolCallRecord]:
    """System errors not replaced by a later successful call of the same tool."""
    failed = []
    for i, call in enumerate(calls):
        if call.status != "system_error":
            continue
        if not any(later.name == call.name and later.status == "ok" for later in calls[i + 1 :]):
            failed.append(call)
    return failed


def _missing_tools(inp: VerifyInput) -> list[str]:
    used = {c.name for c in inp.tool_calls if c.status == "ok"}
    rule = inp.required_tools.get(inp.source_type, {})
    missing = [t for t in rule.get("all", []) if t not in used]
    any_of = rule.get("any", [])
    if any_of and not used.intersection(any_of):
        missing.append(" or ".join(any_of))
    return missing


# "(本期 - 上期) / 上期 × 100%": the constants of a formula are not data.
# What follows a count of columns: "两个金额字段" (a column kind may stand between), "3 columns", "两列".
_COLUMN_COUNT = re.compile(
    r"\s?(?:个|项)?\s?[^\s系，。,；;]{0,4}?(?:字段|列(?![出表举])|栏)|\s?(?:[A-Za-z_]+\s)?(?:columns?|fields?)\b"
)
_FORMULA_CONSTANT = re.compile(r"[×x*/÷]\s*\d+%?|\d+%?\s*[×*/÷]")
_A_TIME = re.compile(durations.DURATION, re.IGNORECASE)
_NUMERIC_TEXT = re.compile(r"^[\d\s.,%:/\-年月日Q]+$")
_CN_NUMERALS = frozenset("零一二两三四五六七八九十百千万亿")
_DIGIT = re.compile(r"\d")
# a number spelt out in a name ("Top Ten Places"): quoted, it is part of the name
_SPELT = re.compile(
    r"(?i)(?<![a-z])(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
    r"hundred|thousand|million)(?![a-z])"
)


def _identifier_spans(draft: str, texts: set[str], whitelist: Iterable[str]) -> list[tuple[int, int]]:
    """Spans of the draft that quote a text cell of a result ("User 7", "SKU-1024", 七天无理由, a category "57",
    an age band "1950-1955") or a whitelisted pattern: their digits are part of a label, not numbers to ground."""
    spans = []
    for text in texts:
        if len(text) < 2 or not (any(ch.isdigit() or ch in _CN_NUMERALS for ch in text) or _SPELT.search(text)):
            continue
        numeric = bool(_NUMERIC_TEXT.match(text))
        start = draft.find(text)
        while start != -1:
            end = start + len(text)
            # A numeric-looking label counts only as a whole token, never as part of a longer number.
            if not numeric or not (_digit_at(draft, start - 1) or _digit_at(draft, end)):
                spans.append((start, end))
            start = draft.find(text, start + 1)
    for pattern in whitelist:
        spans += [m.span() for m in re.finditer(pattern, draft)]
    return spans


def _filtered_names(facts: Iterable[QueryFacts]) -> set[str]:
    """Text values with digits that the queries filter on ("客户7", "Store 12"): quoted in an answer, their digits
    are part of the name."""
    return {
        v
        for fact in facts
        for v in fact.filter_values()
        if isinstance(v, str) and _DIGIT.search(v) and not _NUMERIC_TEXT.match(v)
    }


def _digit_at(text: str, i: int) -> bool:
    return 0 <= i < len(text) and (text[i].isdigit() or text[i] in ".,")


class _Checker:
    def __init__(self, inp: VerifyInput, draft: str) -> None:
        self.inp, self.draft = inp, draft
        self.ev = Evidence(inp)
        # A clarification (apps/agent/clarification.py) asks instead of answering: its choice lines are questions.
        self.choices = choice_spans(draft)
        asked = mentions_of(inp.question)
        self.asked = [m for m in asked if m.kind in ("number", "rank")]
        self.known_dates = date_tokens_of_prose(inp.question) | self.ev.index.dates | self.ev.earlier_index.dates
        for fact in self.ev.facts:
            self.known_dates |= fact.filter_period_tokens
        for text in [*self.ev.search_texts, *(t.question for t in inp.earlier)]:  # periods the user already named
            self.known_dates |= date_tokens_of_prose(text)
        self.known_dates |= months_of_quarters(self.known_dates)
        for low, high in inp.vocabulary.time_spans if inp.vocabulary else []:  # "按 2024—2025 年全部数据"
            years = [int(t) for t in (low[:4], high[:4]) if t.isdigit()]
            if len(years) == 2 and years[1] - years[0] <= 50:
                self.known_dates |= {str(y) for y in range(years[0], years[1] + 1)}
        self.verdict = Verdict(passed=True)
        self.mentions: list[Mention] = []
        self.search_grounded = 0
        self.data_grounded: list[Grounded] = []
        self.bound: list[tuple[Mention, Provenance]] = []  # this run's numbers and the cells they are bound to

    # --- grounding --------------------------------------------------------------------------------

    def exempt_reason(self, mention: Mention, plan_text: bool) -> str | None:
        if mention.kind == "list_marker":
            return "list marker"
        if mention.kind in ("number", "rank") and self._in_choice(mention) and self._from_question(mention):
            return "the question's own figure, repeated in a question offered as a choice"
        if mention.kind == "date":
            if date_is_known(canonical_date(mention.text), self.known_dates):
                return "date in the question or results"
            return "an example date; no data was read" if self._example(mention) else None
        if mention.kind == "rank":
            return "rank within the rows returned" if mention.scaled <= max(self.ev.max_rows, 1) else None
        if self._counts_columns(mention):
            return "a count of the data's columns (its structure), not of its rows"
        near = self.draft[max(0, mention.start - 3) : mention.end + 3]
        if mention.value in (1.0, 100.0, 1000.0) and _FORMULA_CONSTANT.search(near):
            return "a constant of a formula"
        return self._asked_reason(mention, plan_text) if self._from_question(mention) else None

    def _asked_reason(self, mention: Mention, plan_text: bool) -> str | None:
        """Why a number of the question, said again, is no claim of the answer (None: it must be grounded)."""
        if plan_text:
            return "stated in the question"
        if quoted_as_not_applied(self.draft, mention.start, mention.end):
            return "the question's own words, quoted as not applied"
        percent = mention.unit == "%"  # "less than 40%" over a column of percentages: the parameter is 40
        if any(
            _same(mention.value, p) or _same(mention.value, p * 100) or (percent and _same(mention.value * 100, p))
            for p in self.ev.parameters
        ):
            return "a parameter of the query, from the question"
        if self._part_of_a_time_used(mention):
            return "part of a time from the question, a parameter of the query in seconds"
        return None

    def _part_of_a_time_used(self, mention: Mention) -> bool:
        """ "under 1 minute and 55 seconds", said back in the answer: its numbers are one time, which the query
        compares in seconds (115)."""
        for m in _A_TIME.finditer(self.draft, max(0, mention.start - 40), mention.end + 40):
            if m.start() <= mention.start and mention.end <= m.end():
                said = durations.seconds(m.group(0))
                return said is not None and any(_same(said, p) for p in self.ev.parameters)
        return False

    def _counts_columns(self, mention: Mention) -> bool:
        """ "两个金额字段", "3 columns": a small whole number of the schema's columns, not a figure of the data."""
        if mention.kind != "number" or not float(mention.value).is_integer() or not 1 <= mention.value <= 50:
            return False
        if not _COLUMN_COUNT.match(self.draft, mention.end):
            return False
        vocab = self.inp.vocabulary
        return vocab is None or not vocab.columns or mention.value <= len(vocab.columns)

    def _example(self, mention: Mention) -> bool:
        """Without any data read, a date in a clause that names nothing of the data is an example (a definition
        of 同比 that says "3 月与去年 3 月相比"), not a claim."""
        if self.ev.facts or self.ev.earlier_facts:
            return False
        left, right = clause_around(self.draft, mention.start, mention.end)
        return not self._data_words().find(self.draft[left:right])

    def value_words(self) -> LabelFinder:
        """The values of the data's dimension columns (naming one states something about the data); not a
        summary row's label ("Total"), which says "total" as any answer may."""
        if not hasattr(self, "_values"):
            self._values = LabelFinder()
            for value in self.inp.vocabulary.raw_values.values() if self.inp.vocabulary else []:
                if total_label([value]) is None:
                    self._values.add(value)
        return self._values

    def _data_words(self) -> LabelFinder:
        """The data's values and column names."""
        if not hasattr(self, "_words"):
            self._words = LabelFinder()
            vocab = self.inp.vocabulary
            for word in [*(vocab.raw_values.values() if vocab else []), *(vocab.column_words() if vocab else {})]:
                self._words.add(word)
        return self._words

    def _from_question(self, mention: Mention) -> bool:
        """The number as the question said it; or without the scale said with it ("more than 6.5 million
        viewers" over Viewers (millions): 6.5)."""
        return any(
            _same(mention.value, a.value) or (UNITS[a.unit] >= 1e3 and _same(mention.value, a.value / UNITS[a.unit]))
            for a in self.asked
        )

    def _in_choice(self, mention: Mention) -> bool:
        return any(start <= mention.start and mention.end <= end for start, end in self.choices)

    def name_spans(self) -> list[tuple[int, int]]:
        """In the choice lines of a clarification: the data's column names and values (digits in a name, such as
        "Population 2000", are part of the name)."""
        vocab = self.inp.vocabulary
        if not self.choices or vocab is None:
            return []
        names = [n for n in [*vocab.columns, *vocab.raw_values.values()] if _DIGIT.search(n)]
        return [span for span in _identifier_spans(self.draft, set(names), ()) if self._span_in_choice(span)]

    def _span_in_choice(self, span: tuple[int, int]) -> bool:
        return any(start <= span[0] and span[1] <= end for start, end in self.choices)

    def locate(self, numbers: list[Mention]) -> list[tuple[Provenance | None, ClauseLabels | None]]:
        """For each number: the result cell it is found in (this run's results first, then earlier turns'), and the
        labels of its clause when it is found."""
        index, earlier = self.ev.index, self.ev.earlier_index
        wheres = [index.lookup(m) or earlier.lookup(m) for m in numbers]
        if all(where is None for where in wheres):
            return [(None, None)] * len(numbers)
        binder = self.binder
        return [
            (where, None if where is None else binder.labels(m.start, m.end))
            for m, where in zip(numbers, wheres, strict=True)
        ]

    def ground(self, mention: Mention, where: Provenance | None, labels: ClauseLabels | None) -> None:
        if where is None:
            if self.ev.search_index.lookup(mention) is not None:
                self.search_grounded += 1
                self.verdict.exempt.append(Exempt(text=mention.text, why="from a web search result"))
            elif self._from_question(mention) and _COMPARED.search(self._clause(mention)):
                self.verdict.exempt.append(Exempt(text=mention.text, why="the question's figure, compared"))
            else:
                self.verdict.ungrounded.append(Ungrounded(text=mention.text, position=mention.start))
            return
        self.bind(mention, where, labels)

    def _clause(self, mention: Mention) -> str:
        left, right = clause_around(self.draft, mention.start, mention.end)
        return self.draft[left:right]

    # --- binding ----------------------------------------------------------------------------------

    def bind(self, mention: Mention, first: Provenance, labels: ClauseLabels | None) -> None:
        binder = self.binder
        chosen = first
        if labels is not None and not binder.agrees(first, labels):
            pool = itertools.chain(self.ev.index.candidates(mention), self.ev.earlier_index.candidates(mention))
            agreeing = next((c for c in pool if binder.agrees(c, labels)), None)
            if agreeing is None:
                shown = "/".join(labels.shown()) or "its label"
                self.verdict.fail(
                    "mislabeled_value",
                    f"{mention.text} is written next to {shown}, but it is the {binder.describe(first)}; "
                    "quote each value with the label of its own row and column",
                )
                return
            chosen = agreeing
        grounded = Grounded(
            text=mention.text,
            value=mention.value,
            step=chosen.step,
            row=chosen.row,
            column=chosen.column,
            labels=labels.shown() if labels else [],
            earlier_turn=-chosen.step if chosen.step < 0 else None,
        )
        self.verdict.grounding.append(grounded)
        if chosen.step >= 0:
            self.data_grounded.append(grounded)
            self.bound.append((mention, chosen))

    @property
    def binder(self) -> Binder:
        if not hasattr(self, "_binder"):
            self._binder = self.ev.binder(self.draft, self.inp.vocabulary, self.mentions)
        return self._binder


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _common_checks(checker: _Checker, inp: VerifyInput, draft: str, *, plan_text: bool) -> list[Mention]:
    """Fake data, links and number grounding: what every text shown to people must pass."""
    verdict, ev = checker.verdict, checker.ev
    unknown = unknown_urls(draft, [*ev.texts, inp.question])
    if unknown:
        verdict.fail("unknown_url", f"these links were not returned by any tool: {', '.join(unknown[:3])}")
    real_texts = ev.texts | {inp.question, *(t.question for t in inp.earlier), *(t.answer for t in inp.earlier)}
    for match in find_fake_data(draft, patterns=inp.patterns, whitelist=inp.whitelist, real_texts=real_texts):
        verdict.matched_patterns.append(MatchedPattern(pattern=match.code, text=match.text, position=match.start))
    if verdict.matched_patterns:
        shown = ", ".join(sorted({m.text for m in verdict.matched_patterns}))
        verdict.fail("fake_data_pattern", f"the answer shows placeholder or sample data not in any result: {shown}")
    # digits inside a result column's name ("2025-12退货金额合计") are part of the name, not numbers
    named = {c for f in ev.facts for c in f.columns if _DIGIT.search(c)}
    named |= {c for c in (inp.vocabulary.columns if inp.vocabulary else {}) if _DIGIT.search(c) or _SPELT.search(c)}
    named |= _filtered_names(ev.facts)  # "客户7的销售额": the value the query filtered on, quoted
    protected = _identifier_spans(draft, ev.cell_texts | named, inp.whitelist) + checker.name_spans()
    mentions = find_mentions(draft, protected=protected)
    checker.mentions = mentions
    # Each step runs over all the numbers before the next one (exemptions, then lookups, then the labels of their
    # clauses) instead of number by number: one kind of work at a time runs faster. What is found is still recorded
    # in the draft's order, below.
    whys = [None if m.kind == "reference" else checker.exempt_reason(m, plan_text) for m in mentions]
    numbers = [m for m, why in zip(mentions, whys, strict=True) if not why and m.kind == "number"]
    located = iter(checker.locate(numbers) if not plan_text else [])
    for mention, why in zip(mentions, whys, strict=True):
        if mention.kind == "reference":
            verdict.fail("unfilled_reference", f"{mention.text} refers to a value no tool returned")
            continue
        if why:
            verdict.exempt.append(Exempt(text=mention.text, why=why))
        elif mention.kind == "number" and not plan_text:
            checker.ground(mention, *next(located))
        elif mention.kind == "number" and (
            ev.index.lookup(mention) or ev.earlier_index.lookup(mention) or ev.search_index.lookup(mention)
        ):
            continue
        else:
            verdict.ungrounded.append(Ungrounded(text=mention.text, position=mention.start))
    if verdict.ungrounded:
        shown = ", ".join(u.text for u in verdict.ungrounded[:8])
        message = (
            f"these numbers were not returned by any query: {shown}; compute them with run_query "
            "(derived/windows) and refer to the result, or remove them"
        )
        if inp.strict:
            verdict.fail("ungrounded_number", message)
        else:
            verdict.warnings.append(Reason(code="ungrounded_number", message=message))
    return mentions


def check_plan_text(inp: VerifyInput) -> Verdict:
    """The text a model streams beside its tool calls: no invented numbers, names or links reach people."""
    draft = strip_think(inp.draft)
    checker = _Checker(inp, draft)
    if draft:
        _common_checks(checker, inp, draft, plan_text=True)
    checker.verdict.checks = ["no_fake_data", "numbers_grounded", "links_from_tools"]
    return checker.verdict


def verify(inp: VerifyInput) -> Verdict:
    draft = strip_think(inp.draft)
    verdict = Verdict(passed=True)
    if not split_follow_ups(draft)[0]:  # suggested questions alone answer nothing
        verdict.fail("empty_answer", "the answer is empty; write the answer to the question")
        return verdict
    failures = _tool_failures(inp.tool_calls)
    if failures:
        names = ", ".join(sorted({f.name for f in failures}))
        verdict.fail("tool_failed", f"tool call failed and was not recovered: {names}")
        return verdict  # the draft is never shown when a tool failed
    checker = _Checker(inp, draft)
    _common_checks(checker, inp, draft, plan_text=False)
    verdict = checker.verdict
    _check_required_tools(checker, inp, draft)
    results = [f for f in checker.ev.facts if f.name != "list_tables"]
    for problem in superlative_problems(draft, results, checker.binder):
        verdict.fail("mislabeled_value", problem + "; name the row the result ranks first (or last)")
    for problem in comparison_problems(draft, results, checker.binder):
        verdict.fail("mislabeled_value", problem + "; state the comparison the result shows")
    for problem in _whole_of_a_part(checker, inp, draft):
        verdict.fail("mislabeled_value", problem)
    for problem in confirmed_superlative_problems(inp.question, draft, results, checker.binder):
        verdict.fail("mislabeled_value", problem + "; answer the question with the row the result ranks first")
    for problem in confirmed_direction_problems(inp.question, draft, results):
        verdict.fail("mislabeled_value", problem + "; answer with the direction the result shows")
    for problem in half_problems(draft, _shares(checker)):
        verdict.fail("mislabeled_value", problem + "; say whether it is more or less than half as the value shows")
    for problem in _top_n_problems(checker):
        verdict.fail("mislabeled_value", problem)
    for problem in _list_order_problems(checker):
        verdict.fail("mislabeled_value", problem)
    _check_coverage(checker, inp, draft)
    verdict.checks = ["no_fake_data", "numbers_grounded", "labels_bound", "links_from_tools"]
    if verdict.coverage:
        verdict.checks.append("question_covered")
    verdict.passed = not verdict.reasons
    return verdict


# Words that present a figure as the whole: 全院, 全公司, 整体, 所有, overall, the whole, entire.
_WHOLE = re.compile(
    r"全(?:院|部|体|公司|国|店|校|市|省|网|平台|集团|行|厂|球|量)|整体|总体|所有|\boverall\b|\bwhole\b|\bentire\b|"
    r"\bacross all\b|\ball (?:of )?(?:the )?\w+s\b",
    re.I,
)

_WHOLE_HINTS = ("全", "整体", "总体", "所有", "overall", "whole", "entire", "all ")


def _whole_of_a_part(checker: _Checker, inp: VerifyInput, draft: str) -> list[str]:
    """A number presented as the whole (全院费用, overall) must not come from a query narrowed to one group the
    question does not name: a filter kept from an earlier turn, or a share computed within a subset."""
    lowered = draft.lower()
    if not checker.bound or not any(w in lowered for w in _WHOLE_HINTS) or not _WHOLE.search(draft):
        return []
    asked = norm(inp.question)
    problems: list[str] = []
    for mention, where in checker.bound:
        clause = checker._clause(mention)
        whole = _WHOLE.search(clause)
        fact = checker.ev.by_step.get(where.step)
        if whole is None or fact is None:
            continue
        narrowed = [v for v in fact.equality_labels() if norm(v) not in asked and norm(v) not in norm(clause)]
        if narrowed:
            problems.append(
                f"{mention.text} is presented as {whole.group(0)!r}, but its query was narrowed to "
                f"{', '.join(map(repr, narrowed))}, which the question does not ask for; query the whole, or say "
                "which part the figure covers"
            )
    return problems


def _cell(checker: _Checker, where: Provenance) -> object:
    fact = checker.ev.by_step.get(where.step)
    if fact is None or where.row is None or where.row >= len(fact.rows) or where.column not in fact.columns:
        return None
    row = fact.rows[where.row]
    c = list(fact.columns).index(where.column)
    return row[c] if c < len(row) else None


def _shares(checker: _Checker) -> list[tuple[int, float]]:
    """(position, fraction) of the numbers written as percentages, from the cells they are bound to."""
    found = []
    for mention, where in checker.bound:
        if not mention.text.rstrip().endswith(("%", "％")):
            continue
        value = _cell(checker, where)
        if isinstance(value, int | float) and not isinstance(value, bool):
            found.append((mention.start, float(value) if abs(value) <= 1 else float(value) / 100))
    return found


_TOP_N = re.compile(
    r"(?:\btop\b|\bfirst\b|前)\s*(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|两|二|三|四|五|六|七|八|九|十)",
    re.I,
)
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?:\s|$)")


def _top_n_problems(checker: _Checker) -> list[str]:
    """ "The top two were A and C" over a sorted result: the rows quoted are its first two, none skipped."""
    if not checker.bound or not _TOP_N.search(checker.draft):
        return []
    problems = []
    for match in _TOP_N.finditer(checker.draft):
        n = count_word(match.group(1)) or 0
        end = _SENTENCE_END.search(checker.draft, match.end())
        right = end.start() if end else len(checker.draft)
        quoted: dict[tuple[int, str], set[int]] = {}
        for mention, where in checker.bound:
            if match.start() <= mention.start < right and where.row is not None:
                quoted.setdefault((where.step, where.column), set()).add(where.row)
        for (step, column), rows in quoted.items():
            fact = checker.ev.by_step.get(step)
            if fact is None or len(rows) > n or max(rows) < n:
                continue
            if {"sorted_desc", "sorted_asc"} & fact.funcs() and _monotone(fact, column):
                skipped = sorted(set(range(n)) - rows)
                problems.append(
                    f"the top {n} by {column} are rows 0-{n - 1} of step {step}, but the answer quotes row {max(rows)} "
                    f"and skips row {skipped[0] if skipped else n - 1}"
                )
    return problems


def _list_order_problems(checker: _Checker) -> list[str]:
    """A numbered list over a sorted result follows its order: item 2 may not quote a row ranked below item 3's."""
    markers = [m for m in checker.mentions if m.kind == "list_marker"]
    if len(markers) < 2 or not checker.bound:
        return []
    bounds = [m.start for m in markers[1:]] + [len(checker.draft)]
    items: list[tuple[str, int, int, str]] = []  # (marker, step, row, column) of each item's first bound number
    numbers = iter(sorted(checker.bound, key=lambda b: b[0].start))
    pending = next(numbers, None)
    for marker, end in zip(markers, bounds, strict=True):
        while pending is not None and pending[0].start < marker.end:
            pending = next(numbers, None)
        if pending is not None and pending[0].start < end and pending[1].row is not None:
            items.append((marker.text, pending[1].step, pending[1].row, pending[1].column))
    problems = []
    for (mark_a, step_a, row_a, col_a), (mark_b, step_b, row_b, col_b) in itertools.pairwise(items):
        fact = checker.ev.by_step.get(step_a)
        if (step_a, col_a) != (step_b, col_b) or fact is None or row_a < row_b:
            continue
        if {"sorted_desc", "sorted_asc"} & fact.funcs() and _monotone(fact, col_a):
            problems.append(
                f"list item {mark_b.strip()} quotes row {row_b} of step {step_b}, ranked above item {mark_a.strip()}'s "
                f"row {row_a}: number the list in the order the query sorted it"
            )
    return problems


def _monotone(fact: QueryFacts, column: str) -> bool:
    """The result's rows stand in the order of this column (the query sorted by it, and the rows are as sorted)."""
    c = list(fact.columns).index(column)
    values = [r[c] for r in fact.rows if c < len(r)]
    if len(values) < 2 or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return False
    pairs = list(itertools.pairwise(values))
    return all(a >= b for a, b in pairs) or all(a <= b for a, b in pairs)


def _states_data(checker: _Checker, inp: VerifyInput, draft: str) -> bool:
    verdict = checker.verdict
    if checker.data_grounded or verdict.ungrounded or any(r.code == "mislabeled_value" for r in verdict.reasons):
        return True
    vocab = inp.vocabulary
    if vocab is None or checker.choices:  # a clarification names the data's values to ask about them
        return False
    asked = inp.question.casefold()  # the question's own words, quoted back ("I could not apply “november”")
    unquoted = _QUOTED.sub(lambda m: " " if m.group(1).casefold() in asked else m.group(0), draft)
    named = checker.value_words().find(unquoted)
    return bool(named) and not checker.verdict.grounding  # earlier-turn numbers carry their own evidence


_QUOTED = re.compile(r"“([^”]{1,80})”")


def _check_required_tools(checker: _Checker, inp: VerifyInput, draft: str) -> None:
    verdict = checker.verdict
    if checker.search_grounded and not checker.data_grounded:
        titles = [t for t in checker.ev.search_sources if t]
        cited = any(norm(t)[:40] in norm(draft) for t in titles if len(t) >= 6) or bool(urls_in(draft))
        if not cited:
            verdict.fail("uncited_search", "facts from search_web must cite their source (title or link)")
    if not _states_data(checker, inp, draft):
        return
    missing = _missing_tools(inp)
    if missing:  # first: without the tools, every other finding follows from this one
        message = f"answers about {inp.source_type} data must come from tools; missing: {', '.join(missing)}"
        verdict.reasons.insert(0, Reason(code="required_tools_missing", message=message))
        verdict.passed = False


def _check_coverage(checker: _Checker, inp: VerifyInput, draft: str) -> None:
    verdict = checker.verdict
    steps = {g.step for g in verdict.grounding}
    cited = [f for f in [*checker.ev.facts, *checker.ev.earlier_facts] if f.step in steps and f.name != "list_tables"]
    if not cited and not verdict.grounding:
        # No number quoted, yet queries ran: "查询没有返回结果" or a list of names is a claim about the data too.
        cited = [f for f in checker.ev.facts if f.name in ("run_query", "execute_sql_safe")]
    if not cited or (checker.choices and not verdict.grounding):
        return  # a clarification quoting no result applies nothing yet: the question it offers will be checked
    anchors = question_anchors(inp.question, inp.vocabulary)
    figures = [g.value for g in checker.data_grounded]
    searched = [str(c.arguments.get("query", "")) for c in checker.ev.search]
    verdict.coverage = cover(
        anchors, cited, draft, inp.vocabulary, question=inp.question, figures=figures, searched=searched
    )
    which = unnamed_which(inp.question, cited, draft, inp.vocabulary)
    if which is not None:
        verdict.coverage.append(Coverage(anchor=which, kind="operation", status="missing"))
    missing = [c for c in verdict.coverage if c.status == "missing"]
    for text in excluded_but_kept(inp.question, anchors, cited):
        verdict.fail(
            "question_not_covered",
            f"the question leaves out {text!r}, but a query behind the answer keeps only it: filter it out (!=)",
        )
    if missing:
        shown = "; ".join(f"{c.anchor!r} ({c.kind})" for c in missing)
        verdict.fail(
            "question_not_covered",
            f"the question asks for {shown}, but no query behind the answer applied it: run a query that applies "
            "it (filter, grouping, time grain, aggregation or window), or say plainly in the answer that it was "
            "not applied and why",
        )
    _stale_filter_warnings(checker, inp, [f for f in cited if f.step >= 0])


def _stale_filter_warnings(checker: _Checker, inp: VerifyInput, cited: list[QueryFacts]) -> None:
    """A filter the question does not ask for but an earlier question did: shown to people as a warning, since
    a follow-up may mean to keep it (那华南呢？) or not."""
    if not inp.earlier:
        return
    asked, asked_periods = norm(inp.question), date_tokens_of_prose(inp.question)
    earlier = [norm(t.question) for t in inp.earlier]
    earlier_periods = set().union(*(date_tokens_of_prose(t.question) for t in inp.earlier))
    stale: list[str] = []
    for fact in cited:
        for value in fact.filter_values():
            text = norm(value) if isinstance(value, str) else ""
            if len(text) >= 2 and text not in asked and any(text in e for e in earlier):
                stale.append(str(value))
        periods = specific_periods(fact.filter_period_tokens)
        if periods and not periods & asked_periods and periods & earlier_periods:
            stale.append("/".join(sorted(periods)))
    for value in dict.fromkeys(stale):
        checker.verdict.warnings.append(
            Reason(code="stale_filter", message=f"the filter {value!r} comes from an earlier question")
        )
