"""Reading a filled answer as a user would: the lines that state a result, the numbers they show (as
displayed: separators, percents, 万/亿), and whether the key numbers and labels of a reference are there.

Lines that only echo the question (filters, "not computed" notes) or suggest next questions are left out,
so a value the user typed is never mistaken for a result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

_ECHO_LINE = re.compile(r"^\s*(>>|筛选条件[：:]|Filters:|注意[：:]|Note:)")
_LIST_INDEX = re.compile(r"^\s*\d+\.\s")
_GROUP_COUNT = re.compile(r"[（(]\s*(?:共\s*)?[\d,]+\s*(?:groups|rows|组|行)\s*[)）]")
_NUMBER = re.compile(r"(?<![\w.])(-?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|万|亿))?(?![A-Za-z\d_])")
_DATE_UNIT = re.compile(r"^(?:\s?(?:年|月|日|号|周|季度)|-\d|-Q\d|/\d)")
_DECREASE = re.compile(r"下降|减少|下滑|降低|回落|decreas|declin|drop|fell|lower", re.IGNORECASE)
_SCALE = {"%": 0.01, "万": 1e4, "亿": 1e8}


@dataclass(frozen=True)
class Shown:
    """A number as the answer displays it: `value` already scaled (8.6% is 0.086, 1.2万 is 12000);
    `unit` is the place value of its last displayed digit, scaled the same way."""

    value: float
    unit: float
    percent: bool


def body(answer: str) -> str:
    """The lines of the answer that state results: no follow-up suggestions, no echoed filters or notes,
    no list numbering ("1. 华东: ..." keeps "华东: ...") and no count of the listed rows ("（共 12 行）")."""
    lines = [line for line in answer.splitlines() if not _ECHO_LINE.match(line)]
    return "\n".join(_GROUP_COUNT.sub("", _LIST_INDEX.sub("", line)) for line in lines)


def listed_rows(answer: str) -> int:
    """How many numbered result rows the answer lists (0 for a sentence)."""
    return sum(1 for line in answer.splitlines() if _LIST_INDEX.match(line))


def numbers_in(text: str) -> list[Shown]:
    """Every displayed number that is not part of a date (2025年, 3月, 2025-03-01, Q1)."""
    found = []
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        if _DATE_UNIT.match(text[end:]) or (start >= 2 and text[start - 1] in "-/" and text[start - 2].isdigit()):
            continue
        sign, whole, decimals, suffix = match.groups()
        digits = f"{whole.replace(',', '')}.{decimals}" if decimals else whole.replace(",", "")
        scale = _SCALE.get(suffix or "", 1.0)
        value = float(digits) * (-1 if sign else 1) * scale
        found.append(Shown(value, 10.0 ** -len(decimals or "") * scale, suffix == "%"))
    return found


def _rounds_to(shown: Shown, value: float) -> bool:
    """The display is `value` correctly rounded (to the digits shown), and a whole number is not shown for a
    fraction below 1,000 (an integer display of 3.4 is a coincidence, not an answer)."""
    if math.isclose(shown.value, value, rel_tol=1e-9, abs_tol=1e-12):
        return True
    if shown.unit >= 1 and abs(value) < 1000 and not float(value).is_integer():
        return False
    return abs(shown.value - value) <= shown.unit / 2 + 1e-9 * max(1.0, abs(value))


@dataclass(frozen=True)
class Num:
    """A key number of a reference; `ratio` when it may be shown as a percent (0.086 -> 8.6%)."""

    value: float
    ratio: bool = False


def shows_number(numbers: Sequence[Shown], wanted: Num, *, decrease_worded: bool = False) -> bool:
    targets = [wanted.value]
    if wanted.ratio:
        targets.append(wanted.value * 100)  # a "退货率%" column: the ratio already multiplied by 100
    if decrease_worded and wanted.value < 0:
        targets += [-t for t in targets]  # "下降 5.2%" states -5.2% in words
    for shown in numbers:
        for target in targets:
            if shown.percent and not wanted.ratio:
                continue
            if _rounds_to(shown, target):
                return True
    return False


def shows_label(text: str, label: str) -> bool:
    return _position(text, label) >= 0


def _position(text: str, label: str) -> int:
    """Where the label first appears, as a whole word when it is made of letters and digits."""
    if re.fullmatch(r"[\w\s.-]+", label, flags=re.ASCII):
        match = re.search(rf"(?<![\w]){re.escape(label)}(?![\w])", text, flags=re.IGNORECASE)
        return match.start() if match else -1
    return text.lower().find(label.lower())


@dataclass(frozen=True)
class Expect:
    """What a correct answer shows: every key number (display-rounded), every key label (in this order when
    `ordered`). `single` when one figure (or a few) was asked: an answer listing many numbers instead
    (a whole table for one month's figure) is not counted as correct."""

    numbers: tuple[Num, ...] = ()
    labels: tuple[str, ...] = ()
    ordered: bool = False
    single: bool = False


MAX_NUMBERS_FOR_A_FIGURE = 8


def judge(expect: Expect, answer: str) -> str:
    """An empty string when the answer is right against the reference, else what is missing."""
    text = body(answer)
    numbers = numbers_in(text)
    decrease = bool(_DECREASE.search(text))
    missing = [f"{n.value:.6g}" for n in expect.numbers if not shows_number(numbers, n, decrease_worded=decrease)]
    absent = [label for label in expect.labels if not shows_label(text, label)]
    problems = []
    if missing:
        problems.append("numbers not shown: " + ", ".join(missing))
    if absent:
        problems.append("labels not shown: " + ", ".join(absent))
    if expect.ordered and not absent:
        positions = [_position(text, label) for label in expect.labels]
        if positions != sorted(positions):
            problems.append("labels out of order")
    if expect.single and len(numbers) > MAX_NUMBERS_FOR_A_FIGURE:
        problems.append(f"{len(numbers)} numbers shown for one figure")
    return "; ".join(problems)
