"""Claim binding: a number is bound to a result cell only if the labels written around it (in its clause) agree
with that cell's row and column: the group values, the period and the measure. "华东 289,381.62" fails when
289,381.62 is 西部's value, however real the number is."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from apps.agent.verification.grounding import Provenance, date_tokens_of_text
from apps.agent.verification.queries import QueryFacts
from apps.agent.verification.vocabulary import LabelFinder, is_label_text, norm

# Clause breaks: sentence ends, Chinese commas and enumeration commas, line breaks; an English comma or period
# only when a space follows (so 1,234.5 stays one number).
_BREAK = re.compile(r"[。；;！？!?\n，、]|,(?=\s)|\.(?=\s|$)|\|")
# "华东、华南分别为 100、200" pairs labels and numbers by position, not by clause: not checked label by label.
_LABEL_FOLLOWS = re.compile(r"\s*(?:[A-Za-z%]{0,3}\s+)?(?:for|of|at|from|by|in)\s|\s*[元%]?\s*[（(]", re.IGNORECASE)
_MEASURE_END = re.compile(r"[元件个人单次笔份，,。；;（(）)：:÷×*=+/和与及]|\d|\band\b|\bvs\b")
_RESPECTIVELY = re.compile(r"分别|依次|respectively", re.IGNORECASE)
_MINUS = ("-", "−", "﹣", "－")
# Sentence breaks: the clause breaks that end a sentence (a full stop only where it is a clause break).
_SENTENCE_MARKS = frozenset("。！？!?\n；;.")


def clause_around(text: str, start: int, end: int) -> tuple[int, int]:
    left = max((m.end() for m in _BREAK.finditer(text, max(0, start - 200), start)), default=0)
    right = _BREAK.search(text, end)
    return left, right.start() if right else len(text)


class _Breaks:
    """Clause and sentence boundaries of one draft, found once (a draft has many numbers)."""

    def __init__(self, text: str) -> None:
        # Every break is one character, and every sentence break is a clause break too: one scan finds both.
        self.clause_starts = [m.start() for m in _BREAK.finditer(text)]
        self.clause_ends = [start + 1 for start in self.clause_starts]
        self.sentence_starts = [start for start in self.clause_starts if text[start] in _SENTENCE_MARKS]
        self.sentence_ends = [start + 1 for start in self.sentence_starts]
        self.size = len(text)

    def clause(self, start: int, end: int) -> tuple[int, int]:
        return _span(self.clause_ends, self.clause_starts, start, end, self.size)

    def sentence(self, start: int, end: int) -> tuple[int, int]:
        return _span(self.sentence_ends, self.sentence_starts, start, end, self.size)


def _span(ends: list[int], starts: list[int], start: int, end: int, size: int) -> tuple[int, int]:
    i = bisect.bisect_right(ends, start) - 1
    left = ends[i] if i >= 0 else 0
    j = bisect.bisect_left(starts, end)
    return left, starts[j] if j < len(starts) else size


def _rank(token: str) -> int:
    """How specific a period token is: a day, a month of a year, a quarter of a year, a month, a quarter, a year."""
    size = len(token)
    if size == 10:
        return 6
    if size == 7:
        return 4 if token[5] == "Q" else 5
    if token[0] == "M":
        return 3
    return 2 if token[0] == "Q" else 1


# "after 2011": the year written is the one before the period meant, which starts with 2012 (">=2012" in
# QueryFacts.filter_period_tokens); both the question's coverage and a clause's period read it so
AFTER_YEAR = re.compile(r"(?<![a-z])(?:after|later than)\s+(?:the\s+)?(?:year\s+)?$", re.IGNORECASE)


def after_year(text: str, start: int, tokens: set[str]) -> set[str]:
    """The tokens of a lone year at `start` of `text`, with ">=Y+1" when "after" comes right before it."""
    years = [t for t in tokens if len(t) == 4 and t.isdigit()]
    if len(years) == 1 and len(tokens) == 1 and AFTER_YEAR.search(text, 0, start):
        return tokens | {f">={int(years[0]) + 1}"}
    return tokens


def specific_periods(tokens: set[str]) -> set[str]:
    """The most specific period tokens: 2025-03 rather than 2025 or Q1."""
    if not tokens:
        return set()
    return set(_specific(frozenset(tokens)))


@lru_cache(maxsize=4096)
def _specific(tokens: frozenset[str]) -> frozenset[str]:
    top = max(_rank(t) for t in tokens)
    return frozenset(t for t in tokens if _rank(t) == top)


def first_letters(*alternations: str) -> str:
    """A character class of the letters that the words of `|`-separated alternations start with (each word opening
    with a plain letter, after an optional \\b). Compiled with the same flags, a text without any of them cannot match
    any of the words, and one class is far cheaper to search for than many words."""
    firsts = {word.removeprefix(r"\b")[0] for words in alternations for word in words.split("|")}
    return "[" + "".join(re.escape(ch) for ch in sorted(firsts)) + "]"


_DOWN_WORDS = r"下降|减少|下跌|降低|下滑|回落|跌了?|少了|\bdown\b|decreas|declin|\bfell\b|\bdrop|lower|shrank"
_UP_WORDS = r"增长|上升|增加|提高|上涨|涨了?|多了|\bup\b|increas|\bgrew\b|\brose\b|\brise|higher"
DOWN_WORDS, UP_WORDS = _DOWN_WORDS, _UP_WORDS  # the direction a change is said to go (superlatives.py too)
_DOWN = re.compile(rf"({_DOWN_WORDS})[^\d]{{0,8}}$", re.I)
_UP = re.compile(rf"({_UP_WORDS})[^\d]{{0,8}}$", re.I)
_DIRECTION_START = re.compile(first_letters(_DOWN_WORDS, _UP_WORDS), re.I)


@dataclass
class ClauseLabels:
    values: list[str]
    periods: set[str]
    text: str
    before: str = ""
    after: str = ""
    signed: bool = False  # the number is written with a minus sign
    following: str = ""  # the text right after the number, up to the next number or the clause's end (12 at most)
    sentence_before: str = ""  # the number's sentence before it and after it (a grouped-by number names its row)
    sentence_after: str = ""

    def shown(self) -> list[str]:
        return [*self.values, *sorted(self.periods)]


@dataclass
class Binder:
    """Checks grounded numbers against the labels of their clause; one per verify call."""

    draft: str
    facts: dict[int, QueryFacts]
    values: LabelFinder
    measure_words: dict[str, set[str]]  # normalised word -> the result columns it names
    dates: list[tuple[int, set[str]]] = field(default_factory=list)  # (position, period tokens) of the draft's dates
    numbers: list[tuple[int, int]] = field(default_factory=list)  # spans of the draft's numbers
    data_measures: dict[str, str] = field(default_factory=dict)  # normalised word -> a measure column of the data

    def __post_init__(self) -> None:
        self._breaks = _Breaks(self.draft)
        self.numbers = sorted(self.numbers)
        self._number_starts = [s for s, _e in self.numbers]
        self.dates = sorted(self.dates, key=lambda d: d[0])
        self._date_starts = [at for at, _t in self.dates]
        self._specific = [after_year(self.draft, at, specific_periods(tokens)) for at, tokens in self.dates]
        self._clauses: dict[tuple[int, int], tuple[list[tuple[str, int, int]], set[str]]] = {}
        self._respectively: dict[tuple[int, int], bool] = {}
        self._sentences: dict[tuple[int, int], tuple[list[str], set[str]]] = {}
        self._results: dict[int, _Result] = {}
        self._named: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        self._said: dict[tuple[str, str], tuple[str | None, str | None]] = {}
        # most drafts have no word of aggregation or of what is counted: one scan spares the per-number work
        lowered = self.draft.lower()
        self._aggregation_words = any(w in lowered for w in _AGG_HINTS)
        ordered = sorted(self.measure_words, key=len, reverse=True)
        self._measure_order = [w for w in ordered if not w.startswith(_AFTER_ONLY)]
        self._data_order = sorted(self.data_measures, key=len, reverse=True)
        self._after_only = [w[1:] for w in ordered if w.startswith(_AFTER_ONLY)]

    def labels(self, start: int, end: int) -> ClauseLabels | None:
        draft = self.draft
        sentence = self._breaks.sentence(start, end)
        respectively = self._respectively.get(sentence)
        if respectively is None:
            respectively = self._respectively[sentence] = bool(_RESPECTIVELY.search(draft, *sentence))
        if respectively:
            return None
        left, right = self._breaks.clause(start, end)
        spans, periods = self._read(left, right)
        # Labels bind to the nearest number: "Dallas 2,101 and Reno 3,929" gives Dallas to 2,101 and Reno to 3,929;
        # a label written after its number ("289,381.62 元是华东的") counts when none stands before it.
        numbers, starts = self.numbers, self._number_starts
        i = bisect.bisect_left(starts, start)
        before = max(left, numbers[i - 1][1]) if i > 0 else left
        j = bisect.bisect_left(starts, end, i)
        after = min(right, numbers[j][0]) if j < len(numbers) else right
        # An aside closed before the number ("（…，含所有活动和日常投放）的 12.4%") describes something else.
        closed = max(draft.rfind("）", left, start), draft.rfind(")", left, start))
        if closed >= 0:
            left, before = max(left, closed + 1), max(before, closed + 1)
            spans = [span for span in spans if span[1] >= left]
        if spans:
            after_labels = [label for label, s, e in spans if end <= s and e <= after]
            if after_labels and _LABEL_FOLLOWS.match(draft, end, after):  # "3,456 for Team", "160.5（华东）"
                values = after_labels
            else:
                values = [label for label, s, e in spans if before <= s and e <= start] or after_labels
                values = values or [label for label, _s, _e in spans]
        else:
            values = []
        # Periods sit on either side ("2025 年 3 月 250 元", "$152K in 2024 to $140K in 2025"): both are read.
        if self._dates_between(before, start) or self._dates_between(end, after):  # most numbers have none near
            near = self.periods_between(before, start) | self.periods_between(end, after)
            periods = specific_periods(near) or periods
        if not values and not periods:  # "2025 年 7 月最多，共 15 人": the sentence names what the clause leaves out
            values, periods = self._sentence_labels(*sentence)
        lead = draft[before:start]
        # The measure word of a number: right after it ("3,076 churned ÷ 4,585 new subscribers"), unless a unit or a
        # mark ends it first ("X 元环比增长 71.3%": 环比 names the change), else the nearest one before it.
        tail = _MEASURE_END.split(draft[end:after], maxsplit=1)[0] if after > end else ""
        signed = draft[start : start + 1] in _MINUS or lead.rstrip()[-1:] in _MINUS  # "-5%", "- 5%"
        return ClauseLabels(
            values,
            periods,
            lead,
            lead,
            tail,
            signed,
            draft[end : min(after, end + 12)],
            draft[sentence[0] : start],
            draft[end : sentence[1]],
        )

    def _sentence_labels(self, left: int, right: int) -> tuple[list[str], set[str]]:
        """The labels of a sentence, as the union of its clauses' (each read once)."""
        key = (left, right)
        found = self._sentences.get(key)
        if found is None:
            found = self._sentences[key] = self._union_of_clauses(left, right)
        return found

    def _union_of_clauses(self, left: int, right: int) -> tuple[list[str], set[str]]:
        values: list[str] = []
        periods: set[str] = set()
        at = left
        while at < right:
            start, end = self._breaks.clause(at, at)
            spans, found = self._read(max(start, left), min(end, right))
            values += [v for v, _s, _e in spans]
            periods |= found
            at = max(end, at) + 1
        return values, specific_periods(periods)

    def _read(self, left: int, right: int) -> tuple[list[tuple[str, int, int]], set[str]]:
        """Value labels (with positions in the draft) and period tokens of a span, read once per span."""
        key = (left, right)
        read = self._clauses.get(key)
        if read is None:
            whole = self.draft[left:right]
            text = whole.strip()  # normalising strips the ends: positions count from the first visible character
            offset = left + len(whole) - len(whole.lstrip())
            haystack = norm(text)
            found = self.values.find_spans_normed(haystack)
            exact = len(haystack) == len(text)
            spans = [(v, offset + s, offset + e) if exact else (v, left, right) for v, s, e in found]
            periods = self.periods_between(left, right)
            if "半年" in whole:
                periods |= {h for h, word in (("H1", "上半年"), ("H2", "下半年")) if word in whole}
            read = self._clauses[key] = (spans, periods)
        return read

    def _dates_between(self, left: int, right: int) -> bool:
        return bisect.bisect_left(self._date_starts, left) != bisect.bisect_left(self._date_starts, right)

    def periods_between(self, left: int, right: int) -> set[str]:
        first = bisect.bisect_left(self._date_starts, left)
        last = bisect.bisect_left(self._date_starts, right)
        if last - first == 1:  # the usual case: one date, its specific tokens worked out once
            return self._specific[first]
        if last == first:
            return set()
        return specific_periods(set().union(*(t for _at, t in self.dates[first:last])))

    def agrees(self, where: Provenance, labels: ClauseLabels) -> bool:
        facts = self.facts.get(where.step)
        if facts is None:
            return True
        result = self._results.get(where.step)
        if result is None:
            result = self._results[where.step] = _Result(facts)
        return (
            self._values_agree(facts, where, labels)
            and self._period_agrees(result, where, labels)
            and self._measure_agrees(result, where, labels)
            and _direction_agrees(result, where, labels)
            and self._aggregation_agrees(result, where, labels)
        )

    def _aggregation_agrees(self, result: _Result, where: Provenance, labels: ClauseLabels) -> bool:
        """The word of aggregation beside a number names how it was computed: 平均/average/mean is an avg, 中位数/median
        a median, 合计/total a sum; visits (人次) count rows and patients (人数, 位) count distinct ones. A number
        from another aggregation is another figure ("费用总额 976" when 976 is the average per visit)."""
        if not self._aggregation_words:
            return True
        func = result.facts.func_of(where.column)
        if func is None:
            return True
        key = (labels.before, labels.following)
        said = self._said.get(key)
        if said is None:
            said = self._said[key] = _aggregation_said(*key)
        kind, counted = said
        if kind == "median" and func != "median":
            return False
        if kind == "avg" and func in ("sum", "median", "count", "nunique"):
            return False
        if kind == "sum" and func in ("avg", "median"):
            return False
        if counted == "distinct" and func == "count":
            return not _EVENTS.search(where.column)  # a count of visits (人次) is not a count of patients
        return not (counted == "events" and func == "nunique")

    def _values_agree(self, facts: QueryFacts, where: Provenance, labels: ClauseLabels) -> bool:
        if where.row is None:  # a count of rows is about all of them ("Tampa … of all four warehouses")
            return True
        relevant = [v for v in labels.values if v in facts.all_labels or facts.filters_value(v)]
        if not relevant:
            return True
        row = facts.row_labels[where.row] if where.row < len(facts.row_labels) else set()
        # A label the result has rows for must be this row's; a filter covers only labels no row carries
        # ("天猫和小红书" filtered to both, then grouped: each value is still one row's).
        grouped = [v for v in relevant if v in facts.all_labels]
        return any(v in row for v in grouped) if grouped else True

    def _period_agrees(self, result: _Result, where: Provenance, labels: ClauseLabels) -> bool:
        if not labels.periods:
            return True
        facts = result.facts
        if where.row is not None and labels.periods & facts.all_periods:
            row = facts.row_periods[where.row] if where.row < len(facts.row_periods) else set()
            if where.column in result.changes and where.row > 0:
                row = row | facts.row_periods[where.row - 1]  # "down 2% on 2024": a change names its base too
            return bool(labels.periods & row) or bool(labels.periods & facts.filter_period_tokens)
        filtered = facts.filter_period_tokens
        if filtered and not labels.periods & facts.all_periods:
            # "12月的费用 X" from a result filtered to all of 2025 and not split by period: X is not December's
            # (unless the clause says it runs up to that month: 截至12月, through December)
            spanned = facts.spanned_periods
            if not facts.all_periods and _narrower(labels.periods, spanned) and not _UP_TO.search(labels.text):
                return False
            return bool(labels.periods & filtered) or not _same_kind(labels.periods, filtered)
        return True

    def _measure_agrees(self, result: _Result, where: Provenance, labels: ClauseLabels) -> bool:
        if where.row is None:
            return True
        if where.column in result.keys and _ends_with_name(labels.text, where.column):
            return True  # "Week 15": a number the query grouped by, said right after its column's name, is a label
        if not _keys_named_agree(result, where, labels):
            return False  # "Week 3 … 72,000" where 72,000 is Week 7's, or "Week 61000"
        words, said = self._measures_named(labels)
        named: set[str] = set()
        for word in words:
            columns = self.measure_words.get(word) or self.measure_words.get(_AFTER_ONLY + word, set())
            named |= {c for c in columns if c in result.columns}
        if named and where.column not in named:
            return False
        # "运费占比 55.3%" must be a share of 运费, not of 件数. A measure of the data named next to a number that
        # this result never computed ("运费" beside a sum of 件数): the number must come from that measure, not from
        # another one; a formula names all its operands.
        if not said or "=" in labels.text:
            return True
        source = result.source_of(where.column)
        return source is None or any(self.data_measures[w] == source for w in said)

    def _measures_named(self, labels: ClauseLabels) -> tuple[list[str], list[str]]:
        """The result's measure words a number's labels name, and the data's measure words they name: read once per
        wording (rows of a list or a table repeat the same words around their numbers)."""
        key = (labels.text, labels.after)
        found = self._named.get(key)
        if found is None:
            text, after = norm(labels.text), norm(labels.after)
            if "=" in labels.text:  # "ROI = 成交额 ÷ 成本 = X ÷ Y": a formula pairs by position, any of its words
                words = _words_in_normed(text, self._measure_order)
            else:
                words = _words_in_normed(after, self._measure_order) or _last_words_normed(text, self._measure_order)
                words = words or _words_in_normed(after, self._after_only)
            said = _words_in_normed(after, self._data_order) or _words_in_normed(text, self._data_order)
            found = self._named[key] = (words, said)
        return found

    def describe(self, where: Provenance) -> str:
        facts = self.facts.get(where.step)
        if facts is None or where.row is None or where.row >= len(facts.rows):
            return f"{where.column} of step {where.step}"
        names = [str(v) for v in facts.rows[where.row] if is_label_text(v) or _is_period_like(v)]
        return f"{where.column} of the row {', '.join(names) or where.row} (step {where.step})"


