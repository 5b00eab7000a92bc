"""resolve_fields: map a user's words ("退货原因", "revenue", "华东") to columns or to column values.

Sources of evidence, strongest first: the column's own name, tenant-defined synonyms, a small
built-in bilingual glossary, the distinct values of dimension columns (华东 -> filter on 地区),
then fuzzy and character overlap. Deterministic; no LLM.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel

from apps.datasets.ingest.profile import TableProfile

GLOSSARY: dict[str, tuple[str, ...]] = {
    "revenue": ("销售额", "收入", "营收", "金额"),
    "sales": ("销售额", "销量", "销售"),
    "amount": ("金额", "数额"),
    "price": ("价格", "单价"),
    "cost": ("成本", "费用"),
    "profit": ("利润", "毛利"),
    "quantity": ("数量", "件数", "销量"),
    "count": ("数量", "次数"),
    "region": ("地区", "区域", "大区"),
    "city": ("城市",),
    "province": ("省份", "省"),
    "customer": ("客户", "顾客"),
    "user": ("用户",),
    "product": ("产品", "商品"),
    "category": ("类别", "品类", "类目", "分类"),
    "order": ("订单",),
    "date": ("日期", "时间"),
    "time": ("时间", "日期"),
    "month": ("月份", "月"),
    "year": ("年份", "年"),
    "return": ("退货", "退款"),
    "reason": ("原因",),
    "account": ("账号", "账户"),
    "channel": ("渠道",),
    "store": ("门店", "店铺"),
    "department": ("部门",),
    "employee": ("员工",),
    "status": ("状态",),
    "discount": ("折扣",),
    "rating": ("评分",),
}
_REVERSE = {zh: en for en, zhs in GLOSSARY.items() for zh in zhs}


class Match(BaseModel):
    kind: Literal["column", "value"]
    column: str
    value: str | int | float | None = None
    score: float
    via: Literal["name", "synonym", "glossary", "value", "fuzzy"]


class Resolution(BaseModel):
    term: str
    matches: list[Match]


def _similarity(a: str, b: str) -> float:
    a, b = a.lower(), b.lower()
    if a == b:
        return 1.0
    if len(a) >= 2 and (a in b or b in a):
        return 0.8
    ratio = difflib.SequenceMatcher(None, a, b).ratio()
    overlap = len(set(a) & set(b)) / max(len(set(a) | set(b)), 1)
    return max(ratio, overlap) * 0.75


def _expansions(term: str) -> list[str]:
    lowered = term.lower().strip()
    forms = list(GLOSSARY.get(lowered, ()))
    if lowered in _REVERSE:
        forms.append(_REVERSE[lowered])
    return forms


def _column_matches(term: str, profile: TableProfile, synonyms: dict[str, str]) -> list[Match]:
    found: dict[str, Match] = {}

    def add(match: Match) -> None:
        if match.column not in found or found[match.column].score < match.score:
            found[match.column] = match

    names = [c.name for c in profile.columns]
    for name in names:
        if name.lower() == term.lower():
            add(Match(kind="column", column=name, score=1.0, via="name"))
    for synonym, column in synonyms.items():
        if synonym.lower() == term.lower() and column in names:
            add(Match(kind="column", column=column, score=0.95, via="synonym"))
    for form in _expansions(term):
        for name in names:
            score = _similarity(form, name)
            if score >= 0.8:
                add(Match(kind="column", column=name, score=round(0.9 * score, 3), via="glossary"))
    for name in names:
        score = _similarity(term, name)
        if score >= 0.45:
            add(Match(kind="column", column=name, score=round(score * 0.9, 3), via="fuzzy"))
    return list(found.values())


# The words that leave something out ("excluding 2022", "不含退货", "除了华东"), for the planner and verify alike
LEAVES_OUT_WORDS: tuple[str, ...] = ("excluding", "except", "except for", "other than", "not counting", "besides")
LEAVES_OUT_WORDS += ("aside from", "apart from")
LEAVES_OUT_WORDS += ("不含", "不包括", "不包含", "排除", "排除掉", "去掉", "剔除", "除去", "除了", "刨去", "刨除")
LEAVES_OUT = (
    "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(LEAVES_OUT_WORDS, key=len)[::-1]) + ")"
)

# A yes/no column is named by what it asks: 是否退货 is "退货", is_remote is "remote"
FLAG_PREFIXES = ("是否", "有无", "is_", "has_", "was_", "if_", "is ", "has ", "was ")


def flag_word(name: str) -> str | None:
    """What a yes/no column's name asks about ("是否退货": "退货"), or None for another name."""
    folded = name.strip().casefold()
    for prefix in FLAG_PREFIXES:
        if folded.startswith(prefix) and len(folded) > len(prefix) + 1:
            return folded[len(prefix) :].strip()
    return None


