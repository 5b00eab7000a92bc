"""Helpful messages: the closest known names to an unknown one (Chinese-aware), and sizes as people read them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def human_size(size: int) -> str:
    """ "512 KB", "5 MB", "1.5 GB": a byte count in a message."""
    if size >= 1024**3:
        return f"{size / 1024**3:.1f} GB"
    return f"{size / 1024**2:.0f} MB" if size >= 1024**2 else f"{size / 1024:.0f} KB"


def _overlap(a: str, b: str) -> float:
    """Character overlap, which suits Chinese names where difflib's ratio is weak (退货原因 ~ 原因)."""
    sa, sb = set(a.lower()), set(b.lower())
    return len(sa & sb) / max(len(sa | sb), 1)


def closest_names(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    pool = list(dict.fromkeys(candidates))
    scored = [(max(difflib.SequenceMatcher(None, name.lower(), c.lower()).ratio(), _overlap(name, c)), c) for c in pool]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [c for score, c in scored[:n] if score >= 0.3]


def quoted_list(names: Iterable[object]) -> str:
    """Names as a message lists them, each quoted and kept verbatim: 'a', 'b' (“a”、“b” in Chinese)."""
    separator = pgettext("separator between quoted names in a list", ", ")
    # Translators: how a name (column, table, sheet...) is quoted inside a message.
    return separator.join(_("'%(name)s'") % {"name": name} for name in names)


def closest(name: str, candidates: Iterable[str]) -> str:
    """A message suffix: '; did you mean 'a', 'b'?' or the list of available names."""
    pool = list(candidates)
    near = closest_names(name, pool)
    if near:
        return _("; did you mean %(names)s?") % {"names": quoted_list(near)}
    return _("; available: %(names)s") % {"names": quoted_list(pool[:20])} if pool else ""