@lru_cache(maxsize=1024)
def _name_patterns(column: str) -> tuple[str, re.Pattern[str], re.Pattern[str]]:
    """A column's normalised name, and the patterns of the name ending a text and of the name then a number."""
    name = re.escape(norm(column))
    return (
        norm(column),
        re.compile(rf"(?<![^\W_]){name}\s*$"),
        re.compile(rf"(?<![^\W_]){name}\s+(-?\d[\d,]*(?:\.\d+)?)(?![\d.])"),
    )


def _ends_with_name(text: str, column: str) -> bool:
    """The text ends with the column's name as a word of its own ("in Week", never "Frank" for Rank)."""
    return _name_patterns(column)[1].search(norm(text)) is not None


def _keys_named_agree(result: _Result, where: Provenance, labels: ClauseLabels) -> bool:
    """A number the query grouped by, written after its column's name ("Week 3"), names a row: a number written
    right after that name must be one of the column's values, and the other numbers of the sentence must be the
    named row's (the nearest name before them, else the first after)."""
    if where.row is None or where.row >= len(result.facts.rows) or where.column in result.keys:
        return True
    row = result.facts.rows[where.row]
    before, after = norm(labels.sentence_before), norm(labels.sentence_after)
    for key in result.keys & result.columns:
        name, ends, named = _name_patterns(key)
        if name not in before and name not in after:
            continue  # the sentence never names this key: nothing to agree with
        if ends.search(before) and not _ends_with_name(labels.text, where.column):
            return False  # "Week 61000": written as a Week, but it is another column's number (not "… per week")
        value = row[result.position(key)] if result.position(key) < len(row) else None
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        said = [m.group(1) for m in named.finditer(before)][-1:] or [m.group(1) for m in named.finditer(after)][:1]
        if said and float(said[0].replace(",", "")) != float(value):
            return False
    return True


