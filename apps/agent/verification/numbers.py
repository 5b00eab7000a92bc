"""Find the numbers a draft states, with the precision and unit they were written in.

Recognises `-1,234.5`, `1 234`, full-width digits, `12.5%`, `3‰`, `1.2万`, `3亿`, `4.5千`, `2.3K`,
`1.1M`, `2B`, `百万`, English scale words (`13.98 million`, `1.2bn`, `$14.0m`), currency signs before
a number (`$`, `¥`, `€`, `£`, `US$`, `RMB`), Chinese numerals before a counter (`三个账号`, `十二个`,
`一百家`) and English number words (`three regions`, `twenty-one stores`). Dates and periods
(`2025 年 3 月`, `Q1 2025`, `March 2025`), list markers and ranks are recognised separately so the
grounding step can exempt them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Literal, NamedTuple

from apps.agent import durations

# The full-width comma is left alone: in Chinese text it separates clauses, not thousands.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９．％－＋", "0123456789.%-+")

# Scale words and letters: what one unit of the written number is worth. Grounding divides result
# values by these factors, so every key must be a pure scale.
UNITS: dict[str, float] = {
    "": 1.0,
    "%": 0.01,
    "‰": 0.001,
    "千": 1e3,
    "k": 1e3,
    "K": 1e3,
    "thousand": 1e3,
    "万": 1e4,
    "十万": 1e5,
    "百万": 1e6,
    "M": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "千万": 1e7,
    "亿": 1e8,
    "B": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "万亿": 1e12,
    "trillion": 1e12,
}

_CURRENCY = r"(?:US\$|HK\$|NT\$|A\$|C\$|S\$|RMB|CNY|USD|EUR|GBP|JPY|HKD|[$¥￥€£＄])"
_WORD_UNIT = r"(?i:thousand|million|billion|trillion|bn|percent|per cent|pct)(?![A-Za-z])"
# "M&A" after a number is a topic, not millions.
_UNIT = r"%|‰|万亿|十万|百万|千万|万|亿|千|[kKMB](?![A-Za-z&])|" + _WORD_UNIT
# Spellings of a unit that grounding knows under another key: "%" has its own transforms.
_SPELLED_UNITS = {"percent": "%", "per cent": "%", "pct": "%"}

# Each scanner opens with a lookahead on the characters a match can start with: Python's regex
# engine would otherwise try every alternative at every position of the draft.
_HYPHEN_RANGE = re.compile(r"(?<![\w.\-])(?P<a>\d{1,6})-(?P<b>\d{1,6})(?![\w.\-])")
_NUMBER = re.compile(
    r"(?=[-+−\d$¥￥€£＄A-Z.])(?<![A-Za-z0-9_.\-{])"
    r"(?P<sign>[-+−])?"
    # A sign written after the currency ("$-5.2") is as much the number's sign as one before it.
    rf"(?:(?P<cur>{_CURRENCY})\s?(?P<sign2>[-+−])?)?"
    # ".500" (a winning percentage as sports tables write it): a decimal without its leading zero
    r"(?>(?P<int>\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?!\d)|\d+|(?=\.\d))"
    r"(?:\.(?P<frac>\d+))?)"
    r"(?!\.[A-Za-z])"  # "2025.xlsx" names a file
    rf"(?:\s?(?P<unit>{_UNIT})"
    # Lowercase m is also metres and minutes: it only counts glued to the number, and `m` alone
    # only after a currency or a decimal (checked in code, where both are known).
    r"|(?P<tight>mn?)(?![A-Za-z]))?"
)
# 一 is left out: "一个" is as often an article ("a") as a count; "一百" is unambiguous.
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_D = "[一二两三四五六七八九]"
# Only well-formed numerals below 10,000: runs such as 三四个 or 两三个 are estimates ("three or
# four"), and 几十个 / 数十家 ("dozens") have no exact value, so neither is read as a count.
_CN_COUNT = re.compile(
    r"(?<![零一二两三四五六七八九十百千万亿第几数])"
    r"(?P<cn>(?=[一二两三四五六七八九十])"
    rf"(?:(?P<q>{_CN_D})千)?(?:零?(?P<b>{_CN_D})百)?(?:零?(?P<s>{_CN_D})?(?P<ten>十))?(?:零?(?P<g>{_CN_D}))?)"
    r"(?=[个项条家名位种类款天])"
)

_EN_SMALL = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}


def count_word(word: str) -> int | None:
    """A small count written as digits, an English word or a Chinese numeral: "3", "two", "两", "十"."""
    word = word.strip().lower()
    if word.isdigit():
        return int(word)
    return 10 if word == "十" else _EN_SMALL.get(word) or _CN_DIGITS.get(word)


def _words(names: dict[str, int]) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


_EN_UNIT_WORDS = _words({k: v for k, v in _EN_SMALL.items() if v < 10})
_EN_NUMBER = re.compile(
    r"(?i)(?=[tfsenoa])(?<![A-Za-z0-9_\-])"
    r"(?P<top>top\s+)?"
    r"(?P<n>"
    rf"(?:(?P<tens>{_words(_EN_TENS)})(?:[- ](?P<tu>{_EN_UNIT_WORDS})(?![A-Za-z]))?"
    rf"|(?P<small>{_words(_EN_SMALL)})"
    r"|(?P<a>a(?=\s+hundred)))"
    r"(?:\s+(?P<hundred>hundred))?"
    r"(?:\s+(?P<scale>thousand|million|billion))?"
    r")"
    # "two-thirds", "three-month", "Seven-Eleven": hyphenated words are fractions, adjectives or names.
    r"(?![A-Za-z0-9_]|-[A-Za-z])"
)

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
# Title case only: lowercase "may" is a verb, and month names are capitalised in English.
_EN_MONTH = (
    r"(?<![A-Za-z])(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![A-Za-z])"
    r"(?:\.(?=\s?\d))?"  # "Mar. 15", but not the full stop that ends "on 15 March."
)
_EN_DAY = r"(?<![\d.,])(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?(?![\d%‰万亿千A-Za-z]|[.,]\d)"
_YEAR = r"(?:19|20)\d{2}(?!\d)"
_MONTH_NUM = r"(?:1[0-2]|0?[1-9])"
_DAY_NUM = r"(?:3[01]|[12]\d|0?[1-9])"
# A year-like integer followed by a unit is an amount ("2000 万", "2020 K"), not a year.
_NOT_UNIT = rf"(?!\s?(?:{_UNIT}|百)|mn?(?![A-Za-z]))"
_NOT_AFTER_CURRENCY_WORD = "".join(
    f"(?<!{word})(?<!{word} )" for word in ("RMB", "CNY", "USD", "EUR", "GBP", "JPY", "HKD")
)

_DATE_PATTERNS = [
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}",
    rf"\d{{4}}\s?年\s?{_MONTH_NUM}\s?月(?:\s?{_DAY_NUM}\s?[日号])?",
    r"\d{4}[-/]\d{1,2}(?!\d|\.\d)",  # "in 2025-06." ends a sentence; "2025-06.5" is not a month
    r"\d{4}\s?[-/]?\s?Q[1-4]",
    r"\d{4}\s?年(?:\s?第?[一二三四1-4]\s?季度|[上下]半年)?",
    r"\d{1,2}\s?[-~至到—–]\s?\d{1,2}\s?月",
    rf"(?<!\d){_MONTH_NUM}\s?月(?:\s?{_DAY_NUM}\s?[日号])?",
    rf"(?<![A-Za-z])Q[1-4]\s?{_YEAR}",
    r"(?<![A-Za-z])Q[1-4]",
    r"第?[一二三四1-4]季度",
    rf"{_EN_MONTH}\s?{_EN_DAY},?\s?{_YEAR}",
    # "March 4,2005": a comma between day and year with no space (four digits after a comma group no thousands)
    rf"{_EN_MONTH}\s?(?<![\d.,])(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?,{_YEAR}",
    rf"{_EN_DAY}\s+{_EN_MONTH},?\s?{_YEAR}",
    rf"{_EN_MONTH}(?:,\s?|[\s-]){_YEAR}",
    rf"{_EN_MONTH}\s?{_EN_DAY}",
    rf"{_EN_DAY}\s+{_EN_MONTH}",
    r"\d{1,2}:\d{2}(?::\d{2})?",
    rf"(?=(?:19|20)\d\d)(?<![\d.$¥￥€£＄]){_NOT_AFTER_CURRENCY_WORD}(?:19|20)\d{{2}}(?!\d|\.[\dA-Za-z]){_NOT_UNIT}",
]
_DATE = re.compile("(?=[0-9Q第一二三四JFMASOND])(?:" + "|".join(f"(?:{p})" for p in _DATE_PATTERNS) + ")")
# List numbering, including the first cell of a markdown table row ("| 1 | US | $79,887.87 |").
_LIST_MARKER = re.compile(
    r"(?m)^[ \t]*(?:[-*]\s*)?(?P<n>\d{1,3})(?:[.)、．]|\s*[)）])\s|^[ \t]*\|[ \t]*(?P<t>\d{1,3})[ \t]*\|"
)
_RANK = re.compile(r"(?:第|前|后|Top\s?|TOP\s?|top\s?|排名第?)(?P<n>\d{1,4})(?:名|位)?")
_REFERENCE = re.compile(r"\{\{.*?\}\}")

Kind = Literal["number", "date", "list_marker", "rank", "reference"]


class Mention(NamedTuple):
    """One number-like mention of a text (immutable; a draft has hundreds, so it is a light tuple)."""

    text: str
    start: int
    end: int
    kind: Kind
    scaled: int = 0  # the written digits as an integer: "12.50" -> 1250
    decimals: int = 0  # digits after the decimal point as written
    unit: str = ""
    negative: bool = False
    signed: bool = False  # a sign was written ("+5%", "-5%"), so the size alone is not enough

    @property
    def value(self) -> float:
        sign = -1 if self.negative else 1
        return sign * self.scaled / 10**self.decimals * UNITS[self.unit]


_WIDE_THOUSANDS = re.compile(r"(?<=[０-９])，(?=[０-９]{3}(?![０-９]))")
_WIDE = re.compile("[０-９．％－＋]")


def normalise(text: str) -> str:
    # Between full-width digits a full-width comma groups thousands (９９，２５５，４６８); elsewhere it ends a clause.
    if not _WIDE.search(text):  # most drafts have no full-width digit or sign: nothing to replace
        return text
    return _WIDE_THOUSANDS.sub(",", text).translate(_FULL_WIDTH)


_EN_DATE_PARTS = re.compile(
    r"(?P<mon>[A-Z][a-z]{2})[a-z]*\.?|(?P<year>(?:19|20)\d{2})(?!\d)|(?P<day>\d{1,2})(?!\d)|Q(?P<q>[1-4])"
)


@lru_cache(maxsize=4096)
def canonical_date(text: str) -> str:
    """A date mention in a shape the date tokeniser reads: "2025 年 3 月" -> "2025年3月",
    "March 2025" -> "2025-03", "Mar 15" -> "3月15日", "Q1 2025" -> "2025-Q1". Other text is returned as is."""
    text = normalise(text)
    if re.search(r"[年月日号季]", text):
        return re.sub(r"\s+", "", text).replace("号", "日")
    month = day = year = quarter = None
    for match in _EN_DATE_PARTS.finditer(text):
        if match["mon"]:
            month = _MONTHS.get(match["mon"].lower())
        elif match["year"]:
            year = match["year"]
        elif match["day"]:
            day = int(match["day"])
        elif match["q"]:
            quarter = match["q"]
    if quarter and year:
        return f"{year}-Q{quarter}"
    if month is None:
        return text
    if year:
        return f"{year}-{month:02d}-{day:02d}" if day else f"{year}-{month:02d}"
    return f"{month}月{day}日" if day else f"{month}月"


class _Claims:
    """Character positions already explained by an earlier, more specific reading."""

    def __init__(self, size: int, spans: list[tuple[int, int]]) -> None:
        self.mask = bytearray(size)
        for start, end in spans:
            self.add(start, end)

    def add(self, start: int, end: int) -> None:
        self.mask[start:end] = b"\x01" * (end - start)

    def overlaps(self, start: int, end: int) -> bool:
        return self.mask.find(1, start, end) != -1

    def blank(self, text: str) -> str:
        """`text` with claimed characters replaced by NUL, so no number can run into them."""
        parts, last, mask = [], 0, self.mask
        start = mask.find(1)
        while start != -1:
            end = mask.find(0, start)
            end = len(mask) if end == -1 else end
            parts += [text[last:start], "\x00" * (end - start)]
            last = end
            start = mask.find(1, end)
        parts.append(text[last:])
        return "".join(parts)


_GROUP_SEPARATORS = str.maketrans("", "", ", \u00a0\u2009\u202f")


def _digit_number(match: re.Match[str], draft: str) -> Mention:
    sign1, cur, sign2, digits, frac, unit, tight = match.groups()
    unit = unit or tight or ""
    end = match.end()
    if unit == "m" and not (cur or frac):
        unit, end = "", match.start("tight")  # "5m" is as likely five metres: keep the bare number
    elif unit not in UNITS:
        unit = unit.lower()  # "Million", "BN", "Percent"
        unit = _SPELLED_UNITS.get(unit, unit)
    # A currency is not part of the number; it stays in the span only when a sign precedes it ("-$5.2").
    start = match.start() if sign1 or not cur else match.end("cur")
    while draft[start].isspace():
        start += 1
    sign = sign1 or sign2
    if not digits.isdigit():  # grouped: "1,234", "1 234"
        digits = digits.translate(_GROUP_SEPARATORS)
    frac = frac or ""
    return Mention(
        text=draft[start:end].strip(),
        start=start,
        end=end,
        kind="number",
        # Past 40 digits no tool value can match (and int() refuses very long strings); a long digit
        # run still stands as an ungrounded number instead of stopping the check.
        scaled=int((digits + frac)[:40]),
        decimals=len(frac),
        unit=unit,
        negative=sign in ("-", "−") or sign2 in ("-", "−"),
        signed=sign is not None,
    )


def _cn_count(match: re.Match[str], draft: str) -> Mention | None:
    text = match["cn"]
    if text == "一":
        return None
    value = sum(
        _CN_DIGITS[match[group]] * factor for group, factor in (("q", 1000), ("b", 100), ("g", 1)) if match[group]
    )
    if match["ten"]:
        value += 10 * (_CN_DIGITS[match["s"]] if match["s"] else 1)
    start, end = match.span("cn")
    return Mention(text=draft[start:end], start=start, end=end, kind="number", scaled=value)


def _en_number(match: re.Match[str], draft: str) -> Mention | None:
    words = match["n"].lower()
    hundred, scale = match["hundred"], match["scale"]
    if match["a"]:
        value = 1
    elif match["tens"]:
        value = _EN_TENS[match["tens"].lower()] + (_EN_SMALL[match["tu"].lower()] if match["tu"] else 0)
    else:
        value = _EN_SMALL[match["small"].lower()]
    # Alone, "one" is an article or pronoun ("one of the regions"), as 一 is in Chinese.
    if words == "one" and not match["top"]:
        return None
    if hundred:
        value *= 100
    start, end = match.span("n")
    kind: Kind = "rank" if match["top"] else "number"
    unit = scale.lower() if scale else ""
    return Mention(text=draft[start:end], start=start, end=end, kind=kind, scaled=value, unit=unit)


def _range_ends(masked: str, draft: str, taken: _Claims) -> list[Mention]:
    """ "ranks 10-15": the second end of a range written with a hyphen is a number too, not -15 (a score such
    as 4-4 or 3-2 does not run upwards and is left as it is)."""
    ends = []
    for match in _HYPHEN_RANGE.finditer(masked):
        start, end = match.span("b")
        if int(match["a"]) < int(match["b"]) and not taken.overlaps(start, end):
            taken.add(start, end)
            ends.append(Mention(text=draft[start:end], start=start, end=end, kind="number", scaled=int(match["b"])))
    return ends


def _race_times(text: str, draft: str, taken: _Claims) -> list[Mention]:
    """ "1:55.72", "2:05:26.8": times in seconds (115.72, 7526.8), as a column of race times holds them; never a
    time of day (that has no fraction of a second)."""
    found = []
    for match in durations.FRACTIONAL_CLOCK.finditer(text):
        start, end = match.span()
        if taken.overlaps(start, end):
            continue
        taken.add(start, end)
        decimals = len(match.group(0).rpartition(".")[2])
        scaled = round((durations.seconds(match.group(0)) or 0.0) * 10**decimals)
        found.append(Mention(draft[start:end], start, end, "number", scaled=scaled, decimals=decimals))
    return found


def find_mentions(draft: str, *, protected: list[tuple[int, int]] | None = None) -> list[Mention]:
    """Every number-like mention in reading order, each with the kind that decides how it is checked.

    `protected` spans (identifiers such as "SKU 1024" seen in the results) hold no numbers.
    """
    text = normalise(draft)
    mentions: list[Mention] = []
    taken = _Claims(len(text), list(protected or []))

    def claim(match: re.Match[str], kind: Kind, group: int | str = 0) -> None:
        start, end = match.span(group)
        if not taken.overlaps(start, end):
            taken.add(*match.span())
            mentions.append(Mention(text=draft[start:end], start=start, end=end, kind=kind))

    for match in _REFERENCE.finditer(text):
        claim(match, "reference")
    mentions += _race_times(text, draft, taken)
    for match in _DATE.finditer(text):
        claim(match, "date")
    for match in _LIST_MARKER.finditer(text):
        claim(match, "list_marker", "n" if match["n"] else "t")
    for match in _RANK.finditer(text):
        start, end = match.span("n")
        if not taken.overlaps(start, end):
            taken.add(start, end)
            mentions.append(Mention(text=draft[start:end], start=start, end=end, kind="rank", scaled=int(match["n"])))
    # Claimed spans are blanked so a number cannot run into a date ("10,2025-02").
    masked = taken.blank(text)
    for match in _NUMBER.finditer(masked):
        taken.add(*match.span())
        mentions.append(_digit_number(match, draft))
    mentions += _range_ends(masked, draft, taken)
    readers: list[tuple[re.Pattern[str], Callable[[re.Match[str], str], Mention | None]]] = [
        (_CN_COUNT, _cn_count),
        (_EN_NUMBER, _en_number),
    ]
    for pattern, read in readers:
        for match in pattern.finditer(masked):
            mention = read(match, draft)
            if mention is not None and not taken.overlaps(mention.start, mention.end):
                mentions.append(mention)
    mentions.sort(key=lambda m: m.start)
    return mentions


@lru_cache(maxsize=1024)
def mentions_of(text: str) -> tuple[Mention, ...]:
    """`find_mentions` of a short text seen again and again in one run (the question), remembered."""
    return tuple(find_mentions(text))
