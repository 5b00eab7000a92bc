"""Analysis cues in a question: aggregation words and where they stand, top-N, thresholds, counting,
shares and rates, changes over time, correlation, rankings, chart requests, the earliest or latest date,
a measure's distribution, and analyses the tools cannot do."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.translation import gettext as _

from apps.agent import durations
from apps.agent.offline import lexicon as lx
from apps.agent.offline.plan import Lang
from apps.agent.offline.schema_terms import (
    CONCEPT,
    CONCEPT_PART,
    ColumnView,
    Schema,
    Term,
    alias_pattern,
    fold,
    name_pieces,
    name_words,
)
from apps.agent.offline.timewords import _number
from apps.agent.offline.wording import speaking
from apps.datasets.query.resolve import CHANGE_COLUMN, ONE_PERIOD_ZH

_N = r"(\d+|[一二两三四五六七八九十]+|one|two|three|four|five|six|seven|eight|nine|ten)"
_CLASS = r"\s*(?:名|个|位|大|家|款|种|项|条|笔|只|件)?"
_HIGH = "|".join(sorted(lx.HIGH_WORDS, key=len, reverse=True))
_LOW = "|".join(sorted(lx.LOW_WORDS, key=len, reverse=True))
_TOP_PATTERNS: list[tuple[re.Pattern[str], int, bool | None]] = [
    (re.compile(r"前\s*" + _N + _CLASS), 1, None),
    (re.compile(r"(?:后|倒数)\s*" + _N + _CLASS), 1, True),
    (re.compile(r"(?<![a-z])top\s*" + _N + r"(?![a-z0-9])"), 1, None),
    (re.compile(r"(?<![a-z])which\s+" + _N + r"\s+(?=[a-z])"), 1, None),
    (re.compile(r"哪\s*" + _N + r"\s*(?:个|名|位|家|款|种|项|条|只|件)"), 1, None),
    (re.compile(r"(?<![a-z])bottom\s*" + _N + r"(?![a-z0-9])"), 1, True),
    (re.compile(f"({_HIGH}|{_LOW})" + r"的?\s*" + _N + r"\s*(?:名|个|位|家|款|种|项|条|笔|只|件)"), 2, None),
    (re.compile(_N + r"\s*(?:名|个|位|家|款|种|项|条|笔|只|件)\s*" + f"({_HIGH}|{_LOW})"), 1, None),
    (re.compile(r"(?<![a-z0-9.])" + _N + r"\s+(?:" + f"{_HIGH}|{_LOW}" + r")(?![a-z])"), 1, None),
    # "most 5" is a top 5; "at least 5" is a threshold (lexicon.COMPARATORS)
    (re.compile(r"(?<![a-z])(?<!at )(?:" + f"{_HIGH}|{_LOW}" + r")\s+" + _N + r"(?![a-z0-9])"), 1, None),
]
_QUANTILE = re.compile(
    r"(\d{1,2})\s*(?:分位|%分位|th percentile|st percentile|nd percentile|rd percentile)|(?<![a-z])p(\d{1,2})(?!\d)"
)
# "10,000" is ten thousand; the unit k/m stands alone ("4 matches" is 4)
_NUMBER = (  # ".500": a decimal without its leading zero, as a winning percentage is written
    r"(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?|-?(?<![\w.])\.\d+)"
    r"\s*(万|千|million|thousand|billion|k(?![a-z])|m(?![a-z]))?"
)
_METRES = re.compile(r"\(m\)|(?<![a-z])(?:metres|meters|m)(?![a-z])")
_UNIT = {"万": 1e4, "千": 1e3, "k": 1e3, "m": 1e6, "thousand": 1e3, "million": 1e6, "billion": 1e9}
# a column counted in a scale of its own: "U.S. viewers (millions)", "Population (thousands)"
_IN_SCALE = re.compile(r"\((?:in\s+)?(thousand|million|billion)s?\)")
SCALE_WORDS = frozenset(("thousand", "thousands", "million", "millions", "billion", "billions"))


def _n(text: str) -> int:
    return lx.EN_NUMERALS.get(text) or _number(text)


@dataclass(frozen=True)
class Threshold:
    column: str
    op: str
    value: float | int | bool | list[str]  # a list: the values of an outcome ("W 12-0", "W 27-24": the wins)
    label: str
    start: int
    end: int


@dataclass
class Cues:
    top_n: int | None = None
    nth: int | None = None  # "the second most", "第三高": that place of the ranking, listed with those above it
    # "which home cities have at least two teams": how many rows each group has, a condition on the groups
    row_counts: list[Threshold] = field(default_factory=list)
    ascending: bool = False
    pace: bool = False  # best/fastest over a column of times: the smallest time of each group (`_pace`)
    ranking: bool = False
    plural: bool = False
    agg_words: list[tuple[int, int, str]] = field(default_factory=list)
    count_target: Term | None = None
    counting: bool = False
    distinct: bool = False
    share: bool = False
    rate: bool = False
    rate_at: int = -1
    rate_end: int = -1
    rate_concept: tuple[str, str, str] | None = None
    change: str | None = None
    cumulative: bool = False
    corr: bool = False
    quantile: float | None = None
    chart: str | None = None
    thresholds: list[Threshold] = field(default_factory=list)
    summary: bool = False
    when: str | None = None  # "min" / "max": the earliest or latest date is asked for
    unsupported: tuple[str, str] | None = None  # (family, the words that need it)


UNSUPPORTED: tuple[str, ...] = tuple(w for words in lx.UNSUPPORTED_ANALYSES.values() for w in words)
_FAMILY_OF = {w: family for family, words in lx.UNSUPPORTED_ANALYSES.items() for w in words}
# A row named by its place in the file: "第3行", "row 5", "the second entry", "the last team listed".
_ROW_POSITION = re.compile(
    r"第\s*[\d一二三四五六七八九十百]+\s*(?:行|条记录|条数据)"
    r"|(?<![a-z])(?:row|entry|record)\s+(?:no\.?\s*|number\s+)?\d+(?![\d.])"
    r"|(?<![a-z])(?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|penultimate)\s+(?:row|entry|record)s?(?![a-z])"
    r"|(?<![a-z])(?:first|last|next|previous|final)(?:\s+[a-z'\-]+){0,4}\s+(?:listed(?![a-z])"
    r"|(?:on|in)\s+(?:the|this)\s+(?:list|table|chart)(?![a-z]))"
)


def _free(taken: bytearray, start: int, end: int) -> bool:
    return taken.find(1, start, end) == -1


def _claim(taken: bytearray, start: int, end: int) -> None:
    taken[start:end] = b"\x01" * (end - start)


@lru_cache(maxsize=1024)  # the lexicon's lists of words, the same question after question
def _word_patterns(words: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...]:
    """The words longest first, each with what a question must hold to say it (`name_pieces`) and its pattern
    (`alias_pattern`)."""
    return tuple((w, name_pieces(fold(w)), alias_pattern(fold(w))) for w in sorted(words, key=len, reverse=True))


def find_words(text: str, words: tuple[str, ...] | list[str], taken: bytearray) -> list[tuple[int, int, str]]:
    """Occurrences of any of `words` outside claimed spans, longest words first, without overlaps."""
    local = bytearray(taken)
    found = []
    for word, pieces, pattern in _word_patterns(tuple(words)):
        if not all(piece in text for piece in pieces):  # most words are not in the question: no pattern to run
            continue
        for m in pattern.finditer(text):
            if _free(local, m.start(), m.end()):
                _claim(local, m.start(), m.end())
                found.append((m.start(), m.end(), word))
    return sorted(found)


def _top(text: str, taken: bytearray, cues: Cues) -> None:
    for pattern, group, ascending in _TOP_PATTERNS:
        m = pattern.search(text)
        if m is None or not _free(taken, m.start(), m.end()):
            continue
        cues.top_n = max(1, min(_n(m.group(group)), 1000))
        if ascending is None:
            low = find_words(text, lx.LOW_WORDS, bytearray(len(text)))
            high = find_words(text, lx.HIGH_WORDS, bytearray(len(text)))
            ascending = bool(low) and not (high and high[0][0] < low[0][0])
        cues.ascending = ascending
        cues.ranking = True
        _claim(taken, m.start(), m.end())
        return


_ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}
_ZH_ORDINALS = {"二": 2, "三": 3, "四": 4, "五": 5, "2": 2, "3": 3, "4": 4, "5": 5}
_NTH_EN = re.compile(
    r"(?<![a-z0-9])(?P<n>second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+(?:(?:highest|largest|biggest|greatest|"
    r"most|lowest|smallest|least|fewest|best|worst|longest|shortest|tallest|oldest|youngest)(?![a-z]))"
)
_NTH_ZH = re.compile(r"第\s*(?P<n>[二三四五2-5])\s*(?:名)?\s*(?=(?:" + _HIGH + "|" + _LOW + r"|多|高|大|少|低|小))")


def _nth(text: str, taken: bytearray, cues: Cues) -> None:
    """ "the second most gold medals", "销售额第二高的门店": a ranking down to that place, so the answer lists the
    one asked for with those above it (ties stay visible); the ordinal is claimed, the superlative after it is
    read by `_ranking` as for the top one."""
    m = _NTH_EN.search(text) or _NTH_ZH.search(text)
    if m is None or not _free(taken, m.start("n"), m.end("n")) or cues.top_n is not None:
        return
    cues.nth = cues.top_n = _ORDINALS.get(m.group("n")) or _ZH_ORDINALS[m.group("n")]
    after = text[m.end("n") : m.end() + 4].strip(" -")
    cues.ranking = True
    cues.ascending = any(after.startswith(w) for w in (*lx.LOW_WORDS, "少", "低", "小"))
    if text[m.start()] == "第":  # "第二高": 高 alone is no superlative word, so the whole is claimed
        _claim(taken, m.start(), m.end() + 1)
    else:
        _claim(taken, m.start("n"), m.end("n"))


_BEFORE_NUMBER = [(op, w) for op, words in lx.COMPARATORS for w in words if w not in lx.AFTER_NUMBER and w.isascii()]
_ROW_COUNT = re.compile(
    r"(?<![a-z])(?P<word>"
    + "|".join(re.escape(w) for _op, w in sorted(_BEFORE_NUMBER, key=lambda p: -len(p[1])))
    + r")\s+(?P<n>\d{1,6}|"
    + "|".join(lx.EN_NUMERALS)
    + r")\s+(?:different\s+)?$"
)
ONE_ROW_EACH = 0.9  # distinct values per present row above which each row is one of them (a row noun)


def _row_counts(text: str, question: str, taken: bytearray, schema: Schema, terms: list[Term]) -> list[Threshold]:
    """ "which home cities have at least two teams" over a table with one row per team: a number of rows per
    group, said with the column that names the rows (each row one Team, named in words). The threshold's column
    is that one."""
    found = []
    for term in terms:
        view = schema.by_name[term.column]
        present = schema.row_count * (1 - view.null_ratio)
        if term.kind != "column" or view.category not in ("id", "dimension") or view.distinct < ONE_ROW_EACH * present:
            continue
        if sum(1 for v in view.values if re.search(r"[^\W\d_]", str(v))) < ONE_ROW_EACH * max(len(view.values), 1):
            continue  # "at least 5 episodes" over Episodes written as text ("06"): an amount, not rows named
        m = _ROW_COUNT.search(text, 0, term.start)
        if m is None or not _free(taken, m.start(), term.start):
            continue
        op = next(op for op, w in _BEFORE_NUMBER if w == m.group("word"))
        number = lx.EN_NUMERALS.get(m.group("n")) or int(m.group("n"))
        found.append(Threshold(term.column, op, number, str(number), m.start(), term.end))
        _claim(taken, m.start(), term.end)
    return found


_WHO_WON = re.compile(
    r"^\s*(?:who|which\s+[a-z]+)\s+(?P<verb>won|was the winner)(?:\s+(?:the|this)\s+(?:[a-z]+\s+)?"
    r"(?:race|marathon|final|event|competition|tournament|contest|heat|stage|rally|grand prix|cup|title))?"
    r"\s*[?.]?\s*$"
)


def _who_won(text: str, taken: bytearray, view: ColumnView, terms: list[Term]) -> list[Threshold]:
    """ "who won the marathon" over a table of finishers (no column says who won): the one in place 1."""
    won = _WHO_WON.match(text)
    if won is None or not view.lo <= 1 <= view.hi or not _free(taken, won.start("verb"), won.end()):
        return []
    if any(t.start < won.end("verb") and won.start("verb") < t.end for t in terms):
        return []
    _claim(taken, won.start("verb"), won.end())
    return [Threshold(view.name, "=", 1, "1", won.start("verb"), won.end("verb"))]


def _top_places(text: str, taken: bytearray, schema: Schema, terms: list[Term]) -> list[Threshold]:
    """ "to place in the top 50", "finished in the top 10": a finishing place of at most that number, on the
    table's one finishing-place column (Rank, Pos.); the verb read with it, and the column's own name
    ("positions" of Pos) inside it."""
    finishing = [v for v in schema.views if v.finishing]
    if len(finishing) != 1:
        return []
    found = []
    free = bytearray(taken)
    for t in terms:
        if t.kind == "column" and t.column == finishing[0].name:
            free[t.start : t.end] = bytes(t.end - t.start)
    for m in _TOP_PLACES.finditer(text):  # "finished in the top 10", "of those in the top 15 positions"
        n = _position_number(m.group("n") or m.group("m"))
        if n is None or not _free(free, m.start(), m.end()):
            continue
        view = finishing[0]
        found.append(Threshold(view.name, "<=", n, str(n), m.start(), m.end()))
        _claim(taken, m.start(), m.end())
    view = finishing[0]
    if view.kind != "integer" or view.lo is None or view.hi is None:
        return found
    # the place's own words may be the column's name ("ranks", "ranking"), read with it: the places' span only
    for m in _PLACE_RANGE.finditer(text):  # "how many medals did ranks 10-15 earn": both ends kept
        low, high = sorted((int(m.group("a")), int(m.group("b"))))
        start = m.start("a")
        if _free(taken, start, m.end()) and view.lo <= low < high <= view.hi:
            found += [Threshold(view.name, ">=", low, str(low), start, m.end())]
            found += [Threshold(view.name, "<=", high, str(high), start, m.end())]
            _claim(taken, start, m.end())
    found += _who_won(text, taken, view, terms)
    for m in _PLACE_SAID.finditer(text):  # "how many times did they finish first": that place, = 1
        n, start, end = _place_said(m)
        if n is None or not _free(taken, start, end):
            continue
        if view.lo <= n <= view.hi and not _BOUND_AFTER.match(text, m.end()):
            found.append(Threshold(view.name, "=", n, str(n), start, end))
            _claim(taken, start, end)
    return found


# "longer than 600 km", "taller than 300 m", "over 4,000 m high": a size said with the degree that names its column
# (Length (km), Height (m)); the unit said picks between columns of one size in two units (Height (m), (ft))
_DEGREE_ER = {"taller": ("tall", ">"), "longer": ("long", ">"), "deeper": ("deep", ">"), "wider": ("wide", ">")}
_DEGREE_ER |= {"heavier": ("heavy", ">"), "lighter": ("light", "<"), "shallower": ("shallow", "<")}
_DEGREE_ER |= {"narrower": ("narrow", "<")}
_SIZE_UNIT = r"(?:\s*(?P<unit>m|km|ft|feet|metres|meters|kg|mi|miles|lb|lbs|t|tonnes)(?![a-z]))?"
_DEGREE_THAN = re.compile(rf"(?<![a-z])(?P<adj>{'|'.join(_DEGREE_ER)})\s+than\s+(?P<n>\d[\d,]*(?:\.\d+)?){_SIZE_UNIT}")
_SIZE_HIGH = re.compile(
    r"(?<![a-z])(?P<cmp>over|under|above|below|more than|less than|at least|at most)\s+(?P<n>\d[\d,]*(?:\.\d+)?)"
    rf"{_SIZE_UNIT}\s+(?P<adj>high|tall|long|deep|wide|heavy)(?![a-z])"
)
_SIZE_OPS = {"over": ">", "above": ">", "more than": ">", "at least": ">=", "under": "<", "below": "<"}
_SIZE_OPS |= {"less than": "<", "at most": "<="}
_DEGREE_OF = {"high": ("height", "elevation", "altitude"), **lx.DEGREE_NOUNS}
_UNIT_NAMES = {"feet": "ft", "metres": "m", "meters": "m", "miles": "mi", "lbs": "lb", "tonnes": "t"}


def _sizes(text: str, question: str, taken: bytearray, schema: Schema) -> list[Threshold]:
    """A size compared with a number (comment above), on the one column its degree names (in the unit said)."""
    found = []
    for m in [*_DEGREE_THAN.finditer(text), *_SIZE_HIGH.finditer(text)]:
        if not _free(taken, m.start(), m.end()):
            continue
        adjective = m.group("adj")
        stem, op = _DEGREE_ER[adjective] if adjective in _DEGREE_ER else (adjective, _SIZE_OPS[m.group("cmp")])
        nouns = _DEGREE_OF[stem]
        columns = [v for v in schema.of("measure") if any(n in name_words(v.name) for n in nouns)]
        unit = _UNIT_NAMES.get(m.group("unit") or "", m.group("unit") or "")
        if unit and len(columns) > 1:
            columns = [v for v in columns if re.search(rf"\(\s*{re.escape(unit)}\s*\)", fold(v.name))]
        if len(columns) != 1:
            continue
        value = float(m.group("n").replace(",", ""))
        label = question[m.start("n") : m.end("unit") if m.group("unit") else m.end("n")]
        found.append(
            Threshold(columns[0].name, op, int(value) if value.is_integer() else value, label, m.start(), m.end())
        )
        _claim(taken, m.start(), m.end())
    return found


def _comparatives(text: str, question: str, taken: bytearray, schema: Schema) -> list[Threshold]:
    """ "older than 40": the comparative names its column."""
    found = []
    for phrase, (op, concept) in lx.COMPARATIVE_CONCEPTS.items():
        view = schema.concept_column(concept)
        for m in re.finditer(re.escape(phrase) + r"\s*" + _NUMBER, text):
            if view is None or not _free(taken, m.start(), m.end()):
                continue
            value = float(m.group(1).replace(",", "")) * _UNIT.get(m.group(2) or "", 1.0)
            label = question[m.start(1) : m.end(2) if m.group(2) else m.end(1)]
            found.append(
                Threshold(view.name, op, int(value) if value.is_integer() else value, label, m.start(), m.end())
            )
            _claim(taken, m.start(), m.end())
    return found


# A time a race took ("1:54.32", "8 minutes"), compared with a column of seconds (ingest names it "Time (s)")
_DURATION = re.compile(durations.DURATION)
_PACE = (("<", ("faster than", "quicker than", "within")), (">", ("slower than",)))
_PACE_WORDS = {(w, op) for op, words in _PACE for w in words}
_SECONDS_SAID = re.compile(r"\d+(?:\.\d+)?(?![\d:])")
_IN_SECONDS = re.compile(r"\((?:s|sec|secs|seconds)\)\s*$", re.IGNORECASE)


_TIMED = re.compile(r"(?<![a-z])(?:finish(?:ed|es)?|completed?|ran|swam|clocked|timed)\s+(?:in\s+)?(?:a\s+time\s+)?$")


def _durations(text: str, question: str, taken: bytearray, schema: Schema, terms: list[Term]) -> list[Threshold]:
    """ "finished in less than 1:55", "under 8 minutes": on the column of seconds the question names, else on
    the data's only one."""
    seconds = [v.name for v in schema.of("measure") if _IN_SECONDS.search(v.name)]
    # a race time in plain seconds ("Time": 54.11) where no column says its unit
    seconds = seconds or [v.name for v in schema.of("measure") if _TIME_HEADER.fullmatch(fold(v.name).strip())]
    named = [t.column for t in terms if t.kind == "column" and t.column in seconds]
    column = named[0] if named else seconds[0] if len(seconds) == 1 else None
    if column is None:
        return []
    found = []
    plain = not _IN_SECONDS.search(column)  # "faster than 54.20" over a Time of plain seconds
    for op, words in (*lx.COMPARATORS, *_PACE):
        for word in sorted((w for w in words if w not in lx.AFTER_NUMBER and w.isascii()), key=len, reverse=True):
            for m in re.finditer(rf"(?<![a-z]){re.escape(word)}\s*", text):
                said = _DURATION.match(text, m.end())
                if said is None and plain and (word, op) in _PACE_WORDS:
                    said = _SECONDS_SAID.match(text, m.end())
                value = durations.seconds(said.group(0)) if said is not None else None
                if said is not None and value is None and _SECONDS_SAID.fullmatch(said.group(0)):
                    value = float(said.group(0))
                if said is None or value is None or not _free(taken, m.start(), said.end()):
                    continue
                number = int(value) if value.is_integer() else value
                found.append(Threshold(column, op, number, question[said.start() : said.end()], m.start(), said.end()))
                _claim(taken, m.start(), said.end())
    return found


