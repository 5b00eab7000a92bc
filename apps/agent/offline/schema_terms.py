"""Columns as the planner sees them, and where a question mentions them (by name, synonym or value).

Every column gets aliases: its own name, the tenant's synonyms for it (each another name of the column),
the words of the concepts it belongs to (lexicon), the core of a yes/no column's name (是否退货 -> 退货),
and its significant parts. A question is scanned for every alias and every known value; overlapping
mentions are settled longest first, then strongest.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal

from apps.agent.offline.lexicon import (
    ABBREVIATIONS,
    CONCEPTS,
    GENERIC_PARTS,
    STOPWORDS_EN,
    TRUE_VALUES,
    VALUE_SYNONYMS,
)
from apps.datasets.ingest.profile import TableProfile
from apps.datasets.query.resolve import (
    LETTERS_WITHOUT_ACCENT,
    PERCENT_NAME,
    flag_word,
    season_years,
    spoken_names,
)

Category = Literal["time", "year", "measure", "dimension", "id", "flag"]
NAME, SYNONYM, VALUE_EXACT, CORE, VALUE_SYNONYM, CONCEPT, VALUE_FOLDED, CONCEPT_PART, PART = (
    3.0,
    2.8,
    2.6,
    2.5,
    2.4,
    2.5,
    2.2,
    2.0,
    1.0,
)
# a whole value written in other case ("french" of French): the value itself, before a value it stands for
# ("french" for France, VALUE_SYNONYM), after a column's own words
VALUE_CASE = 2.45
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def _base_letter(code: int) -> int | None:
    """The plain ASCII letter of an accented Latin letter ("ó" -> "o"), one character for one."""
    decomposed = unicodedata.normalize("NFKD", chr(code))
    base = decomposed[0].lower()
    if len(decomposed) > 1 and base.isascii() and base.isalpha() and all(map(unicodedata.combining, decomposed[1:])):
        return ord(base)
    return None


_ACCENTED = {code: base for code in range(0xC0, 0x250) if (base := _base_letter(code)) is not None}
_FOLD = str.maketrans(
    {
        **_FULL_WIDTH,
        **_ACCENTED,
        **{ord(c): ord(base) for c, base in LETTERS_WITHOUT_ACCENT.items()},
        **{ord(c): ord(c.lower()) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        ord("_"): 32,
    }
)
_LATIN = re.compile(r"[a-z]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_AVG_HINTS: tuple[str, ...] = (
    "price",
    "rate",
    "ratio",
    "score",
    "rating",
    "age",
    "percent",
    "pct",
    "avg",
    "average",
    "temperature",
)
_AVG_HINTS += ("salary", "wage", "pay")
_ORDINAL_WORDS = frozenset(
    "rank ranking round pick no pos position place finished seed season heat lane draw episode ep chapter chart "
    "series week game match volume vol issue edition zone ward group pool platform gate track".split()
)
_EVENT_YEAR = re.compile(
    r"(?<![a-z])(?:born|birth|died|death|elected|founded|established|formed|opened|built|released|debut|"
    r"joined|introduced|launched|signed|ratified|completed|commissioned|inaugurated|premiered?|started|"
    r"retired|took office|left office|since|from|until|first|last|entered)(?![a-z])|出生|成立|建成|开业|年份"
)
_PLACE_WORDS = frozenset("rank ranking pos position place placing finish finished".split())
# a place column is named only so: "Rank", "Pos.", "Peak position", "Final placing" (not "Ranking points")
_FINISH_NAME_WORDS = _PLACE_WORDS | frozenset("final overall finishing".split())
_PLACE_NAME_WORDS = _FINISH_NAME_WORDS | frozenset("peak highest best current world league chart".split())
_ORDINAL_ZH = ("名次", "排名", "序号", "轮次", "第几", "编号", "届")
_AVG_HINTS_ZH = ("单价", "价格", "率", "评分", "分数", "得分", "年龄", "比例", "平均", "均价", "温度", "薪", "工资")


def fold(text: str) -> str:
    """Half-width, lower-case ASCII, accents dropped, underscores as spaces; one character for one, so positions
    hold."""
    return text.translate(_FOLD)


def singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@lru_cache(maxsize=8192)  # the same names and concept forms, question after question
def name_words(text: str) -> tuple[str, ...]:
    return tuple(singular(w) for w in re.findall(r"[a-z0-9]+", fold(text)))


@dataclass(frozen=True)
class ColumnView:
    name: str
    kind: str
    category: Category
    values: tuple[Any, ...] = ()
    true_value: Any = True
    distinct: int = 0
    unique: bool = False
    null_ratio: float = 0.0
    lo: Any = None
    hi: Any = None
    aliases: tuple[tuple[str, float], ...] = ()
    period: str | None = None  # "month" or "quarter": a text column of periods ("2025-01", "2025-Q1")
    total_label: str | None = None  # the value of a summary row ("Total"), left out of every computation
    complete: bool = False  # `values` holds every value of the column (not only the most frequent ones)
    written_place: bool = False  # the file wrote its values as places ("1st", "25th"): a place, whatever its name
    written_chart: bool = False  # … as a record chart's peak positions (US, UK): places, but no finishing order

    @property
    def years(self) -> bool:
        """Whole numbers that are years of an event (Born, First elected, Founded, Opened: 1990), named so:
        added up or averaged they mean nothing."""
        return (
            self.category == "measure"
            and self.kind == "integer"
            and isinstance(self.lo, int)
            and isinstance(self.hi, int)
            and 1000 <= self.lo <= self.hi <= 2200
            and _EVENT_YEAR.search(fold(self.name)) is not None
        )

    @property
    def ordinal(self) -> bool:
        """Numbers that name a position or an occasion (rank, round, pick, season, 名次, 序号): added up they
        mean nothing."""
        words = re.findall(r"[a-z0-9]+", fold(self.name))  # as written: "Seasons" counts seasons, "Season" is one
        return self.category == "measure" and (
            self.written_place
            or any(w in _ORDINAL_WORDS for w in words)
            or "#" in self.name
            or any(h in self.name for h in _ORDINAL_ZH)
        )

    @property
    def place(self) -> bool:
        """A place or rank (Rank, Pos., Position, Peak position, 名次): 1 is the top, the highest."""
        words = name_words(self.name)
        chart = self.ordinal and "chart" in words and len(words) <= 3  # "UK Chart", "Peak chart": 1 is the top
        return (
            chart
            or self.written_place
            or self._place_named(_PLACE_NAME_WORDS)
            or self.name.strip() in ("名次", "排名", "最高名次", "最终名次")
        )

    @property
    def finishing(self) -> bool:
        """A place where a race or a season ended (Rank, Pos., Final placing), which orders who came before whom;
        not a Peak position or a World ranking."""
        written = self.written_place and not self.written_chart
        return self._place_named(_FINISH_NAME_WORDS) or written or self.name.strip() in ("名次", "最终名次")

    def _place_named(self, allowed: frozenset[str]) -> bool:
        words = set(name_words(self.name))
        return self.ordinal and bool(words) and words <= allowed and bool(_PLACE_WORDS & words)

    @property
    def averaged(self) -> bool:
        """Measures people average rather than add up (prices, rates, scores, ages)."""
        words = name_words(self.name)
        hinted = any(h in words for h in _AVG_HINTS) or any(h in self.name for h in _AVG_HINTS_ZH)
        return hinted or "%" in self.name


@dataclass(frozen=True)
class Term:
    column: str
    kind: Literal["column", "value"]
    start: int
    end: int
    strength: float
    value: Any = None

    @property
    def length(self) -> int:
        return self.end - self.start


@dataclass
class Schema:
    views: list[ColumnView]
    row_count: int
    by_name: dict[str, ColumnView] = field(init=False)

    def __post_init__(self) -> None:
        self.by_name = {v.name: v for v in self.views}

    def of(self, *categories: Category) -> list[ColumnView]:
        return [v for v in self.views if v.category in categories]

    def time_column(self, mentioned: list[str]) -> ColumnView | None:
        times = self.of("time") or self.of("year") or [v for v in self.views if v.period]
        chosen = [v for v in times if v.name in mentioned]
        return (chosen or times)[0] if (chosen or times) else None

    def concept_column(self, concept: str, category: tuple[Category, ...] = ("measure",)) -> ColumnView | None:
        forms = {fold(f) for f in CONCEPTS.get(concept, ())}
        for view in self.views:
            if view.category in category and any(alias in forms for alias, _ in view.aliases):
                return view
        return None


def flag_core(name: str) -> str:
    """What a yes/no column's name asks about (是否退货: 退货), folded; else the folded name itself."""
    return flag_word(fold(name)) or fold(name).strip()


