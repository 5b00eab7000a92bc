"""Everything a draft may be checked against, built once per check: the query results of this run and of earlier
turns (schema statistics are not evidence), web search results, and the labels and periods the binder reads."""

from __future__ import annotations

import re
from typing import Any

from apps.agent.verification.binding import Binder, group_keys, measure_words
from apps.agent.verification.grounding import GroundingIndex, ToolTable, date_tokens_of_text
from apps.agent.verification.inputs import GROUNDING_TOOLS, SEARCH_TOOLS, VerifyInput
from apps.agent.verification.numbers import Mention, canonical_date, find_mentions
from apps.agent.verification.queries import QueryFacts
from apps.agent.verification.vocabulary import LabelFinder, Vocabulary, is_label_text


class Evidence:
    """Everything a draft may be checked against, built once per check."""

    def __init__(self, inp: VerifyInput) -> None:
        time_columns = {c for c, role in (inp.vocabulary.columns.items() if inp.vocabulary else []) if role == "time"}
        ok = [c for c in inp.tool_calls if c.status == "ok"]
        self.facts = [
            QueryFacts(c.step, c.name, c.arguments, list(c.columns), list(c.rows), c.row_count, time_columns)
            for c in ok
            if c.name in GROUNDING_TOOLS
        ]
        self.earlier_facts = [
            QueryFacts(-(turn + 1), "earlier", {}, list(cols), list(rows), len(rows), time_columns)
            for turn, earlier in enumerate(inp.earlier)
            for cols, rows in earlier.tables
        ]
        self.index = GroundingIndex([ToolTable(f.step, f.columns, f.rows, f.row_count) for f in self.facts])
        self.earlier_index = GroundingIndex(
            [ToolTable(f.step, f.columns, f.rows, f.row_count) for f in self.earlier_facts]
        )
        self.search = [c for c in ok if c.name in SEARCH_TOOLS]
        self.search_texts = [str(v) for c in self.search for v in _search_texts(c.payload)]
        self.search_sources = [str(v) for c in self.search for v in _search_texts(c.payload, ("title", "url"))]
        search_values = [[m.value] for t in self.search_texts for m in find_mentions(t) if m.kind == "number"]
        self.search_index = GroundingIndex([ToolTable(0, ["search"], search_values, 0)] if search_values else [])
        self.cell_texts = self.index.texts | self.earlier_index.texts
        self.texts = self.cell_texts | set(self.search_texts)
        self.by_step = {f.step: f for f in [*self.facts, *self.earlier_facts]}
        self.parameters = [n for f in self.facts for n in f.parameter_numbers()]
        self.max_rows = max(self.index.max_rows, self.earlier_index.max_rows)

    def binder(self, draft: str, vocab: Vocabulary | None, mentions: list[Mention]) -> Binder:
        finder = LabelFinder()
        for text in self.index.texts | self.earlier_index.texts:
            if is_label_text(text):
                finder.add(text)
        for fact in self.facts:
            for value in fact.filter_values():
                if is_label_text(value):
                    finder.add(value)
        for value in vocab.raw_values.values() if vocab else []:
            finder.add(value)
        words = measure_words([*self.facts, *self.earlier_facts], dict(vocab.synonyms) if vocab else {})
        dates = [(m.start, date_tokens_of_text(canonical_date(m.text))) for m in mentions if m.kind == "date"]
        dates += _quoted_periods(draft, self.cell_texts)
        if _MONTH_INITIAL.search(draft):  # one character class first: most drafts name no month in English
            dates += [(m.start(), {f"M{_MONTHS[m.group(1)[:3]]}"}) for m in _MONTH_NAME.finditer(draft)]
        numbers = [(m.start, m.end) for m in mentions if m.kind == "number"]
        # A period inside a result column's name ("2025-12退货金额合计") is part of that measure's name, which the
        # measure check binds; it is not a period label of the numbers around it.
        named = {c for f in self.facts for c in f.columns if any(ch.isdigit() for ch in c)}
        inside = [(m.start(), m.end()) for name in named for m in re.finditer(re.escape(name), draft)]
        if inside:
            dates = [(at, t) for at, t in dates if not any(s <= at < e for s, e in inside)]
        grouped = {key for f in self.facts for key in group_keys(f)}
        return Binder(draft, self.by_step, finder, words, dates, numbers, _data_measures(vocab, grouped))


_MONTHS = {name: i for i, name in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), start=1)}
# A month named alone ("from $186K in October to …") is a period label of its number too.
_MONTH_NAME = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?"
)
_MONTH_INITIAL = re.compile("[JFMASOND]")


def _data_measures(vocab: Vocabulary | None, grouped: set[str]) -> dict[str, str]:
    """The words of the data's measure columns (their names and the tenant's synonyms); a numeric column a query
    grouped by (诊室 222) is a label there, not a measure."""
    if vocab is None:
        return {}
    measures = {name for name, role in vocab.columns.items() if role == "measure" and name not in grouped}
    return {word: column for word, column in vocab.column_words().items() if column in measures and len(word) >= 2}


_QUARTER_TOKEN = re.compile(r"(?:(\d{4})-)?Q([1-4])")


def months_of_quarters(tokens: set[str]) -> set[str]:
    """A known quarter makes its months known ("第四季度（10—12 月）")."""
    months: set[str] = set()
    for token in tokens:
        match = _QUARTER_TOKEN.fullmatch(token) if "Q" in token else None
        if match:
            for month in range(3 * int(match[2]) - 2, 3 * int(match[2]) + 1):
                months.add(f"M{month}")
                if match[1]:
                    months.add(f"{match[1]}-{month:02d}")
    return months


def _quoted_periods(draft: str, texts: set[str]) -> list[tuple[int, set[str]]]:
    """Period labels quoted from results ("最高的是 2025-07"): labels, not numbers, yet they name a period."""
    found = []
    for text in texts:
        if len(text) >= 4 and text[0].isdigit() and text in draft:
            tokens = date_tokens_of_text(text)
            start = draft.find(text) if tokens else -1
            while start != -1:
                found.append((start, tokens))
                start = draft.find(text, start + 1)
    return found


def _search_texts(payload: Any, keys: tuple[str, ...] = ("title", "url", "content")) -> list[str]:
    """The texts of search_web's results, or of the one page web_reader read ({url, title, content})."""
    if isinstance(payload, dict) and "results" not in payload and "url" in payload:
        payload = {"results": [payload]}
    results = payload.get("results", []) if isinstance(payload, dict) else []
    return [str(r.get(k, "")) for r in results if isinstance(r, dict) for k in keys]
