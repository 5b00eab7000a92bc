"""Question -> Plan: which columns are measures, groups, filters and conditions, and what to compute.

Deterministic and schema-driven: every column, value and period comes from the profile the tools
returned; the question's words only choose among them. What cannot be mapped is reported, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification
from apps.agent.messages import language_of
from apps.agent.offline import against_row, lookup, position
from apps.agent.offline import lexicon as lx
from apps.agent.offline.ambiguity import Readings, ask_sold, read
from apps.agent.offline.conditions import ask_about_conditions, ask_about_left_out
from apps.agent.offline.cues import (
    EDGE_WORDS,
    ONE_PERIOD,
    PLACE_VERB,
    SCALE_WORDS,
    Cues,
    Threshold,
    change_columns,
    find_words,
    read_cues,
)
from apps.agent.offline.kinds import period_change, spread, to_date
from apps.agent.offline.leftovers import leftover_spans, leftover_words
from apps.agent.offline.metrics import MetricBuilder
from apps.agent.offline.plan import Group, Lang, Metric, Plan
from apps.agent.offline.rankings import (
    ASKS_FOR_A_VALUE,
    ONE_ROW_EACH,
    ask_about_breakdown,
    ask_about_ranking,
    ask_about_single_row,
    ask_for_the_value,
)
from apps.agent.offline.schema_terms import (
    CONCEPT,
    ColumnView,
    Schema,
    Term,
    find_terms,
    fold,
    name_words,
    schema_of,
)
from apps.agent.offline.timewords import (
    MONTH_ALONE,
    MONTH_NAME,
    MONTHS_EN,
    TimeFilter,
    default_grain,
    find_grain,
    find_time_filters,
    merge_years,
    month_number,
)
from apps.agent.offline.wording import speaking
from apps.datasets.ingest.profile import TableProfile
from apps.datasets.query.resolve import CHANGE_COLUMN, CHANGE_NOUN_RANKED, CHANGE_RANKED, adds_up_what_follows
from apps.datasets.query.spec import Filter

_HOW_MANY_UNITS = re.compile(r"(?:几|多少)\s*([件杯单份瓶箱台张次个])")
_SOLD = r"(?:卖|售|销售)(?:了|出|掉)?(?:去)?了?\s*"  # 卖了, 卖出去, 售出, 销售了
_SOLD_BEFORE = re.compile(_SOLD + "$")
_HEAD_NOUN = re.compile(
    r"(?:哪|每|各|前\s*[\d一二三四五六七八九十]+)\s*一?\s*(?:家|个|间|所|座|位)?\s*([\u4e00-\u9fff])"
)
_PER_UNIT = re.compile(r"每\s*([杯件份瓶箱台])(?![数量])")
# "卖了多少" said without a unit, 钱 or a classifier: by the money taken or by the units sold
_SOLD_HOW_MUCH = re.compile(_SOLD + r"(?:多少|几)(?!\s*(?:块|钱|[件杯单份瓶箱台张次个]))")
_HOW_MUCH_MONEY = re.compile(r"(?:多少|几)\s*(?:块)?钱|how much money")
# "how long did it take ryosuke irie to finish": the time the row took, in the column of times
_HOW_LONG_TOOK = re.compile(r"(?<![a-z])how (?:long|much time) did it take(?: (?:him|her|them))?(?![a-z])")
_TOOK_TO = re.compile(r"\s+to\s+(?:finish|complete|run|swim|win)(?![a-z])")
_TIME_NAME = re.compile(r"(?<![a-z])(?:time|duration)(?![a-z])|\((?:s|sec|secs|seconds|min|mins|minutes)\)\s*$", re.I)
_N_PIECES = re.compile(r"(?<![\d.])(\d{1,4})\s*件(?!以上|以下|及以上|及以下|或以上|或以下|数)")
_PRESENT = re.compile(r"有\s*([^\s，,。？?的]{1,8}?)\s*的?\s*(?:记录|订单|数据|行|明细)?\s*(?:里|中|当中|之中)")
_YEAR_ALONE = re.compile(r"(?<![\d.:/-])(?:18|19|20)\d{2}(?![\d:/-]|\s*(?:m|km|metres|meters)\b)")
_MONTH_NAME_IN = re.compile(rf"(?<![a-z])(?:{MONTH_NAME})(?![a-z])", re.IGNORECASE)
_DAY_OR_YEAR = re.compile(r"\s*,?\s*\d")  # "in november 5", "in november, 2007": more than a month
_RANGE_WORD = re.compile(
    r"(?:after|before|since|until|till|through|from|between|and|to|later than|earlier than)\s+"
    r"(?:the\s+)?(?:year\s+)?$|[-–]\s*$"
)
_SHORT_YEAR = re.compile(r"(?<![\d年.])(\d{2})\s*年(?![龄级])")


_OTHER = re.compile(r"(?<![a-z])(?:other|another|else)(?![a-z])")
# "2006 and what other year …", "a and b both had what career": a value asked for after the question's start
_WH_LATER = re.compile(r"(?<![a-z])(?:and|both|had|was|were|is|are)\s+(?:who|what|which|when|where)(?![a-z])")


_RANKED_BY = re.compile(r"(?<![a-z])(?:best|worst|highest|lowest|top|most|least|fewest|largest|biggest|smallest)\s+$")
# "how many races did he win", "how many games did they lose": the outcome's own column of numbers (Wins, L)
_OUTCOME_VERB = re.compile(
    r"^\s*how many\s+(?P<noun>[a-z][a-z' \-]*?)\s+(?:did|do|does|have|has|had)\s+(?:[a-z'\-]+\s+){0,6}?"
    r"(?P<verb>win|won|lose|lost|draw|drew|drawn|play|played)(?![a-z])"
)
_SCALE_AFTER_NUMBER = re.compile(r"\d\s*$")
_AGE_EDGE = re.compile(r"(?<![a-z])(?:oldest|newest)(?![a-z])")
_PLAIN_NOUN = re.compile(r"[a-z]+s(?![a-z])")  # "goals", "games", "matches": what a verb's column counts
_SUPERLATIVE_AFTER_VERB = re.compile(r"\s+(?:the\s+)?(?:most|fewest|least|more|fewer)\s+")
_CONTESTS = re.compile(
    r"(?:total\s+)?(?:games|matches|races|fights|bouts|contests|events|rounds|heats|duels|battles|times|grands prix)"
)
_WON = ("wins", "won", "w", "victories")
_LOST = ("losses", "lost", "l", "defeats")
_DRAWN = ("draws", "drawn", "d")
_OUTCOME_COLUMNS = {"win": _WON, "won": _WON, "lose": _LOST, "lost": _LOST, "draw": _DRAWN, "drew": _DRAWN}
_OUTCOME_COLUMNS["drawn"] = _DRAWN
_PLAYED = ("gp", "pld", "games played", "played", "matches played", "mp", "apps", "appearances")
_OUTCOME_COLUMNS |= {"play": _PLAYED, "played": _PLAYED}  # "how many games did he play in the whl": GP added up
# verbs that name a column of their own in the tables spoken_names knows: "lost the most games" (L, Lost), "scored
# the most goals" (GF), "conceded the fewest goals" (GA)
_VERB_COLUMNS = frozenset((*_OUTCOME_COLUMNS, "scored", "conceded", "allowed"))


def _year_of(value: object) -> int | None:
    text = str(value or "")
    return int(text[:4]) if text[:4].isdigit() else None


_QUANTITY_NAME = re.compile(r"数量|件数|(?i:quantity|qty|units)")
_UNIT_COUNT = re.compile(r"^[杯件份瓶箱台]数$|销量|(?i:units sold|sold)")
_COMPARED = re.compile(r"(超过|大于|多于|少于|小于|不足|低于|高于|至少|最多|不到|>|<|≥|≤)\s*$")
_MEASURE_GROUP_MARKERS = ("各个", "各", "每个", "每一个", "each", "for each", "across")


def _claim(taken: bytearray, start: int, end: int) -> None:
    taken[start:end] = b"\x01" * (end - start)


class Analyzer:
    """Reads one question against one schema; `plan()` returns what to compute."""

    def __init__(
        self,
        question: str,
        profile: TableProfile,
        lang: Lang | None = None,
        synonyms: Mapping[str, Sequence[str]] | None = None,
        ordered: bool = False,
    ) -> None:
        self.schema: Schema = schema_of(profile, synonyms)
        self.ordered = ordered  # an uploaded file's rows, in the file's order (the engine's ROW_POSITION)
        self.sold_asked: Clarification | None = None
        # a column of a family of one per year ("Pop 2000", "Pop 2010") named without a year: where, and the family
        self.year_unsaid: tuple[int, int, list[str]] | None = None
        self.ungrouped: list[Term] = []  # columns a count question names without asking for a breakdown
        self.one_period = False  # "in a single season": the period is the unit an extreme is taken over
        question = self._full_years(question)
        self.question, self.text = question, fold(question)
        self.lang: Lang = lang or language_of(question)
        self.profile = profile
        reserved = [w for names, _n, _d in lx.RATE_CONCEPTS for w in names] + list(lx.IDIOMS)
        rates = find_words(self.text, reserved, bytearray(len(self.text)))
        mentions = find_terms(question, self.schema)
        terms = [t for t in mentions if not any(s < t.end and t.start < e for s, e, _w in rates)]
        # "in total" names the sum, not the summary row that happens to be labelled "Total"
        terms = [t for t in terms if t.kind != "value" or self.schema.by_name[t.column].total_label != t.value]
        terms = [t for t in terms if not self._aggregate_word(t, terms) and not _SHARE_OF.match(self.text, t.end)]
        added = self._implied_terms(terms)
        self.outcome_note = ""  # "how many races did he win" read on Wins, said under the answer
        terms = self._outcome_counted(terms)
        # a ranking read with its words before the cues ("lost the most seats", "the oldest stadium"): where, and
        # whether the smallest comes first
        self.ranked_here: tuple[int, int, bool] | None = None
        self.change_unread = ""  # … said where the table has no one column of changes: refused
        terms = self._changes_ranked(terms)
        terms = self._period_of_a_row(terms) + self._age_ranked(terms)
        # "more than 6.5 million viewers": "million" is the number's scale (the threshold reads it), not the
        # column Viewers (millions) named a second time
        terms = [
            t
            for t in terms
            if self.text[t.start : t.end] not in SCALE_WORDS or not _SCALE_AFTER_NUMBER.search(self.text, 0, t.start)
        ]
        terms, self.present = self._presence(sorted(self._without_modifiers(terms) + added, key=lambda t: t.start))
        self.readings: Readings = read(question, self.text, self.schema, terms, self.lang)
        self.terms = self.readings.terms
        self.taken = bytearray(len(self.text))
        # "which swimmer …", "name a racer …": the column of people, places or titles a lookup lists (lookup.py)
        self.kind_head = lookup.kind_head(self.text, self.schema, self.terms) if self.lang == "en" else None
        spans = [(t.start, t.end) for t in [*self.terms, *([self.kind_head] if self.kind_head else [])]]
        self.unread_pronouns: list[str] = []  # "he" over a table of players: which one is not said
        if self.lang == "en":  # "the name of …", "a-sharp produced what track", "her first role": links, no condition
            spans += lookup.linking_words(self.text, self.schema, self.terms, self.kind_head)
            pronouns, self.unread_pronouns = lookup.subject_pronouns(self.text, self.schema, self.terms)
            spans += pronouns
        spans += [s for s in [self.readings.basis_span] if s] + self.modifiers + self.implied_spans
        spans += [(s, e) for s, e, w in rates if w in lx.IDIOMS]  # "account for" is read: it is not 账号
        spans += self._year_named_columns()
        spans += [self.ranked_here[:2]] if self.ranked_here else []  # "the largest percentage decrease in …"
        for start, end in spans:
            _claim(self.taken, start, end)
        self.time_col = self.schema.time_column([t.column for t in self.terms if t.kind == "column"])
        self.time_col = self.time_col or self._event_years()
        found = find_time_filters(self.text, self.time_col)
        if self.time_col is not None:  # "一季度" names a value of the 季度 column; "before the year 2000" its name
            period = self.time_col.period
            inside = [
                t
                for t in self.terms
                if t.column == self.time_col.name
                and (period or t.kind == "column")
                and any(f.start <= t.start and t.end <= f.end for f in found)
            ]
            self.terms = [t for t in self.terms if t not in inside]
            for t in inside:
                self.taken[t.start : t.end] = bytes(t.end - t.start)
        found = [f for f in found if self._free_of_others(f.start, f.end)] + self._years_in_text_dates(found)
        found = [kept for f in found if (kept := self._left_out(f)) is not None]
        for f in found:
            _claim(self.taken, f.start, f.end)
            said = _WHEN_VERB.search(self.text, 0, f.start)  # "released in 2006": when the row happened
            if said is not None and self.lang == "en" and len(self.schema.of("time", "year")) == 1:
                _claim(self.taken, said.start(), said.end("verb"))
        texty = {f.spec["column"] for f in found if f.spec.get("op") == "contains"}
        for t in [t for t in self.terms if t.kind == "column" and t.column in texty]:  # "released" of Release Date
            _claim(self.taken, t.start, t.end)  # is the period's own column, read by the period's filter
            self.terms.remove(t)
        self._event_verbs(found)
        self.named_periods = found  # as the question names them, before several years merge into one filter
        self._others_read(found)
        self.time_filters, self.years = merge_years(found)
        pieces = self._pieces()
        self.row_edge = position.find(self.text, self.taken, self.terms, self.schema) if ordered else None
        if self.row_edge is not None:  # "the first outcome listed": that row, looked up (position.py)
            _claim(self.taken, self.row_edge.start, self.row_edge.end)
            edge_span = range(self.row_edge.start, self.row_edge.end)
            self.terms = [t for t in self.terms if t.kind != "column" or t.start not in edge_span]
        self.cues: Cues = read_cues(question, self.text, self.schema, self.terms, self.taken)
        self.cues.thresholds += pieces + self.present + self._no_result()
        self._rank_as_read()
        self.terms = [
            t
            for t in self.terms
            if not self._unit_of_threshold(t) and not self._inside_threshold(t) and not self._verb_of_threshold(t)
        ]
        if any(self.schema.by_name[t.column].place for t in self.cues.thresholds if t.op in ("=", "<=")):
            for m in PLACE_VERB.finditer(self.text):  # "came in 3rd place": the verb of the place read
                if self.taken.find(1, m.start(), m.end()) == -1:
                    _claim(self.taken, m.start(), m.end())
        timed = self.time_col.name if self.time_col is not None else None
        own = tuple((t.start, t.end) for t in self.terms if t.column == timed)  # "in a year" holds "year"
        self.grain, self.trend = find_grain(self.text, self.taken, own)
        self._one_period()

    def _out_of_reach(self) -> Plan | None:
        """The refusal of an analysis no tool does (a test, a forecast, the rows' order, two columns of one row
        compared), or the comparison with a named row that against_row.py reads; None for any other question."""
        if self.cues.unsupported:
            return self._unsupported(*self.cues.unsupported)
        combined = self._columns_combined()
        if combined is not None:  # "below their reorder level", "stock times unit cost": row by row, no tool does
            return self.fallback([combined], "unsupported", "column_compare")
        return None

    def _columns_combined(self) -> str | None:
        """The words comparing a column with another column of the same row ("stock below their reorder level",
        "库存低于安全库存") or multiplying them ("stock times unit cost"), as the question wrote them; None when the
        question does neither. Filters compare a column with a value, and aggregations add up one column."""
        valued = _STOCK_VALUE.search(self.text)  # "inventory value": stock times unit cost, row by row
        if valued is not None and self.schema.concept_column("stock") is not None:
            held = [v for v in self.schema.of("measure") if _VALUE_NAME.search(fold(v.name))]
            if not held:
                return self.question[valued.start() : valued.end()]
        measures = [t for t in self.terms if t.kind == "column" and self.view(t).category == "measure"]
        for t in measures:
            before = _COMPARED_WITH.search(self.text, 0, t.start)
            if before is not None and any(u.end <= before.start() for u in measures if u.column != t.column):
                return self.question[before.start() : t.end]
            counted = self.cues.counting or self.cues.share or self.cues.rate  # "how many" / "what % of SKUs are"
            if before is not None and counted and not _DIGIT.search(self.text[t.end : t.end + 12]):
                return self.question[before.start() : t.end]  # "how many SKUs are below their reorder level"
        return None

    def _others_read(self, periods: list[TimeFilter]) -> None:
        """ "who else … besides X", "2006 and what other year": with a value or period left out, "other" and
        "else" say the rows are the rest (read); without one, they stay unread and the question is asked about."""
        if any(t.kind == "value" and lookup.left_out(self.text, t) for t in self.terms) or any(
            f.spec.get("op") == "!=" for f in periods
        ):
            for m in _OTHER.finditer(self.text):
                _claim(self.taken, m.start(), m.end())

    def _left_out(self, f: TimeFilter) -> TimeFilter | None:
        """ "excluding 2022", "除了2024年": the period left out (≠); a range or a list left out is no one filter here,
        so it stays unread and is asked about (None)."""
        before = _PERIOD_LEAD.sub("", self.text[max(0, f.start - 20) : f.start].rstrip()).rstrip()
        if not any(before.endswith(w) for w in lx.VALUE_NEGATIONS) and not lookup.and_who_else(self.text, f.end):
            return f  # "2006 and what other year …" leaves 2006 out
        if f.spec.get("op") != "=":
            return None
        return replace(f, spec={**f.spec, "op": "!="})

    @property
    def period_asked(self) -> bool:
        """ "哪个渠道哪个月的销售额最高": the period is asked for like the channel, so every pair is ranked together
        (not the best channel of each month)."""
        return _WHICH_PERIOD.search(self.text) is not None

    def _one_period(self) -> None:
        """ "单月最高销售额", "the most sales in a single day" over dated rows: each period's total, the best one,
        never the largest single row. Over a Season or Year column ("the most losses in a single season", where
        rows are teams' seasons) each period's largest value, the best one; "which team … in a single season"
        ranks every team's season together, not the best of each season."""
        one = ONE_PERIOD.search(self.text)
        if one is None or not self.grain or self.time_col is None:
            return
        self.one_period = True
        extremes = [w for w in self.cues.agg_words if w[2] in ("max", "min")]
        if extremes and not self.cues.ranking:
            if self.time_col.category == "time" or self.time_col.period:  # dated rows (2025-01): the period's total
                self.cues.agg_words = [w for w in self.cues.agg_words if w not in extremes]
            self.cues.ranking, self.cues.ascending = True, extremes[0][2] == "min"

    def _outcome_counted(self, terms: list[Term]) -> list[Term]:
        """ "how many races did he win in his career" over a table of seasons with a Wins column: the wins added
        up, not the races; the counted noun (a column of numbers itself) only says what was won."""
        m = _OUTCOME_VERB.match(self.text) if self.lang == "en" else None
        if m is None:
            return terms
        names = _OUTCOME_COLUMNS[m.group("verb")]
        columns = [v for v in self.schema.of("measure") if fold(v.name).strip(" .") in names]
        verb = [t for t in terms if t.start < m.end("verb") and m.start("verb") < t.end]
        if verb and not (
            _CONTESTS.fullmatch(m.group("noun")) and [t.column for t in verb] == [c.name for c in columns]
        ):
            return terms  # the verb names another column; or W named by "win" counts no games said
        terms = [t for t in terms if t not in verb]
        counted = [t for t in terms if t.kind == "column" and m.start("noun") <= t.start < m.end("noun")]
        if len(columns) != 1 or any(self.schema.by_name[t.column].category != "measure" for t in counted):
            return terms  # "how many teams won …": the teams are counted
        if not counted and not _CONTESTS.fullmatch(m.group("noun")):
            return terms  # "how many championships did the team win": a title, not a game the Wins column counts
        with speaking(self.lang):
            self.outcome_note = _("Read “%(noun)s … %(verb)s” as %(column)s.") % {
                "noun": self.question[m.start("noun") : m.end("noun")],
                "verb": self.question[m.start("verb") : m.end("verb")],
                "column": columns[0].name,
            }
        # the rows counted, as won: first, with the noun's own column (Races) shown beside it
        read = Term(columns[0].name, "column", m.start("noun"), m.start("noun"), 2.0)
        return sorted([*terms, read], key=lambda t: (t.start, t.end))

    def _age_ranked(self, terms: list[Term]) -> list[Term]:
        """ "what is the oldest stadium", "the newest building": ranked by the data's one column of the years its
        rows began (Opened, Built, Founded), the earliest first for the oldest; as if the column were named."""
        m = _AGE_EDGE.search(self.text) if self.lang == "en" and self.ranked_here is None else None
        years = [v for v in self.schema.views if v.years]
        if m is None or len(years) != 1 or any(t.kind == "column" and self.view(t).years for t in terms):
            return []
        if self.schema.of("time", "year") or self.schema.concept_column("age"):
            return []  # a date or an Age column says how old, not this one
        self.ranked_here = (m.start(), m.end(), m.group(0) == "oldest")
        return [Term(years[0].name, "column", m.end(), m.end(), 2.0)]

    def _event_years(self) -> ColumnView | None:
        """ "how many stadiums opened after 2000", "who was elected before 1990": the one column of years an event
        happened in (Opened, First elected), named in the question, is its time column when the data has none."""
        named = {t.column for t in self.terms if t.kind == "column" and self.schema.by_name[t.column].years}
        return replace(self.schema.by_name[named.pop()], category="year") if len(named) == 1 else None

    def _event_verbs(self, found: list[TimeFilter]) -> None:
        """The event's own word right before its period ("opened" of "opened after 2000") is read by the filter."""
        if self.time_col is None or not self.schema.by_name[self.time_col.name].years:
            return
        for t in [t for t in self.terms if t.kind == "column" and t.column == self.time_col.name]:
            if any(0 <= f.start - t.end <= 1 for f in found):
                _claim(self.taken, t.start, t.end)
                self.terms.remove(t)

    def _period_of_a_row(self, terms: list[Term]) -> list[Term]:
        """ "who scored the most goals in a single season" over a table of one row per season: the season is the
        row, so the extreme is one row's, not each season's total; the words are read (kept as a modifier)."""
        one = ONE_PERIOD.search(self.text) if self.lang == "en" else None
        if one is None or not self.schema.row_count:
            return terms
        inside = [t for t in terms if t.kind == "column" and one.start() <= t.start and t.end <= one.end()]
        views = [self.schema.by_name[t.column] for t in inside]
        if len(inside) != 1 or views[0].category in ("measure", "time", "year"):
            return terms  # over a Year column each year's best is ranked, and said with its year (_one_period)
        present = self.schema.row_count * (1 - views[0].null_ratio)
        if views[0].distinct < ONE_ROW_EACH * present:
            return terms  # many rows a season: each season's total is what is ranked (_one_period)
        self.implied_spans.append((one.start(), one.end()))
        return [t for t in terms if t is not inside[0]]

    def _change_noun_ranked(self, terms: list[Term]) -> list[Term] | None:
        """ "which town had the largest percentage decrease in population": ranked by the table's one column of
        changes, the largest fall first for a decrease; the column named after it (Population) is what changed.
        None when no such words are said or the table has no one column of changes as numbers."""
        m = CHANGE_NOUN_RANKED.search(self.text)
        changes = self._one_change_column()
        if m is None or changes is None:
            return None
        if any(t.kind == "column" and t.column == changes.name and t.start < m.start() for t in terms):
            return None  # "the change (%) … largest increase": the column itself is named, and read as it is
        terms = [t for t in terms if not m.start() <= t.start < m.end()]  # "percentage" of Change (%): read here
        said = next((t for t in terms if t.kind == "column" and t.start == m.end()), None)
        self.ranked_here = (m.start(), said.end if said else m.end(), bool(m.group("down")))
        read = Term(changes.name, "column", m.end("verb"), m.end("verb"), 2.0)
        return sorted([*(t for t in terms if t is not said), read], key=lambda t: (t.start, t.end))

    def _one_change_column(self) -> ColumnView | None:
        """The table's one column of changes, when it is one and holds numbers ("+/–", "Change (%)")."""
        columns = change_columns(self.schema)
        return columns[0] if len(columns) == 1 and columns[0].category == "measure" else None

    def _rank_as_read(self) -> None:
        """The ranking read with its words (`_changes_ranked`, `_age_ranked`), its words claimed; or the refusal
        when the table has no one column of changes."""
        if self.ranked_here is not None:
            start, end, down = self.ranked_here
            self.cues.ranking, self.cues.ascending = True, down
            _claim(self.taken, start, end)
        elif self.change_unread and self.cues.unsupported is None:
            self.cues.unsupported = ("change", self.change_unread)

    def _changes_ranked(self, terms: list[Term]) -> list[Term]:
        """ "which party lost the most seats", "who gained the most votes": ranked by the table's one column of
        changes ("+/–"), the largest fall first for a loss; never by the amount held (Seats). Without one such
        column of numbers the question is refused."""
        if self.lang != "en":
            return terms
        noun = self._change_noun_ranked(terms)
        if noun is not None:
            return noun
        for m in CHANGE_RANKED.finditer(self.text):
            said = next((t for t in terms if t.kind == "column" and t.start == m.end()), None)
            if said is None or self.schema.by_name[said.column].category != "measure":
                continue
            if any(t.kind == "column" and t.start < m.end("verb") and m.start() < t.end for t in terms):
                return terms  # "which coach lost the most games": the verb names its own column (Lost)
            if CHANGE_COLUMN.search(said.column):
                return terms  # "gained the most net seats": the column of changes named itself
            changes = self._one_change_column()
            if changes is None:
                self.change_unread = self.question[m.start() : said.end]
                return terms
            self.ranked_here = (m.start(), m.end(), bool(m.group("down")))
            read = replace(said, column=changes.name)
            return [read if t is said else t for t in terms]
        return terms

    def _verb_of_threshold(self, term: Term) -> bool:
        """ "scored at least 6 points": a word for a column (score: Rating) said as the verb of a threshold on
        another column, named by its own name; read with the threshold."""
        if term.kind != "column" or term.strength > CONCEPT:
            return False
        return any(t.column != term.column and 0 <= t.start - term.end <= 2 for t in self.cues.thresholds)

    def _inside_threshold(self, term: Term) -> bool:
        """ "out of stock" holds the Stock column's name: the threshold reads it, no term of its own."""
        return any(
            t.column == term.column and t.start <= term.start and term.end <= t.end for t in self.cues.thresholds
        )

    def _unit_of_threshold(self, term: Term) -> bool:
        """ "how many teams won at least 4 matches": the column word after a threshold's number is what the number
        counts when the threshold's own column is named right before it (Won), not a condition of its own; read
        with the threshold."""
        if self.lang != "en" or term.kind != "column":
            return False
        for t in self.cues.thresholds:
            if t.column == term.column or not 0 <= term.start - t.end <= 1 or self.text[t.end : term.start].strip():
                continue
            if any(u.column == t.column and 0 <= t.start - u.end <= 1 for u in self.terms if u.kind == "column"):
                _claim(self.taken, term.start, term.end)
                return True
        return False

    def _presence(self, terms: list[Term]) -> tuple[list[Term], list[Threshold]]:
        """ "有退货的记录里": the rows where the measure named is present (above zero), a scope and not a measure."""
        found: list[Threshold] = []
        for m in _PRESENT.finditer(self.text):
            inside = [t for t in terms if t.kind == "column" and m.start(1) <= t.start and t.end <= m.end(1)]
            measures = [t for t in inside if self.schema.by_name[t.column].category == "measure"]
            if not measures or len(inside) != len(measures):
                continue
            found.append(Threshold(measures[0].column, ">", 0, "0", m.start(), m.end()))
            terms = [t for t in terms if t not in inside]
            self.modifiers.append((m.start(), m.end()))
        return terms, found

    def _full_years(self, question: str) -> str:
        """ "25年三季度", "24年": a two-digit year is written out in full when the data covers that year."""
        times = self.schema.of("time")
        lo, hi = (_year_of(times[0].lo), _year_of(times[0].hi)) if times else (None, None)
        if lo is None or hi is None:
            return question

        def full(m: re.Match[str]) -> str:
            year = 2000 + int(m.group(1))
            return f"{year}年" if lo <= year <= hi else m.group(0)

        return _SHORT_YEAR.sub(full, question)

    def _quantity(self) -> ColumnView | None:
        """The data's one quantity column (数量, units), if it has exactly one."""
        found = [v for v in self.schema.of("measure") if _QUANTITY_NAME.search(v.name)]
        return found[0] if len(found) == 1 else None

    def _implied_terms(self, terms: list[Term]) -> list[Term]:
        """Columns the question names without their names: by a unit ("平均每单买几件", "一共卖了多少杯": 数量, 杯数),
        per a unit ("每杯": 杯数), by a head noun ("哪家店": 门店), by "卖得最好" (the one measure of what is sold)
        and by "多少钱" (the sales)."""
        named = {t.column for t in terms if t.kind == "column"}
        found = []
        self.implied_spans: list[tuple[int, int]] = []  # words read with an implied column, naming nothing else
        for m in _HOW_MANY_UNITS.finditer(self.text):
            unit = m.group(1)
            counted = [v for v in self.schema.of("measure") if re.search(unit + "[数量]", v.name)]
            sold = unit == "个" and _SOLD_BEFORE.search(self.text, 0, m.start()) is not None  # "卖了多少个"
            column = counted[0] if len(counted) == 1 else self._quantity() if unit == "件" or sold else None
            if column is not None and column.name not in named:
                found.append(Term(column.name, "column", m.start(), m.end(), 2.0))
        for m in _PER_UNIT.finditer(self.text):  # "每杯平均卖多少钱": per 杯数 (a denominator, kinds/measure_ratio)
            counted = [v for v in self.schema.of("measure") if re.fullmatch(m.group(1) + "[数量]", v.name)]
            if len(counted) == 1 and counted[0].name not in named:
                found.append(Term(counted[0].name, "column", m.start(1), m.end(1), 2.0))
        taken = [(t.start, t.end) for t in terms]
        for m in _HEAD_NOUN.finditer(self.text):  # "哪家店", "前5家店": 店 is the 门店 column
            heads = [v for v in self.schema.of("dimension", "id") if len(v.name) > 1 and v.name.endswith(m.group(1))]
            free = all(e <= m.start(1) or m.end(1) <= s for s, e in taken)
            if len(heads) == 1 and free and heads[0].name not in named:
                found.append(Term(heads[0].name, "column", m.start(1), m.end(1), 2.0))
        found += self._degree_terms(named)
        measures = [t for t in [*terms, *found] if self.schema.by_name[t.column].category == "measure"]
        sold = find_words(self.text, lx.SOLD_WELL, bytearray(len(self.text)))
        sold += [(m.start(), m.end(), m.group(0)) for m in _SOLD_HOW_MUCH.finditer(self.text)]  # "每个月卖了多少"
        if sold and not measures:  # "哪天卖得最好": by the money taken or by the units sold
            start, end, _word = sold[0]
            columns = [v for v in [self._money(), *self._units()] if v is not None]
            if len(columns) == 1:
                found.append(Term(columns[0].name, "column", start, end, 2.0))
            elif columns:
                self.sold_asked = ask_sold(self.question, start, end, [v.name for v in columns], self.lang)
        found += self._time_taken(named)
        money = self._money()
        for m in _HOW_MUCH_MONEY.finditer(self.text):  # "一共卖了多少钱", "实际收了多少钱": the sales
            if money is not None and money.name not in named:
                found.append(Term(money.name, "column", m.start(), m.end(), 2.0))
        return found

    def _no_result(self) -> list[Threshold]:
        """ "who was the only competitor to not finish", "how many swimmers did not swim": the rows whose result
        the file marked so ("DNF", "DNS"), blank since ingest, in the one column whose only marks are those."""
        found = []
        for marks, said in _NO_RESULT:
            m = said.search(self.text)
            if m is None or self.taken.find(1, m.start(), m.end()) != -1:
                continue
            columns = [
                c.name
                for c in self.profile.columns
                if c.blank_marks and {x.casefold() for x in c.blank_marks} <= marks and c.name in self.schema.by_name
            ]
            if len(columns) != 1:
                continue
            mark = next(x for x in self.profile.column(columns[0]).blank_marks)  # type: ignore[union-attr]
            found.append(Threshold(columns[0], "is_null", True, f"“{mark}”", m.start(), m.end()))
            _claim(self.taken, m.start(), m.end())
        return found

    def _time_taken(self, named: set[str]) -> list[Term]:
        """ "how long did it take ryosuke irie to finish": the data's one column of times, for the row named."""
        took = _HOW_LONG_TOOK.search(self.text)
        times = [v for v in self.schema.of("measure") if _TIME_NAME.search(v.name)]
        if took is None or len(times) != 1 or times[0].name in named:
            return []
        then = _TOOK_TO.search(self.text, took.end())  # "… to finish": what the time is of, no condition
        if then is not None:
            self.implied_spans.append((then.start(), then.end()))
        return [Term(times[0].name, "column", took.start(), took.end(), 2.0)]

    def _degree_terms(self, named: set[str]) -> list[Term]:
        """ "the tallest building", "which is deeper": the one measure whose name says what the degree measures
        (Height (m), Depth), as if named right after the word."""
        found = []
        for m in _DEGREE.finditer(self.text):
            nouns = lx.DEGREE_NOUNS[_DEGREE_STEMS.get(m.group("stem"), m.group("stem"))]
            columns = [v for v in self.schema.of("measure") if any(n in name_words(v.name) for n in nouns)]
            if len(columns) == 1 and columns[0].name not in named:
                found.append(Term(columns[0].name, "column", m.end(), m.end(), 2.0))
        return found

    def _units(self) -> list[ColumnView]:
        """Measures of units sold: a quantity column, or one counted in a unit (杯数, 件数)."""
        return [v for v in self.schema.of("measure") if _QUANTITY_NAME.search(v.name) or _UNIT_COUNT.search(v.name)]

    def _money(self) -> ColumnView | None:
        """The measure "how much money" asks for: the data's one sales column, else its one amount column."""
        amount = {fold(f) for f in lx.CONCEPTS["amount"]}
        for forms in ([fold(f) for f in lx.CONCEPTS["revenue"] if fold(f) not in amount], sorted(amount)):
            found = [v for v in self.schema.of("measure") if any(f in fold(v.name) for f in forms)]
            if len(found) == 1:
                return found[0]
        return None

    def _pieces(self) -> list[Threshold]:
        """ "一次买3件的订单": a number of pieces is a condition on the quantity column (quantity = 3)."""
        quantity = self._quantity()
        found: list[Threshold] = []
        if quantity is None:
            return found
        for m in _N_PIECES.finditer(self.text):
            compared = _COMPARED.search(self.text[max(0, m.start() - 6) : m.start()])
            if self._free(m.start(), m.end()) and not compared:
                _claim(self.taken, m.start(), m.end())
                found.append(Threshold(quantity.name, "=", int(m.group(1)), m.group(1), m.start(), m.end()))
        return found

    def _without_modifiers(self, terms: list[Term]) -> list[Term]:
        """ "销售账号", "sales team": a measure word written right before a label column names that column's kind,
        it is not a measure to compute."""
        columns = [t for t in terms if t.kind == "column"]
        dropped = {
            id(t)
            for t in columns
            if self.schema.by_name[t.column].category == "measure"
            and t.start < t.end  # a measure implied by a degree ("the oldest stadium") is no modifier
            and not EDGE_WORDS.fullmatch(self.text[t.start : t.end])  # "the first party": not First elected's
            and not _RANKED_BY.search(self.text, 0, t.start)  # "his best ranking season": ranked by the measure
            and (
                any(
                    o.start == t.end + (1 if self.text[t.end : t.end + 1] == " " else 0)
                    and self.schema.by_name[o.column].category in ("dimension", "id")
                    for o in columns
                )
                or self.text.startswith(("记录", "数据", "明细"), t.end)  # "多少条销售记录": records, not sales
            )
        }
        self.unit_spans: list[tuple[int, int]] = []
        dropped |= {id(t) for t in self._units_of_outcomes(columns)}
        dropped |= {id(t) for t in self._modifying_measures(columns)}
        self.modifiers = [(t.start, t.end) for t in terms if id(t) in dropped] + self.unit_spans
        return [t for t in terms if id(t) not in dropped]

    def _modifying_measures(self, columns: list[Term]) -> list[Term]:
        """ "the lowest population density": two measures' words side by side name the last one (Density), the
        first only says of what; both are read."""
        if self.lang != "en":
            return []
        measures = [t for t in columns if self.schema.by_name[t.column].category == "measure" and t.start < t.end]
        return [
            t
            for t in measures
            for o in measures
            if o.start == t.end + 1
            and self.text[t.end] == " "
            and o.column != t.column
            and not _SCALE_AFTER_NUMBER.search(self.text, 0, t.start)  # "only 6 caucusing members": Caucusing
        ]

    def _units_of_outcomes(self, columns: list[Term]) -> list[Term]:
        """ "which coach lost the most games", "who won the fewest matches": the column named by the verb (Lost,
        Won) is what is ranked; the noun after the superlative (Games) only says what was lost."""
        if self.lang != "en":
            return []
        units = []
        for verb in columns:
            if self.text[verb.start : verb.end] not in _VERB_COLUMNS:
                continue
            m = _SUPERLATIVE_AFTER_VERB.match(self.text, verb.end)
            if m is None:
                continue
            unit = next((t for t in columns if t.start == m.end() and t is not verb), None)
            if unit is not None and self.schema.by_name[unit.column].category == "measure":
                units.append(unit)
            elif unit is None and (noun := _PLAIN_NOUN.match(self.text, m.end())) is not None:
                self.unit_spans.append(noun.span())  # "scored the most goals" over GF: the goals are GF's
        return units

    def _years_in_text_dates(self, found: list[TimeFilter]) -> list[TimeFilter]:
        """ "how many games were played in 2009" over a text column of dates ("September 5, 2009"), when no date or
        year column can take the year: the rows whose cell holds that year (`contains`). A year after "after",
        "before", "since" or "until" is a range no text match gives; it stays unapplied (and is asked about)."""
        if self.time_col is not None and self.time_col.category in ("time", "year"):
            return []
        dated = [v for v in self.schema.views if v.kind == "text" and _mostly_years(v.values)]
        if len(dated) != 1:
            return []
        added = []
        for m in _YEAR_ALONE.finditer(self.text):
            if any(f.start <= m.start() < f.end for f in found) or self.taken.find(1, m.start(), m.end()) != -1:
                continue
            if _RANGE_WORD.search(self.text, 0, m.start()):
                return []  # "after 2011", "in 1996 and 1997": not one year's rows
            spec = {"column": dated[0].name, "op": "contains", "value": m.group(0)}
            added.append(TimeFilter(spec, m.start(), m.end(), m.group(0)))
        return added if len(added) == 1 else self._months_in_text_dates(found)

    def _months_in_text_dates(self, found: list[TimeFilter]) -> list[TimeFilter]:
        """ "how many albums were released in the month of november" over a text column of dates written with
        month names ("November 26, 1993"), when no date column can take the month: the rows whose cell holds
        that month's name (`contains`), whatever the year. One month, said after in/during/the month of."""
        dated = [v for v in self.schema.views if v.kind == "text" and _mostly_month_names(v.values)]
        said = [
            m
            for m in MONTH_ALONE.finditer(self.text)
            if not any(f.start <= m.start() < f.end for f in found) and not _DAY_OR_YEAR.match(self.text, m.end())
        ]
        if len(dated) != 1 or len(said) != 1 or self.taken.find(1, said[0].start(1), said[0].end(1)) != -1:
            return []
        m = said[0]
        name = MONTHS_EN[month_number(m.group(1)) - 1].capitalize()
        if not any(name.lower() in str(v).lower() for v in dated[0].values):
            return []  # no cell read names that month: asked about, as a month outside a date column's span is
        spec = {"column": dated[0].name, "op": "contains", "value": name}
        return [TimeFilter(spec, m.start(1), m.end(1), name)]

    def _free_of_others(self, start: int, end: int) -> bool:
        """Free of every other mention (the time column's own were set aside: "2025年一季度", "the year 2000")."""
        return all(t.end <= start or end <= t.start for t in self.terms) and self._free(start, end)

    def _free(self, start: int, end: int) -> bool:
        return self.taken.find(1, start, end) == -1

    def view(self, term: Term) -> ColumnView:
        return self.schema.by_name[term.column]

    # --- reading the terms ------------------------------------------------------------------
    def _before(self, term: Term, words: tuple[str, ...], reach: int = 5) -> bool:
        before = lookup.ARTICLES_END.sub("", self.text[max(0, term.start - reach - 4) : term.start].rstrip()).rstrip()[
            -reach:
        ]
        return any(before.endswith(fold(w).strip()) for w in words)

    def grouped_by_marker(self, term: Term) -> bool:
        return self._before(term, lx.GROUP_MARKERS, 10)

    def negated(self, term: Term) -> bool:
        return self._before(term, lx.NEGATIONS, 4)

    def excluded(self, term: Term) -> bool:
        """ "excluding Social", "除了华东", "besides reyna royo": the value is left out, not kept."""
        return lookup.left_out(self.text, term)

    def scoped(self, term: Term) -> bool:
        after = self.text[term.end : term.end + 5]
        return self._before(term, lx.SCOPE_BEFORE, 8) or any(a in after for a in lx.SCOPE_AFTER)

    def threshold_subject(self, term: Term) -> bool:
        """The measure a threshold is on ("a 3 dart average of more than 97"), or in a count question the unit
        right after its number ("how many teams won at least 4 matches"): a condition, not a figure to report."""
        for t in self.cues.thresholds:
            if t.column != term.column and CHANGE_COLUMN.search(t.column):
                continue  # "how many parties lost seats": Seats is what changed, shown beside the count
            gap = self.text[term.end : t.start].strip(" 的是为") if term.end <= t.start else None
            if t.column == term.column and gap in ("", "of", "is", "was", "are", "were"):
                return True
            between = self.text[t.end : term.start] if t.end <= term.start else "-"
            if (self.cues.counting or t.column == term.column) and re.fullmatch(r"(?:st|nd|rd|th)?\s?", between):
                return True  # "at least 20 points", "above 8th position": the column is the threshold's unit
        return False

    def count_word(self, term: Term) -> bool:
        """A measure named like a count word right after another column (各退货原因的数量) counts rows."""
        said = self.question[term.start : term.end]
        before = [t for t in self.terms if t.kind == "column" and t.end <= term.start]
        gap = self.text[before[-1].end : term.start] if before else "-"
        return said in lx.COUNT_SUFFIXES_ZH and gap in ("", "的") and self.cues.counting

    def columns(self, *categories: str) -> list[Term]:
        return [t for t in self.terms if t.kind == "column" and self.view(t).category in categories]

    def value_terms(self) -> dict[str, list[Term]]:
        by_column: dict[str, list[Term]] = {}
        for term in self.terms:
            if term.kind == "value" and all(t.value != term.value for t in by_column.get(term.column, [])):
                by_column.setdefault(term.column, []).append(term)
        return by_column

    # --- groups ---------------------------------------------------------------------------
    def time_grain(self) -> str | None:
        if self.time_col is None:
            return None
        head = self._asked_head() if self.cues.ranking else None
        named = [
            t
            for t in self.terms
            if t.column == self.time_col.name and (self.grouped_by_marker(t) or t == head)  # "which year … the most"
        ]
        if self.time_col.period:  # a text column of months or quarters: grouped by itself, at its own grain
            asked = self.grain == self.time_col.period or (not self.grain and (self.trend or named))
            return self.time_col.period if asked else None
        if self.grain == "day" and self.cues.when:  # "最早的一条订单是哪天": the earliest date, not each day
            return None
        if self.grain:
            return self.grain if self.time_col.category == "time" else "year"
        if period_change.compared(self) or to_date.span(self):  # one figure per period, not a series
            return None
        if self.years:
            return "year"
        if self.cues.change and find_words(self.text, lx.YOY_WORDS, bytearray(len(self.text))):
            return "year"  # "销售额同比增长多少": each year against the one before, not month against month
        change = self.cues.change and not (self.cues.change == "diff" and (self._named_pair() or spread.asked(self)))
        wants_series = self.trend or named or change or self.cues.cumulative
        return default_grain(self.time_col, self.time_filters) if wants_series else None

    def _named_pair(self) -> bool:
        """ "the height difference between meridian tower and harbor one": two values of one column named, so
        the difference is between them (kinds/named_difference.py), not from one period to the next."""
        columns = [t.column for t in self.terms if t.kind == "value" and t.column != getattr(self.time_col, "name", "")]
        return any(columns.count(c) == 2 for c in columns)

    def _both_sides(self) -> list[str]:
        """Yes/no columns the question names both ways ("会员和非会员", "remote and non-remote employees")."""
        flags = self.columns("flag")
        return list(
            dict.fromkeys(
                t.column
                for t in flags
                if not self.negated(t) and any(o.column == t.column and self.negated(o) for o in flags)
            )
        )

    def _year_named_columns(self) -> list[tuple[int, int]]:
        """ "the population in 2010" over Population 2000 and Population 2010: the column whose name holds the
        year said is the one meant. The named column is switched to it; the year's span is returned (read)."""
        read: list[tuple[int, int]] = []
        years = list(_YEAR_IN_NAME.finditer(self.text))
        for i, term in enumerate(self.terms):
            if term.kind != "column":
                continue
            stem = _YEAR_IN_NAME.sub("", fold(term.column)).strip()
            siblings = {
                m.group(0): v.name
                for v in self.schema.views
                for m in [_YEAR_IN_NAME.search(fold(v.name))]
                if m is not None and _YEAR_IN_NAME.sub("", fold(v.name)).strip() == stem
            }
            if len(siblings) < 2:
                continue
            said = [m for m in years if m.group(0) in siblings and m.start() >= term.end]
            said = said or [m for m in years if m.group(0) in siblings]
            if len({m.group(0) for m in said}) == 1:
                self.terms[i] = replace(term, column=siblings[said[0].group(0)])
                read += [(m.start(), m.end()) for m in said]
            elif not said and not _YEAR_IN_NAME.search(self.question[term.start : term.end]):
                self.year_unsaid = (term.start, term.end, sorted(siblings.values()))  # "the pop of bexley"
        return read

    def _aggregate_word(self, term: Term, terms: list[Term]) -> bool:
        """ "the total number of bronze medals" over a table with a Total column: "total" says how Bronze is
        added up; the column is meant only when no other measure follows the word."""
        word = self.question[term.start : term.end]
        return term.kind == "column" and any(
            t.kind == "column"
            and self.schema.by_name[t.column].category == "measure"
            and adds_up_what_follows(word, self.text, term.end, t.start)
            for t in terms
        )

    def _qualified(self, term: Term) -> bool:
        """A column named right after one of its rows' values ("miami heat players", "ohio state players"): the
        noun the value qualifies, not a column to group by."""
        return any(t.kind == "value" and 0 <= term.start - t.end <= 2 for t in self.terms)

    def _asked_head(self) -> Term | None:
        """The column a "which …"/"what …" question asks for ("which engine was used the most by teams")."""
        head = _WH_HEAD.match(self.text)
        if head is None:
            return None
        named = [t for t in self.terms if t.kind == "column" and 0 <= t.start - head.end() <= 1]
        found = next((t for t in named if self.view(t).category in ("dimension", "id", "time", "year")), None)
        return found or next((t for t in named if self._numbered_head(t)), None)

    def _numbered_head(self, term: Term) -> bool:
        """ "what week had the most attendance": a column of whole numbers (Week, Round) asked for by a ranking
        of another measure named after it; each week is ranked, the weeks are not the measure."""
        view = self.view(term)
        later = [t for t in self.columns("measure") if t.start > term.end and t.column != term.column]
        return self.cues.ranking and view.category == "measure" and view.kind == "integer" and bool(later)

    def _condition_on(self, term: Term) -> bool:
        """The column is what a condition is about, not a group: "at least two teams" (the rows counted per
        group), "states that have no qualification" (a blank cell)."""
        if any(t.column == term.column and t.start <= term.start < t.end for t in self.cues.row_counts):
            return True
        return any(t.column == term.column and t.op == "is_null" for t in self.cues.thresholds)

    def group_terms(self, values: dict[str, list[Term]]) -> list[Term]:
        target = self.cues.count_target
        asked = self._asked_head()
        head = asked if self.cues.ranking else None
        chosen: list[Term] = []
        self.ungrouped = []
        for term in self.columns("dimension", "id", "measure"):
            view = self.view(term)
            is_target = target is not None and term.start == target.start and not self.grouped_by_marker(term)
            if view.category == "measure" and term != head and not self._before(term, _MEASURE_GROUP_MARKERS, 8):
                continue
            if view.category == "id" or is_target or len(values.get(term.column, [])) == 1:
                continue
            if self._condition_on(term):
                continue
            if self._before(term, lx.ALL_WORDS, 4):  # "所有账号的目标加起来": all of them together, not each
                continue
            if self._row_noun(term, asked):
                continue  # "the average height of mountains in the karakoram": over those rows, not one each
            if chosen and self.cues.ranking and self._before(term, lx.HIGH_WORDS + lx.LOW_WORDS, 6):
                continue  # "which jurisdiction has the most courthouses": what is counted, not a second group
            if head is not None and term.column != head.column and not self._before(term, _EACH_MARKERS, 10):
                continue  # "which engine was used the most by teams": the engine is asked for, teams are counted
            counted_alone = self.cues.counting and not self.cues.ranking and not self.grouped_by_marker(term)
            if self.lang == "en" and counted_alone and term is not asked:
                # "how many teams share a common kit manufacturer": a column named without "each"/"per"/"by"
                # is not a breakdown; unless it is the noun a value qualifies, which one is meant is asked.
                if not self._qualified(term):
                    self.ungrouped.append(term)
                continue
            if all(t.column != term.column for t in chosen):
                chosen.append(term)
        return chosen + self._value_groups(values, chosen)

    def _value_groups(self, values: dict[str, list[Term]], chosen: list[Term]) -> list[Term]:
        """Several values of one column named: one group each ("华东和华北的销售额"), unless they are taken
        together ("japan and france combined", "the total height of k2 and lhotse": rows, one total)."""
        combined = find_words(self.text, lx.COMBINED_WORDS, bytearray(len(self.text)))
        found = []
        for column, terms in values.items():
            totalled = self._totalled() and self.schema.by_name[column].unique
            if len(terms) > 1 and all(t.column != column for t in chosen) and not (combined or totalled):
                found.append(terms[0])
        return found

    def _totalled(self) -> bool:
        """The question adds up or averages a measure it names ("the average height", "the total height")."""
        measures = any(t.kind == "column" and self.view(t).category == "measure" for t in self.terms)
        return measures and any(f in ("sum", "avg") for _s, _e, f in self.cues.agg_words)

    def _row_noun(self, term: Term, asked: Term | None) -> bool:
        """A column of one value per row named in a total or an average without "each"/"per"/"by" names the rows
        added up ("the average height of mountains"), not a breakdown into one row each."""
        if not self.view(term).unique or self.cues.ranking or term is asked:
            return False
        averaged = any(f == "avg" for _s, _e, f in self.cues.agg_words) or self.cues.share
        if self.grouped_by_marker(term):  # "the average points per season", one row per season: over the rows
            return averaged and not self.cues.counting
        return self._totalled() or self.cues.share  # "what percentage of seasons were in the championship"

    # --- the plan ---------------------------------------------------------------------------
    def plan(self) -> Plan:
        plan = Plan(lang=self.lang)
        refused = self._out_of_reach()
        if refused is not None:
            return refused
        if not self.terms and not self.time_filters and _GREETING.search(self.text):
            return self.fallback([], "greeting")
        asked_first = self._asked_first()
        if asked_first is not None:  # ambiguous: asked back, nothing computed
            return self.clarify(asked_first)
        values = self.value_terms()
        grain = self.time_grain()
        if grain and self.time_col is not None:
            label = lx.GRAIN_LABELS[self.lang][grain]
            taken = label in self.schema.by_name and label != self.time_col.name  # 日期 by day is 日期 itself
            name = f"{label}_{grain}" if taken else label
            if self.time_col.category == "year" or self.time_col.period:
                name = self.time_col.name
            plan.groups.append(Group(self.time_col.name, name, grain if self.time_col.category == "time" else None))
            plan.time_group = name
            if self.time_col.null_ratio > 0:  # a row without a date is in no period ("TBD" read as blank)
                plan.filters.append(Filter(column=self.time_col.name, op="is_null", value=False))
                with speaking(self.lang):
                    plan.filter_labels.append(_("%(column)s is not blank") % {"column": self.time_col.name})
        for column in self._both_sides():  # "会员和非会员的客单价": one group each, not a filter on one side
            plan.groups.append(Group(column, column))
            self.terms = [t for t in self.terms if t.column != column]
        group_terms = [t for t in self.group_terms(values) if all(g.column != t.column for g in plan.groups)]
        plan.groups += [Group(t.column, t.column) for t in group_terms]
        builder = MetricBuilder(self, plan, values, group_terms)
        builder.build()
        if plan.clarification is not None:  # the kind found it cannot be computed as asked
            return self.clarify(plan.clarification)
        instead = self._at_a_place(plan) or self._nothing_named(plan, builder)
        if instead is not None:
            return instead
        builder.finish()
        if self.outcome_note:
            plan.notes.append(self.outcome_note)
        starts = {t.start for t in self.terms if t.kind == "column"}
        missing = [  # a business word written onto a column's name ("销售目标") names that column's kind
            self.question[s:e]
            for s, e in leftover_spans(self.text, self.taken)
            if _business_word(self.question[s:e]) and e not in starts
        ]
        plan.unmapped = list(dict.fromkeys([*plan.unmapped, *missing]))
        asked = (
            plan.clarification  # a sum of positions (MetricBuilder.measure_metric)
            or ask_about_conditions(self, plan)
            or ask_about_left_out(self, plan)
            or ask_about_ranking(self, plan)
            or ask_about_single_row(self, plan)
            or ask_about_breakdown(self, plan)
        )
        if asked is not None:
            return self.clarify(asked)
        return self._placed(plan)

    def _at_a_place(self, plan: Plan) -> Plan | None:
        """ "the first outcome listed": that row's Outcome, looked up (position.py); the refusal instead when a
        word of the question is left unread. None (the plan goes on) for a question naming no place."""
        if self.row_edge is None or plan.row_columns:
            return None
        unmapped = leftover_words(self.text, self.taken, self.question)
        if unmapped:
            return self.fallback(unmapped, "unmapped")
        position.look_up(self, plan, self.row_edge)
        return None

    def _nothing_named(self, plan: Plan, builder: MetricBuilder) -> Plan | None:
        """Nothing to compute or list was named: the default count, or the plan replacing it (`_default_count`)."""
        if plan.metrics or plan.row_columns:
            return None
        return self._default_count(plan, builder)

    def _placed(self, plan: Plan) -> Plan:
        """The plan limited to the row at the place the question names; a place of anything but a lookup (a
        total, a count of rows) is refused."""
        if self.row_edge is None or position.place(plan, self.row_edge):
            return plan
        said = self.question[self.row_edge.start : self.row_edge.end]
        return self.fallback([said], "unsupported", "row_order")

    def _asked_first(self) -> Clarification | None:
        """What the reading found ambiguous before any plan: a word of two readings, of two sold measures, or a
        column of one per year named without the year."""
        if self.readings.asked is not None or self.sold_asked is not None:
            return self.readings.asked or self.sold_asked
        if self.year_unsaid is None:
            return None
        start, end, columns = self.year_unsaid
        with speaking(self.lang):
            asked = _("“%(said)s” is in several columns, one for each year. Which year do you mean?")
        choices = [self.question[:start] + c + self.question[end:] for c in columns]
        return Clarification(asked % {"said": self.question[start:end]}, choices)

    def _unsupported(self, family: str, word: str) -> Plan:
        """What no tool does is refused; a comparison with one named row is answered when it reads unambiguously
        (against_row.py), its conditions checked as any plan's are."""
        neighbour = family == "row_order" and self.ordered  # "the song previous to X": the row before it
        anchored = against_row.read(self) if family == "row_compare" or neighbour else None
        if anchored is None:
            return self.fallback([word], "unsupported", family)
        anchor = anchored.anchor
        if anchor is not None and anchor.nearest:  # "the next prime minister after …"
            for m in _NEXT.finditer(self.text):
                _claim(self.taken, m.start(), m.end())
            for start, end in against_row.order_words(self):  # "what event comes before …": read, no condition
                _claim(self.taken, start, end)
            others = [t for t in self.terms if not (t.kind == "value" and t.column == anchor.column)]
            head = lookup.kind_head(self.text, self.schema, others)  # "what song was previous to hot thing": a song
            if head is not None and head.column == anchor.column:  # of the named one's column, the one listed
                _claim(self.taken, head.start, head.end)
        asked = self.readings.asked or ask_about_conditions(self, anchored) or ask_about_left_out(self, anchored)
        return anchored if asked is None else self.clarify(asked)

    def _default_count(self, plan: Plan, builder: MetricBuilder) -> Plan | None:
        """Nothing to compute was named: count the rows of the groups and conditions that were read, or (None
        returned) the plan that replaces that count. A question asking who, which, when or what, of which only
        conditions were read, is asked back: counting the rows that meet them (with no group to name them)
        would answer "how many" instead ("what year was the first success?")."""
        unmapped = leftover_words(self.text, self.taken, self.question)
        if not unmapped and lookup.read(self, plan, builder):  # "what city is miller park in?": cells, not a count
            return None
        if unmapped or not (plan.groups or builder.filters_pending()):
            return self.fallback(unmapped, "unmapped")
        if (
            self.lang == "en"
            and not self.cues.counting
            and (ASKS_FOR_A_VALUE.match(self.text) or _WH_LATER.search(self.text))
        ):
            # "what was her first role", "the name of the biggest capacity stadium" (Capacity is text), "what was
            # the first party" (the First elected column named): rows counted per group answer none of them
            measures = [t for t in self.terms if t.kind == "column" and self.view(t).category == "measure"]
            if not plan.groups or self.cues.agg_words or measures or self.first_unread(EDGE_WORDS):
                return self.clarify(ask_for_the_value(self, plan))
        builder.count_rows()
        plan.reason = "default_count"
        return None

    def first_unread(self, words: re.Pattern[str]) -> str | None:
        """The first of `words` said outside every span the planner read, as the question wrote it."""
        found = (m for m in words.finditer(self.text) if self.taken.find(1, m.start(), m.end()) == -1)
        return next((self.question[m.start() : m.end()] for m in found), None)

    def clarify(self, asked: Clarification) -> Plan:
        plan = self.fallback([], "clarify")
        plan.clarification = asked
        return plan

    def fallback(self, unmapped: list[str], reason: str, unsupported: str = "") -> Plan:
        name = "行数" if self.lang == "zh" else "row_count"
        plan = Plan(lang=self.lang, kind="fallback", unmapped=unmapped, reason=reason, unsupported=unsupported)
        plan.metrics = [Metric(name=name, func="count")]
        return plan


# "the percentage of candidates who won": a share of rows, not the data's % column
_SHARE_OF = re.compile(r"(?<=percentage)\s+of\s|(?<=percent)\s+of\s")
# "tallest", "deeper", "wider", "heaviest": a degree, by the stem it is written with
# a greeting said as its own word: "hi", never the "hi" of "his" or "hid" (alias patterns allow such endings)
_GREETING = re.compile(r"(?<![a-z])(?:" + "|".join(re.escape(w) for w in lx.GREETINGS) + r")(?![a-z])")
_DEGREE = re.compile(r"(?<![a-z])(?P<stem>tall|deep|shallow|long|light|narrow|wid|heav)(?:iest|ier|est|er)(?![a-z])")
_DEGREE_STEMS = {"wid": "wide", "heav": "heavy"}  # the adjective lexicon.DEGREE_NOUNS knows them by

_YEAR_IN_NAME = re.compile(r"(?<!\d)(?:18|19|20)\d{2}(?!\d)")
# "who …", "which …", "when …", "what year …": a value is asked for, which a count of rows does not give
_WH_HEAD = re.compile(r"^\s*(?:which|what)\s+")  # the column right after it is the one asked for
# The verb of what a row's one date or year records in a list of works ("the only single released in 2006"); not
# one that is a condition of its own ("relegated in 2005"), nor an event the year may not record ("born in 1990"
# over a Year of awards)
_WHEN_VERB = re.compile(
    r"(?<![a-z])(?P<verb>released|aired|published|premiered|launched|issued|broadcast)\s+(?:in|during|on)\s+(?:the\s+)?$"
)
# "excluding the year 2022", "not in 2022": the words between what leaves a period out and the period
_PERIOD_LEAD = re.compile(r"(?:(?<![a-z])(?:the\s+(?:year\s*)?|in))$")
# a comparison or a product written right before a column's name, not a number: "below their reorder level"
_COMPARED_WITH = re.compile(
    r"(?<![a-z])(?:below|above|under|over|exceeds?|exceeding|than|times|"
    r"multiplied\s+by)\s+(?:(?:their|its|his|her|the|own)\s+)*$|(?:低于|高于|超过|少于|多于|大于|小于|乘以)\s*$"
)
_DIGIT = re.compile(r"\d")
_STOCK_VALUE = re.compile(
    r"(?<![a-z])(?:inventory|stock)\s+values?(?![a-z])|(?<![a-z])value\s+of\s+(?:the\s+|our\s+)?(?:inventory|stock)"
    r"|库存(?:价值|总值|货值)|货值"
)
_VALUE_NAME = re.compile(r"(?<![a-z])value(?![a-z])|价值|货值|总值")
_WHICH_PERIOD = re.compile(
    r"哪(?:一)?个?(?:月|天|日|季度|年|周)|(?<![a-z])(?:which|what) (?:day|month|quarter|year|week)(?![a-z])"
)
# a result not reached, as the file marks it ("DNF", "DNS", "DSQ") and as a question says it
_NO_RESULT = (
    (
        {"dnf"},
        re.compile(r"(?<![a-z])(?:(?:did\s+not|didn't|didnt|failed\s+to|not|never)\s+finish(?:ed)?|dnf)(?![a-z])"),
    ),
    (
        {"dns"},
        re.compile(
            r"(?<![a-z])(?:(?:did\s+not|didn't|didnt|not|never)\s+(?:start|swim|race|run|compete)|dns)(?![a-z])"
        ),
    ),
    ({"dsq", "dq"}, re.compile(r"(?<![a-z])(?:disqualified|dsq)(?![a-z])")),
)
_NEXT = re.compile(r"(?<![a-z])(?:next|previous|preceding|following)(?![a-z])")
_EACH_MARKERS = ("each", "per", "for each", "every", "各", "每个", "每")


def _mostly_month_names(values: Sequence[object]) -> bool:
    """Text cells that mostly name a month ("November 26, 1993", "17 December 2007"): dates kept as text."""
    texts = [str(v) for v in values if v is not None]
    return len(texts) >= 3 and sum(1 for t in texts if _MONTH_NAME_IN.search(t)) >= 0.8 * len(texts)


def _mostly_years(values: Sequence[object]) -> bool:
    """Text cells that mostly hold a year ("September 5, 2009", "2009–10"): a column of dates kept as text."""
    texts = [str(v) for v in values if v is not None]
    return len(texts) >= 3 and sum(1 for t in texts if _YEAR_ALONE.search(t)) >= 0.8 * len(texts)


def _business_word(word: str) -> bool:
    """A word that names a business measure or attribute ("profit", "利润") the data does not have."""
    folded = fold(word)
    return any(folded == fold(form) for forms in lx.CONCEPTS.values() for form in forms)


def analyze(
    question: str,
    profile: TableProfile,
    lang: Lang | None = None,
    synonyms: Mapping[str, Sequence[str]] | None = None,
    ordered: bool = False,
) -> Plan:
    """The plan for one question over one table's profile (and the tenant's synonyms, {column: [words]});
    `ordered`: the table is an uploaded file's, whose rows keep the file's order."""
    return Analyzer(question, profile, lang, synonyms, ordered).plan()
