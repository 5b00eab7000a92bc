"""Times a race or a call took, as a question writes them ("1:54.32", "1:01:45", "8 minutes", "1 minute and 55
seconds"), in seconds: how ingest stores a column of such times ("Time (s)"). One reading for the offline
planner, which compares with them, and for verify, which checks the comparison was applied."""

from __future__ import annotations

import re

_PART = r"\d+(?:\.\d+)?\s*(?:hours?|hrs?|minutes?|mins?|seconds?|secs?)(?![a-z])"
# A time as a pattern to embed (named groups `clock` and `words`); lower-case text, or compile with IGNORECASE
DURATION = rf"(?P<clock>\d{{1,2}}(?::\d{{2}}){{1,2}}(?:\.\d+)?)(?![\d:])|(?P<words>{_PART}(?:\s*(?:,|and)?\s*{_PART})*)"
_WHOLE = re.compile(DURATION, re.IGNORECASE)
_UNIT_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([hms])")
_SCALE = {"h": 3600, "m": 60, "s": 1}


def seconds(text: str) -> float | None:
    """The seconds a time says, rounded to the millisecond; None when the text is no time."""
    m = _WHOLE.fullmatch(text.strip())
    if m is None:
        return None
    if m.group("clock"):
        total = 0.0
        for part in m.group("clock").split(":"):
            total = total * 60 + float(part)
        return round(total, 3)
    return round(sum(float(n) * _SCALE[unit] for n, unit in _UNIT_PART.findall(m.group("words").lower())), 3)


# A column of times in seconds (ingest writes a column of "1:54.32" times as "Time (s)")
IN_SECONDS = re.compile(r"\((?:s|sec|secs|seconds)\)\s*$", re.IGNORECASE)
# A time written as a clock with a fraction of a second ("1:55.72", "2:05:26.8"): a duration, never a time of day
FRACTIONAL_CLOCK = re.compile(r"(?<![\d:.])(?:\d{1,2}:)?\d{1,2}:\d{2}\.\d{1,3}(?![\d:])")


def clock(value: float) -> str:
    """Seconds as a race time is written: 115.72 -> "1:55.72", 7526.8 -> "2:05:26.8" (the fraction as the value
    has it, at most three digits). Under a minute, or without a fraction, the plain number of seconds."""
    whole, fraction = divmod(round(abs(value), 3), 1)
    if value < 60 or not fraction:
        return f"{value:g}"
    minutes, secs = divmod(int(whole), 60)
    hours, minutes = divmod(minutes, 60)
    digits = f"{fraction:.3f}"[2:].rstrip("0")
    head = f"{hours}:{minutes:02d}" if hours else f"{minutes}"
    return f"{head}:{secs:02d}.{digits}"
