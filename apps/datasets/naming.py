"""Helpful messages about names: the closest known names to an unknown one (Chinese-aware)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def _overlap(a: str, b: str) -> float:
    """Character overlap, which suits Chinese names where difflib's ratio is weak (退货原因 ~ 原因)."""
    sa, sb = set(a.lower()), set(b.lower())
    return len(sa & sb) / max(len(sa | sb), 1)


def closest_names(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    pool = list(dict.fromkeys(candidates))
    scored = [(max(difflib.SequenceMatcher(None, name.lower(), c.lower()).ratio(), _overlap(name, c)), c) for c in pool]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [c for score, c in scored[:n] if score >= 0.3]


def closest(name: str, candidates: Iterable[str]) -> str:
    """A message suffix: '; did you mean 'a', 'b'?' or the list of available names."""
    pool = list(candidates)
    near = closest_names(name, pool)
    if near:
        return "; did you mean " + ", ".join(repr(c) for c in near) + "?"
    shown = ", ".join(repr(c) for c in pool[:20])
    return f"; available: {shown}" if pool else ""