class _Result:
    """What agreement asks of one result beyond its rows, worked out once per check instead of once per number."""

    def __init__(self, facts: QueryFacts) -> None:
        self.facts = facts
        self.columns = set(facts.columns)
        self.changes = facts.change_columns()
        self.keys = group_keys(facts)
        self._positions: dict[str, int] = {}
        for c, column in enumerate(facts.columns):
            self._positions.setdefault(column, c)
        self._sources: dict[str, str | None] = {}
        self._signed: dict[str, bool] = {}

    def position(self, column: str) -> int:
        return self._positions[column]

    def source_of(self, column: str) -> str | None:
        if column not in self._sources:
            self._sources[column] = self.facts.source_of(column)
        return self._sources[column]

    def signed(self, column: str) -> bool:
        """A column holding changes: some of its values are negative."""
        if column not in self._signed:
            c = self._positions[column]
            self._signed[column] = any(
                isinstance(r[c], int | float) and r[c] < 0 for r in self.facts.rows if c < len(r) and r[c] is not None
            )
        return self._signed[column]


def _direction_agrees(result: _Result, where: Provenance, labels: ClauseLabels) -> bool:
    """ "下降 28.5%" states a fall: the value it comes from must not be a rise (and "增长" not a fall)."""
    facts = result.facts
    if where.row is None or where.row >= len(facts.rows) or where.column not in result.columns:
        return True
    value = facts.rows[where.row][result.position(where.column)]
    if not isinstance(value, int | float) or isinstance(value, bool) or value == 0:
        return True
    before = labels.before[-24:]  # the direction word stands just before its number
    if value < 0 and labels.signed:
        return True  # "增长率为 -7.3%": the written sign says the direction, and it is the value's
    if not _DIRECTION_START.search(before):
        return True
    if _DOWN.search(before):
        return value < 0 or where.column not in result.changes and not result.signed(where.column)
    if _UP.search(before):
        return value > 0 or where.column not in result.changes and not result.signed(where.column)
    return True