# Words of up and down: on a column of places "above 4th" is a smaller place number (not "more than 4")
_UP_DOWN = frozenset(
    ("above", "below", "higher than", "lower than", "or higher", "or lower", "or above", "or below", "and above")
    + ("and below", "高于", "低于")
)


# "24 years old", "over 30 years old", "aged 21": an age, on the data's age column
_AGE_SAID = re.compile(
    r"(?<![a-z])(?:(?P<cmp>at least|at most|over|under|more than|less than|older than|younger than)\s+)?"
    r"(?P<n>\d{1,3})(?:\s+|-)years?(?:\s+|-)old(?![a-z])|(?<![a-z])aged\s+(?P<m>\d{1,3})(?![\d.])"
)
_AGE_OPS = {"at least": ">=", "at most": "<=", "over": ">", "more than": ">", "older than": ">"}
_AGE_OPS |= {"under": "<", "less than": "<", "younger than": "<"}


def _ages(text: str, question: str, taken: bytearray, schema: Schema) -> list[Threshold]:
    """ "who is 24 years old", "players over 30 years old", "aged 21": the age column compared with the number
    (= when no comparison is said). Nothing when the data has no age column."""
    view = schema.concept_column("age")
    if view is None:
        return []
    found: list[Threshold] = []
    for m in _AGE_SAID.finditer(text):
        if not _free(taken, m.start(), m.end()):
            continue
        said = m.group("n") or m.group("m")
        found.append(Threshold(view.name, _AGE_OPS.get(m.group("cmp") or "", "="), int(said), said, m.start(), m.end()))
        _claim(taken, m.start(), m.end())
    return found


