"""Clarifications: a final answer that asks which of a few concrete questions the user meant, instead of guessing.

A model writes one as its final text in this form; the marker line is the model's, never shown to people:

    [clarify]
    请确认：退货率按数量还是按金额计算？
    >> 按数量计算，退货率是多少？
    >> 按金额计算，退货率是多少？

The lines between the marker and the choices are the question; each ">> " line is a complete question the
user can ask next. The text is a clarification only when the question quotes no number (no digit at all: it
asks, it claims nothing about the data) and offers at least two choices. Otherwise the marker is dropped and
the text is read as an ordinary answer, so a marker never reaches people either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MARKER = "[clarify]"
MAX_CHOICES = 4
_CHOICE = re.compile(r"^\s*>>\s*(?P<q>\S.*?)\s*$")
_DIGIT = re.compile(r"[0-9\uff10-\uff19]")


@dataclass(frozen=True)
class Clarification:
    question: str
    choices: list[str] = field(default_factory=list)


def quotes_a_number(text: str) -> bool:
    """Whether the text has a digit: a clarification's question must not (it asks, it claims nothing)."""
    return _DIGIT.search(text) is not None


def write_clarification(clarification: Clarification) -> str:
    """The final text that asks `clarification` (the form read back by `read_clarification`)."""
    lines = [MARKER, clarification.question.strip()]
    lines += [f">> {choice.strip()}" for choice in clarification.choices[:MAX_CHOICES]]
    return "\n".join(lines)


def strip_marker(text: str) -> tuple[bool, str]:
    """Whether the text opens with the marker line, and the text without it."""
    head, newline, rest = text.lstrip().partition("\n")
    if head.strip().lower() == MARKER:
        return True, rest if newline else ""
    return False, text


def read_clarification(text: str) -> Clarification | None:
    """The clarification a final text asks, or None when it is not one (see the module's rule)."""
    marked, body = strip_marker(text)
    if not marked:
        return None
    question_lines, choices = [], []
    for line in body.splitlines():
        found = _CHOICE.match(line)
        if found:
            choices.append(found["q"])
        elif line.strip():
            question_lines.append(line.strip())
    question = "\n".join(question_lines)
    choices = list(dict.fromkeys(choices))[:MAX_CHOICES]
    if not question or len(choices) < 2 or quotes_a_number(question):
        return None
    return Clarification(question=question, choices=choices)


def choice_spans(text: str) -> list[tuple[int, int]]:
    """Where the choice lines of a clarification sit in `text` (empty when it is not a clarification)."""
    if read_clarification(text) is None:
        return []
    spans, at = [], 0
    for line in text.splitlines(keepends=True):
        if _CHOICE.match(line):
            spans.append((at, at + len(line)))
        at += len(line)
    return spans