# Words of aggregation, the nearest one before a number (within a few characters) naming how it was computed.
_MEDIAN_WORDS = r"中位数|中位|median"
_AVG_WORDS = r"平均|均值|人均|次均|月均|日均|\baverage|\bmean\b|\bavg\b"
_SUM_WORDS = r"总额|总计|合计|总和|\btotal|\bsum\b"
_AGG_WORDS = re.compile(rf"(?P<median>{_MEDIAN_WORDS})|(?P<avg>{_AVG_WORDS})|(?P<sum>{_SUM_WORDS})", re.I)
_AGG_START = re.compile(first_letters(_MEDIAN_WORDS, _AVG_WORDS, _SUM_WORDS), re.I)
# What a count counts, from the words right after it: distinct people (130 位患者, 130 patients) or events (人次).
_DISTINCT_AFTER = re.compile(r"\s*(?:位|名|(?:distinct|unique|different)\b|patients?\b|people\b|persons?\b)", re.I)
_DISTINCT_BEFORE = re.compile(r"(?:人数|患者数|distinct|unique)[^\d]{0,4}$", re.I)
_EVENTS_AFTER = re.compile(r"\s*(?:人次|次|visits?\b|times\b)", re.I)
_EVENTS = re.compile(r"人次|次数|visit|笔数", re.I)
# Substrings one of which any of these words contains (plain substring tests are far cheaper than the regexes).
_AGG_HINTS = (
    *"中均合总计位名次",
    "人数",
    "患者数",
    "median",
    "average",
    "mean",
    "avg",
    "total",
    "sum",
    "distinct",
    "unique",
    "different",
    "patient",
    "people",
    "person",
    "visit",
    "times",
)