def _attach(form: str, name: str, core: str) -> float:
    """How strongly a concept word ties to a column name: whole name, part of it, or not at all."""
    wanted = name_words(form)
    if form in (name, core) or (wanted and wanted in (name_words(name), name_words(core))):
        return CONCEPT
    if form in GENERIC_PARTS:
        return 0.0
    if _LATIN.search(form):
        words = name_words(name)
        n = len(wanted)
        return CONCEPT_PART if any(words[i : i + n] == wanted for i in range(len(words) - n + 1)) else 0.0
    if len(form) >= 2 and form in name and 2 * len(form) >= len(name):
        return CONCEPT_PART
    return 0.0


def _parts(name: str) -> list[str]:
    """Significant pieces of a name: English words, or two-character and longer runs of a Chinese name."""
    if _LATIN.search(name):
        return [w for w in re.findall(r"[a-z]+", name) if len(w) >= 3 and w not in GENERIC_PARTS]
    cjk = "".join(_CJK.findall(name))
    pieces = {cjk[i : i + n] for n in range(2, len(cjk)) for i in range(len(cjk) - n + 1)}
    return sorted(p for p in pieces if p not in GENERIC_PARTS and not any(g in p for g in ("是否", "编号")))


@lru_cache(maxsize=4096)  # a column's aliases depend on its name, kind and synonyms alone: worked out once
def _aliases(name: str, flag: bool, synonyms: tuple[str, ...] = ()) -> tuple[tuple[str, float], ...]:
    """A tenant's synonym counts as another name: it is an alias of its own, and ties the column to the
    concepts it belongs to just as the name does (营收 for 指标A makes 指标A the revenue column)."""
    folded = " ".join(fold(name).split())
    core = flag_core(name) if flag else folded
    found: dict[str, float] = {folded: NAME}
    if core != folded:
        found[core] = CORE
    bare = without_unit(folded)  # "time (s)", "displacement (tonnes)": the name without its unit
    if bare is not None:
        found.setdefault(bare, CORE)
    others = [s for s in dict.fromkeys(" ".join(fold(t).split()) for t in synonyms) if s and s != folded]
    for other in others:
        found[other] = max(found.get(other, 0.0), SYNONYM)
    names = [(folded, core), *((other, other) for other in others)]
    for forms in CONCEPTS.values():
        strength = max((_attach(fold(f), n, c) for f in forms for n, c in names), default=0.0)
        for form in forms if strength else ():
            found[fold(form)] = max(found.get(fold(form), 0.0), strength)
    for part in _parts(folded):
        found.setdefault(part, PART)
    for done in _done_forms(folded):
        found.setdefault(done, CORE)
    for spelt in _spelt_out(folded):
        found.setdefault(spelt, CORE)
    for form, strength in [*_percent_aliases(folded), *_unit_aliases(folded)]:
        found.setdefault(form, strength)
    if _SOLD.search(folded) and _COUNTED.search(folded):  # 销售数量, sales_qty: what 销量 / units sold mean
        for form in ("销量", "sales volume", "units sold"):
            found[form] = max(found.get(form, 0.0), CONCEPT)
    return tuple(sorted(found.items()))


