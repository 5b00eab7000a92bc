"""Model output hygiene: reasoning blocks removed before anything is checked or shown, and URLs that no
tool returned refused (a model can invent a plausible link as easily as a number)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Reasoning models wrap their scratch work in <think>…</think> (some also <thinking> or <reasoning>); a block
# left open by a cut-off stream runs to the end of the text.
_THINK = re.compile(r"<(think|thinking|reasoning)>.*?(?:</\1>|\Z)", re.IGNORECASE | re.DOTALL)
_STRAY_CLOSE = re.compile(r"^.*?</(?:think|thinking|reasoning)>", re.IGNORECASE | re.DOTALL)
URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>\"'()（）【】「」，。；、]+")
_TRAILING = ".,;:!?)]}>'\"。，；：！？）》」】"
# A suggested follow-up question: a line of its own that opens with ">>" (shown as a chip, not as answer text).
FOLLOW_UP = re.compile(r"^\s*>>\s*(?P<q>\S.*?)\s*$", re.MULTILINE)
MAX_FOLLOW_UPS = 3


def split_follow_ups(answer: str) -> tuple[str, list[str]]:
    """The answer's text without its follow-up lines, and those questions (at most MAX_FOLLOW_UPS)."""
    questions = [m["q"] for m in FOLLOW_UP.finditer(answer)][:MAX_FOLLOW_UPS]
    return FOLLOW_UP.sub("", answer).strip(), questions


def strip_think(text: str) -> str:
    """`text` without reasoning blocks; text before a closing tag with no opening one is reasoning too."""
    if not text:
        return ""
    cleaned = _THINK.sub("", text)
    if re.search(r"</(?:think|thinking|reasoning)>", cleaned, re.IGNORECASE):
        cleaned = _STRAY_CLOSE.sub("", cleaned, count=1)
    return cleaned.strip()


def urls_in(text: str) -> list[str]:
    if not text or ("://" not in text and "www." not in text.lower()):  # no link can start: skip the scan
        return []
    return [m.group(0).rstrip(_TRAILING) for m in URL.finditer(text)]


def _canonical(url: str) -> str:
    url = url.strip().rstrip(_TRAILING).lower()
    url = re.sub(r"^https?://", "", url)
    url = re.sub(r"^www\.", "", url)
    return url.rstrip("/")


def unknown_urls(text: str, known: Iterable[str]) -> list[str]:
    """URLs in `text` that are not among `known` (texts the tools returned, searched for URLs)."""
    allowed = {_canonical(u) for value in known for u in urls_in(value)}
    return [u for u in urls_in(text) if _canonical(u) not in allowed]