# A column named like an aggregation ("Total", "Average") and what may stand between it and the measure it adds up
# ("the difference between the points earned" over a Goal Difference column: the points compared)
AGGREGATE_NAMES = frozenset({"total", "sum", "average", "mean", "difference", "合计", "总计", "平均"})
_AGGREGATE_GAP = re.compile(
    r"\s*(?:(?:number|amount|count)\s+of\s+|的|(?:between|in)\s+)?(?:the\s+)?(?:(?:number|amount)\s+of\s+)?",
    re.IGNORECASE,
)
# A column of percentages by its name: "%", "Vote %", "Pct", "Percentage", 百分比
PERCENT_NAME = re.compile(r"%|(?<![a-z])(?:percent|percentage|pct)(?![a-z])|百分比", re.IGNORECASE)


def adds_up_what_follows(word: str, text: str, end: int, next_start: int) -> bool:
    """ "the total number of bronze medals" over a table with a Total column: the word (ending at `end`) says how
    the column named next (at `next_start`) is added up; it does not name the Total column. The planner and
    verify read it alike."""
    if word.strip().casefold() not in AGGREGATE_NAMES or next_start < end:
        return False
    return _AGGREGATE_GAP.fullmatch(text, end, next_start) is not None


# letters Unicode does not decompose into a plain letter and an accent, typed as that letter by a user who reads
# them ("Suðuroy" as "suduroy", "Ørsted" as "orsted", "Łódź" as "lodz"): one for one, so positions hold
LETTERS_WITHOUT_ACCENT = {"ð": "d", "Ð": "d", "đ": "d", "Đ": "d", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "ħ": "h"}
_WITHOUT_ACCENT = str.maketrans({ord(c): ord(base) for c, base in LETTERS_WITHOUT_ACCENT.items()})


