"""Question coverage: every anchor of the question (a period, a value of the data, a column, top-N, a time grain,
an operation such as 同比 or 占比, a threshold) must be applied by a query the answer cites, or the answer must say
plainly that it was not. Deliberately literal and independent of how any planner reads the question."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.utils.translation import gettext as _

from apps.agent import durations
from apps.agent.explain_terms import GRAINS as GRAIN_WORDS
from apps.agent.verification.binding import after_year, specific_periods
from apps.agent.verification.grounding import date_tokens_of_text
from apps.agent.verification.numbers import UNITS, canonical_date, find_mentions, mentions_of
from apps.agent.verification.queries import QueryFacts
from apps.agent.verification.verdict import Coverage
from apps.agent.verification.vocabulary import LabelFinder, Vocabulary, norm
from apps.datasets.query.resolve import (
    CENTURY,
    CHANGE_COLUMN,
    CHANGE_NOUN_RANKED,
    CHANGE_RANKED,
    LEAVES_OUT,
    ONE_PERIOD_ZH,
    PERCENT_NAME,
    adds_up_what_follows,
    century_start,
    season_years,
)
from apps.datasets.query.spec import ROW_POSITION

AnchorKind = Literal["number", "period", "value", "column", "top_n", "grain", "operation"]

_CN_SMALL = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_TOP_N = re.compile(
    r"(?:前|排名前|top\s*|最[高大多低小少]的\s*)(?P<n>\d{1,4}|[一二两三四五六七八九十])\s*(?:名|个|位|家|款|种|大|条|项)?"
    r"|(?P<m>\d{1,4})\s+(?:largest|biggest|highest|best|lowest|smallest|most|top)",
    re.IGNORECASE,
)
_THRESHOLD = re.compile(
    r"(?:超过|大于|高于|多于|不少于|至少|不低于|低于|小于|少于|不足|不到|不超过|over|above|more than|greater than|"
    r"less than|fewer than|below|under|at least|at most|faster than|slower than|within|>=?|<=?|≥|≤)\s*"
    rf"(?P<num>{durations.DURATION}|[-\d.,]+\s*(?:%|万|亿|千|thousand|million|billion|k(?![a-z])|m(?![a-z]))?)",
    re.IGNORECASE,
)
_RELATIVE = re.compile(
    r"去年|今年|本年|上个?月|本月|这个月|上个?季度|本季度|上周|本周|昨天|今天|最近|近\s*\d+\s*[天周月年]|过去\s*\d*|年初至今|"
    r"\b(?:last|this|previous|past)\s+(?:\d+\s+)?(?:year|month|quarter|week|day)s?\b|\bytd\b|year to date",
    re.IGNORECASE,
)
GRAINS: dict[str, str] = {
    "month": r"每个?月|按月|月度|各月|逐月|分月|\b(?:monthly|by month|per month|each month|month by month)\b",
    "quarter": r"每个?季度|按季度?|季度的?趋势|各季度|分季度|\b(?:quarterly|by quarter|per quarter|each quarter)\b",
    "year": r"每年|按年|年度|各年|逐年|分年|\b(?:yearly|annual(?:ly)?|by year|per year|each year)\b",
    "week": r"每周|按周|周度|各周|逐周|\b(?:weekly|by week|per week|each week)\b",
    "day": r"每天|每日|按天|按日|逐日|\b(?:daily|by day|per day|each day)\b",
}
OPERATIONS: dict[str, str] = {
    "yoy": r"同比|去年同期|year[- ]over[- ]year|\byoy\b|y/y|same period last year",
    "mom": r"环比|较上月|比上月|month[- ]over[- ]month|\bmom\b|m/m|period[- ]over[- ]period",
    # "the difference between the highest and lowest", "最高和最低相差多少": one number taken from another
    "difference": r"差值|差额|相差|差距|\bdifference\b",
    "share": r"占比|比重|份额|占.{0,8}(?:比例|百分比)|占了?多少|占几成|百分之几|\bshare\b|proportion|"
    r"percentage of|% of|fraction of|what percent",
    "rate": r"(?<![效频汇税利])率|\brate\b|\bratio\b",
    "cumulative": r"累计|累积|截至|截止|running total|cumulative|to date",
    "median": r"中位数|\bmedian\b",
    "stddev": r"标准差|standard deviation|\bstd\b|\bstdev\b",
    "variance": r"方差|variance",
    "quantile": r"分位|百分位|percentile|quantile|quartile",
    "corr": r"相关|correlat",
    "average": r"平均|均值|人均|客单价|average|\bmean\b|\bavg\b|per capita",
    # "at least 4" / "at most 3" are thresholds (_THRESHOLD), not the smallest or largest value
    "max": r"最大|最高|最多|峰值|最贵|最长|\bmax(?:imum)?\b|highest|largest|biggest|(?<!at )\bmost\b|\bpeak\b",
    "min": r"最小|最低|最少|最便宜|最短|\bmin(?:imum)?\b|\blowest|smallest|(?<!at )\bleast\b|fewest",  # not "slowest"
    "distinct": r"去重|多少种|几种|不同的|distinct|unique|how many different",
    # "how many cities are on this list": the list is the data, not a listing asked for; nor is "how long is the
    # list of …", a count
    "list": r"列出|列举|有哪些|(?<!on this )(?<!on the )(?<!in this )(?<!in the )(?<!how long is the )\blist\b"
    r"|show all|all the names",
    "trend": r"趋势|走势|变化情况|\btrend|over time",
}
_GRAIN_RE = {k: re.compile(v, re.IGNORECASE) for k, v in GRAINS.items()}
_OP_RE = {k: re.compile(v, re.IGNORECASE) for k, v in OPERATIONS.items()}
_NEGATION = re.compile(
    r"未|没有|无法|不能|不支持|缺少|不包含|不含|忽略|暂不|并非|\bnot\b|\bno\b|cannot|can't|unable|without|isn't|"
    r"doesn't|does not|missing|ignored|unavailable",
    re.IGNORECASE,
)
_COMPARISON = re.compile(
    r"达到|超过|低于|高于|少于|多于|不到|不足|相比|比|接近|约|above|below|over|under|exceed|short of|more than|"
    r"less than|compared|versus|\bvs\b|close to|about",
    re.IGNORECASE,
)
_AVERAGED = re.compile(r"(?:平均|人均|average|mean|avg)\s*$", re.IGNORECASE)
_COUNT_WORDS = {"数量", "个数", "次数", "数目", "件数", "count", "number"}
_CLAUSE = re.compile(r"[^。；;！？!?\n]+")


@dataclass(frozen=True)
class Anchor:
    text: str
    kind: AnchorKind
    key: str


def _number_of(text: str) -> float | None:
    """The number a threshold says; a time ("1:54.32", "8 minutes") in seconds, as a column of times holds it."""
    seconds = durations.seconds(text)
    if seconds is not None:
        return seconds
    if text in _CN_SMALL:
        return float(_CN_SMALL[text])
    mentions = [m for m in find_mentions(text) if m.kind in ("number", "rank")]
    if not mentions:
        return None
    m = mentions[0]
    return m.scaled / 10**m.decimals * (UNITS.get(m.unit, 1.0) if m.unit not in ("%", "‰") else 1.0)


def _named_with_digits(question: str, vocab: Vocabulary | None) -> str:
    """The question with the names of columns that hold a digit ("3-dart Average", "Population 2000") blanked
    out, as it spells them ("3 dart average"): their digits and words name the column, not a number or an
    operation asked for. The column itself stays an anchor (_data_anchors reads the question unmasked). So are
    the values with a digit the question names whole ("euro 2000 qualifying")."""
    if vocab is None or len(question.casefold()) != len(question):
        return question
    masked = question
    folded = norm(question)
    # and the values that hold one ("Euro 2000 qualifying"): the value stays an anchor of its own
    valued = [v for v in vocab.raw_values if v in folded and _DIGIT.search(v)]
    for name in [*vocab.columns, *valued]:
        words = [w for w in re.split(r"[\s\-_]+", norm(name)) if w]
        if not any(_DIGIT.search(w) for w in words) or not any(re.fullmatch(r"[^\W\d_]{3,}", w) for w in words):
            continue
        spelt = re.compile(r"(?<!\w)" + r"[\s\-_]*".join(re.escape(w) for w in words) + r"(?!\w)")
        for m in spelt.finditer(masked.casefold()):
            masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end() :]
    return masked


_DIGIT = re.compile(r"\d")


_MONTH_NAMES = "january|february|march|april|may|june|july|august|september|october|november|december"
# "on 4 march 2000", "march 4, 2000", "march 4,2000": a month's name written in lower case between a day and a
# year is a date as much as "4 March 2000" (alone, "march" or "may" is as likely a verb, so only the whole date is read)
_LOWER_CASE_DATE = re.compile(
    rf"(?<![\w.])\d{{1,2}}(?:st|nd|rd|th)?\s+(?P<m>{_MONTH_NAMES}),?\s+(?:19|20)\d{{2}}(?!\d)"
    rf"|(?<![\w])(?P<n>{_MONTH_NAMES})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+|,)(?:19|20)\d{{2}}(?!\d)"
)


def _dates_capitalised(question: str) -> str:
    """The question with the month of each whole date written in lower case capitalised (the same length)."""
    for m in _LOWER_CASE_DATE.finditer(question):
        group = "m" if m["m"] else "n"
        start, end = m.span(group)
        question = question[:start] + question[start:end].capitalize() + question[end:]
    return question


# "what was the last year they came 3rd", "the last year the show aired": "the last year" opening a clause of its
# own is the latest year the rows have, an extreme of theirs (not the year before this one, as "in the last year")
_LAST_OF_A_CLAUSE = re.compile(r"\s+(?:they|he|she|it|we|the|this|that|a|an)\s+\w", re.IGNORECASE)


def _relative(question: str, m: re.Match[str]) -> Anchor:
    last = m.group(0).lower().startswith("last") and question[: m.start()].lower().endswith("the ")
    if last and _LAST_OF_A_CLAUSE.match(question, m.end()):
        return Anchor(m.group(0), "operation", "max")  # "the last year they won": the latest one
    return Anchor(m.group(0), "period", "relative")


def question_anchors(question: str, vocab: Vocabulary | None) -> list[Anchor]:
    anchors: list[Anchor] = []
    asked, question = question, _dates_capitalised(_named_with_digits(question, vocab))
    for mention in mentions_of(question):
        if mention.kind == "date":
            tokens = after_year(
                question, mention.start, specific_periods(date_tokens_of_text(canonical_date(mention.text)))
            )
            tokens = set(season_years(mention.text) or ()) or tokens  # "2005/06" names a season, not June 2005
            if tokens:
                anchors.append(Anchor(mention.text, "period", "|".join(sorted(tokens))))
    anchors += [_relative(question, m) for m in _RELATIVE.finditer(question)]
    for match in _TOP_N.finditer(question):
        n = _number_of(match["n"] or match["m"])
        if n:
            anchors.append(Anchor(match.group(0).strip(), "top_n", str(int(n))))
    timed: list[tuple[int, int]] = []  # "under 8 minutes": 480 seconds, and no other number
    for match in _THRESHOLD.finditer(question):
        n = _number_of(match["num"])
        if n is not None:
            anchors.append(Anchor(match.group(0).strip(), "number", repr(n)))
            if durations.seconds(match["num"]) is not None:
                timed.append(match.span("num"))
    for match in CENTURY.finditer(question):  # "the 20th century": the years from 1900, not the number 20
        anchors.append(Anchor(match.group(0), "period", str(century_start(match))))
        timed.append(match.span())
    ranked = {float(a.key) for a in anchors if a.kind == "top_n"}
    anchors += [
        a
        for a in _number_anchors(question, has_top_n=bool(ranked), inside=timed)
        if a.kind != "number" or float(a.key) not in ranked
    ]
    # "哪个账号的年度目标最高": 年度 inside the name of a column (年度目标) is that column's word, no grain
    named = [(s, e) for _w, s, e in vocab.column_finder().find_spans(question)] if vocab is not None else []
    anchors += [
        Anchor(m.group(0), "grain", g)
        for g, rx in _GRAIN_RE.items()
        for m in rx.finditer(question)
        if not _AVERAGED.search(question[max(0, m.start() - 12) : m.start()])  # "average monthly MRR" is an average
        and not any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start() for a, b in named)
    ][:3]
    if vocab is not None and vocab.date_columns:  # "单月最高销售额" over dated rows: each month's total, the best
        anchors += [Anchor(m.group(0), "grain", g) for m in _ONE_PERIOD.finditer(question) for g in [_period_of(m)]]
    operations = [  # "the goal difference of córdoba": the Goal Difference column, no difference taken
        (m, op)
        for op, rx in _OP_RE.items()
        for m in rx.finditer(question)
        if not any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start() for a, b in named)
    ][:4]
    anchors += [Anchor(m.group(0), "operation", op) for m, op in operations]
    if vocab is not None:
        extremes = _extremes_of_columns(question, operations, vocab)
        units = {a.key.split("@", 1)[1] for a in extremes if a.key.startswith("unit@")}
        extremes = [a for a in extremes if not a.key.startswith("unit@")]
        counted = {a.key.split("@", 1)[1] for a in extremes} - {c for c, r in vocab.columns.items() if r == "measure"}
        counted |= units
        anchors += extremes  # "the most series": the Series counted per group, which applies the column as well
        anchors += [a for a in _data_anchors(asked, vocab) if a.kind != "column" or a.key not in counted]
    return _unique(anchors)


# "in a single month", 单月: one period, whose total an extreme is taken over (only over rows with dates: where a
# Season or Year column says which period a row is of, "the most losses in a single season" is one row's)
_ONE_PERIOD = re.compile(r"\bin (?:a|one|a single) (?:day|month|year)\b|" + ONE_PERIOD_ZH, re.IGNORECASE)


def _period_of(m: re.Match[str]) -> str:
    said = m.group(0).lower()
    return "day" if said.endswith(("day", "日")) else "month" if said.endswith(("month", "月")) else "year"


# "the most wins", "销售额最高": a superlative said right next to a column's name ranks by that column
_EXTREME_GAP_EN = re.compile(r"\s{1,2}(?:the\s+)?(?:number\s+of\s+|amount\s+of\s+)?")
_EXTREME_GAP_ZH = re.compile(r"的?\s*")


def _extremes_of_columns(
    question: str, operations: Sequence[tuple[re.Match[str], str]], vocab: Vocabulary
) -> list[Anchor]:
    """One anchor per superlative written beside a column's name ("the most wins", "wins最多"): it is applied only
    where a query ranks or takes the extreme by that column, not by another one beside it (_extreme_applied)."""
    if not any(op in ("max", "min") for _m, op in operations):
        return []
    words = vocab.column_words()
    spans = vocab.column_finder().find_spans(question)
    out = []
    for m, op in operations:
        if op not in ("max", "min"):
            continue
        verbal = _extreme_of_a_verb(question, m, op, spans, vocab)
        if verbal:
            out += verbal
            continue
        for word, start, end in spans:
            after = _EXTREME_GAP_EN.fullmatch(question, m.end(), start) is not None and m.end() < start
            before = end <= m.start() and _EXTREME_GAP_ZH.fullmatch(question, end, m.start()) is not None
            if after:  # "the lowest population density": the last of two column words side by side is meant
                head = next((s for s in spans if s[1] == end + 1 and question[end] == " "), None)
                word, end = (head[0], head[2]) if head is not None else (word, end)
            if after or (before and not question[m.start() : m.end()].isascii()):
                text = question[min(m.start(), start) : max(m.end(), end)]
                per = "@per" if after and _PER_AFTER.match(question, end) else ""  # "the highest points per game"
                out.append(Anchor(text, "operation", f"{op}@{words[word]}{per}"))
                break
    return out


def _extreme_of_a_verb(
    question: str, m: re.Match[str], op: str, spans: list[tuple[str, int, int]], vocab: Vocabulary
) -> list[Anchor]:
    """The extreme a verb before the superlative says, with the column named after it read as its unit (an anchor
    "unit@column": no column of its own to apply). "which coach lost the most games": the column the verb names
    (Lost) is ranked. "which party lost the most seats": the table's one column of changes (+/–), the largest
    fall first; with no such column nothing can apply it. [] when no verb is said there."""
    words = vocab.column_words()
    unit = next((s for s in spans if _EXTREME_GAP_EN.fullmatch(question, m.end(), s[1])), None)
    verb = next(
        (s for s in spans if _OUTCOME_VERB.fullmatch(s[0]) and _VERB_GAP.fullmatch(question, s[2], m.start())), None
    )
    changed = next((c for c in CHANGE_RANKED.finditer(question) if c.start() <= m.start() < c.end()), None)
    noun = CHANGE_NOUN_RANKED.match(question, m.start())  # "the largest percentage decrease in population"
    changes = [c for c in vocab.columns if CHANGE_COLUMN.search(c)]
    if noun is not None and len(changes) == 1:
        unit = next((s for s in spans if s[1] == noun.end()), None)
        said = question[m.start() : unit[2] if unit else noun.end()]
        found = [Anchor(said, "operation", f"{'min' if noun['down'] else 'max'}@{changes[0]}")]
    elif verb is not None:
        said = question[verb[1] : unit[2] if unit else m.end()]
        found = [Anchor(said, "operation", f"{op}@{words[verb[0]]}")]
    elif changed is not None and unit is not None and not CHANGE_COLUMN.search(words[unit[0]]):
        said = question[changed.start() : unit[2]]
        ranked = changes[0] if len(changes) == 1 else ""
        found = [Anchor(said, "operation", f"{'min' if changed['down'] else 'max'}@{ranked}")]
    else:
        return []
    return found + ([Anchor(said, "operation", f"unit@{words[unit[0]]}")] if unit is not None else [])


def _extreme_applied(
    op: str, column: str, fact: QueryFacts, vocab: Vocabulary | None, *, per: bool = False
) -> str | None:
    """The highest or lowest by `column`: its own max/min, a sort or a rank by it or by an aggregation of it. A
    query written as SQL is not read this closely (its own check applies)."""
    spec = fact.spec
    if spec is None:
        return _operation_applied(op, fact, vocab.places if vocab is not None else frozenset())
    on = {a.name for a in spec.aggregations if a.column == column} | {column}
    if vocab is not None and vocab.columns.get(column) != "measure":  # "the most series": rows counted per group
        on |= {a.name for a in spec.aggregations if a.func == "count" and not a.column}
    on |= {g.alias or g.column for g in spec.group_by if g.column == column}
    if per:  # "the highest points per game": ranked by the ratio of the column's total to another's
        on |= {d.name for d in spec.derived if "/" in d.expr and any(f"[{n}]" in d.expr for n in on)}
    if any(a.func in ("max", "min") and a.column == column for a in spec.aggregations):
        return _("computed (%(how)s)") % {"how": op}
    ranked = {w.name for w in spec.windows if w.func == "rank" and w.of in on}
    if spec.sort and (spec.sort[0].by in on or spec.sort[0].by in ranked):
        return _("sorted by %(column)s") % {"column": column}
    if ranked and any(h.column in ranked for h in spec.having):
        return _("ranked by %(column)s") % {"column": column}
    return None


_PER_AFTER = re.compile(r"\s+per\s+\w", re.IGNORECASE)
_OUTCOME_VERB = re.compile(r"won|lost|drew|drawn|win|lose|scored|conceded|allowed")
_VERB_GAP = re.compile(r"\s+(?:the\s+)?", re.IGNORECASE)
_SHORT_YEAR = re.compile(r"\s?年(?![龄级])")


def _number_anchors(question: str, *, has_top_n: bool, inside: Sequence[tuple[int, int]] = ()) -> list[Anchor]:
    """Every other number of the question is a condition too ("一次买 3 件的订单"): used by a query, or compared.
    Numbers `inside` a time already read as seconds are not."""
    anchors = []
    for mention in mentions_of(question):
        if any(start <= mention.start < end for start, end in inside):
            continue
        if mention.kind == "number" and _SHORT_YEAR.match(question, mention.end) and 0 <= mention.value <= 99:
            # "24年": the year 2024, applied like any period
            anchors.append(Anchor(mention.text + "年", "period", "|".join(sorted({f"20{int(mention.value):02d}"}))))
        elif mention.kind == "number":
            percent = mention.unit in ("%", "‰")
            anchors.append(Anchor(mention.text, "number", repr(mention.value * (100 if percent else 1))))
        elif mention.kind == "rank" and not has_top_n:
            anchors.append(Anchor(mention.text, "top_n", str(mention.scaled)))
    return anchors


_WHOLE_BEFORE = re.compile(r"(?:所有的?|全部的?|全体|整个|(?<![a-z])all(?: of)?(?: the)?)\s*$", re.IGNORECASE)


_COUNTED_BY_THE_COLUMN_BEFORE = re.compile(
    r"\s+(?:at least|at most|more than|fewer than|less than|over|under|exactly|only)\s+\d[\d,]*\s+", re.IGNORECASE
)


_IN_ONE = re.compile(r"(?<![a-z])in (?:a|one|a single) $", re.IGNORECASE)


def _word_end(text: str, start: int) -> int:
    m = re.compile(r"\w+").match(text, start)
    return m.end() if m else start


def _data_anchors(question: str, vocab: Vocabulary) -> list[Anchor]:
    words = vocab.column_words()
    values = LabelFinder()
    for value in vocab.values:
        values.add(value)
    # "the birth of john the baptist" over a column John: a column's name in the middle of a value names no column
    # ("total sales" as a value still names Sales: a name at a value's edge may be the column meant)
    named = [(s, e) for _v, s, e in values.find_spans(question)]
    spans = [
        (w, s, e)
        for w, s, e in vocab.column_finder().find_spans(question)
        if not any(a < s and e < b for a, b in named)
    ]
    found = [w for w, _s, _e in spans]
    anchors: list[Anchor] = []
    for i, (word, start, _end) in enumerate(spans):
        if _WHOLE_BEFORE.search(question[max(0, start - 12) : start]):
            continue  # "所有门店一共", "across all stores": all of them together, nothing to apply
        following = spans[i + 1][1] if i + 1 < len(spans) else -1
        if adds_up_what_follows(word, question, _end, following):
            continue  # "the total number of bronze medals" beside a Total column: how Bronze is added up
        if (
            words[word] in vocab.one_per_row
            and _IN_ONE.search(question, 0, start)
            and _end == _word_end(question, start)
        ):
            continue  # "the most goals in a single season" over one row per season: the season is a row
        if i and _COUNTED_BY_THE_COLUMN_BEFORE.fullmatch(question, spans[i - 1][2], start):
            continue  # "won at least 4 matches": what the number of the Won column counts (the number is checked)
        # "damaged units" names one thing (the column damaged) with two column words: either applies it.
        if i and start - spans[i - 1][2] <= 1 and anchors:
            previous = anchors.pop()
            anchors.append(Anchor(f"{previous.text} {word}", "column", f"{previous.key}|{words[word]}"))
        else:
            anchors.append(Anchor(word, "column", words[word]))
    rest = norm(question)
    for word in found:
        rest = rest.replace(word, " " * len(word))
    original = unicodedata.normalize("NFKC", question)
    for value in values.find(rest):
        # Latin values count only as written in the data ("Hotel" the type, not "hotel" the common noun).
        if value.isascii() and vocab.raw_values.get(value, value) not in original:
            continue
        anchors.append(Anchor(vocab.raw_values.get(value, value), "value", value))
    return anchors


def _unique(anchors: list[Anchor]) -> list[Anchor]:
    seen: set[tuple[str, str]] = set()
    out = []
    for anchor in anchors:
        if (anchor.kind, anchor.key) not in seen:
            seen.add((anchor.kind, anchor.key))
            out.append(anchor)
    return out


def _applied(anchor: Anchor, fact: QueryFacts, vocab: Vocabulary | None) -> str | None:
    """How `fact` applied the anchor, for people; None when it did not."""
    kind, key = anchor.kind, anchor.key
    if kind == "period":
        return _period_applied(anchor, fact, vocab)
    if kind == "value":
        if fact.filters_value(key):
            return _("filtered on %(value)s") % {"value": anchor.text}
        return _("a row of the result") if key in fact.all_labels else None
    if kind == "column":
        for column in key.split("|"):
            time_column = vocab is not None and vocab.columns.get(column) == "time"
            if fact.references(column) or (time_column and (fact.grains() or fact.has_time_filter())):
                return _("uses the column %(column)s") % {"column": column}
        if norm(anchor.text) in _COUNT_WORDS and fact.funcs() & {"count", "nunique"}:
            return _("counted")  # "各原因的数量" reads as a count as much as the column 数量
        return None
    places = vocab.places if vocab is not None else frozenset()
    if kind == "top_n":  # "finished in 3rd place": a filter on the value "3rd" applies it as well
        return _top_n_applied(int(key), fact, places) or (
            _("part of a value filtered on") if _inside_filtered_value(anchor.text, fact) else None
        )
    if kind == "number":
        return _number_applied(anchor, fact)
    if kind == "grain":
        return _grain_applied(key, fact)
    if "@" in key:
        op, column, *per = key.split("@")
        return _extreme_applied(op, column, fact, vocab, per=bool(per))
    return _operation_applied(key, fact, places)


def _number_applied(anchor: Anchor, fact: QueryFacts) -> str | None:
    wanted = float(anchor.key)
    if any(_close(v, wanted) or _close(v * 100, wanted) for v in fact.parameter_numbers()):
        return _("used as a query parameter")
    scale = _SCALE_SAID.search(anchor.text)  # "6.5 million" over Viewers (millions): 6.5 as the column holds it
    said = fact.spec.model_dump_json().lower() if fact.spec is not None else fact.sql.lower()
    if (
        scale is not None
        and f"({scale.group(1).lower()}s)" in said
        and any(_close(v * _SCALES[scale.group(1).lower()], wanted) for v in fact.parameter_numbers())
    ):
        return _("used as a query parameter")
    if _inside_filtered_value(anchor.text, fact):
        return _("part of a value filtered on")
    return None


_SCALE_SAID = re.compile(r"\d\s*(thousand|million|billion)s?\b", re.IGNORECASE)
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}


def _inside_filtered_value(number: str, fact: QueryFacts) -> bool:
    """ "客户7", "Store 12", "iPhone 15": the number is part of a value of the data the query filters on."""
    if not number.strip() or not number.strip()[0].isdigit():
        return False
    written = re.compile(rf"(?<![\d.]){re.escape(number.strip())}(?![\d.])")
    return any(
        isinstance(v, str) and not v.strip().replace(".", "").isdigit() and written.search(v)
        for v in fact.filter_values()
    )


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _period_applied(anchor: Anchor, fact: QueryFacts, vocab: Vocabulary | None) -> str | None:
    if anchor.key == "relative":
        if fact.has_time_filter():
            return _("filtered on a period")
        return _("grouped by period") if len(fact.all_periods) > 1 else None
    tokens = set(anchor.key.split("|"))
    if tokens & fact.filter_period_tokens:
        return _("filtered on %(period)s") % {"period": anchor.text}
    if tokens & fact.all_periods:
        return _("rows for %(period)s in the result") % {"period": anchor.text}
    for low, high in vocab.time_spans if vocab is not None else []:
        if tokens & date_tokens_of_text(low) and tokens & date_tokens_of_text(high):
            return _("the data covers only %(period)s") % {"period": anchor.text}
    year = anchor.text.strip()
    if re.fullmatch(r"(?:18|19|20)\d{2}", year) and any(
        re.search(rf"(?<!\d){year}(?!\d)", c) for c in fact.columns if fact.references(c)
    ):
        return _("the column of %(period)s") % {"period": year}  # "the population in 2010": Population 2010
    if re.fullmatch(r"(?:1[0-9]|20|21)\d{2}", year) and float(year) in fact.parameter_numbers():
        return _("filtered on %(period)s") % {"period": year}  # "opened after 2000" over a column of years (Opened)
    return None


def _top_n_applied(n: int, fact: QueryFacts, places: frozenset[str] = frozenset()) -> str | None:
    funcs = fact.funcs()
    if fact.limit() == n or fact.row_count == n:
        return _("limited to %(n)s rows") % {"n": n}
    if "rank" in funcs or ({"sorted_desc", "sorted_asc"} & funcs and fact.row_count >= n):
        return _("ranked, first %(n)s rows") % {"n": n}
    for column, op, value, _grain in fact.filters():  # "finished in the top 10": a place of at most 10
        if op == "<=" and _is_place(column, places) and _is_number(value) and float(value) == n:
            return _("places up to %(n)s") % {"n": n}
        if column == ROW_POSITION and op == "=" and _is_number(value) and float(value) == n:  # "第3行"
            return _("row %(n)s of the file") % {"n": n}
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _grain_applied(grain: str, fact: QueryFacts) -> str | None:
    grains = fact.grains()
    if grain in grains:
        return str(GRAIN_WORDS[grain])
    periods = fact.row_periods
    if len(periods) >= 2:
        if grain == "year" and len({t for p in periods for t in p if re.fullmatch(r"\d{4}", t)}) >= 2:
            return str(GRAIN_WORDS[grain])
        if grain == "day" and all(any(re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) for t in p) for p in periods[:3]):
            return str(GRAIN_WORDS[grain])
    return None


_FUNCS_FOR: dict[str, set[str]] = {
    "share": {"share_of_total", "ratio", "window"},
    "average": {"avg", "ratio", "mean_of_groups"},
    "max": {"max", "sorted_desc", "rank"},
    "min": {"min", "sorted_asc", "rank"},
    "median": {"median", "quantile"},
    "stddev": {"stddev"},
    "variance": {"variance"},
    "quantile": {"quantile", "median"},
    "corr": {"corr"},
    "distinct": {"nunique"},
    "mom": {"pct_change", "diff", "window"},
    "rate": {"ratio", "share_of_total", "avg", "pct_change"},
}


# Columns of places and ranks, where 1 is the highest: "the highest position" is the smallest number
_PLACE_COLUMN = re.compile(  # named only so: "Rank", "Pos.", "Peak position" (not "Ranking points")
    r"(?:(?:peak|final|overall|highest|best|current|world|league|chart)\s+)*"
    r"(?:rank|ranking|pos\.?|position|place|placing|finish)|(?:最高|最终)?(?:名次|排名)"
    r"|(?:[\w.]+\s+){0,2}chart(?:\s+position)?",
    re.IGNORECASE,
)


_OWN_COLUMN = {
    "rate": (re.compile(r"率|rate|ratio", re.IGNORECASE), "rate column"),
    "share": (PERCENT_NAME, "percentage column"),
    # a column that is an average already: "the season he averaged the most points per game" sorts by PPG
    "average": (
        re.compile(
            r"per (?:game|match|capita|head|person)|average|avg|mean|(?<![a-z])[a-z]?pg(?![a-z])|平均|人均", re.I
        ),
        "averaged column",
    ),
}


def _is_place(column: str, places: frozenset[str]) -> bool:
    """A column of places by its name, or as the file wrote it (a chart's peak positions: US, UK)."""
    return column in places or _PLACE_COLUMN.fullmatch(column.strip()) is not None


def _place_extreme(op: str, fact: QueryFacts, places: frozenset[str] = frozenset()) -> bool:
    """ "the highest position" computed as the smallest place number (or "the lowest rank" as the largest), as
    an aggregate or as the rows sorted by the place."""
    spec = fact.spec
    if spec is None or op not in ("max", "min"):
        return False
    other = "min" if op == "max" else "max"
    if any(a.func == other and a.column and _is_place(a.column, places) for a in spec.aggregations):
        return True
    # rows sorted by the place itself: "the lowest place" first is the largest number
    first = spec.sort[0] if spec.sort and not spec.is_aggregate else None
    return first is not None and first.desc == (op == "min") and _is_place(first.by, places)


def _place_sorted_against(op: str, fact: QueryFacts, places: frozenset[str] = frozenset()) -> bool:
    """Rows sorted by a place the other way round: "the best chart position" listed from the largest number."""
    spec = fact.spec
    if spec is None or spec.is_aggregate or not spec.sort or op not in ("max", "min"):
        return False
    first = spec.sort[0]
    return _is_place(first.by, places) and first.desc == (op == "max")


def _operation_applied(op: str, fact: QueryFacts, places: frozenset[str] = frozenset()) -> str | None:
    funcs = fact.funcs()
    done = _("computed (%(how)s)")
    if _place_sorted_against(op, fact, places):
        return None
    if op in _FUNCS_FOR and funcs & _FUNCS_FOR[op]:
        return done % {"how": ", ".join(sorted(funcs & _FUNCS_FOR[op]))}
    if _place_extreme(op, fact, places):
        return done % {"how": "min" if op == "max" else "max"}
    whole = fact.limit() is None or fact.row_count < (fact.limit() or 0)
    if op in ("max", "min") and whole and ({"sorted_desc", "sorted_asc"} & funcs or len(fact.rows) >= 2):
        # every group was returned, so the extreme is among them (and the superlative check names the right one)
        return done % {"how": "sort" if {"sorted_desc", "sorted_asc"} & funcs else "all groups compared"}
    said = _OWN_COLUMN.get(op)  # a rate column, or the data's own % column ("what percentage did she get")
    if said is not None and any(said[0].search(c) for c in fact.columns if fact.references(c)):
        return done % {"how": said[1]}
    if op == "distinct" and fact.group_names():
        return done % {"how": "group by"}
    if op == "cumulative" and ("cumsum" in funcs or ("sum" in funcs and fact.has_time_filter())):
        return done % {"how": "cumsum" if "cumsum" in funcs else "sum to date"}
    if op == "list" and fact.is_listing():
        return _("rows listed")
    if op == "trend" and (fact.grains() or len(fact.all_periods) > 1):
        return _("grouped by period")
    return _change_applied(op, fact, funcs)


def _change_applied(op: str, fact: QueryFacts, funcs: set[str]) -> str | None:
    """同比, 环比 and a difference asked for: how the query computed them, or None."""
    if op == "yoy":
        return _yoy_applied(fact)
    if op == "mom" and len(fact.compared_periods()) >= 2:
        return _("change between two periods")
    if op == "difference" and (_subtracts(fact) or {"diff", "pct_change"} & funcs):
        return _("difference computed")
    return None


def _subtracts(fact: QueryFacts) -> bool:
    """The query derives one figure less another (a derived "-" expression, or a subtraction in its SQL)."""
    spec = fact.spec
    if spec is not None:
        return any("-" in d.expr for d in spec.derived)
    return bool(re.search(r"[\w\])]\s+-\s+[\w(\[]", fact.sql))


def _yoy_applied(fact: QueryFacts) -> str | None:
    """同比 compares with the same period a year earlier: a change ordered by year, or two years side by side —
    never a change over consecutive months."""
    groups = fact.group_names()
    orders = fact.window_orders("pct_change") + fact.window_orders("diff")
    months = [{t for t in p if t.startswith("M")} for p in fact.row_periods]
    if len(months) >= 2 and all(m and m == months[0] for m in months):
        return _("the same month in different years")  # June 2024 then June 2025: a change over a year
    if orders:
        ok = all(groups.get(o) == "year" or re.search(r"(?i)year|年", o) for o in orders)
        return _("change against the same period a year earlier") if ok else None
    if sum(1 for m in months if m) >= 2:
        return None  # a series of months over two years is no 同比 of any of them
    years = {t for p in fact.row_periods for t in p if re.fullmatch(r"\d{4}", t)}
    years |= {t for t in fact.filter_period_tokens if re.fullmatch(r"\d{4}", t)}
    return _("two years side by side") if len(years) >= 2 else None


_REFUSAL = re.compile(
    r"无法|不能|没有计算|未能|抱歉|cannot|can't|could not|couldn't|unable|not able|sorry", re.IGNORECASE
)


def declines(answer: str) -> bool:
    """The answer opens by saying it could not answer the question as asked: what follows is context, and every
    anchor counts as disclosed."""
    first = _CLAUSE.search(answer)
    return bool(first and _REFUSAL.search(first.group(0)))


def _disclosed(anchor: Anchor, answer: str, figures: Sequence[float] = ()) -> bool:
    """The answer says, in a sentence that names the anchor, that it was not applied — or, for a number of the
    question, compares a figure of its own with it ("1398 万，未达到 1500 万"); restating the question's number
    with no figure of the data ("Yes, more than 3,000") compares nothing."""
    if declines(answer):
        return True
    wanted = norm(anchor.text)
    if anchor.kind == "number" and not figures:
        return False
    marker = _COMPARISON if anchor.kind == "number" else _NEGATION
    for clause in _CLAUSE.findall(answer):
        if wanted in norm(clause) and (_NEGATION.search(clause) or marker.search(clause)):
            return True
    return anchor.kind == "number" and any(
        quoted_as_not_applied(answer, m.start(), m.end()) for m in re.finditer(re.escape(anchor.text), answer)
    )


_QUOTE = re.compile(r"“[^”\n]*”|\"[^\"\n]*\"")
_LEFT_OUT = re.compile(r"left out|not applied|没有应用|未应用|未使用", re.IGNORECASE)


def quoted_as_not_applied(answer: str, start: int, end: int) -> bool:
    """The span lies inside words quoted from the question on a line that says they were not applied ("Note: no
    column matches “the 2002 … 100 metre backstroke”, so it was left out"): the question's own words, not a
    figure the answer claims."""
    line_start = answer.rfind("\n", 0, start) + 1
    line_end = answer.find("\n", end)
    line = answer[line_start : line_end if line_end >= 0 else len(answer)]
    if not (_NEGATION.search(line) or _LEFT_OUT.search(line)):
        return False
    return any(q.start() < start - line_start and end - line_start < q.end() for q in _QUOTE.finditer(line))


_NO = re.compile(r"^\s*(?:没有|不是|不到|未|否|并没有|no\b|not\b|nope)", re.IGNORECASE)
_YES = re.compile(r"^\s*(?:是的|是|对|有|达到了|超过了|yes\b|yeah\b|correct\b)", re.IGNORECASE)
_REACH = re.compile(r"有|达到|超过|突破|reach|make|made|exceed|at least|over", re.IGNORECASE)


def _answered_figure(anchor: Anchor, question: str, answer: str, figures: Sequence[float]) -> str | None:
    """A yes/no question about a figure ("欧洲销售额有 1500 万吗？") is answered by the result itself: "没有" must
    come with a different figure, "是/有" with the figure reached (or within 1% of it)."""
    first = _CLAUSE.search(answer)
    if anchor.kind != "number" or not figures or first is None:
        return None
    asked, shown = float(anchor.key), figures[0]
    near = abs(shown - asked) <= 0.01 * max(abs(asked), 1e-9)
    if _NO.search(first.group(0)):
        reach = bool(_REACH.search(question))
        agrees = shown < asked and not near if reach else not near
    elif _YES.search(first.group(0)):
        agrees = near or (bool(_REACH.search(question)) and shown >= asked)
    else:
        return None
    return _("compared with the result") if agrees else None


def cover(
    anchors: Sequence[Anchor],
    cited: Sequence[QueryFacts],
    answer: str,
    vocab: Vocabulary | None,
    *,
    question: str = "",
    figures: Sequence[float] = (),
    searched: Sequence[str] = (),
) -> list[Coverage]:
    """How each anchor was applied by the cited queries, disclosed by the answer, or missed. `figures` are the
    values of the answer's grounded numbers, in order."""
    out = []
    for anchor in anchors:
        how = next((h for h in (_applied(anchor, f, vocab) for f in cited) if h), None)
        how = how or _answered_figure(anchor, question, answer, figures)
        if not how and any(norm(anchor.text) in norm(q) for q in searched):
            how = _("searched the web for it")  # "结合行业趋势": the trend asked for is the industry's, not the data's
        if how:
            out.append(Coverage(anchor=anchor.text, kind=anchor.kind, status="applied", how=how))
        elif _disclosed(anchor, answer, figures):
            out.append(
                Coverage(anchor=anchor.text, kind=anchor.kind, status="disclosed", how=_("stated in the answer"))
            )
        else:
            out.append(Coverage(anchor=anchor.text, kind=anchor.kind, status="missing"))
    return out


# "which single reached the highest position", "who scored the most", "哪个门店": a row or a group is asked for
_ASKS_WHICH = re.compile(
    r"^\s*(?:which|who|whom)\s+(?P<noun>[a-z]+)?|哪(?:个|些|位|家|款|种|类)(?![月季])|哪一(?![天年月日周季])|谁",
    re.IGNORECASE,
)
_TIMELY = re.compile(r"years?|seasons?|dates?|days?|months?|decades?|times?|editions?", re.IGNORECASE)
_SAYS_IT_CANNOT = re.compile(r"could not|cannot|can't|unable to|无法|不能|没有办法|未能", re.IGNORECASE)


def unnamed_which(question: str, cited: Sequence[QueryFacts], answer: str, vocab: Vocabulary | None) -> str | None:
    """The words asking which one, when every query behind the answer is one number over all the rows (no group,
    no row listed) and the answer names no value of the data: a number where a name was asked for ("which single
    reached the highest position" answered "best UK is 2"). The extreme of a year or a date is its own answer
    ("which year did he first race": the earliest Season), as is the extreme of the column the noun names."""
    asked = _ASKS_WHICH.search(question)
    specs = [f.spec for f in cited]
    if asked is None or not specs or any(s is None or not s.is_aggregate or s.group_by for s in specs):
        return None
    if _SAYS_IT_CANNOT.search(answer):
        return None  # "I could not map this question … The data has 16 rows": no answer given, nothing named
    words = vocab.column_words() if vocab is not None else {}
    noun = norm(asked.group("noun") or "") if asked.groupdict().get("noun") else ""
    named = words.get(noun, "")
    for spec in specs:
        for a in spec.aggregations if spec is not None else []:
            # "which year …": the extreme of a year or a date answers it ("which ship …" is not answered by one)
            if a.func in ("min", "max") and a.column and (_TIMELY.fullmatch(noun) or a.column == named):
                return None
    folded = norm(answer)
    if vocab is not None and any(len(v) >= 2 and v in folded for v in vocab.raw_values):
        return None  # "Norway won more gold medals than Sweden": the answer names the one meant
    return asked.group(0).strip()


# "不含退货", "excluding 2022", "other than Greece": what the question leaves out
_EXCLUDING = re.compile(LEAVES_OUT + r"\s*(?:the\s+)?$", re.IGNORECASE)
_KEPT_OPS = ("=", "in", "contains", "between")
_TRUE = (True, 1, "是", "yes", "y", "true", "t")


def excluded_but_kept(question: str, anchors: Sequence[Anchor], cited: Sequence[QueryFacts]) -> list[str]:
    """The anchors the question excludes ("不含退货", "excluding 2022") that a query keeps instead (是否退货 = 是,
    Season = 2022) without also leaving them out: the answer covers only what was to be left out."""
    folded = norm(question)
    out = []
    for anchor in anchors:
        if anchor.kind not in ("value", "period", "column", "number"):
            continue
        at = folded.find(norm(anchor.text))
        if at < 0 or not _EXCLUDING.search(folded[max(0, at - 16) : at]):
            continue
        keys = {norm(k) for k in anchor.key.split("|")} | {norm(anchor.text)}
        kept = left_out = False
        for fact in cited:
            for column, op, value, _grain in fact.filters():
                values = value if isinstance(value, list) else [value]
                named = norm(column) in keys or any(norm(str(v)) in keys for v in values)
                if not named and anchor.kind == "column":
                    named = any(k and k in norm(column) for k in keys)
                if not named:
                    continue
                positive = op in _KEPT_OPS and (anchor.kind != "column" or any(v in _TRUE for v in values))
                kept = kept or positive
                left_out = left_out or op == "!=" or (op == "=" and values == [False])
        if kept and not left_out:
            out.append(anchor.text)
    return out