@lru_cache(maxsize=1)
def _comparator_patterns() -> tuple[tuple[str, str, bool, re.Pattern[str]], ...]:
    """Each comparison word (longest first within its operator), whether the number comes before it ("5岁以上"),
    and its pattern with the number."""
    found = []
    for op, words in lx.COMPARATORS:
        for word in sorted(words, key=len, reverse=True):
            after = word in lx.AFTER_NUMBER
            body = (_NUMBER + r"\s*[元岁个件]?\s*" + re.escape(word)) if after else (re.escape(word) + r"\s*" + _NUMBER)
            found.append((op, word, after, re.compile(body)))
    return tuple(found)


def _thresholds(text: str, question: str, taken: bytearray, schema: Schema, terms: list[Term]) -> list[Threshold]:
    found = _ages(text, question, taken, schema) + _durations(text, question, taken, schema, terms)
    found += _comparatives(text, question, taken, schema) + _sizes(text, question, taken, schema)
    measures = [t for t in terms if t.kind == "column" and schema.by_name[t.column].category == "measure"]
    for op, word, after, pattern in _comparator_patterns():
        if word not in text:
            continue
        for m in pattern.finditer(text):
            if not _free(taken, m.start(), m.end()):
                continue
            quantity = schema.concept_column("quantity") if "件" in m.group(0) and not measures else None
            column = quantity.name if quantity else _threshold_column(text, m, measures, schema)
            if column is None:
                continue
            unit = m.group(2) or ""
            if unit == "m" and _METRES.search(fold(column)):
                unit = ""  # "a prominence below 1000 m" over Prominence (m): metres, not millions
            scale = _IN_SCALE.search(fold(column))
            if scale is not None and unit and unit[0] == scale.group(1)[0]:
                unit = ""  # "more than 6.5 million viewers" over Viewers (millions): 6.5 as the column holds it
            value = float(m.group(1).replace(",", "")) * _UNIT.get(unit, 1.0)
            number = int(value) if value.is_integer() else value
            label = question[m.start(1) : m.end(2) if m.group(2) and scale is None else m.end(1)]
            if question[m.end(1) : m.end(1) + 1] == "%" and not m.group(2):
                label += "%"  # "less than 40% of the vote" over Vote %: said back as written
            said = op
            if schema.by_name[column].place and word in _UP_DOWN:  # "ranked above 4th": a smaller place
                said = {">": "<", "<": ">", ">=": "<=", "<=": ">="}[op]
            negated = _NOT_BEFORE.search(text, 0, m.start()) if not after else None
            if negated is not None and _free(taken, negated.start("not"), negated.end("not")) and op != "=":
                said = {">": "<=", "<": ">=", ">=": "<", "<=": ">"}[said]  # "did not win more than 5": <= 5
                _claim(taken, negated.start("not"), negated.end("not"))
            found.append(Threshold(column, said, number, label, m.start(), m.end()))
            _claim(taken, m.start(), m.end())
    found += _ranges(text, question, taken, schema, measures)
    return found + _amounts(text, question, taken, schema, measures, terms) + _positions(text, taken, schema)


# "did not win more than 5", "no more than 5": the negation of the comparison right after it (a verb between)
_NOT_BEFORE = re.compile(r"(?P<not>(?<![a-z])(?:not|never|no)|n't)\s+(?:[a-z]+\s+){0,2}?$")
# "the 1st position", "in 3rd place", "the 2001 season", "round seven", "pick #15": a number written against a
# column of positions or occasions names one of them (= that number), when the column holds it
_ORDINAL_WORD = "|".join(lx.EN_ORDINALS)
# "came in 3rd place", "finished third place": the verbs of a finishing place, read with the place itself
PLACE_VERBS = (
    r"finish(?:ed|es|ing)?|came|come|comes|coming|placed|placing|ended|ending|ranked|"
    r"achieved|took|take|takes|taking|earned|secured"
)
PLACE_VERB = re.compile(rf"(?<![a-z])(?:{PLACE_VERBS})(?![a-z])")
# "finish first", "came in 2nd", "placed third place": a place said with its verb (not "first came", not "last")
_PLACE_SAID = re.compile(
    rf"(?<![a-z])(?:{PLACE_VERBS})\s+(?:in\s+)?(?:the\s+)?"
    rf"(?:(?P<n>{'|'.join(lx.EN_ORDINALS)}|\d+(?:st|nd|rd|th))|(?:#|no\.|number)\s*(?P<h>\d+))(?:\s+place)?(?![\w.,])"
    # "the first ranked team", "which nation is first ranking": the place said before the verb
    rf"|(?<![\w.,#])(?P<b>{'|'.join(lx.EN_ORDINALS)}|\d+(?:st|nd|rd|th))[\s-]+(?:ranked|ranking|placed|placing)(?![a-z])"
)
# "ranks 10-15", "placed 4th to 8th": places from one to the other, both included
# the two ends of a span of places or numbered occasions: "10-15", "4th to 8th", "#2 through #4"
_SPAN = (
    r"(?:#|no\.?)?\s*(?P<a>\d+)(?:st|nd|rd|th)?\s*(?:-|–|to|through|thru)\s*(?:#|no\.?)?\s*(?P<b>\d+)(?:st|nd|rd|th)?"
)
_PLACE_RANGE = re.compile(rf"(?<![a-z])(?:ranks?|ranked|ranking|places|placed|positions)\s+{_SPAN}(?![\w.,])")


def _place_said(m: re.Match[str]) -> tuple[int | None, int, int]:
    """A place `_PLACE_SAID` found: its number, and where it stands (the place alone when said before its verb,
    whose word may be the column's name: "first ranking")."""
    start, end = m.span("b") if m.group("b") else m.span()
    return _position_number(m.group("n") or m.group("h") or m.group("b")), start, end


# "the 1st position", "in the third round" (not "3 rounds", a count, nor "their first pick", their earliest)
_POSITION_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:the|in|{PLACE_VERBS})\s+(?P<n>\d+(?:st|nd|rd|th)|{_ORDINAL_WORD})"
    rf"|(?<![\w.,#/:-])(?P<d>\d+(?:st|nd|rd|th)))\s+$"
)
_POSITION_AFTER = re.compile(r"\s*(?:#|no\.?|number)?\s*(?P<n>\d+|[a-z]+)(?:st|nd|rd|th)?(?![\w.,/:%-])")
# "before round 3", "within 3 rounds", "the first 2 seasons", "round 10 or later": a bound or a span, not one value
_SPAN_BEFORE = re.compile(
    r"(?<![a-z])(?:before|after|within|under|over|past|beyond|until|through|than|least|most|above|below|beneath|"
    r"prior to|up to|since|reach|reached|reaches|reaching)\s+(?:the\s+)?$"
)


