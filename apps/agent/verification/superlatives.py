"""Superlative and comparative claims: "销售额最高的是西部" or "天猫高于小红书" name rows without quoting a number, so
grounding never sees them. The row named must be the one with the highest (or lowest) value of the measure in the
result it comes from, and a comparison must hold between the two rows it names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.agent.verification.binding import DOWN_WORDS, UP_WORDS, Binder, first_letters, specific_periods
from apps.agent.verification.grounding import date_tokens_of_text
from apps.agent.verification.queries import QueryFacts

_HIGH = re.compile(
    r"最高|最多|最大|最好|最贵|最长|最久|最重|最远|排名第一|居首"
    r"|\bhighest\b|\blargest\b|\bbiggest\b|\bmost\b|\btop\b|\blongest\b|\bheaviest\b|\bgreatest\b",
    re.I,
)
_LOW = re.compile(
    r"最低|最少|最小|最差|最便宜|最短|最轻|垫底|\blowest\b|\bsmallest\b|\bleast\b|\bfewest\b|\bbottom\b"
    r"|\bshortest\b|\blightest\b",
    re.I,
)
# "第二高", "second highest", "not the highest": these name other rows on purpose.
_WORDS = (
    "最高 最多 最大 最好 最贵 最长 最久 最重 最远 排名第一 居首 最低 最少 最小 最差 最便宜 最短 最轻 垫底 highest "
    "largest biggest most top longest heaviest greatest lowest smallest least fewest bottom shortest lightest"
).split()
_NOT_FIRST = re.compile(r"第[二三四五六七八九十\d]|次高|次低|second|third|not|不是|并非|除", re.I)
_CLAUSE = re.compile(r"[^。；;！？!?\n，,]+")


_AVERAGE = re.compile(r"平均|均值|人均|\baverage\b|\bmean\b|\bavg\b", re.I)
_AVERAGED_NAME = re.compile(r"平均|均值|人均|average|mean|avg", re.I)


def _name_words(column: str) -> set[str]:
    """The words of a column's name and their singulars, without the aggregate's prefix: avg_fee -> {fee}."""
    words = {w for w in re.findall(r"[a-z]{3,}", column.lower()) if not _AVERAGED_NAME.fullmatch(w)}
    words -= {"sum", "total", "count", "min", "max"}
    return words | {w[:-1] for w in words if w.endswith("s") and not w.endswith("ss")}


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _measure(fact: QueryFacts, clause: str, binder: Binder) -> int | None:
    """The result column the clause ranks by: the measure it names, or the only measure there is."""
    numeric = [
        c
        for c, name in enumerate(fact.columns)
        if name not in fact.change_columns() and any(_is_number(r[c]) for r in fact.rows[:5] if c < len(r))
    ]
    named = [
        c for c in numeric if any(fact.columns[c] in binder.measure_words.get(w, ()) for w in _words(clause, binder))
    ]
    if not named:  # no measure word known: the columns whose own name the clause says ("fee" of avg_fee)
        words = set(re.findall(r"[a-z]{3,}", clause.lower()))
        named = [c for c in numeric if _name_words(fact.columns[c]) & words]
    if len(named) == 1:
        return named[0]
    said = set(_words(clause, binder))
    exact = [c for c in named if fact.columns[c].lower() in said]  # the column named as such, not one derived from it
    if len(exact) == 1:
        return exact[0]
    averaged = [c for c in named if _AVERAGED_NAME.search(fact.columns[c])]
    if _AVERAGE.search(clause) and len(averaged) == 1:  # "the lowest average fee per visit": avg_fee, not visits
        return averaged[0]
    return numeric[0] if len(numeric) == 1 and not named else None


def _words(clause: str, binder: Binder) -> list[str]:
    lowered = clause.lower()
    return [w for w in binder.measure_words if w in lowered]  # all of them: the measure is picked by column


def _complete_for(fact: QueryFacts, high: bool) -> bool:
    """A limited result shows the extreme only if it was sorted towards it."""
    limit = fact.limit()
    if limit is None or fact.row_count < limit:
        return True
    funcs = fact.funcs()
    return ("sorted_desc" if high else "sorted_asc") in funcs


def superlative_problems(draft: str, facts: Sequence[QueryFacts], binder: Binder) -> list[str]:
    problems: list[str] = []
    lowered = draft.lower()
    if not any(word in lowered for word in _WORDS):  # substring tests first: the regexes cost more on long drafts
        return problems
    for match in _CLAUSE.finditer(draft):
        clause = match.group(0)
        high, low = _HIGH.search(clause), _LOW.search(clause)
        if bool(high) == bool(low) or _NOT_FIRST.search(clause):
            continue
        labels = binder.values.find(clause)
        periods = binder.periods_between(*match.span())
        for fact in facts:
            problem = _check(fact, clause, (labels, periods), binder, high=bool(high))
            if problem:
                problems.append(problem)
    return problems


def _check(
    fact: QueryFacts, clause: str, said: tuple[list[str], set[str]], binder: Binder, *, high: bool
) -> str | None:
    labels, periods = said
    named = [label for label in labels if label in fact.all_labels]
    named_periods = periods & fact.all_periods if not named else set()  # "7 月入职人数最多" names a month
    if len(fact.rows) < 2 or not (named or named_periods) or not _complete_for(fact, high):
        return None
    column = _measure(fact, clause, binder)
    if column is None:
        return None
    values = [(r[column], i) for i, r in enumerate(fact.rows) if column < len(r) and _is_number(r[column])]
    if not values:
        return None
    extreme = max(v for v, _ in values) if high else min(v for v, _ in values)
    rows = [i for v, i in values if v == extreme]
    if any(label in fact.row_labels[i] for label in named for i in rows):
        return None
    if named_periods and any(named_periods & fact.row_periods[i] for i in rows):
        return None
    named = named or sorted(named_periods)
    word = "highest" if high else "lowest"
    owner = ", ".join(str(v) for v in fact.rows[rows[0]] if isinstance(v, str)) or f"row {rows[0]}"
    return (
        f"{'/'.join(named)} is called the {word} by {fact.columns[column]}, but the {word} {fact.columns[column]} "
        f"in step {fact.step} belongs to {owner}"
    )


_ABOVE_WORDS = r"高于|多于|超过|超出|大于|领先|higher than|more than|greater than|above|ahead of|exceed"
_BELOW_WORDS = r"低于|少于|不如|小于|落后|lower than|less than|fewer than|below|behind"
_ABOVE = re.compile(_ABOVE_WORDS, re.I)
_BELOW = re.compile(_BELOW_WORDS, re.I)
_COMPARISON_START = re.compile(first_letters(_ABOVE_WORDS, _BELOW_WORDS), re.I)
_SENTENCE = re.compile(r"[^。；;！？!?\n]+")


def comparison_problems(draft: str, facts: Sequence[QueryFacts], binder: Binder) -> list[str]:
    """ "A …高于 B": A's value of the measure must be above B's in a result that has both rows."""
    problems: list[str] = []
    for match in _SENTENCE.finditer(draft):
        sentence = match.group(0)
        if not _COMPARISON_START.search(sentence):  # no word of comparison can start in it
            continue
        word = _ABOVE.search(sentence) or _BELOW.search(sentence)
        if word is None:
            problems += _winner_problems(sentence, facts, binder)
            continue
        if _NOT_FIRST.search(sentence[: word.start()][-6:]):
            continue
        subjects = binder.values.find(sentence[: word.start()])
        objects = binder.values.find(sentence[word.end() :])
        if not subjects or not objects:
            continue
        above = bool(_ABOVE.fullmatch(word.group(0)))
        for fact in facts:
            problem = _compare(fact, sentence, (subjects[0], objects[0]), binder, above=above)
            if problem:
                problems.append(problem)
    return problems


_MORE = re.compile(r"更高|更多|更大|更长|更贵|更久|\bhigher\b|\blarger\b|\bbigger\b|\bgreater\b", re.I)
_LESS = re.compile(r"更低|更少|更小|更短|更便宜|\blower\b|\bfewer\b|\bsmaller\b", re.I)


def _winner_problems(sentence: str, facts: Sequence[QueryFacts], binder: Binder) -> list[str]:
    """ "广州仓更高" over a result of two rows (A or B, which is higher?): the one named must have the higher value."""
    word = _MORE.search(sentence) or _LESS.search(sentence)
    if word is None or _NOT_FIRST.search(sentence[: word.start()][-6:]):
        return []
    subjects = binder.values.find(sentence[: word.start()])
    if not subjects:
        return []
    problems = []
    for fact in facts:
        labelled = [labels for labels in fact.row_labels if labels]
        if len(fact.rows) != 2 or len(labelled) != 2:
            continue
        others = [label for labels in labelled if subjects[-1] not in labels for label in labels]
        if not others or not any(subjects[-1] in labels for labels in labelled):
            continue
        problem = _compare(
            fact, sentence, (subjects[-1], others[0]), binder, above=bool(_MORE.fullmatch(word.group(0)))
        )
        if problem:
            problems.append(problem)
    return problems


def _compare(fact: QueryFacts, sentence: str, pair: tuple[str, str], binder: Binder, *, above: bool) -> str | None:
    subject, other = pair
    rows = {label: i for i, labels in enumerate(fact.row_labels) for label in labels}
    if subject not in rows or other not in rows or subject == other:
        return None
    column = _measure(fact, sentence, binder)
    if column is None:
        return None
    a, b = fact.rows[rows[subject]][column], fact.rows[rows[other]][column]
    if not (_is_number(a) and _is_number(b)) or a == b or (a > b) == above:
        return None
    word = "above" if above else "below"
    return f"{subject} is said to be {word} {other} by {fact.columns[column]}, but {subject} has {a} and {other} {b}"


# --- yes to a leading superlative question ----------------------------------------------------------------

_ASKS_YES_NO = re.compile(
    r"是不是|是否|吗|\bright\b|\bisn'?t\b|\bis it\b|\bwas it\b|^\s*(?:is|was|are|were|did|does)\b", re.I
)
_AFFIRMS = re.compile(r"\s*(?:是的|对的|对|没错|确实|是，|yes\b|right\b|correct\b|indeed\b|that'?s right)", re.I)


def confirmed_superlative_problems(question: str, draft: str, facts: Sequence[QueryFacts], binder: Binder) -> list[str]:
    """ "X是不是最多的？" answered "是的": the answer asserts the question's superlative, so X must be the row the
    result ranks first (or last), whatever the answer goes on to say."""
    if not _AFFIRMS.match(draft) or not _ASKS_YES_NO.search(question):
        return []
    high, low = _HIGH.search(question), _LOW.search(question)
    if bool(high) == bool(low) or _NOT_FIRST.search(_ASKS_YES_NO.sub(" ", question)):  # 是不是 is not 不是
        return []
    labels = binder.values.find(question)
    problems = []
    for fact in facts:
        problem = _check(fact, question, (labels, set()), binder, high=bool(high))
        if problem:
            problems.append("the answer confirms the question's premise, but " + problem)
    return problems


_SAYS_DOWN = re.compile(rf"(?:{DOWN_WORDS})|went down|came down|go down", re.I)
_SAYS_UP = re.compile(rf"(?:{UP_WORDS})|went up|go up|came up", re.I)


def confirmed_direction_problems(question: str, draft: str, facts: Sequence[QueryFacts]) -> list[str]:
    """ "Churn went down in 2025 compared with 2024, right?" answered "Yes": the answer asserts the question's
    direction, so the change the result computed for the period named last must go that way (a fall confirmed as
    a fall). Checked against a result's change column (pct_change or diff) on the row of that period."""
    if not _AFFIRMS.match(draft) or not _ASKS_YES_NO.search(question):
        return []
    down, up = _SAYS_DOWN.search(question), _SAYS_UP.search(question)
    if bool(down) == bool(up):
        return []
    periods = sorted(t for t in specific_periods(date_tokens_of_text(question)) if t[:1].isdigit())  # 2024 < 2025
    problems = []
    for fact in facts:
        changes = [c for c, name in enumerate(fact.columns) if name in fact.change_columns()]
        if len(changes) != 1 or not periods:
            continue
        rows = [i for i, tokens in enumerate(fact.row_periods) if periods[-1] in tokens]
        column = changes[0]
        values = [fact.rows[i][column] for i in rows if column < len(fact.rows[i])]
        if len(values) != 1 or not _is_number(values[0]) or values[0] == 0:
            continue
        if (values[0] < 0) != bool(down):
            went = "fell" if values[0] < 0 else "rose"
            problems.append(
                f"the answer confirms that {fact.columns[column]} went {'down' if down else 'up'} in {periods[-1]}, "
                f"but in step {fact.step} it {went}"
            )
    return problems


