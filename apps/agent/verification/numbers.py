"""Find the numbers a draft states, with the precision and unit they were written in.

Recognises `-1,234.5`, `1 234`, full-width digits, `12.5%`, `3‰`, `1.2万`, `3亿`, `4.5千`, `2.3K`,
`1.1M`, `2B`, `百万`, and small Chinese numerals before a counter (`三个账号`). Dates, periods,
list markers and ranks are recognised separately so the grounding step can exempt them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# The full-width comma is left alone: in Chinese text it separates clauses, not thousands.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９．％－＋", "0123456789.%-+")

# Scale words and letters: what one unit of the written number is worth.
UNITS: dict[str, float] = {
    "": 1.0,
    "%": 0.01,
    "‰": 0.001,
    "千": 1e3,
    "k": 1e3,
    "K": 1e3,
    "万": 1e4,
    "十万": 1e5,
    "百万": 1e6,
    "M": 1e6,
    "千万": 1e7,
    "亿": 1e8,
    "B": 1e9,
    "万亿": 1e12,
}

_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.\-{])"
    r"(?P<sign>[-+−])?"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?!\d)|\d+)"
    r"(?:\.(?P<frac>\d+))?"
    r"(?:\s?(?P<unit>%|‰|万亿|十万|百万|千万|万|亿|千|[kKMB](?![A-Za-z])))?"
)
# 一 is left out: "一个" is as often an article ("a") as a count.
_CN_DIGITS = {"二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_CN_COUNT = re.compile(r"(?<![一二两三四五六七八九十百千万第])(?P<cn>[二两三四五六七八九十])(?=[个项条家名位种类款天])")

_DATE_PATTERNS = [
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}",
    r"\d{4}年\d{1,2}月(?:\d{1,2}日)?",
    r"\d{4}[-/]\d{1,2}(?![\d.])",
    r"\d{4}\s?[-/]?\s?Q[1-4]",
    r"\d{4}年(?:第?[一二三四1-4]季度|[上下]半年)?",
    r"\d{1,2}\s?[-~至到]\s?\d{1,2}\s?月",
    r"\d{1,2}月(?:\d{1,2}日)?",
    r"(?<![A-Za-z])Q[1-4]",
    r"第?[一二三四1-4]季度",
    r"\d{1,2}:\d{2}(?::\d{2})?",
    r"(?<![\d.])(?:19|20)\d{2}(?![\d.%‰万亿千])",
]
_DATE = re.compile("|".join(f"(?:{p})" for p in _DATE_PATTERNS))
_LIST_MARKER = re.compile(r"(?m)^[ \t]*(?:[-*]\s*)?(?P<n>\d{1,3})(?:[.)、．]|\s*[)）])\s")
_RANK = re.compile(r"(?:第|前|后|Top\s?|TOP\s?|top\s?|排名第?)(?P<n>\d{1,4})(?:名|位)?")
_REFERENCE = re.compile(r"\{\{.*?\}\}")

Kind = Literal["number", "date", "list_marker", "rank", "reference"]


@dataclass(frozen=True, slots=True)
class Mention:
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


def normalise(text: str) -> str:
    return text.translate(_FULL_WIDTH)


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
    for match in _DATE.finditer(text):
        claim(match, "date")
    for match in _LIST_MARKER.finditer(text):
        claim(match, "list_marker", "n")
    for match in _RANK.finditer(text):
        start, end = match.span("n")
        if not taken.overlaps(start, end):
            taken.add(start, end)
            mentions.append(Mention(text=draft[start:end], start=start, end=end, kind="rank", scaled=int(match["n"])))
    # Claimed spans are blanked so a number cannot run into a date ("10,2025-02").
    masked = taken.blank(text)
    for match in _NUMBER.finditer(masked):
        start, end = match.span()
        digits = re.sub(r"[^\d]", "", match["int"])
        frac = match["frac"] or ""
        taken.add(start, end)
        mentions.append(
            Mention(
                text=draft[start:end].strip(),
                start=start,
                end=end,
                kind="number",
                scaled=int(digits + frac),
                decimals=len(frac),
                unit=match["unit"] or "",
                negative=match["sign"] in ("-", "−"),
                signed=bool(match["sign"]),
            )
        )
    for match in _CN_COUNT.finditer(masked):
        start, end = match.span("cn")
        if not taken.overlaps(start, end):
            mentions.append(
                Mention(text=draft[start:end], start=start, end=end, kind="number", scaled=_CN_DIGITS[match["cn"]])
            )
    mentions.sort(key=lambda m: m.start)
    return mentions
