"""The words of the data, as verify compares them: column names, the tenant's synonyms, the values of dimension
columns and the span of time columns; and the normalisation that makes "Thu" equal "Thursday" and "ＥＡＳＴ"
equal "east". One place for "does this text name that label", used by claim binding and question coverage."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from apps.datasets.query.resolve import flag_word, spoken_names

# Day and month names compare by their first three letters: data says "Thursday", answers say "Thu".
_FULL_NAMES = (
    "monday tuesday tues wednesday thursday thur thurs friday saturday sunday january february march april june "
    "july august september sept october november december mon tue wed thu fri sat sun jan feb mar apr jun jul aug "
    "sep oct nov dec"
).split()
_NAMES = re.compile(r"\b(" + "|".join(sorted(_FULL_NAMES, key=len, reverse=True)) + r")\b\.?")
_NAME_INITIALS = re.compile("[" + "".join(sorted({name[0] for name in _FULL_NAMES})) + "]")  # a cheap scan first
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[0-9a-z_]")


_BRACKETED = re.compile(r"\s*[(\[][^()\[\]]{1,20}[)\]]\s*$")
_PERCENT_SAID = ("percentage", "percent")
ONE_ROW_EACH = 0.9  # distinct values per present row above which each row has its own


def norm(text: Any) -> str:
    """Case, width and spacing folded; day and month names shortened."""
    return _norm(text if isinstance(text, str) else str(text))


@lru_cache(maxsize=8192)
def _norm(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    folded = _SPACES.sub(" ", folded)
    if not _NAME_INITIALS.search(folded):  # no day or month name can start anywhere (most Chinese text)
        return folded
    return _NAMES.sub(lambda m: m.group(1)[:3], folded)


def is_label_text(value: Any) -> bool:
    """A text cell that can name a row: not empty, not a bare number or date, short enough to be a name."""
    return isinstance(value, str) and _is_label(value)


@lru_cache(maxsize=8192)
def _is_label(value: str) -> bool:
    text = value.strip()
    return 2 <= len(text) <= 60 and not re.fullmatch(r"[\d\s.,:%/\-+]+", text)


@dataclass
class LabelFinder:
    """Finds known labels inside a text, longest first, whole words for Latin letters (no regex alternation:
    compiling one over a thousand labels costs more than the whole verify budget)."""

    _by_first: dict[str, list[str]] = field(default_factory=dict)
    _known: set[str] = field(default_factory=set)
    _sorted: bool = True
    _starts: re.Pattern[str] | None = None
    # First letter -> (length, the labels of that length), longest first: at a position, one slice per length is
    # looked up, however many labels share the letter ("User 1" … "User 999").
    _by_size: dict[str, list[tuple[int, set[str]]]] = field(default_factory=dict)

    def add(self, label: str) -> None:
        key = norm(label)
        if len(key) < 2 or key in self._known:
            return
        self._known.add(key)
        self._by_first.setdefault(key[0], []).append(key)
        self._sorted = False

    def __contains__(self, label: str) -> bool:
        return norm(label) in self._known

    def find(self, text: str) -> list[str]:
        """The normalised labels named in `text`, left to right, without overlaps."""
        return [label for label, _start, _end in self.find_spans(text)]

    def find_spans(self, text: str) -> list[tuple[str, int, int]]:
        """(label, start, end) in `text`; positions are exact when normalising kept the text's length."""
        return self.find_spans_normed(norm(text))

    def find_spans_normed(self, haystack: str) -> list[tuple[str, int, int]]:
        """(label, start, end) in a text already normalised with norm()."""
        if not self._sorted:  # longest first, sorted once rather than on every add
            self._by_size = {}
            for first, bucket in self._by_first.items():
                sizes: dict[int, set[str]] = {}
                for label in bucket:
                    sizes.setdefault(len(label), set()).add(label)
                self._by_size[first] = sorted(sizes.items(), key=lambda item: item[0], reverse=True)
            # One character class of first letters lets the scan jump to where a label can start.
            firsts = "".join(re.escape(ch) for ch in self._by_first)
            self._starts = re.compile(f"[{firsts}]") if firsts else None
            self._sorted = True
        if self._starts is None:
            return []
        found: list[tuple[str, int, int]] = []
        at = 0
        while True:
            hit = self._starts.search(haystack, at)
            if hit is None:
                return found
            i = hit.start()
            match = self._match_at(haystack, i)
            if match:
                found.append((match, i, i + len(match)))
                at = i + len(match)
            else:
                at = i + 1

    def _match_at(self, haystack: str, i: int) -> str | None:
        for size, labels in self._by_size.get(haystack[i], ()):
            end = i + size
            label = haystack[i:end]
            if label not in labels:  # two labels of one length cannot both start here: at most one is
                continue
            if _WORD.match(label[0]) and i > 0 and _WORD.match(haystack[i - 1]):
                continue
            if _WORD.match(label[-1]) and end < len(haystack) and _WORD.match(haystack[end]):
                continue
            return label
        return None