_NOMINAL = re.compile(
    r"^(?:(?P<ing>[a-z]{4,})ing|(?P<ment>[a-z]{4,})ment|(?P<ion>[a-z]{2,}[cp]t)ion|(?P<al>[a-z]{3,}[vw])al"
    r"|(?P<ure>[a-z]{2,}(?:rt|s))ure)$"
)


def _done_forms(folded: str) -> list[str]:
    """ "Founding Date": "founded" (names of two words at most)."""
    if len(name_words(folded)) > 2:
        return []
    return [done for part in _parts(folded) if (done := _done_form(part)) is not None]


def _done_form(word: str) -> str | None:
    """ "founding" -> "founded", "election" -> "elected", "appointment" -> "appointed", "arrival" -> "arrived":
    the verb a column's noun is made from, as a question says it happened. None for other words."""
    made = _NOMINAL.match(word)
    if made is None:
        return None
    stem = next(g for g in made.groups() if g)
    return stem + ("d" if stem.endswith("e") else "ed")


def _percent_aliases(folded: str) -> list[tuple[str, float]]:
    """ "%", "Vote %", "Pct": "what percentage did she get" reads the column; "Vote %" is also the "vote share"."""
    if not PERCENT_NAME.search(folded):
        return []
    found = [(form, CORE) for form in ("percentage", "percent", "pct", "%", "百分比")]
    rest = PERCENT_NAME.sub(" ", folded).split()
    if len(rest) == 1:
        found += [(f"{rest[0]} share", NAME), (f"{rest[0]} percentage", NAME)]
    return found


# The quantity a unit measures: "Cruise (km/h)" is a speed ("the top cruise speed"), "Weight at birth (kg)" a weight
_UNIT_QUANTITY = {
    **dict.fromkeys(("km/h", "kph", "kmh", "mph", "m/s", "knots", "kn", "kt"), "speed"),
    **dict.fromkeys(("kg", "kgs", "lb", "lbs", "kilograms", "pounds"), "weight"),
    **dict.fromkeys(("s", "sec", "secs", "seconds"), "time"),
}
_UNIT = re.compile(r"^(.*\S)\s*\(([^()]{1,12})\)$")


def _unit_aliases(folded: str) -> list[tuple[str, float]]:
    """ "cruise (km/h)": "cruise speed", and "speed" itself, name the column; what its unit measures."""
    written = _UNIT.match(folded)
    quantity = _UNIT_QUANTITY.get(written.group(2).strip()) if written is not None else None
    if written is None or quantity is None or quantity in written.group(1).split():
        return []
    return [(f"{written.group(1)} {quantity}", CORE), (quantity, CONCEPT)]


_AGENT = re.compile(r"^(?P<stem>[a-z]{5,})(?:er|or)s?$")


def done_by(verb: str, name: str) -> bool:
    """ "produced" is what the Producer(s) did, "directed" the Director: the verb's stem is the stem of one of the
    name's agent nouns (five letters or more: "played" is not the Player, nor "won" the Winner)."""
    stem = re.sub(r"(?:ed|d|ing|es|s)$", "", verb)
    doers = _DOERS.get(stem, ())
    for word in re.findall(r"[a-z]+", fold(name)):
        agent = _AGENT.match(word)
        if agent and stem in (agent.group("stem"), agent.group("stem") + "e"):
            return True
        if word in doers or singular(word) in doers:
            return True
    return False


# who does what, where the doer is not named after the verb: "who performed the song" is its Artist
_DOERS: dict[str, tuple[str, ...]] = {"perform": ("artist", "performer", "singer", "band", "musician")}
# "did taylor jensen win", a Winner named; "who won the race", the Winning driver
_DOERS |= dict.fromkeys(("win", "won"), ("winner", "winners", "winning", "champion", "champions"))


_UNIT_SUFFIX = re.compile(r"^(.*\S)\s*\([^()]{1,12}\)$")


def without_unit(name: str) -> str | None:
    """ "isolation (mi)" -> "isolation": a folded name without the unit written after it; None when it has none."""
    unit = _UNIT_SUFFIX.match(name)
    return unit.group(1) if unit is not None else None


_SOLD = re.compile(r"销售|销|售出|卖|sales|sold")
_COUNTED = re.compile(r"数量|件数|quantity|qty|units|volume")