def _aggregation_said(before: str, after: str) -> tuple[str | None, str | None]:
    """The aggregation word nearest before a number (or right after it), and whether the words right after it count
    distinct people or events."""
    kind = None
    lead = before[-10:]
    if _AGG_START.search(lead) or _AGG_START.search(after[:8]):
        found = list(_AGG_WORDS.finditer(lead)) or list(_AGG_WORDS.finditer(after[:8]))
        if found:
            kind = found[-1].lastgroup
    counted = None
    if _DISTINCT_AFTER.match(after) or _DISTINCT_BEFORE.search(before):
        counted = "distinct"
    elif _EVENTS_AFTER.match(after):
        counted = "events"
    return kind, counted


def _is_period_like(value: object) -> bool:
    return bool(date_tokens_of_text(str(value))) and not isinstance(value, float)


_UP_TO = re.compile(r"截至|截止|累计|为止|以来|至今|through|up to|to date|year to date|ytd|so far|since", re.I)


def _narrower(clause: set[str], spanned: set[str]) -> bool:
    """The clause names one month (or quarter) while the filter spans several, or whole years."""
    named = specific_periods(clause)
    if any(t in ("H1", "H2") for t in clause):
        return False  # a half year is a span of months
    for rank in (5, 4):  # a month of a year, a quarter of a year
        mine = {t for t in named if _rank(t) == rank}
        if len(mine) > 1:
            return False  # "2024-07 至 2024-12": the clause names a span too
        if mine:
            same = {t for t in spanned if _rank(t) == rank}
            return len(same) > 1 or (not same and any(_rank(t) == 1 for t in spanned))
    return False