@dataclass
class Vocabulary:
    """What the data source knows, from its schema profiles and the tenant's synonyms."""

    columns: dict[str, str] = field(default_factory=dict)  # column name -> role (time, measure, dimension, id)
    # columns of dates, date-times or periods written as text ("2025-01"): not years, not seasons
    date_columns: set[str] = field(default_factory=set)
    synonyms: dict[str, str] = field(default_factory=dict)  # normalised term -> column
    values: dict[str, str] = field(default_factory=dict)  # normalised value -> its column
    raw_values: dict[str, str] = field(default_factory=dict)  # normalised value -> as written in the data
    time_spans: list[tuple[str, str]] = field(default_factory=list)  # (min, max) of time columns, ISO text
    # columns with a value of their own on (almost) every row: a Season column of one row per season
    one_per_row: set[str] = field(default_factory=set)
    # columns of places the file wrote as such ("1st", a chart's peak positions): 1 is the top
    places: frozenset[str] = frozenset()
    # the column words and their finder, worked out once per check (coverage, binding and evidence all read them)
    _words: tuple[tuple[int, int], dict[str, str], LabelFinder] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_profiles(
        cls, profiles: Iterable[Mapping[str, Any]], synonyms: Mapping[str, str] | None = None
    ) -> Vocabulary:
        vocab = cls()
        for profile in profiles:
            rows = int(profile.get("row_count") or 0)
            for column in profile.get("columns", []):
                vocab._add_column(column)
                present = rows * (1 - float(column.get("null_ratio") or 0))
                if rows and column.get("name") and int(column.get("distinct_count") or 0) >= ONE_ROW_EACH * present:
                    vocab.one_per_row.add(str(column["name"]))
                if column.get("written_as") in ("place", "chart"):
                    vocab.places |= {str(column.get("name", ""))}
        for term, column in (synonyms or {}).items():
            if column in vocab.columns and len(norm(term)) >= 2:
                vocab.synonyms[norm(term)] = column
        return vocab

    def _add_column(self, column: Mapping[str, Any]) -> None:
        name, role = str(column.get("name", "")), str(column.get("role", ""))
        if not name:
            return
        self.columns[name] = role
        if str(column.get("kind", "")) in ("date", "datetime", "timestamp") or (
            role == "time" and column.get("kind") == "text"
        ):
            self.date_columns.add(name)
        if role == "time" and column.get("min") is not None and column.get("max") is not None:
            self.time_spans.append((str(column["min"]), str(column["max"])))
        if role in ("dimension", "id") or column.get("kind") == "text":
            for value in [*(column.get("values") or []), *(column.get("examples") or [])]:
                if is_label_text(value):
                    self.values.setdefault(norm(value), name)
                    self.raw_values.setdefault(norm(value), str(value).strip())

    def column_words(self) -> dict[str, str]:
        """Normalised words that name a column: its own name and the tenant's synonyms."""
        return self._column_words()[1]

    def column_finder(self) -> LabelFinder:
        """A finder of the column words in a text (column_words)."""
        return self._column_words()[2]

    def _column_words(self) -> tuple[tuple[int, int], dict[str, str], LabelFinder]:
        size = (len(self.columns), len(self.synonyms))  # what was added since is read again
        if self._words is None or self._words[0] != size:
            words = self._words_of_columns()
            finder = LabelFinder()
            for word in words:
                finder.add(word)
            self._words = (size, words, finder)
        return self._words

    def _words_of_columns(self) -> dict[str, str]:
        words = {norm(name): name for name in self.columns if len(norm(name)) >= 2}
        words.update({norm(name).replace("_", " "): name for name in self.columns if "_" in name})
        # "Top-10", "3-dart Average" as people write them: "top 10", "3 dart average"
        words.update({norm(name).replace("-", " "): name for name in self.columns if "-" in name})
        words.update({norm(w): name for name in self.columns if (w := flag_word(name)) and len(norm(w)) >= 2})
        # "Daily ridership (2015)", "Elevation (m)" as people say them: without the note or unit in brackets
        bare = [(norm(_BRACKETED.sub("", name)), name) for name in self.columns if _BRACKETED.search(name)]
        shared = {w for w, _name in bare if sum(1 for other, _n in bare if other == w) > 1}  # (mi) and (km)
        words.update({w: name for w, name in bare if len(w) >= 3 and w not in words and w not in shared})
        # "Win %" as people say it: "win percentage", "win percent"
        spelt = [(norm(name), name) for name in self.columns if "%" in name and re.search(r"[^\W\d_]", name)]
        words.update({re.sub(r"\s*%", f" {said}", w).strip(): name for w, name in spelt for said in _PERCENT_SAID})
        # "goal difference" for GD, "points" for Pts: the words people say for a league or player table's headers
        words.update({norm(w): name for name, said in spoken_names(self.columns).items() for w in said})
        words.update(self.synonyms)
        return words
