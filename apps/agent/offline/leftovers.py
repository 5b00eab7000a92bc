"""What a question says that the planner did not recognise: the words it reports instead of guessing."""

from __future__ import annotations

import re

from apps.agent.offline import lexicon as lx
from apps.agent.offline.cues import find_words
from apps.agent.offline.schema_terms import singular

_VOCABULARY: tuple[str, ...] = tuple(
    {
        w
        for group in (
            [w for ws in lx.AGG_WORDS.values() for w in ws],
            [w for ws in lx.GRAIN_WORDS.values() for w in ws],
            [w for ws in lx.CHART_WORDS.values() for w in ws],
            [w for _op, ws in lx.COMPARATORS for w in ws],
            lx.HIGH_WORDS,
            lx.LOW_WORDS,
            lx.WHICH_WORDS,
            lx.RANK_WORDS,
            lx.COUNT_WORDS_EN,
            lx.COUNT_WORDS_ZH,
            lx.COUNT_SUFFIXES_ZH,
            lx.DISTINCT_WORDS,
            lx.ENTITY_WORDS,
            lx.HEADCOUNT_WORDS,
            lx.SHARE_WORDS,
            lx.RATE_WORDS,
            lx.CHANGE_WORDS,
            lx.DIFF_WORDS,
            lx.MORE_WORDS,
            lx.CUMULATIVE_WORDS,
            lx.YOY_WORDS,
            lx.MOM_WORDS,
            lx.UNTIL_WORDS,
            lx.RECORD_WORDS,
            lx.VALUE_NEGATIONS,
            ("以外", "之外", "包括", "在内"),
            lx.CORR_WORDS,
            lx.COMPARE_WORDS,
            lx.TREND_WORDS,
            lx.GROUP_MARKERS,
            lx.SCOPE_BEFORE,
            lx.SCOPE_AFTER,
            lx.NEGATIONS,
            lx.FILLER_ZH,
            tuple(lx.COMPARATIVE_CONCEPTS),
        )
        for w in group
        if w.strip()
    }
)
# a one-character word (中 of 在…中, 日 of 每日) that starts a run of characters no word the planner knows
# continues: "中国", "日本" are names, not 中 or 日 and a stray character
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_WORD_STARTS = frozenset("中里内日")  # not 几 (几座), 分 (分布) or the particles: those are read as they are
# two letters count too: "in the uk", "on tv" name something; the two-letter function words are stop words
_RUN = re.compile(r"[\u4e00-\u9fff]{2,}|[a-z]{2,}")


def leftover_spans(text: str, taken: bytearray) -> list[tuple[int, int]]:
    """Where the runs of two or more Chinese characters and English words outside every recognised span are."""
    mask = bytearray(taken)
    found = find_words(text, _VOCABULARY, mask)
    for start, end, _word in found:
        mask[start:end] = b"\x01" * (end - start)
    for start, end, _word in found:  # "中国", "日本": the character begins a word the planner does not know
        if end - start != 1 or text[start] not in _WORD_STARTS or not _CJK_CHAR.match(text, end) or mask[end]:
            continue
        if start == 0 or not _CJK_CHAR.match(text, start - 1) or mask[start - 1]:
            mask[start] = taken[start]
    kept = "".join(ch if not mask[i] else " " for i, ch in enumerate(text))
    spans = []
    for m in _RUN.finditer(kept):
        word = m.group(0)
        if not (word.isascii() and (word in lx.STOPWORDS_EN or singular(word) in lx.STOPWORDS_EN)):
            spans.append((m.start(), m.end()))
    return spans


def leftover_words(text: str, taken: bytearray, question: str) -> list[str]:
    """The words of `leftover_spans`, as the question wrote them, once each."""
    return list(dict.fromkeys(question[start:end] for start, end in leftover_spans(text, taken)))