def _same_kind(clause: set[str], filtered: set[str]) -> bool:
    """A filter on 2025 says nothing against a clause that names March: compare periods of one kind only."""
    return {_rank(t) for t in clause} <= {_rank(t) for t in filtered}


def _last_words_normed(lowered: str, words: Sequence[str]) -> list[str]:
    """The measure word nearest the end of a normalised text (the one standing just before the number)."""
    found = _words_in_normed(lowered, words)
    if len(found) <= 1:
        return found
    return [max(found, key=lambda w: lowered.rfind(w) + len(w))]


def _words_in_normed(lowered: str, words: Sequence[str]) -> list[str]:
    """The words (longest first) that occur in a normalised text, without those inside a longer one found."""
    found = [w for w in words if w in lowered]
    if len(found) <= 1:
        return found
    kept: list[str] = []
    for word in found:  # "销售额占比" names 占比's column, not also 销售额's
        if not any(word in longer for longer in kept):
            kept.append(word)
    return kept


_AFTER_ONLY = "\x00"  # prefix of words that name a column only when they follow the number
_COUNT_SUFFIX = re.compile(r"(?<=[\u4e00-\u9fff]{2})(?:数量|数|量|额)$")


def _add_word(words: dict[str, set[str]], word: str, column: str) -> None:
    key = norm(word)
    if len(key) >= 2:
        words.setdefault(key, set()).add(column)
        if "_" in key:  # new_subscribers is written "new subscribers"
            words.setdefault(key.replace("_", " "), set()).add(column)
        bare = _COUNT_SUFFIX.sub("", key)
        if bare != key:  # 用户数 is written "75 位用户": the bare word names a count only right after its number
            words.setdefault(_AFTER_ONLY + bare, set()).add(column)