def plain(text: str) -> str:
    """Lower case without accents ("Córdoba CF" -> "cordoba cf", "Suðuroy" -> "suduroy"): how a user types a
    value they read."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_WITHOUT_ACCENT)


def _value_matches(term: str, profile: TableProfile) -> list[Match]:
    matches = []
    wanted = plain(term.strip())
    for column in profile.columns:
        for value in column.values or []:
            text = plain(str(value))
            if text == wanted:
                matches.append(Match(kind="value", column=column.name, value=value, score=0.9, via="value"))
            elif len(wanted) >= 2 and len(text) >= 2 and (wanted in text or text in wanted):
                matches.append(Match(kind="value", column=column.name, value=value, score=0.6, via="value"))
    return matches


def resolve_fields(
    terms: Iterable[str], profile: TableProfile, *, synonyms: dict[str, str] | None = None, limit: int = 3
) -> list[Resolution]:
    """For each term, its best matches (highest score first); an empty list when nothing fits."""
    resolutions = []
    for term in terms:
        term = term.strip()
        if not term:
            continue
        matches = _column_matches(term, profile, synonyms or {}) + _value_matches(term, profile)
        matches.sort(key=lambda m: (-m.score, m.kind != "column", m.column, str(m.value)))
        resolutions.append(Resolution(term=term, matches=matches[:limit]))
    return resolutions


def mapped_columns(resolutions: Iterable[Resolution]) -> list[str]:
    """The documented answer of resolve_fields: the columns the terms map to, best first, each once."""
    ranked = sorted((m for r in resolutions for m in r.matches), key=lambda m: -m.score)
    return list(dict.fromkeys(m.column for m in ranked))


_SEASON = re.compile(r"((?:1[89]|20)\d\d)\s*[-–—/]\s*(\d\d|(?:1[89]|20)\d\d)")


def season_years(value: Any) -> tuple[str, str] | None:
    """The two years of a season written as one value ("2005–06", "1998/1999"), one the year after the other;
    None for anything else. The planner reads "2005-2006" as that value, and verify the value as both years."""
    found = _SEASON.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None:
        return None
    first, second = found.group(1), found.group(2)
    full = second if len(second) == 4 else first[:2] + second
    return (first, full) if int(full) == int(first) + 1 else None


_CENTURY_WORDS = {"fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19}
_CENTURY_WORDS |= {"twentieth": 20, "twenty first": 21}
# "单月最高销售额", "单日": one month (day) as the unit an extreme is taken over; not the 单 of a noun
# (订单日期, 清单, 账单) nor 单日期
ONE_PERIOD_ZH = r"(?<![订清账帐菜名保票表下买卖退运货接派工传报])单(?:月|日(?!期))"
# "the 20th century", "the nineteenth century", "20世纪": a hundred years, named by their number
CENTURY = re.compile(
    r"(?<![\w.])(?:(?P<n>1[5-9]|2[01])(?:st|nd|rd|th)|(?P<w>fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|"
    r"twentieth|twenty[- ]first))[\s-]+century(?![a-z])|(?<![\d.])(?P<z>1[5-9]|2[01])\s*世纪",
    re.IGNORECASE,
)


def century_start(match: re.Match[str]) -> int:
    """The first year of a century CENTURY found, as people count them: the 20th century from 1900."""
    number = int(match["n"] or match["z"] or 0) or _CENTURY_WORDS[match["w"].casefold().replace("-", " ")]
    return (number - 1) * 100


# A league table's one- and two-letter headers (Pld, W, D, L, GF, GA, Pts), read as the words people say for them
# when the table has both W and L: "which team has the most wins", "how many draws did they have"
_STANDINGS = {
    "w": ("wins", "win", "won"),
    "d": ("draws", "draw", "drawn"),
    "l": ("losses", "loss", "lost", "lose"),
    "t": ("ties", "tie", "tied"),
    "p": ("played", "games played", "matches played"),
    "pld": ("played", "games played", "matches played"),
    "gp": ("played", "games played"),
    "mp": ("played", "matches played"),
    "gf": ("goals for", "goals scored", "scored"),
    "f": ("goals for", "goals scored", "scored"),
    "ga": ("goals against", "goals conceded", "conceded", "allowed"),
    "a": ("goals against", "goals conceded", "conceded", "allowed"),
    "gd": ("goal difference",),
    "pts": ("points",),
}


_ANY_TABLE = {k: _STANDINGS[k] for k in ("pts", "pld")}  # no other table writes these
_ANY_TABLE |= {"pos": ("position",)}  # "Pos.": "their lowest position"
_STANDINGS["pos"] = _ANY_TABLE["pos"]
# A player's statistics, season by season (GP beside PPG, MPG…): "how many games did he play for boston" adds up GP
_PLAYER_STATS = {
    "gp": ("games", "games played", "played"),
    "gs": ("games started", "starts"),
    "mpg": ("minutes per game",),
    "ppg": ("points per game",),
    "rpg": ("rebounds per game",),
    "apg": ("assists per game",),
    "spg": ("steals per game",),
    "bpg": ("blocks per game",),
}
_PER_GAME = frozenset(("gs", "mpg", "ppg", "rpg", "apg", "spg", "bpg"))
# A footballer's appearances and goals (Apps, Gls): "how many games did he play", "how many goals did he score"
_APPEARANCES = {"apps": ("appearances", "games", "matches", "caps"), "gls": ("goals",)}


# A medal table's Total (beside Gold, Silver and Bronze) is what "medals" alone counts: "how many medals did
# south korea win", "how many medals total did ranks 10-15 earn"; "bronze medals" is Bronze's, the longer name
_MEDALS = {
    "total": ("medals", "medal", "total medals", "medal count", "medals total"),
    "noc": ("nation", "nations", "country", "countries", "team", "teams"),  # a National Olympic Committee
    **{metal: (f"{metal} medals", f"{metal} medal", f"{metal}s") for metal in ("gold", "silver", "bronze")},
}


# A discography's chart columns by country (US, UK, CAN): "in canada", "the australian chart"
_REGIONS = {
    "us": ("united states", "america", "american", "u.s.", "usa"),
    "uk": ("united kingdom", "britain", "british", "u.k."),
    "can": ("canada", "canadian"),
    "aus": ("australia", "australian"),
    "nz": ("new zealand",),
    "ire": ("ireland", "irish"),
    "irl": ("ireland", "irish"),
    "ger": ("germany", "german"),
    "fra": ("france", "french"),
    "nld": ("netherlands", "dutch"),
    "ned": ("netherlands", "dutch"),
    "swe": ("sweden", "swedish"),
    "nor": ("norway", "norwegian"),
    "fin": ("finland", "finnish"),
    "den": ("denmark", "danish"),
    "swi": ("switzerland", "swiss"),
    "sui": ("switzerland", "swiss"),
    "aut": ("austria", "austrian"),
    "bel": ("belgium", "belgian"),
    "jpn": ("japan", "japanese"),
    "ita": ("italy", "italian"),
    "esp": ("spain", "spanish"),
}

_OUTCOMES_SPELT = {"wins": ("won", "win"), "losses": ("lost", "lose"), "draws": ("drawn", "drew"), "ties": ("tied",)}
# Won and Lost as a coach's or a club's record (beside "Win %"): "the most wins" counts the games Won
_OUTCOMES_PAST = {"won": ("wins", "win"), "lost": ("losses", "loss"), "drawn": ("draws", "draw"), "tied": ("ties",)}


# A column of changes ("+/–", "Change (%)", "Swing"): what "lost the most seats", "how many parties gained seats"
# read, for the planner and verify alike
CHANGE_COLUMN = re.compile(
    r"(?i)(?<![a-z])(?:change|chg|swing|growth|gain|gains|difference|diff|net)(?![a-z])|[±Δ]|^\s*\+\s*/\s*[-–−]\s*$"
)
# "lost the most seats", "gained the most votes": a change ranked, the largest fall or rise first
CHANGE_RANKED = re.compile(
    r"(?<![a-z])(?P<verb>(?P<down>lost|lose|loses|losing|dropped|fell|declined|decreased)|"
    r"(?P<up>gained|gain|gains|gaining|increased|grew|rose))\s+(?:the\s+)?(?:most|biggest|largest|greatest)\s+"
    r"(?:number\s+of\s+)?",
    re.IGNORECASE,
)

# "the largest percentage decrease in population", "the biggest increase in passengers": the change ranked, of the
# column named after it
CHANGE_NOUN_RANKED = re.compile(
    r"(?<![a-z])(?:largest|biggest|greatest|highest|most)\s+(?:percentage\s+|percent\s+|%\s+)?"
    r"(?P<verb>(?P<down>decrease|drop|decline|fall|loss)|(?P<up>increase|growth|rise|gain))"
    r"(?:\s+(?:in|of)\s+(?:the\s+)?(?:number\s+of\s+)?)?",
    re.IGNORECASE,
)


def spoken_names(names: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """{column: the words people say for it} for the short headers of league, player and medal tables (the
    tables above), by the headers the table has together: one reading for the planner and for verify."""
    keys = {name: plain(name).strip(" .") for name in names}
    held = set(keys.values())
    words = _STANDINGS if {"w", "l"} <= held else _ANY_TABLE
    if "gp" in held and held & _PER_GAME and not {"w", "l"} <= held:
        words = {**words, **_PLAYER_STATS}
    if {"wins", "losses"} <= held:  # "how many teams won more than 5 games", spelt out
        words = {**words, **_OUTCOMES_SPELT}
    if len(held & set(_REGIONS)) >= 2:  # "in canada" over a discography's US, UK, CAN
        words = {**words, **_REGIONS}
    if {"won", "lost"} <= held:
        words = {**words, **_OUTCOMES_PAST}
    if "apps" in held:
        words = {**words, **_APPEARANCES}
    if {"gold", "silver", "bronze", "total"} <= held:
        words = {**words, **_MEDALS}
    return {name: words[key] for name, key in keys.items() if key in words}