def _spelt_out(name: str) -> list[str]:
    """ "temp_max" -> "temperature maximum" and "maximum temperature": abbreviations written in full, and a
    two-word name in the other order too (how people say it)."""
    words = re.findall(r"[a-z]+", name)
    if not any(w in ABBREVIATIONS for w in words) or len(words) > 3:
        return []
    full = [ABBREVIATIONS.get(w, w) for w in words]
    forms = [" ".join(full)]
    if len(full) == 2:
        forms.append(f"{full[1]} {full[0]}")
    return forms


def _category(col: Any, row_count: int) -> tuple[Category, Any]:
    values = col.values if col.values is not None else col.examples
    if col.kind == "boolean":
        return "flag", True
    texts = [str(v).strip().lower() for v in values or []]
    if col.kind == "text" and col.distinct_count == 2 and len(texts) == 2 and any(t in TRUE_VALUES for t in texts):
        return "flag", next(v for v in values if str(v).strip().lower() in TRUE_VALUES)
    if col.kind == "integer" and col.distinct_count == 2 and {str(v) for v in values or []} == {"0", "1"}:
        return "flag", 1  # Survived, is_active as 0/1: "passengers who survived" is Survived = 1
    if col.role == "time":
        return ("time" if col.kind in ("date", "datetime") else "year"), None
    if col.role == "measure":
        return "measure", None
    if col.role == "id" and col.kind == "text" and col.distinct_count <= max(50, row_count // 20):
        return "dimension", None
    return col.role, None


_TEXT_PERIODS = (
    ("month", re.compile(r"^(19|20)\d{2}-(0[1-9]|1[0-2])$")),
    ("quarter", re.compile(r"^(19|20)\d{2}-?Q[1-4]$")),
)


def text_period(values: Sequence[Any] | None) -> str | None:
    """The grain of a text column whose values are all periods: "2025-01" (month), "2025-Q1" or "2025Q1" (quarter)."""
    texts = [str(v).strip() for v in values or [] if v is not None]
    for grain, pattern in _TEXT_PERIODS:
        if texts and all(pattern.match(t) for t in texts):
            return grain
    return None


def schema_of(profile: TableProfile, synonyms: Mapping[str, Sequence[str]] | None = None) -> Schema:
    """The planner's view of a profile; `synonyms` are the tenant's words per column ({column: [words]})."""
    synonyms = synonyms or {}
    views = []
    for col in profile.columns:
        category, true_value = _category(col, profile.row_count)
        present = profile.row_count * (1 - col.null_ratio)
        values = col.values if col.values is not None else col.examples
        views.append(
            ColumnView(
                name=col.name,
                kind=col.kind,
                category=category,
                values=tuple(v for v in values or [] if isinstance(v, str)),
                true_value=true_value,
                distinct=col.distinct_count,
                unique=present > 0 and col.distinct_count >= 0.95 * present,
                null_ratio=col.null_ratio,
                lo=col.min,
                hi=col.max,
                aliases=_aliases(col.name, category == "flag", tuple(synonyms.get(col.name, ()))),
                # a summary row's label ("合计") among the periods is no period: the row is left out by that label
                period=text_period([v for v in values or [] if v != col.total_label])
                if category == "dimension" and col.kind == "text"
                else None,
                total_label=col.total_label,
                complete=col.values is not None,
                written_place=col.written_as in ("place", "chart") and category == "measure",
                written_chart=col.written_as == "chart" and category == "measure",
            )
        )
    return Schema(views=_standings(_place_named(_year_named(views))), row_count=profile.row_count)


def _standings(views: list[ColumnView]) -> list[ColumnView]:
    said = spoken_names([v.name for v in views])
    return [_abbreviated(v, said.get(v.name, ())) for v in views]


def _abbreviated(view: ColumnView, said: tuple[str, ...]) -> ColumnView:
    if not said:
        return view
    known = {alias for alias, _strength in view.aliases}
    return replace(view, aliases=(*view.aliases, *((w, CORE) for w in said if w not in known)))


_RANKING_WORDS = ("ranking", "rank", "standing", "placing")


def _place_named(views: list[ColumnView]) -> list[ColumnView]:
    """ "what is his best ranking season" over a table whose one finishing place is called Place (or Pos.):
    "ranking", "rank", "standing" name it, when no column's name says so."""
    places = [v for v in views if v.finishing]
    said = any(w in _RANKING_WORDS for v in views for w in name_words(v.name))
    if len(places) != 1 or said:
        return views
    named = replace(places[0], aliases=(*places[0].aliases, *((w, PART) for w in _RANKING_WORDS)))
    return [named if v is places[0] else v for v in views]


def _year_named(views: list[ColumnView]) -> list[ColumnView]:
    """ "what year …" over a table whose one column of years is called Season (or 赛季): "year" names it, when
    no column's name says year."""
    years = [v for v in views if v.category in ("year", "time")]  # a date beside it (Hired) may be the year meant
    if len(years) != 1 or years[0].category != "year" or any(re.search(r"year|年", fold(v.name)) for v in views):
        return views
    named = replace(years[0], aliases=(*years[0].aliases, ("year", PART)))
    return [named if v is years[0] else v for v in views]


@lru_cache(maxsize=4096)
def alias_pattern(alias: str, *, column: bool = False) -> re.Pattern[str]:
    """Where a name is said; a column's name also in its plural ("frequencies" for Frequency)."""
    if _LATIN.search(alias):
        body = r"[\s\-]*".join(re.escape(w) for w in re.split(r"[\s\-]+", alias.strip("-")) if w)
        if column and len(alias) > 3 and alias.endswith("y") and alias[-2] not in "aeiou":  # frequency -> frequencies
            body = body[:-1] + "(?:y|ies|ied)"
        return re.compile(rf"(?<![a-z0-9]){body}(?:s|es|ed|d|ing|ly)?(?![a-z0-9])")
    return re.compile(re.escape(alias))


@lru_cache(maxsize=8192)
def name_pieces(alias: str) -> tuple[str, ...]:
    """What a question must hold for `alias_pattern(alias)` to match it: the name's words but the last, and the
    last less its last letter (said in the plural: "frequencies" of Frequency)."""
    words = [w for w in re.split(r"[\s\-]+", alias.strip("-")) if w] if _LATIN.search(alias) else [alias]
    return (*words[:-1], words[-1][:-1]) if words else ()


def may_say(alias: str, text: str) -> bool:
    """False when the question cannot name `alias` (checked before its pattern is compiled and run)."""
    return all(piece in text for piece in name_pieces(alias))


MIN_SINGULAR = 2
# what a verb counts right after it: "picked the most players", "ranked more teams"
_COUNTED_OBJECT = re.compile(r"\s+(?:the\s+)?(?:most|fewest|least|more|fewer)\s+[a-z]")
_COUNTED_BEFORE = re.compile(r"(?<![a-z])(?:most|fewest|least|more|fewer)\s+[a-z]+\s+$")  # "the most players picked"


def _column_candidates(text: str, view: ColumnView) -> list[Term]:
    found = []
    for alias, strength in view.aliases:
        if not may_say(alias, text):
            continue
        for match in alias_pattern(alias, column=True).finditer(text):
            verb = view.ordinal and match.group(0).endswith("ed") and not alias.endswith("ed")
            counting = _COUNTED_OBJECT.match(text, match.end()) or _COUNTED_BEFORE.search(text, 0, match.start())
            if verb and counting:  # "what nationality picked the most players", "the most players picked came …"
                continue  # the verb, not the Pick column
            found.append(Term(view.name, "column", match.start(), match.end(), strength))
        one = singular(alias) if _LATIN.search(alias) and " " not in alias else alias
        if one != alias and len(one) > MIN_SINGULAR:  # "points per game" over Games: one of them, taken per
            for match in re.finditer(rf"(?<![a-z])per\s+(?:a\s+|the\s+)?(?P<one>{re.escape(one)})(?![a-z0-9])", text):
                found.append(Term(view.name, "column", match.start("one"), match.end("one"), strength))
    found.sort(key=lambda t: (t.start, -t.end))
    merged: list[Term] = []
    for term in found:  # "return" + "reason" next to each other name one column: 退货原因
        last = merged[-1] if merged else None
        gap = text[last.end : term.start] if last else ""
        if last and term.start >= last.end and len(gap) <= 2 and gap.strip(" 的'") == "":
            merged[-1] = Term(view.name, "column", last.start, term.end, max(last.strength, term.strength))
        elif not last or term.start >= last.end or term.end > last.end:
            merged.append(term)
    return merged


_NOTED = re.compile(r"\s*(?:\([^()]{1,12}\)|\[[^\[\]]{1,12}\])?\s*[*†‡^]*\s*$")
_MARKED = re.compile(r"^[*†‡^]+\s*")


_LIST_SEPARATOR = re.compile(r"\s*[,;/+]\s*")  # not "&" or "and": "Procter & Gamble" is one name


_LIST_BEFORE = (",", ";", "/", "&", "+", " and")
_LIST_AFTER = (",", ";", "/", "&", "+", "(", "[", "*", "†", "‡", "#", "and ")


def _item_of(cell: str, value: str) -> bool:
    """Whether `value` stands in `cell` as one item of a list or with a note ("Allegany, Garrett",
    "Canadian Army (1939-1945)", "Lillestrøm*"), rather than inside another name ("Royal Canadian Army")."""
    at = cell.find(value)
    while at >= 0:
        before, after = cell[:at].rstrip(), cell[at + len(value) :].lstrip()
        if (not before or before.endswith(_LIST_BEFORE)) and (not after or after.startswith(_LIST_AFTER)):
            return True
        at = cell.find(value, at + 1)
    return False


def listed_in_cells(view: ColumnView, value: Any) -> bool:
    """A value that other cells of its column list among others or annotate ("Allegany" beside
    "Allegany, Garrett"): those rows are about it too, so the filter keeps every cell that holds it, not only
    the cells equal to it. Decided only over a column whose every value is known, and only when each cell
    that holds the value's text holds it as a whole item."""
    if not view.complete or not isinstance(value, str) or not value.strip():
        return False
    wanted = value.strip().lower()
    holding = [c.strip().lower() for c in view.values if wanted in c.strip().lower()]
    others = [c for c in holding if c != wanted]
    return bool(others) and all(_item_of(c, wanted) for c in others)


@lru_cache(maxsize=256)  # a dataset's views are the same from question to question: worked out once
def _listed_items(view: ColumnView) -> dict[str, str]:
    """The items of cells that list several ("United States, Los Angeles", "Robert Scheidt, Bruno Prada") that
    are no cell of their own, by their folded form: "canada" names the rows whose cell lists Canada (a contains
    filter, shaping.py). Only over a column whose every value is known, and only items every cell holding them
    holds as a whole item ("john" is no item where "Johnson, Mary" is a cell)."""
    if not view.complete:
        return {}
    cells = {fold(str(v)).strip() for v in view.values if v is not None}
    items: dict[str, str] = {}
    for value in view.values:
        parts = [p.strip() for p in _LIST_SEPARATOR.split(str(value))] if value is not None else []
        for part in parts if len(parts) > 1 else []:
            folded = fold(part)
            if len(folded) >= 3 and not any(ch.isdigit() for ch in folded) and folded not in cells:
                items.setdefault(folded, part)
    return {f: item for f, item in items.items() if listed_in_cells(view, item)}


@lru_cache(maxsize=256)
def _noted_names(view: ColumnView) -> dict[str, Any]:
    """Cells with a note ("China (CHN)", "Lillestrøm*", "*Interlude*") by the name without it, where exactly one
    cell has that name and the name is no cell of its own ("Coffee (Large)" and "Coffee (Small)" name no one
    "coffee")."""
    cells = {fold(str(v)).strip() for v in view.values if v is not None}
    names: dict[str, list[Any]] = {}
    for value in view.values:
        folded = fold(str(value)).strip() if value is not None else ""
        core = _MARKED.sub("", _NOTED.sub("", folded))
        if core != folded and len(core) >= 3 and not core.replace(".", "").isdigit() and core not in cells:
            names.setdefault(core, []).append(value)
    return {core: values[0] for core, values in names.items() if len(values) == 1}


# "CF" of "Córdoba CF", "CD" of "CD Málaga": an abbreviation in capitals before or after the name
_AFFIX = re.compile(r"^[A-Z]{2,3}\.?$")
COMMON_AFFIX = 3  # an affix in at least this many of a column's cells is the kind of thing, not part of the name


@lru_cache(maxsize=256)  # a dataset's views are the same from question to question: worked out once
def _affixed_names(view: ColumnView) -> tuple[tuple[str, Any], ...]:
    """ "cordoba" for "Córdoba CF", "malaga" for "CD Málaga": a cell named without the abbreviation in capitals
    that starts or ends several of its column's cells (clubs, companies). Only where exactly one cell has that
    name, the name is four letters or more and no other cell holds it."""
    cells = [str(v) for v in view.values if v is not None]
    edges = [{c.split()[0], c.split()[-1]} for c in cells if len(c.split()) > 1]
    counts = Counter(w for edge in edges for w in edge if _AFFIX.match(w))
    common = {w for w, n in counts.items() if n >= COMMON_AFFIX}
    if not common:
        return ()
    folded_cells = [fold(c).strip() for c in cells]
    names: dict[str, list[Any]] = {}
    for cell in cells:
        words = cell.split()
        if len(words) < 2 or not ({words[0], words[-1]} & common):
            continue
        rest = words[1:] if words[0] in common else words[:-1]
        core = fold(" ".join(rest)).strip()
        if len(core.replace(" ", "")) < 4 or core.replace(".", "").isdigit():
            continue
        holders = [f for f in folded_cells if re.search(rf"(?<![a-z]){re.escape(core)}(?![a-z])", f)]
        if len(holders) == 1:
            names.setdefault(core, []).append(cell)
    return tuple((core, values[0]) for core, values in names.items() if len(values) == 1)


_QUOTES = "\"'“”‘’«»「」"


def _said_otherwise(folded: str, text: str) -> list[tuple[int, int]]:
    """Where the question names a value otherwise than its cell writes it: with the tail it shares with the next
    one ("north and south korea": North Korea), or without the quotes around it ('"Hot Thing"')."""
    spans = []
    head, _sep, tail = folded.partition(" ")
    if tail and len(head) >= 3:
        shared = rf"(?<![a-z]){re.escape(head)}(?=\s+(?:and|&|or)\s+[a-z]+\s+{re.escape(tail)}(?![a-z]))"
        spans += [m.span() for m in re.finditer(shared, text)]
    quoted = folded.strip(_QUOTES).strip()
    if quoted != folded and len(quoted) >= 2 and not quoted.replace(".", "").isdigit():
        spans += [m.span() for m in alias_pattern(quoted).finditer(text)]
    return spans


def _plural_ies(folded: str, text: str, view: ColumnView) -> list[tuple[int, int]]:
    """ "films that are love stories" over a Genre cell "Love story": the value said in the plural, where no other
    cell of the column holds it too ("A village love story" is a love story as well: then it is asked about)."""
    if len(folded) <= 3 or not folded.endswith("y") or folded[-2] in "aeiou" or folded[:-1] + "ies" not in text:
        return []
    plural = re.compile(rf"(?<![a-z0-9]){re.escape(folded[:-1])}ies(?![a-z0-9])")
    spans = [m.span() for m in plural.finditer(text)]
    if not spans:
        return []
    inside = re.compile(rf"(?<![a-z0-9]){re.escape(folded)}(?![a-z0-9])")
    others = [v for v in view.values if v is not None and fold(str(v)).strip() != folded]
    return [] if any(inside.search(fold(str(v))) for v in others) else spans


def _without_kind(folded: str, text: str, kind: str | None) -> list[tuple[int, int]]:
    """ "the year forth and clyde was restored" over a column Canal of "Forth and Clyde Canal", "Crinan Canal":
    a value named without the word for its kind that most of its column's values end with (`kind`, the column's
    name: `_kind_word`)."""
    if kind is None or not folded.endswith(" " + kind):
        return []
    bare = folded[: -len(kind) - 1].strip()
    if len(bare.split()) < 2:
        return []  # "national" of "National Stadium" is a common word before it is a name
    return [m.span() for m in alias_pattern(bare).finditer(text)]


@lru_cache(maxsize=256)  # a dataset's views are the same from question to question: worked out once
def _kind_word(view: ColumnView) -> str | None:
    """The column's one-word name when most of its values end with it ("Canal": "Crinan Canal", "Union Canal")."""
    words = name_words(view.name)
    if len(words) != 1 or not view.complete or len(view.values) < 3:
        return None
    kind = fold(view.name).strip()
    ending = sum(1 for v in view.values if fold(str(v)).strip().endswith(" " + kind))
    return kind if ending * 2 > len(view.values) else None


@lru_cache(maxsize=256)  # a dataset's views are the same from question to question: worked out once
def _value_keys(view: ColumnView) -> tuple[tuple[Any, str, tuple[str, ...], tuple[str, ...]], ...]:
    """The values worth looking for, each with its folded form, the pieces of it that every way of saying it
    holds (its words but the last, and the last less its last letter, "stor" of "story" said "stories"; only the
    words before it when a value of three words or more may be said without its kind: `_without_kind`), and its
    other spellings (synonyms, seasons written otherwise), looked for whatever the question holds."""
    keys = []
    for value in view.values:
        folded = fold(value).strip()
        if len(folded) < 2 or folded.replace(".", "").isdigit():
            continue
        words = [w for w in re.split(r"[\s\-]+", folded.strip(_QUOTES).strip().strip("-")) if w] or [folded]
        pieces = tuple(words[:-1]) if len(words) >= 3 else (*words[:-1], words[-1][:-1])
        spellings = tuple(fold(s) for s in (*VALUE_SYNONYMS.get(folded, ()), *_season_spellings(folded)))
        keys.append((value, folded, pieces, spellings))
    return tuple(keys)


def _value_candidates(question: str, text: str, view: ColumnView, items: dict[str, str]) -> list[Term]:
    found = []
    for folded_item, item in items.items():
        for match in alias_pattern(folded_item).finditer(text) if may_say(folded_item, text) else ():
            found.append(Term(view.name, "value", match.start(), match.end(), VALUE_FOLDED, item))
    for core, value in [*_noted_names(view).items(), *_affixed_names(view)]:
        for match in alias_pattern(core).finditer(text) if may_say(core, text) else ():
            found.append(Term(view.name, "value", match.start(), match.end(), VALUE_FOLDED, value))
    kind = _kind_word(view)
    for value, folded, pieces, spellings in _value_keys(view):
        for spelling in spellings:
            for match in alias_pattern(spelling).finditer(text) if may_say(spelling, text) else ():
                found.append(Term(view.name, "value", match.start(), match.end(), VALUE_SYNONYM, value))
        if not all(p in text for p in pieces):  # most values are not in the question: no reading below can match
            continue
        for match in alias_pattern(folded).finditer(text):
            exact = question[match.start() : match.start() + len(value)] == value
            found.append(
                Term(view.name, "value", match.start(), match.end(), VALUE_EXACT if exact else VALUE_CASE, value)
            )
        found += [Term(view.name, "value", s, e, VALUE_FOLDED, value) for s, e in _said_otherwise(folded, text)]
        found += [Term(view.name, "value", s, e, VALUE_FOLDED, value) for s, e in _plural_ies(folded, text, view)]
        found += [Term(view.name, "value", s, e, VALUE_FOLDED, value) for s, e in _without_kind(folded, text, kind)]
    return found


MIN_SLIPPED_WORD = 5  # a word of a value this long, written with one letter left out or two swapped


@lru_cache(maxsize=256)  # a dataset's views are the same from question to question: worked out once
def _slip_patterns(view: ColumnView) -> tuple[tuple[str, str, str, Any], ...]:
    """For each value of two words or more: a pattern of it with one long word left free (its source, compiled
    only when a question holds the other words), a word the question must hold for the pattern to match (the
    longest other one), the free word as the cell writes it, and the cell."""
    found = []
    for value in view.values:
        words = fold(str(value)).split() if value is not None else []
        if len(words) < 2 or not all(w.isalpha() for w in words):
            continue
        for i, word in enumerate(words):
            if len(word) < MIN_SLIPPED_WORD:
                continue
            parts = [
                rf"([a-z]{{{len(word) - 1},{len(word)}}})" if j == i else re.escape(w) for j, w in enumerate(words)
            ]
            held = max((w for j, w in enumerate(words) if j != i), key=len)
            found.append((r"(?<![a-z])" + r"\s+".join(parts) + r"(?![a-z])", held, word, value))
    return tuple(found)


@lru_cache(maxsize=4096)
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _misspelt_values(text: str, view: ColumnView) -> list[Term]:
    """ "the atlas perp squad" over "Altas Perp Squad": a value of two words or more said with one long word
    one slip away (`_one_slip`, either way round), the others as written; only where one cell is that close."""
    found: dict[tuple[int, int], set[Any]] = {}
    for pattern, held, word, value in _slip_patterns(view):
        if held not in text:  # most values share no word with the question: no pattern to run
            continue
        for m in _compiled(pattern).finditer(text):
            said = m.group(1)
            if said != word and (_one_slip(said, word) or _one_slip(word, said)):
                found.setdefault(m.span(), set()).add(value)
    return [Term(view.name, "value", s, e, PART, next(iter(v))) for (s, e), v in found.items() if len(v) == 1]


def _season_spellings(value: str) -> list[str]:
    """A season of two years written as the data does not: "2005–06" is also "2005-2006", "2005/06", "2005-06"."""
    years = season_years(value)
    if years is None:
        return []
    first, full = years
    return [f"{first}{dash}{end}" for dash in ("-", "–", "/") for end in (full, full[2:])]


# "how many times did he finish first", "won it 3 times": occasions counted, never a column of times (Notes (s))
_OCCASIONS = re.compile(
    r"(?<![a-z])(?:how many|number of|count of|many|several|few|\d+|two|three|four|five|six|seven|eight|nine|ten)"
    r"\s+(?:different\s+|separate\s+|total\s+)?(?P<times>times)(?![a-z])"
)


def find_terms(question: str, schema: Schema) -> list[Term]:
    """Non-overlapping mentions of columns and values, in reading order."""
    text = fold(question)
    candidates: list[Term] = []
    texts = [v for v in schema.views if v.category in ("dimension", "id", "flag") and v.kind == "text"]
    items = {v.name: _listed_items(v) for v in texts}
    seen = Counter(f for listed in items.values() for f in listed)  # an item of two columns is no one's
    for view in schema.views:
        candidates += _column_candidates(text, view)
        if view.name in items:
            unique = {f: item for f, item in items[view.name].items() if seen[f] == 1}
            candidates += _value_candidates(question, text, view, unique)
            candidates += _misspelt_values(text, view)
    candidates += _misspelt_columns(text, schema, candidates)
    occasions = [m.span("times") for m in _OCCASIONS.finditer(text)]
    candidates = [t for t in candidates if (t.start, t.end) not in occasions]
    order = {v.name: i for i, v in enumerate(schema.views)}
    candidates.sort(key=lambda t: (-t.length, -t.strength, t.kind != "value", order[t.column]))
    taken = bytearray(len(text))
    chosen = []
    for term in candidates:
        if taken.find(1, term.start, term.end) == -1:
            taken[term.start : term.end] = b"\x01" * term.length
            chosen.append(term)
    chosen = sorted(chosen, key=lambda t: t.start)
    return [t for t in chosen if not _outcome_of_another(text, t, chosen)]


_WORD = re.compile(r"[a-z]{5,}")
MIN_MISSPELT = 7  # a column's one-word name this long, written with a letter left out or two swapped


def _one_slip(written: str, name: str) -> bool:
    """ "epiodes" for episodes, "leauge" for league: one letter left out, or two next to each other swapped."""
    if len(name) == len(written) + 1:
        return any(name[:i] + name[i + 1 :] == written for i in range(len(name)))
    if len(name) == len(written) and written != name:
        slips = [i for i in range(len(name)) if name[i] != written[i]]
        return len(slips) == 2 and slips[1] == slips[0] + 1 and name[slips[0]] == written[slips[1]]
    return False


def _misspelt_columns(text: str, schema: Schema, candidates: list[Term]) -> list[Term]:
    """A word no column or value matches that is a column's one-word name misspelt by one slip (`_one_slip`):
    that column, read as a weak match. Words the data holds anywhere, or close to several columns, are not."""
    found = []
    for m in _WORD.finditer(text):
        word = m.group(0)
        if any(t.start < m.end() and m.start() < t.end for t in candidates) or word in STOPWORDS_EN:
            continue
        close = {
            v.name
            for v in schema.views
            for alias, _strength in v.aliases
            if len(alias) >= MIN_MISSPELT and alias.isalpha() and _one_slip(word, alias)
        }
        if len(close) == 1:
            column = close.pop()
            found.append(Term(column, "column", m.start(), _rest_of_name(text, m.end(), word, column), PART))
    return found


def _rest_of_name(text: str, end: int, word: str, column: str) -> int:
    """ "internationl passengers" for International passengers: where the column's name the misspelt word
    begins ends in the text (`end` when the words after it are not the rest of the name)."""
    words = name_words(fold(column))
    at = next((i for i, w in enumerate(words) if _one_slip(word, w)), None)
    if at is None or at + 1 >= len(words):
        return end
    rest = re.match(
        r"\s+" + r"\s+".join(re.escape(w) + "(?:s|es)?" for w in words[at + 1 :]) + r"(?![a-z])", text[end:]
    )
    return end + rest.end() if rest else end


_OUTCOME_VERB = re.compile(r"win|wins|won|winning|lose|loses|lost|losing")
_FAILED = re.compile(r"(?<![a-z])(?:fail|fails|failed|failing|unable)\s+to\s+$")
_OUTCOME_OBJECT = re.compile(r"\s+(?:to|against|over|versus|vs\.?)(?![a-z])")


def _outcome_of_another(text: str, term: Term, chosen: list[Term]) -> bool:
    """ "did the lions win", "who did he lose to", "fail to win": an outcome verb is a value of the table's own
    Result or Outcome column only when the table's subject is the one winning; not when another named value wins,
    when the verb says to or against whom, or when it failed."""
    if term.kind != "value" or not _OUTCOME_VERB.fullmatch(text[term.start : term.end]):
        return False
    if _FAILED.search(text, 0, term.start) or _OUTCOME_OBJECT.match(text, term.end):
        return True
    return any(o.kind == "value" and o.end <= term.start and not text[o.end : term.start].strip() for o in chosen)
