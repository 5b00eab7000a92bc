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