def _numeric_columns(f: QueryFacts) -> set[str]:
    numeric = {
        f.columns[c]
        for c in range(len(f.columns))
        if any(isinstance(row[c], int | float) and not isinstance(row[c], bool) for row in f.rows[:5] if c < len(row))
    }
    # a year column names periods, not a measure; a grouping key (a room number, a code) is a label
    return numeric - {f.columns[c] for c in f.period_columns} - group_keys(f)


def group_keys(f: QueryFacts) -> set[str]:
    """The result columns the query grouped by: labels of its rows, even when they hold numbers (room 222)."""
    spec = f.spec
    if spec is not None:
        return {g.name for g in spec.group_by}
    grouped = f.sql.partition(" group by ")[2]
    if not grouped:
        return set()
    keys = re.split(r"\b(?:having|order by|limit)\b", grouped)[0]
    return {c for c in f.columns if norm(c) in {k.strip() for k in keys.split(",")}}


def measure_words(facts: Sequence[QueryFacts], synonyms: dict[str, str]) -> dict[str, set[str]]:
    """Words that name a numeric result column: its output name, the column it aggregates, the tenant's words."""
    words: dict[str, set[str]] = {}
    for f in facts:
        numeric = _numeric_columns(f)
        for column in numeric:
            _add_word(words, column, column)
        spec = f.spec
        if spec is None:
            continue
        for agg in spec.aggregations:
            if agg.name in numeric and agg.column and agg.func in ("sum", "avg", "min", "max", "median"):
                _add_word(words, agg.column, agg.name)
        for window in spec.windows:  # 销售额的占比, revenue YoY: the window is named by what it is of
            for word in [w for w, cols in words.items() if window.of in cols]:
                _add_word(words, word, window.name)
        for derived in spec.derived:  # avg_monthly_mrr = total_mrr / months: "MRR per month" names it too
            for word in [w for w, cols in words.items() if any(c in derived.expr for c in cols)]:
                _add_word(words, word, derived.name)
    for term, column in synonyms.items():
        for target in set(words.get(norm(column), set())):
            _add_word(words, term, target)
    return words
