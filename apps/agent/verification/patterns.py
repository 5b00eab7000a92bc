"""Fake-data patterns: placeholders and test names that signal invented data (defaults from the seeds).

A match is not a violation when the matched text occurs in a tool result (a customer truly named
张三) or matches a whitelist pattern. Patterns are data: the audit app stores editable copies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_PLACEHOLDER_WORDS = r"(?:用户|客户|会员|员工|商品|产品|账号|User|Customer|Item|Product|Client)"
# Placeholders sit on one line ([ \t], not \s): "用户：" ending a line above a numbered list of names is a heading.


@dataclass(frozen=True)
class Pattern:
    code: str
    regex: str
    description: str


DEFAULT_PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "consecutive_placeholders",
        rf"({_PLACEHOLDER_WORDS}|[A-Z])[ \t]?\d+[ \t]*[、,，;；/][ \t]*\1[ \t]?\d+[ \t]*[、,，;；/][ \t]*\1[ \t]?\d+",
        "three or more numbered placeholders in a row (用户1、用户2、用户3; A1, A2, A3)",
    ),
    Pattern(
        "numbered_placeholder",
        rf"(?<![A-Za-z]){_PLACEHOLDER_WORDS}[ \t]?(?:ID|编号|id)?[ \t]?[:：#]?[ \t]?[1-9]\d*"
        r"(?![\d,，.．]|[ \t]?[人个名位次单笔户])",  # "用户 3,053 人" is a count
        "a numbered placeholder (用户1, 用户ID: 1, User 1, Customer 2)",
    ),
    Pattern("list_placeholder", rf"(?m)^\s*[-*•]\s*{_PLACEHOLDER_WORDS}\s?\d+", "a list item that is a placeholder"),
    Pattern(
        "test_name",
        r"(?<![A-Za-z])(?:Alice|Bob|Charlie|David|Eve|John Doe|Jane Doe|[Ff]oo(?:\s?[Bb]ar)?)(?![A-Za-z])",
        "a name typical of test or sample data",
    ),
    Pattern("test_name_zh", r"张三|李四|王五|赵六|某某|示例", "a Chinese placeholder name or 'example'"),
    # "bar" alone is left out: it is how people name a bar chart.
    Pattern(
        "sample_word",
        r"(?i)(?<![A-Za-z])(?:sample|example|dummy|placeholder|lorem ipsum)(?![A-Za-z])",
        "a word that marks sample or example data",
    ),
)


@dataclass(frozen=True)
class PatternMatch:
    code: str
    text: str
    start: int
    end: int
    description: str


_SEPARATORS = re.compile(r"\s*[、,，;；/]\s*")


def _is_real(text: str, reals: list[str]) -> bool:
    """The matched text (each item of a run) occurs in some tool result value."""
    parts = [p.strip() for p in _SEPARATORS.split(text) if p.strip()]
    return all(any(part in real or _said(part, real) for real in reals) for part in parts)


def _said(part: str, real: str) -> bool:
    """ "Charlie Lubega" in a question that asks about "charlie lubega": the same words, whatever their case
    (whole words: "eve" inside "revenue" names no one)."""
    return re.search(rf"(?<!\w){re.escape(part.casefold())}(?!\w)", real.casefold()) is not None


@lru_cache(maxsize=256)
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def find_fake_data(
    draft: str,
    *,
    patterns: Iterable[Pattern] = DEFAULT_PATTERNS,
    whitelist: Iterable[str] = (),
    real_texts: Iterable[str] = (),
) -> list[PatternMatch]:
    """Matches that are not explained by the tool results (real data) or the whitelist."""
    reals = [t for t in real_texts if t]
    allowed = [_compiled(w) for w in whitelist]
    # A whitelist entry covers a match that is part of a longer whitelisted phrase ("Sample Kit").
    covered = [m.span() for w in allowed for m in w.finditer(draft)]
    found: list[PatternMatch] = []
    seen: set[tuple[int, int]] = set()
    for pattern in patterns:
        for match in _compiled(pattern.regex).finditer(draft):
            text = match.group(0).strip()
            span = match.span()
            if not text or span in seen:
                continue
            if _is_real(text, reals):
                continue
            if any(w.search(text) for w in allowed) or any(a <= span[0] and span[1] <= b for a, b in covered):
                continue
            seen.add(span)
            found.append(PatternMatch(pattern.code, text, span[0], span[1], pattern.description))
    return found