def _position_number(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    word = re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", word)
    return int(word) if word.isdigit() else lx.EN_NUMERALS.get(word) or lx.EN_ORDINALS.get(word)


# a column named only as a step of a ladder holds places too: "level 4", "tier 2", "division 1"
_STEP_NAME = re.compile(r"(?:level|tier|division|stage|leg|grade)")


def _positions(text: str, taken: bytearray, schema: Schema) -> list[Threshold]:
    found: list[Threshold] = []
    for view in schema.views:
        placed = view.ordinal or _STEP_NAME.fullmatch(fold(view.name).strip()) is not None
        if not placed or view.kind != "integer" or view.lo is None or view.hi is None:
            continue
        mine = _places_said(text, taken, view)
        ends = [t for t in mine if t.op != "="]
        if len(ends) == 2 and len(mine) == 2:  # "series 1-3": both ends
            _claim(taken, ends[0].start, ends[0].end)
            found += ends
        elif len({t.value for t in mine}) == 1:  # "round 2 or round 3": several places of one column are no one place
            for t in mine:
                _claim(taken, t.start, t.end)
            found += mine[:1]
    return found


# "series 1-3", "rounds 2 to 4", "weeks 1 through 5": places from one to the other, both included
_SPAN_AFTER = re.compile(rf"\s*{_SPAN}(?![\w.,/:%-])")


def _places_said(text: str, taken: bytearray, view: ColumnView) -> list[Threshold]:
    """Each place of the column the question writes beside its name ("the 2nd round", "3rd place", "round 7"),
    or both ends of a span of them ("series 1-3")."""
    mine: list[Threshold] = []
    for alias, _strength in view.aliases:
        for m in alias_pattern(alias, column=True).finditer(text):
            span = _SPAN_AFTER.match(text, m.end())
            if span is not None and _free(taken, span.start("a"), span.end()):
                low, high = sorted((int(span.group("a")), int(span.group("b"))))
                if view.lo <= low < high <= view.hi:
                    mine += [Threshold(view.name, ">=", low, str(low), span.start("a"), span.end())]
                    mine += [Threshold(view.name, "<=", high, str(high), span.start("a"), span.end())]
                    continue
            before = _POSITION_BEFORE.search(text, 0, m.start())
            after = _POSITION_AFTER.match(text, m.end())
            for said, key in ((before, "n"), (before, "d"), (after, "n")):
                if said is None or said.group(key) is None:
                    continue
                start, end = said.start(key), said.end(key)
                if said is after:  # "round #7": the threshold starts where its words do
                    start = m.end() + len(said.group(0)) - len(said.group(0).lstrip())
                if not _free(taken, said.start(key), end) or _BOUND_AFTER.match(text, max(end, m.end())):
                    continue
                if _SPAN_BEFORE.search(text, 0, said.start() if said is before else m.start()):
                    continue  # "before round 3", "after the 1st round": a bound, not that round
                if said is before and view.lo < 1:
                    continue  # rounds counted from 0: which one "the first" is, is not known
                n = _position_number(said.group(key))
                if n is not None and view.lo <= n <= view.hi:
                    mine.append(Threshold(view.name, "=", n, str(n), start, end))
    return mine


# a cell that opens with a place: "3rd", "3rd, Atlantic", "14th (q)"
_PLACE_CELL = re.compile(r"\s*(?P<n>\d+)(?:st|nd|rd|th)(?![a-z0-9])", re.IGNORECASE)
_MOSTLY_PLACES = 0.75


def _place_cells(schema: Schema) -> tuple[ColumnView, list[str]] | None:
    """The table's one column of text whose cells open with a finishing place ("3rd, Atlantic", "14th (q)"), every
    value known, with its values; None when the table has a column of place numbers, or no such column, or two."""
    if any(v.finishing for v in schema.views):
        return None
    columns = []
    for view in schema.views:
        texts = [str(v).strip() for v in view.values if str(v).strip()]
        if view.kind != "text" or not view.complete or len(texts) < 3:
            continue
        if sum(1 for v in texts if _PLACE_CELL.match(v)) >= _MOSTLY_PLACES * len(texts):
            columns.append((view, texts))
    return columns[0] if len(columns) == 1 else None


def _places_in_text(text: str, taken: bytearray, schema: Schema) -> list[Threshold]:
    """ "the last year they came in 3rd place" over a column of "3rd, Atlantic": the rows whose cell opens with that
    place, as the list of those values (every value known); said with its verb, as `_top_places` reads it."""
    found: list[Threshold] = []
    if PLACE_VERB.search(text) is None:
        return found
    column = _place_cells(schema)
    if column is None:
        return found
    view, texts = column
    for m in _PLACE_SAID.finditer(text):
        n, start, end = _place_said(m)
        if n is None or not _free(taken, start, end) or _BOUND_AFTER.match(text, m.end()):
            continue
        cells = [(v, c.group(0).strip()) for v in texts if (c := _PLACE_CELL.match(v)) and int(c.group("n")) == n]
        if cells:
            mark = min((said for _v, said in cells), key=len)  # "3rd" of "3rd, Atlantic"
            found.append(Threshold(view.name, "in", sorted(v for v, _said in cells), f"“{mark}”", start, end))
            _claim(taken, start, end)
    return found


_VERB_OF_PLACE = re.compile(rf"(?<![a-z])(?:{PLACE_VERBS})\s+(?:in\s+)?(?:the\s+)?$")
_PLACE_NOUN = re.compile(r"\s+(?:place|position|spot)(?![a-z])")


def _place_values(text: str, terms: list[Term], taken: bytearray) -> None:
    """ "achieved 1st place" where "1st" is a value of the data (a Position of "1st", "14th (q)"): the value is the
    condition; its verb and the word "place" around it are read with it."""
    for t in terms:
        if t.kind != "value" or _PLACE_CELL.fullmatch(text[t.start : t.end]) is None:
            continue
        verb = _VERB_OF_PLACE.search(text, 0, t.start)
        noun = _PLACE_NOUN.match(text, t.end)
        if verb is not None and _free(taken, verb.start(), verb.end()):
            _claim(taken, verb.start(), verb.end())
        if noun is not None and _free(taken, noun.start(), noun.end()):
            _claim(taken, noun.start(), noun.end())


# "did china obtain 5 silver medals", "the group with only 6 caucusing members": a count written right before a
# measure's name, after a verb of having or "with", is that measure's value (= 5)
_AMOUNT = re.compile(r"(?<![\w.,$#:/-])(\d{1,3}(?:,\d{3})+|\d+)(?![\w.,:/%-])")
# only after a verb of having or getting, or "with" ("store 12 sales" names store 12; "the 3 players" counts)
_HAD = re.compile(
    r"(?<![a-z])(?:had|has|have|having|with|won|win|wins|winning|scored|score|scores|got|gets|get|earned|earn|"
    r"received|receive|obtained|obtain|took|take|made|make|recorded|record|sold|sell|collected|only|exactly)\s+$"
)
# "5 units or more", "2 gold medals and above": a bound written after the name, read by no one here
_BOUND_AFTER = re.compile(
    r"(?:\s+[a-z]+)?\s*(?:or\s+(?:more|less|fewer|above|below|over|under|higher|lower|greater|later|earlier|after|before|"
    r"beyond|longer)|and\s+(?:above|over|up|more|below|under|less|fewer|later|after|beyond)|at\s+(?:least|most)|plus|"
    r"\+|max|min|maximum|minimum)(?![a-z])"
)


def _amounts(
    text: str, question: str, taken: bytearray, schema: Schema, measures: list[Term], terms: list[Term]
) -> list[Threshold]:
    found = []
    for m in _AMOUNT.finditer(text):
        if not _free(taken, m.start(), m.end()) or not _HAD.search(text, 0, m.start()):
            continue
        if any(t.start <= m.start() < t.end for t in terms):  # part of a name ("3 dart average", "Xbox 360")
            continue
        named = [t for t in measures if re.fullmatch(r"\s+(?:total\s+)?", text[m.end() : t.start])]
        if not named or schema.by_name[named[0].column].ordinal or _BOUND_AFTER.match(text, named[0].end):
            continue
        value = int(m.group(1).replace(",", ""))
        found.append(Threshold(named[0].column, "=", value, question[m.start() : m.end()], m.start(), m.end()))
        _claim(taken, m.start(), m.end())
    return found


_NUMBER_ONLY = r"(-?\d+(?:\.\d+)?)"
_RANGE = re.compile(
    rf"(?<![a-z])between\s+{_NUMBER_ONLY}\s+and\s+{_NUMBER_ONLY}(?![\d.])"
    rf"|在?\s*{_NUMBER_ONLY}\s*(?:到|至|-|~)\s*{_NUMBER_ONLY}\s*之间"
)


# "in the 80,000 range": from that round number up to the next one of its size (80,000 to under 90,000)
_ROUND_RANGE = re.compile(r"(?<![a-z])in\s+the\s+(?P<n>[1-9]\d{0,2}(?:,000)+|[1-9]0{2,})\s+range(?![a-z])")


def _round_range(text: str, taken: bytearray, measures: list[Term], schema: Schema) -> list[Threshold]:
    found = []
    for m in _ROUND_RANGE.finditer(text):
        column = _threshold_column(text, m, measures, schema) if measures else None
        if column is None or not _free(taken, m.start(), m.end()):
            continue
        digits = m.group("n").replace(",", "")
        low, step = int(digits), 10 ** (len(digits) - len(digits.rstrip("0")))
        said = text[m.start() : m.end()]  # both ends labelled with the question's words: "in the 80,000 range"
        found += [Threshold(column, ">=", low, said, m.start(), m.end())]
        found += [Threshold(column, "<", low + step, said, m.start(), m.end())]
        _claim(taken, m.start(), m.end())
    return found


def _ranges(text: str, question: str, taken: bytearray, schema: Schema, measures: list[Term]) -> list[Threshold]:
    """ "frequencies between 88 and 92", "金额在100到200之间": both ends kept, on the measure it is about (a
    range of years is a period, read before this). "in the 80,000 range": 80,000 to under 90,000."""
    found = _round_range(text, taken, measures, schema)
    for m in _RANGE.finditer(text):
        if not _free(taken, m.start(), m.end()):
            continue
        column = _threshold_column(text, m, measures, schema) if measures else None
        if column is None:
            continue
        low, high = (g for g in m.groups() if g is not None)
        ends = sorted((float(low), float(high)))
        for op, value, said in ((">=", ends[0], low), ("<=", ends[1], high)):
            number = int(value) if value.is_integer() else value
            found.append(Threshold(column, op, number, said, m.start(), m.end()))
        _claim(taken, m.start(), m.end())
    return found


def _threshold_column(text: str, m: re.Match[str], measures: list[Term], schema: Schema) -> str | None:
    """The column a threshold is about: named by a comparative, or the measure right before or after it."""
    for phrase, (_op, concept) in lx.COMPARATIVE_CONCEPTS.items():
        if text[max(0, m.start() - 14) : m.end()].find(phrase) != -1:
            view = schema.concept_column(concept)
            if view is not None:
                return view.name
    before = [t for t in measures if t.end <= m.start() and len(text[t.end : m.start()].strip(" 的是为is")) <= 2]
    after = [t for t in measures if t.start >= m.end() and t.start - m.end() <= 3]
    if before and after and after[0].strength > before[-1].strength and before[-1].strength <= CONCEPT:
        return after[0].column  # "scored at least 6 points": Points by its name, not Rating by a word for it
    if before:
        return before[-1].column
    if after and _COUNT_NOUN.fullmatch(text[after[0].start : after[0].end]):  # "300 units in stock": Stock
        held = [t for t in measures if t.start > after[0].end and _IN_OF.fullmatch(text[after[0].end : t.start])]
        if held:
            return held[0].column
    if after:
        return after[0].column
    return measures[0].column if measures else _stem_named(text, m, schema)


# "rated above 2700", "weighed over 100 kg": the verb right before the comparison names its column by its stem
_VERB_BEFORE = re.compile(r"(?<![a-z])(?P<stem>[a-z]{3,}?)e?d\s+$")


def _stem_named(text: str, m: re.Match[str], schema: Schema) -> str | None:
    verb = _VERB_BEFORE.search(text, 0, m.start())
    if verb is None or len(verb.group("stem")) < 3:
        return None
    named = [v.name for v in schema.of("measure") if fold(v.name).strip().startswith(verb.group("stem"))]
    return named[0] if len(named) == 1 else None


_COUNT_NOUN = re.compile(r"units?|items?|pieces?")
_IN_OF = re.compile(r"\s+(?:in|of)\s+(?:the\s+)?")


# "how many nations won no gold medals", "… had any silver medals", "… with at least one gold medal": the count
# of a measure after a verb of having, written without a number, is whether the row has any
HAVING = re.compile(
    r"(?<![a-z])(?:had|has|have|having|won|win|wins|got|get|earned|earn|received|receive|scored|score|took|"
    r"with|without)\s+(?P<amount>no|zero|not any|any|a|an|some|at least one|one or more)?\s*$"
)


_NEGATED_BEFORE = re.compile(
    r"(?<![a-z])(?:not|never|no|failed\s+to|fail\s+to|fails\s+to)\s+(?:[a-z]+\s+)?$|n't\s+(?:[a-z]+\s+)?$"
)
_WIN_NAME = re.compile(r"(?<![a-z])(?:wins?|won|w)(?![a-z])")


def _presence(text: str, schema: Schema, terms: list[Term], taken: bytearray, *, counting: bool) -> list[Threshold]:
    """The rows kept by whether a measure is present: "nations that won no gold medals" (Gold = 0), "won gold
    medals" / "at least one gold medal" (Gold > 0), for a count of things (whole numbers from 0), the measure
    right after the verb. Without an amount word ("won gold medals") only in a count question: "which nation
    won gold medals" may rank them."""
    measures = [t for t in terms if t.kind == "column" and schema.by_name[t.column].category == "measure"]
    if len({t.column for t in measures}) != 1:
        return []  # "won gold and silver medals", "gold but not silver": more than one presence, not read here
    found = []
    for t in measures:
        view = schema.by_name[t.column]
        if view.kind != "integer" or view.ordinal or not isinstance(view.lo, int) or view.lo < 0 or view.years:
            continue
        said = HAVING.search(text, 0, t.start)
        if said is None or not _free(taken, said.start(), t.start):
            continue
        negated = _NEGATED_BEFORE.search(text, 0, said.start())  # "did not win any", "never won a gold medal"
        if re.match(r"wins?|won", said.group(0)) and any(_WIN_NAME.search(fold(v.name)) for v in schema.views):
            continue  # "win races" over a table with a Wins column: the races won are Wins, not Races
        amount = said.group("amount") or ""
        if not counting and amount in ("", "a", "an", "some"):
            continue
        none = amount in ("no", "zero", "not any") or said.group(0).startswith("without")
        if negated is not None:
            if none:
                continue  # "did not win no medals": not read here
            none = True
        if none and view.null_ratio > 0:
            continue  # "did not score points" where non-scorers are blank: Points = 0 would find none of them
        if negated is not None:
            _claim(taken, negated.start(), negated.end())
        # the span ends where the measure's name starts: the measure is the threshold's subject, not a figure
        found.append(Threshold(t.column, "=" if none else ">", 0, "", said.start(), said.end()))  # label: words
        _claim(taken, said.start(), said.end())
    return found


# "states that have no qualification", "entries without notes", "没有备注的订单": a column of text left blank in
# some rows is absent there (the words end where the column's name starts, as `_presence` reads them)
_LACKING = re.compile(
    r"(?<![a-z])(?:(?:had|has|have|having|with|got)\s+no|without(?:\s+(?:a|an|any))?)\s+$|没有\s*$|无\s*$"
)


def _blank(text: str, schema: Schema, terms: list[Term], taken: bytearray) -> list[Threshold]:
    """The rows whose cell of a named text column is empty: "have no qualification" keeps Qualification blank."""
    found = []
    for t in terms:
        view = schema.by_name[t.column]
        if t.kind != "column" or view.kind != "text" or view.null_ratio <= 0 or view.category == "measure":
            continue
        said = _LACKING.search(text, max(0, t.start - 16), t.start)
        if said is None or not _free(taken, said.start(), t.start):
            continue
        found.append(Threshold(t.column, "is_null", True, "", said.start(), t.start))
        _claim(taken, said.start(), t.start)
    return found


# "products that are out of stock", "缺货的商品", "which items are in stock": the stock column at none (or above)
STOCK_STATE = re.compile(
    r"(?P<none>(?<![a-z])(?:out\s+of\s+stock|sold\s+out|no\s+stock|zero\s+stock|stocked\s+out)(?![a-z])"
    r"|缺货|断货|无库存|没有库存|零库存|库存为(?:零|0)(?!\d))"
    r"|(?P<some>(?<![a-z])in\s+stock(?![a-z])|有库存|有货)"
)


def _stock_states(text: str, schema: Schema, terms: list[Term], taken: bytearray) -> list[Threshold]:
    """Whether an item is in stock, read on the one stock column (a stockout column, when there is one, is read
    as itself): none left is the stock at 0 or below; in stock, above 0."""
    view = schema.concept_column("stock")
    if view is None or view.category != "measure" or schema.concept_column("stockout") is not None:
        return []
    found = []
    for m in STOCK_STATE.finditer(text):
        mask = bytearray(taken[m.start() : m.end()])
        for t in terms:  # the stock column's own name inside the words ("out of stock") is theirs
            if t.column == view.name and m.start() <= t.start and t.end <= m.end():
                mask[t.start - m.start() : t.end - m.start()] = bytes(t.end - t.start)
        if mask.find(1) != -1:
            continue
        op = "<=" if m.group("none") else ">"
        found.append(Threshold(view.name, op, 0, m.group(0), m.start(), m.end()))
        _claim(taken, m.start(), m.end())
    return found


def threshold_label(name: str, t: Threshold, lang: Lang) -> str:
    """ "Won >= 4"; a presence (`_presence`) in words, as the question said it: "without Gold", "with Gold"; an
    outcome by the letter its values start with: "Result starts with W"."""
    if t.op == "in":
        with speaking(lang):
            return _("%(column)s starts with %(mark)s") % {"column": name, "mark": t.label}
    if t.op == "is_null" and t.label:  # "did not finish": the rows the file marked “DNF”
        with speaking(lang):
            return _("%(column)s reads %(mark)s") % {"column": name, "mark": t.label}
    if t.label and not any(ch.isdigit() for ch in t.label) and t.op in ("<=", ">", "<", ">="):  # "out of stock (Stock)"
        with speaking(lang):
            return _("%(words)s (%(column)s)") % {"words": t.label, "column": name}
    if t.label.startswith("in the "):  # "International passengers in the 80,000 range"
        return f"{name} {t.label}"
    if t.label:
        return f"{name} {t.op} {t.label}"
    with speaking(lang):
        absent = t.op == "=" or (t.op == "is_null" and t.value is not False)
        said = _("without %(column)s") if absent else _("with %(column)s")
    return said % {"column": name}


def _counting(text: str, schema: Schema, terms: list[Term], taken: bytearray, cues: Cues) -> None:
    if find_words(text, lx.HEADCOUNT_WORDS, bytearray(len(text))):
        cues.counting = True
    zh = re.compile(r"(?P<w>多少|几)\s*(?P<c>[" + lx.COUNT_CLASSIFIERS + r"])?\s*(?P<d>不同的?|不重复的?)?")
    en = re.compile(
        r"(?<![a-z])(?P<w>how many|number of|count of|total number of|# of|how long is the list of)\s*"
        r"(?P<d>distinct|unique|different)?\s*"
    )
    entity = "|".join(re.escape(w) for w in lx.ENTITY_WORDS)
    for pattern in (zh, en):
        for m in pattern.finditer(text):
            if not _free(taken, m.start(), m.end()):
                continue  # "几件" named the quantity column
            nearby = [  # "the number of level 4 seasons": seasons are counted, level 4 is which of them
                t
                for t in terms
                if 0 <= t.start - m.end() <= 12
                and t.kind == "column"
                and not any(p.column == t.column and 0 <= p.start - t.end <= 2 for p in cues.thresholds)
            ]
            target = nearby[0] if nearby and _only_words(text[m.end() : nearby[0].start]) else None
            said = (
                pattern is en
                or m.group("c")
                or target
                or re.match(entity, text[m.end() :])
                or text[: m.start()].endswith("有")
            )
            if not said:
                continue
            cues.counting = True
            cues.distinct = cues.distinct or bool(m.group("d"))
            cues.count_target = cues.count_target or target
    for term in terms:
        rest = text[term.end : term.end + 6]
        suffix = next((s for s in lx.COUNT_SUFFIXES_ZH if rest.startswith(s)), None)
        tail = re.match(r"\s*(?:count|的?(?:总)?(?:数量|个数)|有?(?:多少|几)[" + lx.COUNT_CLASSIFIERS + "]?)", rest)
        measure = schema.by_name[term.column].category == "measure" if term.kind == "column" else False
        if measure and not suffix:
            continue  # "金额多少" asks for the amount, not for a count of it
        if term.kind == "column" and (suffix or tail) and _free(taken, term.end, term.end + 1):
            cues.counting = True
            cues.count_target = cues.count_target or term
    if re.search(r"(" + entity + r")\s*(?:数|总数|条数|的数量)", text):
        cues.counting = True
    cues.distinct = cues.distinct or bool(find_words(text, lx.DISTINCT_WORDS, taken))


def _only_words(gap: str) -> bool:
    return len(gap) <= 12 and not re.search(r"[,，。?？]", gap)


def _intents(text: str, taken: bytearray, cues: Cues) -> None:
    for names, numerator, denominator in lx.RATE_CONCEPTS:
        hit = find_words(text, names, taken)
        if hit:
            cues.rate_concept = (numerator, denominator, hit[0][2])
            cues.rate_at, cues.rate_end = hit[0][0], hit[0][1]
            _claim(taken, hit[0][0], hit[0][1])
            break
    share = find_words(text, lx.SHARE_WORDS, taken)
    if share and all(w in lx.PERCENT_ASKED for _s, _e, w in share) and find_words(text, lx.CHANGE_WORDS, taken):
        share = []  # "增长了百分之几": the growth in percent, not a share
    rate = [r for r in find_words(text, lx.RATE_WORDS, taken) if not text[r[0] : r[1]].endswith("ed")]  # "rated"
    cues.share, cues.rate = bool(share), bool(rate) or bool(share)
    if share or rate:
        cues.rate_at, cues.rate_end = (share or rate)[0][0], (share or rate)[0][1]
    if find_words(text, lx.CUMULATIVE_WORDS, taken):
        cues.cumulative = True
    elif find_words(text, lx.DIFF_WORDS, taken):
        cues.change = "diff"
    elif find_words(text, lx.CHANGE_WORDS, taken):
        cues.change = "pct_change"
    cues.corr = bool(find_words(text, lx.CORR_WORDS, taken))
    for chart, words in lx.CHART_WORDS.items():
        if re.search(r"(图|chart|graph|plot)", text) and find_words(text, words, taken):
            cues.chart = chart
    m = _QUANTILE.search(text)
    if m:
        cues.quantile = int(m.group(1) or m.group(2)) / 100
    elif "四分位" in text or "quartile" in text:
        cues.quantile = 0.25 if ("下四分位" in text or "lower quartile" in text) else 0.75
    cues.summary = bool(find_words(text, lx.DISTRIBUTION_WORDS, taken))


_SAME_AS = re.compile(r"(?<![a-z])the same(?: [a-z]+){0,10} as(?![a-z])")
# "more than X", "the same as X", "比X": against one named row; "other than X" only leaves X out (a negation)
# "named after lincoln", "modelled after …", "looked after": whom a thing is named for, no row compared
NAMED_AFTER = re.compile(r"(?<![a-z])(?:named|renamed|modell?ed|patterned|styled|called|looked|look|looks)\s+$")
_AGAINST_ROW = re.compile(
    r"(?:(?<![a-z])(?<!other )(?<!rather )(?:than|as|before|after|above|below|preceding|following)\s+"
    r"(?:the\s+)?[\"'“‘]?|(?<![对相])比\s*)$"
)


def _unsupported(
    question: str, text: str, taken: bytearray, dates: list[Term], values: list[Term]
) -> tuple[str, str] | None:
    """The first analysis the question needs that no tool does, outside mentioned columns: its family and the
    question's own words for it. A place in the list around a date column ("the first hire date in the
    table") is the earliest date, not a row's position."""
    hits = find_words(text, UNSUPPORTED, taken)
    if hits:
        start, end, word = hits[0]
        return _FAMILY_OF[word], question[start:end]
    for m in _ROW_POSITION.finditer(text):
        if _free(taken, m.start(), m.start() + 1) and not any(m.start() <= t.start < m.end() for t in dates):
            return "row_order", question[m.start() : m.end()]
    same = _SAME_AS.search(text)  # "scored the same number of goals as what other player"
    if same is not None and _free(taken, same.start(), same.start() + 1):
        return "row_compare", question[same.start() : same.start() + len("the same")].strip()
    for t in values:  # "more pyramids than the Atlas squad", "比华东高": against one named row's value
        against = _AGAINST_ROW.search(text, 0, t.start)
        if any(v.column == t.column and v.value != t.value for v in values):
            continue  # "A 比 B 多多少", "how many more medals did A win than B": two named groups compared
        if against is not None and against.end() == t.start and not NAMED_AFTER.search(text, 0, against.start()):
            return "row_compare", question[against.start() : against.end()].strip(" \"'“‘")  # not the value
    return None


def row_order_span(text: str, taken: bytearray, dates: list[Term]) -> tuple[int, int] | None:
    """Where the question names rows by their order in the table ("the first category listed", "previous to"),
    outside claimed spans and the time columns' names ("the first hire date in the table" is the earliest)."""
    hits = [(s, e) for s, e, w in find_words(text, UNSUPPORTED, taken) if _FAMILY_OF[w] == "row_order"]
    hits += [
        (m.start(), m.end())
        for m in _ROW_POSITION.finditer(text)
        if _free(taken, m.start(), m.start() + 1) and not any(m.start() <= t.start < m.end() for t in dates)
    ]
    return min(hits) if hits else None


def _without_partial_mentions(taken: bytearray, terms: list[Term]) -> bytearray:
    """Claimed spans, less those that only match part of a column's name: "预测" in 预测下个月的金额 still asks
    for a forecast when a column is called 预测准确率, while 预测准确率的平均值 names the column."""
    mask = bytearray(taken)
    for term in terms:
        if term.kind == "column" and term.strength <= CONCEPT_PART:
            mask[term.start : term.end] = bytes(term.length)
    return mask


# Words that pick one row by its order ("her first role", "the second title", "the last team"): dropped, they
# leave another question answered
EDGE_WORDS = re.compile(
    r"(?<![a-z])(?:first|last|earliest|latest|next|previous|second|third|fourth|fifth|penultimate)(?![a-z])"
)
_TOP_PLACES = re.compile(
    rf"(?<![a-z])(?:{PLACE_VERBS}|place|rank)\s+(?:in\s+|among\s+)?(?P<top>the\s+top\s+(?P<n>\d+|[a-z]+))"
    r"(?![\w.,])"
    r"|(?<![a-z])(?:in|of|among)\s+the\s+top\s+(?P<m>\d+|[a-z]+)\s+(?:positions|places|spots|finishers|ranks)(?![a-z])"
)
_NTH_BEFORE = re.compile(r"(?<![a-z])(?:second|third|fourth|fifth|next|one)[\s-]+(?:to|from|before)[\s-]+(?:the\s+)?$")
_ASKS_WHICH = re.compile(r"^\s*(?:what|which)\s")
_WHICH_OR_WHO = re.compile(r"^\s*(?:which|who)\s")
_PLACE_OUTCOME = re.compile(rf"(?<![a-z])(?:{PLACE_VERBS}|place|end)\s+(?:in\s+)?(?:the\s+)?$")


def _time_edge(text: str, dates: list[Term], kinds: list[Term], taken: bytearray, cues: Cues) -> None:
    """ "first order date", "最早的一条订单是哪天": the earliest (or latest) value of the time column; "what was
    her first role" (`kinds`: columns of names right after the word, in a table with a time column): the one
    at the earliest time."""
    edges = sorted(find_words(text, lx.EARLY_WORDS, taken) + find_words(text, lx.LATE_WORDS, taken))
    if not edges:
        return
    asks_date = bool(find_words(text, lx.WHEN_WORDS, taken))  # or "what year …": the time column asked for
    asks_date = asks_date or any(re.search(r"(?:what|which)\s+$", text[: t.start]) for t in dates)
    for start, end, word in edges:
        if _PLACE_OUTCOME.search(text, 0, start) or re.match(r"\s+place", text[end:]):
            continue  # "finish first", "came in last place": a place, not the earliest or latest time
        named = any(0 <= t.start - end <= 3 and not text[end : t.start].strip(" 的") for t in dates)
        named = named or any(0 <= start - t.end <= 1 for t in dates)  # "which ship was commissioned last"
        if _NTH_BEFORE.search(text, 0, start):
            continue  # "her second to last role": not the last one
        # "what was her first role": one column of names in the question, the one right after the word
        # (not under a threshold: "his first team with over 1000 points" means a season's points, not a total)
        kind = _ASKS_WHICH.match(text) is not None and len(kinds) == 1 and kinds[0].start - end == 1
        kind = kind and not cues.thresholds
        if named or asks_date or kind:
            cues.when = "min" if word in lx.EARLY_WORDS else "max"
            _claim(taken, start, end)
            return


def _listed_places(text: str) -> list[tuple[int, int]]:
    """ "who is at the top of the list", "the bottom of the table": a place in the file (position.py), where
    "top" is no highest and no maximum of anything."""
    return [(s, e) for s, e, w in find_words(text, UNSUPPORTED, bytearray(len(text))) if _FAMILY_OF[w] == "row_order"]


# "what director directed the most films": "what" right before a column of names asks which of them
_WHAT_BEFORE = re.compile(r"(?<![a-z])what\s+$")


def _ranking(text: str, terms: list[Term], taken: bytearray, cues: Cues, schema: Schema) -> None:
    which = find_words(text, lx.WHICH_WORDS, taken)
    which += [
        (m.start(), m.end(), "which")
        for t in terms
        if t.kind == "column" and schema.by_name[t.column].category in ("id", "dimension")
        for m in [_WHAT_BEFORE.search(text, 0, t.start)]
        if m is not None and m.end() == t.start
    ]
    if not which and _WHICH_OR_WHO.match(text):  # "which single …": the kind of row asked for was read (lookup)
        which = [(0, 0, "which")]
    listed = _listed_places(text)
    high = [h for h in find_words(text, lx.HIGH_WORDS, taken) if not any(s <= h[0] < e for s, e in listed)]
    low = find_words(text, lx.LOW_WORDS, taken)
    ranked = bool(find_words(text, lx.RANK_WORDS, taken))
    superlative = sorted(high + low)
    anchors = [t.end for t in terms if t.kind == "column"] + ([cues.rate_end] if cues.rate_end >= 0 else [])
    after_term = any(0 <= s - end <= 2 and _CJK_ONLY.match(text[s:e]) for s, e, _w in superlative for end in anchors)
    with_the = re.search(
        r"(with|has|have|had|had the|sold|sells|earn|earns|earned|won|lost|drew|scored|conceded|played|received)"
        r"\s+(the\s+)?(" + _HIGH + "|" + _LOW + ")",
        text,
    )
    comparative = _THE_COMPARATIVE.search(text) if which else None
    if comparative is not None and not _free(taken, comparative.start("w"), comparative.end("w")):
        comparative = None
    if cues.ranking:
        cues.plural = cues.plural or (cues.top_n or 1) > 1
    elif comparative is not None and not superlative and not re.search(r"(?<![a-z])than(?![a-z])", text):
        # "which lake has the bigger area": of all of them, the one with the biggest
        cues.ranking, cues.ascending = True, comparative.group("w") in _LOWER_WORDS
        _claim(taken, comparative.start("w"), comparative.end("w"))
    elif (which and superlative) or ranked or after_term or with_the or find_words(text, ("best", "worst"), taken):
        cues.ranking = True
        cues.ascending = bool(superlative) and superlative[0][2] in lx.LOW_WORDS
        cues.plural = ranked or any(w in ("哪些", "what are the") for _s, _e, w in which) or _plural_which(text)
    if cues.ranking:
        for start, end, _word in superlative:
            _claim(taken, start, end)


_CJK_ONLY = re.compile(r"^[\u4e00-\u9fff]+$")
_LOWER_WORDS = ("smaller", "lower", "fewer", "less")
_THE_COMPARATIVE = re.compile(
    r"(?<![a-z])(?:has|have|had|with|is|was)\s+the\s+(?P<w>bigger|larger|higher|greater|more|smaller|lower|fewer|less)"
    r"(?![a-z])"
)
# "came in last place", "in last position", "finished last": the worst place, on the place column named there
_LAST_PLACE = re.compile(
    rf"(?<![a-z])(?:(?:in|at)\s+(?:the\s+)?|(?:{PLACE_VERBS})\s+(?:in\s+)?(?:the\s+)?)(?P<last>last|bottom)\s+$"
)


def _last_place(text: str, schema: Schema, terms: list[Term], taken: bytearray, cues: Cues) -> None:
    """ "which artist came in last place": the row with the worst place (the largest number) of the place column
    named right after "last" (a ranking from the lowest, which on a place column is the largest number)."""
    if cues.ranking or cues.counting:
        return
    for t in terms:
        said = _LAST_PLACE.search(text, 0, t.start)
        if t.kind != "column" or said is None or not schema.by_name[t.column].place:
            continue
        cues.ranking, cues.ascending = True, True
        _claim(taken, said.start(), t.start)
        return
    # "the horse that came in last", no place column named: the table's one finishing place (Finished, Pos.)
    alone = _CAME_LAST.search(text)
    finishing = [v for v in schema.views if v.finishing]
    if alone is None or len(finishing) != 1 or not _free(taken, alone.start(), alone.end()):
        return
    if any(t.column == finishing[0].name for t in terms):
        return
    terms.append(Term(finishing[0].name, "column", alone.start("last"), alone.end(), 2.0))
    cues.ranking, cues.ascending = True, True
    _claim(taken, alone.start(), alone.end())


_CAME_LAST = re.compile(
    rf"(?<![a-z])(?:{PLACE_VERBS})\s+(?:in\s+)?(?:the\s+)?(?P<last>last|bottom)(?:\s+place)?(?![a-z])"
)


def _plural_which(text: str) -> bool:
    m = re.search(r"which\s+(\w+)", text)
    return bool(m and m.group(1).endswith("s") and not m.group(1).endswith("ss"))


# a race time in plain seconds ("Time": 9.58), as a column of times written 1:54.32 is read (`_IN_SECONDS`)
_TIME_HEADER = re.compile(r"(?:final |race |finish(?:ing)? |winning )?times?(?: \(sec(?:onds)?\))?")


_FAST = re.compile(r"(?<![a-z])(?:best|top|fastest|quickest|shortest)(?![a-z])")
_SLOW = re.compile(r"(?<![a-z])(?:worst|slowest|longest)(?![a-z])")


def _pace(text: str, schema: Schema, terms: list[Term], taken: bytearray, cues: Cues) -> None:
    """ "who had the best time", "the fastest time": over a column of times (seconds, `_IN_SECONDS`) the best is
    the smallest, the worst or slowest the largest, whatever "best" means for other measures."""
    timed = [
        t
        for t in terms
        if t.kind == "column"
        and (
            _IN_SECONDS.search(t.column)
            or (_TIME_HEADER.fullmatch(fold(t.column).strip()) and schema.by_name[t.column].category == "measure")
        )
    ]
    if not timed:
        return
    fast, slow = _FAST.search(text), _SLOW.search(text)
    if bool(fast) == bool(slow):
        return
    cues.ranking, cues.ascending, cues.pace = True, bool(fast), True
    said = fast or slow
    assert said is not None  # noqa: S101 - one of them matched
    _claim(taken, said.start(), said.end())


# A column of game results: "W 12-0", "L 17-18", "Won", "Lost 2-3", "D 1-1". The words of each outcome, and the
# marks a result of that outcome starts with.
_RESULT_CELL = re.compile(r"(?P<mark>w|l|d|t|won|lost|win|loss|draw|drew|tie|tied)(?:$|[\s(\d:–-])", re.IGNORECASE)
_OUTCOME_MARKS = {
    "W": ("w", "won", "win"),
    "L": ("l", "lost", "loss"),
    "D": ("d", "t", "draw", "drew", "tie", "tied"),
}
_OUTCOME_WORDS = re.compile(
    r"(?<![a-z])(?:(?P<W>win|wins|won|victory|victories)|(?P<L>lose|loses|lost|loss|losses|defeat|defeats)"
    r"|(?P<D>draw|draws|drew|tie|ties|tied))(?![a-z])"
)
_MOSTLY_RESULTS = 0.9
_OUTCOME_NOUNS = frozenset("wins victory victories loss losses defeat defeats draws ties".split())
# the table's own side as the verb's subject ("did they win", "games won", "matches we lost")
_OURS = re.compile(r"(?<![a-z])(?:they|we|he|she|it|the team|games|matches|times)\s+(?:have\s+|had\s+)?$")
_NOT_OURS = re.compile(r"(?<![a-z])(?:not|never|fail(?:ed)?\s+to|n't|without)\s+(?:\w+\s+){0,2}$")


def _results_column(schema: Schema) -> tuple[ColumnView, list[str]] | None:
    """The table's one column of results ("W 12-0", "L 17-18": wins and losses among them), with its values."""
    columns = []
    for view in schema.views:
        texts = [str(v).strip() for v in view.values if str(v).strip()]
        if view.kind != "text" or not view.complete or not texts:
            continue
        marks = [_RESULT_CELL.match(v) for v in texts]
        if sum(1 for m in marks if m) < _MOSTLY_RESULTS * len(texts):
            continue
        held = {k for m in marks if m for k, forms in _OUTCOME_MARKS.items() if m.group("mark").lower() in forms}
        if {"W", "L"} <= held:
            columns.append((view, texts))
    return columns[0] if len(columns) == 1 else None


def _results(text: str, taken: bytearray, schema: Schema, terms: list[Term]) -> list[Threshold]:
    """ "number of wins in the season", "how many games did they lose" over the table's one column of results
    ("W 12-0", "L 17-18"): the rows whose result is that outcome, as the list of the column's values that start
    with its mark (every value known). Not read when the table has no such column or has two."""
    if _OUTCOME_WORDS.search(text) is None:
        return []  # no outcome said: the columns' values are not read
    results = _results_column(schema)
    if results is None:
        return []
    view, texts = results
    found: list[Threshold] = []
    kinds: set[str] = set()
    for m in _OUTCOME_WORDS.finditer(text):
        if not _free(taken, m.start(), m.end()):
            continue
        kind = next(k for k in _OUTCOME_MARKS if m.group(k))
        if any(fold(t.column).startswith(m.group(0)[:3]) for t in terms):
            continue  # "how many times had morris won" with a Win column of pitchers: that column says who won
        if _NOT_OURS.search(text, 0, m.start()):
            continue  # "did they fail to win", "did not lose": a negation this reading does not take
        if m.group(0) not in _OUTCOME_NOUNS and not _OURS.search(text, 0, m.start()):
            continue  # "did the lions win": the opponent winning is the table's team losing
        chosen = [v for v in texts if (c := _RESULT_CELL.match(v)) and c.group("mark").lower() in _OUTCOME_MARKS[kind]]
        if not chosen:
            continue
        mark = min((v.split()[0] for v in chosen), key=len)  # "W" of "W 12-0"
        found.append(Threshold(view.name, "in", sorted(chosen), f"“{mark}”", m.start(), m.end()))
        kinds.add(kind)
        _claim(taken, m.start(), m.end())
    return found[:1] if len(kinds) == 1 else []  # "wins and losses": two outcomes are no one condition


def read_cues(question: str, text: str, schema: Schema, terms: list[Term], taken: bytearray) -> Cues:
    cues = Cues()
    places = _top_places(text, taken, schema, terms)  # "to place in the top 50": a place, not a top 50
    places += _places_in_text(text, taken, schema)  # "came in 3rd" over cells "3rd, Atlantic"
    _place_values(text, terms, taken)
    places += chart_places(text, schema, terms, taken)  # "reached the top 10 in the uk": a place, not a top 10
    _top(text, taken, cues)
    _nth(text, taken, cues)
    cues.row_counts = _row_counts(text, question, taken, schema, terms)
    cues.thresholds = places + _thresholds(text, question, taken, schema, terms) + _results(text, taken, schema, terms)
    cues.thresholds += signs(text, schema, terms, taken)
    change, unreadable = changes(text, schema, terms, taken)
    cues.thresholds += [change] if change else []
    _intents(text, taken, cues)
    dates = [t for t in terms if t.kind == "column" and schema.by_name[t.column].category in ("time", "year")]
    values = [t for t in terms if t.kind == "value"]
    cues.unsupported = _unsupported(question, text, _without_partial_mentions(taken, terms), dates, values)
    if unreadable and cues.unsupported is None:  # "how many parties lost seats" with no column of changes
        cues.unsupported = ("change", unreadable)
    _ranking(text, terms, taken, cues, schema)
    _last_place(text, schema, terms, taken, cues)
    _pace(text, schema, terms, taken, cues)
    kinds = [  # "her first role": a column of names, in a table whose rows have a time
        t
        for t in terms
        if t.kind == "column"
        and schema.by_name[t.column].category in ("dimension", "id")
        and not schema.by_name[t.column].ordinal
        and schema.of("time", "year")
    ]
    _time_edge(text, dates, kinds, taken, cues)
    _counting(text, schema, terms, taken, cues)
    if not cues.thresholds:  # "how many nations won no gold medals"
        cues.thresholds = _presence(text, schema, terms, taken, counting=cues.counting)
    cues.thresholds += _blank(text, schema, terms, taken) + _stock_states(text, schema, terms, taken)
    for t in cues.thresholds:  # "won at least 1 silver medal": the verb of the amount, read with it
        verb = HAVING.search(text, 0, t.start)
        if verb is None and _IN_SECONDS.search(t.column):  # "finished below 3 minutes": the time it took
            verb = _TIMED.search(text, 0, t.start)
        if verb is not None and schema.by_name[t.column].category == "measure" and _free(taken, verb.start(), t.start):
            _claim(taken, verb.start(), t.start)
    words = [w for ws in lx.AGG_WORDS.values() for w in ws]
    func_of = {w: f for f, ws in lx.AGG_WORDS.items() for w in ws}
    listed = _listed_places(text)
    cues.agg_words = [
        (s, e, func_of[w]) for s, e, w in find_words(text, words, taken) if not any(a <= s < b for a, b in listed)
    ]
    if cues.quantile is not None:
        cues.agg_words.append((len(text), len(text), "quantile"))
    return cues


# A superlative written right on a measure's name: "the most seasons", "the fewest goals", "销售额最高"
_SUPERLATIVE_BEFORE = re.compile(
    r"(?<![a-z])(?:the\s+)?(?:(?P<high>most|highest|greatest|largest)|(?P<low>fewest|least|lowest|smallest))\s+$"
)
_ZH_SUPERLATIVE_AFTER = re.compile(r"\s*(?:的)?\s*最(?:(?P<high>高|多|大)|(?P<low>低|少|小))")


def superlative_on(text: str, term: Term, lang: str) -> re.Match[str] | None:
    """The superlative said on this column's name (group "low" when it is the lowest), or None."""
    if lang == "zh":
        return _ZH_SUPERLATIVE_AFTER.match(text, term.end)
    return _SUPERLATIVE_BEFORE.search(text, 0, term.start)


# one period as the unit an extreme is taken over: "in a single year", "in one month", 单月, 单日
ONE_PERIOD = re.compile(r"(?<![a-z])in (?:a|one|a single) (?:day|month|year|season)(?![a-z])|" + ONE_PERIOD_ZH)


# "how many parties lost seats", "which airports saw a decrease in passenger traffic", "how many stations grew":
# rows whose change (up or down) is below or above zero, on the table's one column of changes ("+/–", "Change
# (%)", "Swing"). Asked only as a condition of rows counted or listed, never "the largest increase" (a ranking)
# nor "how much did it rise" (a value). "lost"/"gained" need their object ("lost seats"): "how many games did
# they lose" is the results' (cues._results). Without such a column of numbers, the question is refused: no
# reading would keep those rows.
_CHANGE_ASKED = re.compile(r"^\s*(?:how many|number of|which|what|who|name|list)(?![a-z])")
_CHANGE_DOWN = rf"{lx.FALL_WORDS}|negative change"
_CHANGE_UP = rf"{lx.RISE_WORDS}|positive change"
_CHANGE_WORD = re.compile(
    rf"(?<![a-z])(?:(?P<down>{_CHANGE_DOWN})|(?P<up>{_CHANGE_UP})|(?P<lost>lost|lose|loses|losing)|"
    r"(?P<gained>gained|gain|gains|gaining))(?![a-z])"
)
_CHANGE_RANKED = re.compile(
    r"(?<![a-z])(?:largest|biggest|greatest|highest|most|smallest|lowest|least|fewest|how much|by how much|amount|"
    r"size)\s+(?:[a-z]+\s+){0,2}$"
)
_CHANGE_OBJECT = re.compile(r"\s+(?:(?:a|an|the|any|some|its|their|his|her)\s+)?(?=[a-z])")


def change_columns(schema: Schema) -> list[ColumnView]:
    return [v for v in schema.views if CHANGE_COLUMN.search(v.name)]


def changes(text: str, schema: Schema, terms: list[Term], taken: bytearray) -> tuple[Threshold | None, str | None]:
    """The condition a change word sets (comment above), or the word itself when no column of numbers can
    carry it (the question is then refused); (None, None) when no change is asked as a condition."""
    if not _CHANGE_ASKED.match(text) or "how much" in text:
        return None, None
    for m in _CHANGE_WORD.finditer(text):
        if not _free(taken, m.start(), m.end()) or _CHANGE_RANKED.search(text, 0, m.start()):
            continue
        if m.group("lost") or m.group("gained"):  # "lost seats": an amount lost, read on its column
            article = _CHANGE_OBJECT.match(text, m.end())
            where = article.end() if article else m.end()
            if not any(t.kind == "column" and t.start == where for t in terms):
                continue
        down = bool(m.group("down") or m.group("lost"))
        columns = change_columns(schema)
        numeric = [v for v in columns if v.category == "measure"]
        if len(numeric) != 1 or len(columns) != 1:
            return None, text[m.start() : m.end()]
        _claim(taken, m.start(), m.end())
        word = text[m.start() : m.end()]  # "decrease (Change (%))": the condition in the question's words
        return Threshold(numeric[0].name, "<" if down else ">", 0, word, m.start(), m.end()), None
    return None, None


# "how many singles reached number one on the us r&b chart", "which single peaked at no. 3 in the uk", "how many
# reached the top ten in the us": a place on a chart, said with the column of that chart's places named right after
_CHART_PLACE = re.compile(
    r"(?<![a-z])(?P<verb>(?:reach(?:ed|es)?|hit|peak(?:ed|s)?(?:\s+at)?|top(?:ped)?\s+out\s+at|charted\s+at|"
    r"got\s+to|went\s+to|made\s+it\s+to|climbed\s+to|rose\s+to|debuted\s+at)\s+)?(?:the\s+)?"
    r"(?:(?:number|no\.|#)\s*(?P<n>\d+|[a-z]+)|top\s+(?P<top>\d+|[a-z]+))"
    r"(?:\s+(?:spot|position|place))?\s+(?:on|in|at)\s+(?:the\s+)?$"
)
_CHART_AFTER = re.compile(r"\s+(?:charts?|singles chart|album chart)(?![a-z])")


def chart_places(text: str, schema: Schema, terms: list[Term], taken: bytearray) -> list[Threshold]:
    """A place on a chart (comment above) on the column named right after it: = that place, or at most the top
    N. The column holds whole numbers (places); the words read are claimed."""
    found = []
    for t in terms:
        view = schema.by_name[t.column]
        if t.kind != "column" or view.kind != "integer":
            continue
        m = _CHART_PLACE.search(text, 0, t.start)
        if m is None or m.end() != t.start or not _free(taken, m.start(), m.end()):
            continue
        n = _position_number(m.group("n") or m.group("top"))
        if (
            n is None
            or n < 1
            or (m.group("n") and not m.group("verb") and not m.group(0).startswith(("number", "no.", "#")))
        ):
            continue
        op = "<=" if m.group("top") else "="
        found.append(Threshold(t.column, op, n, str(n), m.start(), t.end))
        after = _CHART_AFTER.match(text, t.end)
        _claim(taken, m.start(), after.end() if after else m.end())
    return found + _charted(text, schema, terms, taken)


# "how many albums did not chart in canada", "how many singles charted in the uk": over a chart's places (a dash
# where the record did not chart, read as blank), the rows with no place there, or with one
_CHARTED = re.compile(
    r"(?<![a-z])(?P<neg>(?:did not|didn't|never|failed to|fail to|not)\s+)?chart(?:ed|s)?\s+(?:in|on)\s+(?:the\s+)?$"
)


def _charted(text: str, schema: Schema, terms: list[Term], taken: bytearray) -> list[Threshold]:
    found = []
    for t in terms:
        view = schema.by_name[t.column]
        if t.kind != "column" or not view.written_place:
            continue
        m = _CHARTED.search(text, 0, t.start)
        if m is None or m.end() != t.start or not _free(taken, m.start(), m.end()):
            continue
        found.append(Threshold(t.column, "is_null", bool(m.group("neg")), "", m.start(), t.end))
        _claim(taken, m.start(), m.end())
    return found


# "how many teams finished with a negative goal difference", "a positive change": the sign of a column of numbers
_SIGN_BEFORE = re.compile(r"(?<![a-z])(?P<sign>negative|positive)\s+$")


def signs(text: str, schema: Schema, terms: list[Term], taken: bytearray) -> list[Threshold]:
    """Below or above zero on the column of numbers named right after negative/positive (comment above)."""
    found = []
    for t in terms:
        view = schema.by_name[t.column]
        m = _SIGN_BEFORE.search(text, 0, t.start)
        if t.kind != "column" or view.category != "measure" or m is None or not _free(taken, m.start(), m.end()):
            continue
        if view.lo is not None and view.hi is not None and not (float(view.lo) < 0 < float(view.hi)):
            continue  # a column all of one sign: the word is no condition it can carry
        op = "<" if m.group("sign") == "negative" else ">"
        found.append(Threshold(t.column, op, 0, m.group("sign"), m.start(), t.end))
        _claim(taken, m.start(), m.end())
    return found
