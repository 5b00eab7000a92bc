"""The language the offline planner writes in. Its sentences are gettext messages (English msgids, Chinese in
baplatform/locale); a draft's entry point wraps its work in `speaking(lang)`, so the language is the
question's, never whatever happens to be active (a request's, a test's, a worker thread's)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils import translation
from django.utils.translation import pgettext

from apps.agent.offline.plan import Lang

LANGUAGE_CODES: dict[Lang, str] = {"zh": "zh-hans", "en": "en"}


@contextmanager
def speaking(lang: Lang) -> Iterator[None]:
    """gettext answers in the question's language inside the block."""
    with translation.override(LANGUAGE_CODES.get(lang, "en")):
        yield


def names(items: list[str]) -> str:
    """Names one after another in the active language: "地区、产品", "region, product"."""
    return pgettext("separator between quoted names in a list", ", ").join(items)