# --- "more than half" ---------------------------------------------------------------------------------------

_MORE_THAN_HALF = re.compile(
    r"过半|超过一半|一半以上|半数以上|超过半数|大多数|多数|more than half|over half|majority", re.I
)
_LESS_THAN_HALF = re.compile(
    r"不到一半|不足一半|未过半|没过半|没有过半|未超过一半|less than half|under half|minority", re.I
)
_NEGATED = re.compile(r"(?:没有|没|未|不|not|n't)\s*$", re.I)
_HALF_START = re.compile(
    first_letters(
        "过半|超过|一半|半数|大多数|多数|不到|不足|未过|没过|没有|未超|more|over|majority|less|under|minority"
    ),
    re.I,
)


def half_problems(draft: str, shares: Sequence[tuple[int, float]]) -> list[str]:
    """ "过半" / "more than half" beside a share must agree with it: 49.5% is not more than half, even when it
    is written rounded to 50%. `shares` are (position in the draft, the share as a fraction) of the numbers the
    answer writes as percentages."""
    if not shares or not _HALF_START.search(draft):
        return []
    problems = []
    for match in _SENTENCE.finditer(draft):
        sentence = match.group(0)
        less = _LESS_THAN_HALF.search(sentence)
        more = None if less else _MORE_THAN_HALF.search(sentence)
        if more and _NEGATED.search(sentence[: more.start()]):
            less, more = more, None
        if not (less or more):
            continue
        inside = [share for at, share in shares if match.start() <= at < match.end()]
        for share in inside:
            if (more and share <= 0.5) or (less and share >= 0.5):
                claim = (more or less).group(0)  # type: ignore[union-attr]
                problems.append(f"{claim!r} is said of a share of {share:.2%}")
    return problems
