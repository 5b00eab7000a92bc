"""Words left over after reading a question that stand where a condition would ("华东新客户的销售额", "VIP客户的
销售额", "sales for premium customers"). Answering without them would answer another question, so they are
asked about when the data has close columns or values (resolve_fields), and reported in the answer otherwise.

Where a condition stands: in Chinese, a leftover phrase right beside a value of the data, right before a
mention of the data (with at most 的 between), right after 在/于/来自/从, or opening the question ("上海有几座
建筑"); in English, a leftover phrase right after in / for / from / among / with / where, after "of" ("the gold
of chelsea", not "the number of ..."), or the singular subject of did/does/do ("how many gold did spain win").
A phrase beside a period ("2024年全年") belongs to the period and is left alone.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification, quotes_a_number
from apps.agent.offline import lexicon as lx
from apps.agent.offline.ambiguity import value_of_column
from apps.agent.offline.content_words import DEGREE, HEADS_A_CLAUSE, unread_content
from apps.agent.offline.cues import EDGE_WORDS, HAVING, STOCK_STATE, find_words
from apps.agent.offline.leftovers import leftover_spans, leftover_words
from apps.agent.offline.plan import Plan
from apps.agent.offline.schema_terms import fold, singular
from apps.agent.offline.shaping import PLACEHOLDERS
from apps.agent.offline.timewords import MONTHS_EN
from apps.agent.offline.wording import names, speaking
from apps.datasets.query.resolve import plain, resolve_fields
from apps.datasets.query.spec import Filter

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer

MIN_VALUE_SCORE = 0.6  # resolve_fields: a value that contains the word, or that the word contains
MIN_COLUMN_SCORE = 0.7  # resolve_fields: a glossary form or a name that contains the word
MAX_CANDIDATES = 2
MAX_COLUMNS_SAID = 8
MAX_POINTED = 3  # values one phrase may point at and still be asked about
_EN_BEFORE = re.compile(r"(?<![a-z])(?:in|for|from|among|with|where)\s+(?:the\s+|our\s+|all\s+)?$")
_COUNTED = re.compile(r"(?:how many|number of|count of)\s+(?:the\s+|total\s+|different\s+)*$")
# "the gold of chelsea": after "of" (not "the number of", "the name of", ...) a phrase names what is meant
_EN_OF = re.compile(
    r"(?<![a-z])(?<!number )(?<!name )(?<!count )(?<!total )(?<!list )(?<!one )(?<!each )(?<!all )(?<!any )"
    r"(?<!some )(?<!most )(?<!rest )(?<!part )(?<!out )(?<!kind )(?<!type )(?<!sort )(?<!amount )"
    r"(?<!percentage )(?<!share )(?<!sum )(?<!average )(?<!many )(?<!much )(?<!lot )(?<!lots )"
    r"of\s+(?:the\s+)?$"
)
# "how many gold did spain win": the subject of did/does/do (a singular noun: "did the teams score" counts rows)
_EN_DID = re.compile(r"(?<![a-z])(?:did|does|do)\s+(?:the\s+)?$")
# "他在北京比赛了几次", "上海有几座建筑": after 在/于/来自/从, or opening the question (after a pronoun)
_ZH_BEFORE = re.compile(r"(?:在|于|来自|从)\s*$")
_ZH_START = re.compile(r"^\s*(?:他们|她们|他|她|它)?\s*(?:在)?\s*$")
_ZH_TABLE = re.compile(r"\s*(?:表|数据)")  # "排班表里": the table itself
_DANGLING = re.compile(r"(?:\s+(?:not|are|is|were|was|be|been|do|does|did))+\s*$", re.IGNORECASE)


def _phrases(a: Analyzer) -> list[tuple[int, int]]:
    """Leftover words, joined when they touch (zh) or are one space apart (en): "VIP" + "客户" is one phrase."""
    joined: list[tuple[int, int]] = []
    gap = "" if a.lang == "zh" else " "
    for start, end in leftover_spans(a.text, a.taken):
        if joined and a.text[joined[-1][1] : start] in ("", gap):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def _touches(a: Analyzer, start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(a.text[e:start] in ("", "的") or a.text[end:s] in ("", "的") for s, e in spans)


def _names_the_subject(a: Analyzer, start: int) -> bool:
    """Whether the phrase at `start` is what "of" or "did" is about: the question without it does not read."""
    return a.lang == "en" and bool(_EN_DID.search(a.text[:start]) or _EN_OF.search(a.text[:start]))


def _stands_as_condition(a: Analyzer, start: int, end: int) -> bool:
    if a.lang == "zh" and _touches(a, start, end, [(f.start, f.end) for f in a.time_filters]):
        return False  # "2024年全年": part of the period
    before = a.text[:start]
    if a.lang == "en":  # "for passengers who survived": the noun heads the condition that follows it
        if HEADS_A_CLAUSE.match(a.text, end):
            return False
        said = a.text[start:end].split()
        subject = _EN_DID.search(before) is not None and singular(said[-1]) == said[-1]
        return subject or _EN_OF.search(before) is not None or _EN_BEFORE.search(before) is not None
    if (_ZH_BEFORE.search(before) or _ZH_START.match(before)) and not _ZH_TABLE.match(a.text[end:]):
        return True
    if _EN_OF.search(before) or _EN_BEFORE.search(before):  # "the revenue of 华西 in 2025-01": English around it
        return True
    values = [(t.start, t.end) for t in a.terms if t.kind == "value"]
    return _touches(a, start, end, values) or any(
        t.start >= end and a.text[end : t.start] in ("", "的") for t in a.terms
    )


def condition_phrases(a: Analyzer) -> list[tuple[int, int]]:
    return [(s, e) for s, e in _phrases(a) if _stands_as_condition(a, s, e)]


def _pointer_phrases(a: Analyzer) -> list[tuple[int, int]]:
    """English leftover phrases outside a condition's place ("how many medals did norway win"): asked about
    when they name a few values of the data as whole words (`pointed_values`), else left alone. What is
    counted ("how many ships", "the number of appearances") names the rows, not a value."""
    if a.lang != "en":
        return []
    conditions = condition_phrases(a)
    return [p for p in _phrases(a) if p not in conditions and not _COUNTED.search(a.text[: p[0]])]


def _tokens(text: str) -> list[str]:
    return [singular(t) for t in re.findall(r"[a-z0-9]+", plain(text))]


def _names_value(words: list[str], value: str) -> bool:
    """Whether the words stand in the value as whole words ("love stories" in "Love story", "cordoba" in
    "Córdoba CF")."""
    said = _tokens(value)
    for word in words:
        wanted = _tokens(word)
        if not wanted or len(word) < 3:
            continue
        if any(said[i : i + len(wanted)] == wanted for i in range(len(said) - len(wanted) + 1)):
            return True
    return False


def pointed_values(a: Analyzer, plan: Plan, words: list[str]) -> list[tuple[str, str]]:
    """(column, value) pairs of the few values the words name, column by column: a word in many values of a
    column ("tonnes" in every displacement) is a common part of them, not a pointer to one."""
    filtered = _filtered(plan)
    found: list[tuple[str, str]] = []
    for view in a.schema.views:
        if view.kind != "text" or view.category not in ("dimension", "id") or not view.values:
            continue
        for said in words:
            hits = [str(v) for v in view.values if _names_value([said], str(v))]
            if 1 <= len(hits) <= MAX_POINTED:
                found += [(view.name, v) for v in hits if (view.name, v) not in filtered]
                break
    return list(dict.fromkeys(found))[:MAX_POINTED]


def unread_part_of_values(a: Analyzer, plan: Plan) -> str | None:
    """ "how many airbus aircraft are in service" over Airbus A320, Airbus A321, Boeing 737 ...: a word nothing read
    that is a whole word of many values of a column (more than `pointed_values` offers, fewer than nearly all of
    them, which would make it a common part such as a unit) picks rows; answering over every row answers another
    question. The word, as the question wrote it, or None."""
    if a.lang != "en":
        return None
    filtered = {f.column for f in plan.filters if not _planners_own(a, f)}
    # a column named by a noun ("aircraft"), not by a verb ("aired" of Original air date, "released")
    starts = {t.start for t in a.terms if not a.text[t.start : t.end].endswith("ed")}
    for start, end in leftover_spans(a.text, a.taken):
        word = a.text[start:end]
        if len(word) < 3 or word in lx.STOPWORDS_EN or singular(word) in lx.STOPWORDS_EN:
            continue
        if _COUNTED.search(a.text[:start]):
            if end + 1 in starts:
                return a.question[start:end]  # "how many bombardier aircraft": it qualifies the column counted
            continue  # "the number of galaxies in pisces": what is counted
        for view in a.schema.views:
            if view.kind != "text" or view.category not in ("dimension", "id") or not view.values:
                continue
            if view.name in filtered or not view.complete:
                continue
            hits = sum(1 for v in view.values if _names_value([word], str(v)))
            if 1 <= hits <= _MOST * len(view.values):
                return a.question[start:end]
    return None


_MOST = 0.6  # a word in more of a column's values than this is a common part of them


def _used_columns(plan: Plan) -> set[str]:
    used = {g.column for g in plan.groups} | {f.column for f in plan.filters}
    return used | {m.column for m in plan.metrics if m.column}


def candidates(a: Analyzer, plan: Plan, phrase: str, parts: list[str]) -> list[tuple[str, str | None]]:
    """(column, value) pairs close to the phrase or its words; value None: the column itself. A word found in
    several values of one column ("tonnes" in "1,450 tonnes", "1,440 tonnes") is a unit or a common part of
    them, not a pointer to one value: that column is not offered for it."""
    used = _used_columns(plan)
    views = a.schema.by_name
    found: list[tuple[str, str | None]] = []
    for resolution in resolve_fields(dict.fromkeys([phrase, *parts]), a.profile, limit=20):
        per_column = Counter(m.column for m in resolution.matches if m.kind == "value")
        for match in resolution.matches[: MAX_CANDIDATES + 1]:
            view = views.get(match.column)
            if view is None or view.category not in ("dimension", "id") or view.kind != "text":
                continue
            if match.kind == "value" and per_column[match.column] > 1:
                continue
            if match.kind == "value" and match.score >= MIN_VALUE_SCORE and isinstance(match.value, str):
                pair: tuple[str, str | None] = (match.column, match.value)
            elif match.kind == "column" and match.score >= MIN_COLUMN_SCORE and match.column not in used:
                pair = (match.column, None)
            else:
                continue
            if pair not in found:
                found.append(pair)
    return found[:MAX_CANDIDATES]


def _without(question: str, start: int, end: int) -> str:
    """The question without the phrase, and without the words that only led to it: the "in" / "for" before a
    phrase that ends the question ("… in tonnes?"), a verb left dangling ("… are not from X?"), an "and" after
    it ("from X and Y")."""
    before, after = question[:start], question[end:]
    lead = _EN_BEFORE.search(fold(before))
    if lead is not None and re.match(r"\s*(?:[?？,，.。!！]|$)", after):
        before = _DANGLING.sub("", before[: lead.start()])
    elif lead is not None:
        after = re.sub(r"^\s+(?:and|or)(?=\s)", "", after)
    rest = (before + after).strip()
    rest = re.sub(r"^的", "", rest) if not before.strip() else rest
    return re.sub(r"\s+([?？,，.。])", r"\1", re.sub(r"\s{2,}", " ", rest))


def _asked(question: str) -> str:
    return question.strip().rstrip("?？。.!！ ")


def _choice(a: Analyzer, start: int, end: int, column: str, value: str | None, shared: bool) -> str:
    question = a.question
    if value is not None:
        said = value_of_column(value, column) if shared else value
        return question[:start] + said + question[end:]
    rest = _asked(_without(question, start, end))
    return _("%(question)s by %(column)s?") % {"question": rest, "column": column}


def ask_about_conditions(a: Analyzer, plan: Plan) -> Clarification | None:
    """The question to ask about the first condition-like phrase the data has something close to; phrases
    with nothing close are added to the plan's unmapped words (the answer says they were left out)."""
    with speaking(a.lang):
        return _ask_about_conditions(a, plan)


def _ask_about_conditions(a: Analyzer, plan: Plan) -> Clarification | None:
    for start, end in condition_phrases(a):
        phrase = a.question[start:end]
        parts = [a.question[s:e] for s, e in leftover_spans(a.text, a.taken) if start <= s and e <= end]
        found = candidates(a, plan, phrase, parts)
        if not found or quotes_a_number(phrase):
            inside = [w for w in plan.unmapped if fold(w) in fold(phrase)]
            plan.unmapped = [w for w in plan.unmapped if w not in inside] + [phrase]
            continue
        values = [v for _c, v in found if v is not None]
        choices = [_choice(a, start, end, c, v, shared=v is not None and values.count(v) > 1) for c, v in found]
        if not _names_the_subject(a, start):  # "how many points did get?" is no question
            choices.append(_without(a.question, start, end))
        question = _(
            "Please confirm: nothing in the data matches “%(phrase)s” directly. Did you mean one of these, or "
            "should it be ignored?"
        ) % {"phrase": phrase}
        return Clarification(question, list(dict.fromkeys(choices)))
    for start, end in _pointer_phrases(a):
        phrase = a.question[start:end]
        parts = [a.question[s:e] for s, e in leftover_spans(a.text, a.taken) if start <= s and e <= end]
        pointers = pointed_values(a, plan, list(dict.fromkeys([phrase, *parts])))
        if not pointers or quotes_a_number(phrase):
            continue
        pointed = [v for _c, v in pointers]
        choices = [_choice(a, start, end, c, v, shared=pointed.count(v) > 1) for c, v in pointers]
        question = _("Please confirm: “%(phrase)s” is not a value in the data, but close to these. Which one?") % {
            "phrase": phrase
        }
        return Clarification(question, list(dict.fromkeys(choices)))
    return None


def _filtered(plan: Plan) -> set[tuple[str, str | None]]:
    return {(f.column, f.value) for f in plan.filters if isinstance(f.value, str)}


_YEAR = re.compile(  # with its preposition: the question without it still reads ("how many were born?")
    r"(?:(?<![a-z])(?:in|after|before|since|during|of|from|until|by)\s+(?:the\s+)?(?:year\s+)?)?"
    r"(?<![\d.:/,$€£¥#-])(?P<year>(?:18|19|20)\d{2})(?![\d:/,%]|\s*(?:m|km|metres|meters|st|nd|rd|th)\b)"
)
_MONTH_NAMES = frozenset(MONTHS_EN) - {"may"}  # "may" is mostly the verb
_EN_NEGATION = re.compile(r"(?<![a-z])(?:not|never)(?![a-z])|n't(?![a-z])")


def _context_year(a: Analyzer, year: int) -> bool:
    """ "the number of gold medals won by vietnam during the 2013 competition" over a medal table: the year names
    the occasion the whole table is about. So only when nothing in the data could hold a year: no date or year
    column, no number column whose range reaches it, no text cell that writes it (and every text cell known)."""
    for view in a.schema.views:
        if view.category in ("time", "year") or _A_YEAR.search(view.name):  # Population 2010: columns by year
            return False
        if view.kind in ("integer", "number") and view.lo is not None and view.hi is not None:
            if float(view.lo) <= year <= float(view.hi):
                return False
        elif view.kind == "text":
            if not view.values or view.distinct > len(view.values):
                return False
            if any(_A_YEAR.search(str(v)) for v in view.values):  # "August 7, 1986 (age 27)", "2005–06"
                return False
    return True


def occasion_years(a: Analyzer) -> list[tuple[int, int]]:
    """Where the question names the occasion the table is about by its year ("in the 2008 malaysian motorcycle
    grand prix" over one race's results): years nothing in the data could hold, not bounding rows ("after 2008")."""
    return [
        m.span("year")
        for m in _YEAR.finditer(a.text)
        if a.taken.find(1, m.start("year"), m.end("year")) == -1
        and _context_year(a, int(m.group("year")))
        and not _BOUNDED.match(a.text, m.start())
    ]


_OCCASION_PART = re.compile(r"\s*(?:(?P<of>['’]s)|(?P<number>\d+(?:\.\d+)?)|(?P<word>[a-z]+))")


def _occasion_end(a: Analyzer, at: int) -> int:
    """Where the name of the occasion a context year opens ends: "the 2002 pan pacific swimming championships
    women's 100 metre backstroke, how many …" runs over the words no column or value reads (and a number
    only where such a word follows it: "100 metre"), up to punctuation, a small word or anything read."""
    end = at
    while (part := _OCCASION_PART.match(a.text, end)) is not None:
        start = part.start(part.lastgroup or 0)
        if a.taken.find(1, start, part.end()) != -1:
            break
        if part.group("word") and (len(part.group("word")) < 2 or part.group("word") in lx.STOPWORDS_EN):
            break
        if part.group("number"):
            unit = _OCCASION_PART.match(a.text, part.end())
            if unit is None or not unit.group("word") or unit.group("word") in lx.STOPWORDS_EN:
                break
            if a.taken.find(1, unit.start("word"), unit.end()) != -1:
                break
        end = part.end()
    return end


_A_YEAR = re.compile(r"(?<!\d)(?:18|19|20)\d{2}(?!\d)")
_BOUNDED = re.compile(r"(?:after|before|since|from|until|by)\s")  # "born before 1988" bounds rows: no context


def unapplied_negation(a: Analyzer, plan: Plan) -> str | None:
    """ "how many swimmers did not swim", "games not scheduled for 1:00 pm": a negation the plan shows no trace of
    (no filter that leaves something out) was not understood, and answering without it answers the opposite.
    The negation and the word it governs, as the question wrote them."""
    if a.lang != "en":
        return None
    # a negation the planner read ("did not win any gold medals": Gold = 0, cues._presence) is applied
    found = next((m for m in _EN_NEGATION.finditer(a.text) if a.taken.find(1, m.start(), m.end()) == -1), None)
    if found is None or any(_leaves_out(a, f) for f in plan.filters):
        return None
    governed = re.match(r"\s*[a-z]+", a.text[found.end() :])
    return a.question[found.start() : found.end() + (governed.end() if governed else 0)].strip()


def _planners_own(a: Analyzer, f: Filter) -> bool:
    """A filter the planner adds whatever the question says: without the summary row ("Total"), without a
    placeholder ("N/A")."""
    view = a.schema.by_name.get(f.column)
    summary = view is not None and f.value == view.total_label
    return f.op == "!=" and (summary or str(f.value).strip().lower() in PLACEHOLDERS)


def _leaves_out(a: Analyzer, f: Filter) -> bool:
    """Whether a filter of the question leaves rows out as a negation would."""
    return (f.op == "!=" and not _planners_own(a, f)) or f.op == "is_null" or f.value is False


_OUTCOME = re.compile(
    r"(?<![a-z])(?:win|wins|won|winning|lose|loses|lost|losing|beat|beaten|defeat(?:s|ed)?|qualif(?:y|ies|ied)"
    r"|eliminated|relegated|promoted|(?:finish|finishe[sd]|place[sd]?|came|come|ended)\s+(?:in\s+)?"
    r"(?:first|second|third|last|top|\d+(?:st|nd|rd|th)))(?![a-z])"
)


def unapplied_outcome(a: Analyzer, plan: Plan) -> str | None:
    """ "how many titles did thierry tulasne win", "how many times did they finish first": counted rows must meet
    an outcome (a win, a first place) that no column or value of the plan took up. Counting every row instead
    answers "how many were played". The outcome, as the question wrote it; None when the plan adds up a
    measure ("how many medals did norway win": the verb only says whose medals)."""
    edge = plan.question_kind == "time_edge"  # "when did they last finish first": the latest year of that outcome
    if a.lang != "en" or not plan.metrics or not (edge or all(m.func in ("count", "nunique") for m in plan.metrics)):
        return None
    filtered = {f.column for f in plan.filters}
    for found in _OUTCOME.finditer(a.text):
        if a.taken.find(1, found.start(), found.end()) != -1:
            continue
        stem = found.group(0)[:3]
        if any(fold(column).startswith(stem) for column in filtered):
            continue  # "how many times did the democrats lose": the Loss column holds them
        if any(
            t.column in filtered
            and 0 <= t.start - found.end() <= 5
            and re.fullmatch(r"[\s\d,.]*", a.text[found.end() : t.start])
            for t in a.terms
        ):
            continue  # "how many times did lillestrøm win gold": the column won is filtered
        return a.question[found.start() : found.end()]
    finished = _FINISHED.search(a.text)
    if finished is not None and a.taken.find(1, finished.start(), finished.end()) == -1 and _unfinished_rows(a):
        return a.question[finished.start() : finished.end()]  # "how many drivers finished" beside Ret and DNS rows
    return None


_FINISHED = re.compile(r"(?<![a-z])(?:finish|finished|finishes|completed|complete)(?![a-z])")
_NOT_FINISHED = re.compile(r"(?:dnf|dns|dsq|dnq|ret|retired|nc|did not finish|withdrew|disqualified)", re.IGNORECASE)


def _unfinished_rows(a: Analyzer) -> bool:
    """Whether some cells say a row did not finish (DNF, Ret, DNS): "finished" then picks rows. Such marks among
    times or places were read as blank at ingest, and the profile keeps them."""
    marks = [m for c in a.profile.columns for m in c.blank_marks]
    texts = [v for view in a.schema.views if view.kind == "text" for v in view.values]
    return any(_NOT_FINISHED.fullmatch(str(v).strip()) for v in [*texts, *marks])


# Things people add up, not rows they list: "how many points", "the total number of goals". Counted where no
# column holds them, the rows of the table would be counted instead (games, players), another question.
_AMOUNT_NOUNS = re.compile(
    r"(?:points?|goals?|runs?|votes?|medals?|yards?|seats?|viewers?|spectators?|wins?|losses?|assists?|"
    r"touchdowns?|tries|rebounds?|laps?|kilometres?|kilometers?|miles?|metres?|meters?|tons?|tonnes?|"
    r"dollars?|euros?|pounds?)"  # not days or years: "how many days had sales over 120" counts rows of days
)
_COUNTED_NOUN = re.compile(
    r"(?<![a-z])(?:how many|(?:total )?number of|count of|total)\s+(?:the\s+|total\s+)*(?P<noun>[a-z]+)(?![a-z])"
)


def unapplied_change(a: Analyzer, plan: Plan) -> str | None:
    """ "the time difference between the first place finisher and the eighth", "增长了多少": a difference or a
    change asked for that the plan computes nowhere (no derived column, no change window) would be answered with
    the measure itself. The word, as the question wrote it; None when a difference or change is computed."""
    if a.cues.change is None or plan.derived or any(w.func in ("diff", "pct_change") for w in plan.windows):
        return None
    words = lx.DIFF_WORDS if a.cues.change == "diff" else lx.CHANGE_WORDS
    found = find_words(a.text, words, bytearray(len(a.text)))
    return a.question[found[0][0] : found[0][1]] if found else None


def uncounted_amount(a: Analyzer, plan: Plan) -> str | None:
    """ "what is the total number of points earned by all away team members": an amount no column holds (points,
    goals, votes) is asked for; counting the rows that meet the conditions would answer how many games. The
    noun, as the question wrote it; None when rows are not counted or a column reads the noun."""
    if a.lang != "en" or not plan.metrics or any(m.func != "count" or m.column for m in plan.metrics):
        return None
    for found in _COUNTED_NOUN.finditer(a.text):
        start, end = found.span("noun")
        if a.taken.find(1, start, end) == -1 and _AMOUNT_NOUNS.fullmatch(found.group("noun")):
            return a.question[start:end]
    return None


_QUOTED = re.compile(r"[\"“「《『](?P<q>[^\"”」》』]{1,80})[\"”」》』]|(?<!\w)'(?P<s>[^']{1,80}?)'(?!\w)")
_COVERED = 0.6  # a quoted name is read when the data's values and columns cover this much of it


def unapplied_quote(a: Analyzer) -> str | None:
    """'how many times has 'stayin' alive' been recognized as one of the rolling stone's "500 greatest songs of
    all time"': a quoted name points at something in the data. When no value or column covers it (or only a word
    inside it, the "time" of "all time"), answering counts something else. The quoted name, as written; None
    when every quoted name was read."""
    for found in _QUOTED.finditer(a.question):
        group = "q" if found.group("q") is not None else "s"
        start, end = found.start(group), found.end(group)
        inner = a.question[start:end].strip(" ?!.,")
        if not inner or quotes_a_number(inner):
            continue
        covered = len({i for t in a.terms for i in range(max(t.start, start), min(t.end, end))})  # overlaps once
        if covered < _COVERED * len(inner):
            return inner
    return None


_JOINED = re.compile(r"(?<![a-z])(?:and|or|but|nor)(?:\s+(?:not|no|without))?\s+(?:any\s+|a\s+|an\s+)?$")


def unread_having(a: Analyzer, plan: Plan) -> str | None:
    """ "how many nations won gold and silver medals", "how many seasons did he win races": in a count, a measure
    named after a verb of having is a condition on the rows counted; one no filter took up would be added up
    beside the count instead. The words, or None."""
    if a.lang != "en" or not a.cues.counting:
        return None
    filtered = {f.column for f in plan.filters} | {f.column for f in plan.having}
    measures = [t for t in a.terms if t.kind == "column" and a.view(t).category == "measure"]
    linked = False
    for t in measures:
        verb = HAVING.search(a.text, 0, t.start)
        linked = verb is not None or (linked and _JOINED.search(a.text, 0, t.start) is not None)
        if linked and t.column not in filtered:
            start = verb.start() if verb is not None else t.start
            return a.question[start : t.end]
    return None


def unread_edge(a: Analyzer) -> str | None:
    """ "what was his first team with over 1000 points": a word picking one row by its order that nothing read;
    the teams over 1000 points are not the first one. The word, or None."""
    return a.first_unread(EDGE_WORDS) if a.lang == "en" else None


def unread_degree(a: Analyzer, plan: Plan) -> str | None:
    """ "which lake has the bigger area": a word of degree (a comparative or a superlative) that nothing read; a
    total of the areas answers another question. A plan that orders, extremises, compares or subtracts acted on
    it (a ranking, a max or min, rows against a named one, "how many more"), so only a plan doing none of these
    reports it. The word, or None."""
    if a.lang != "en":
        return None
    acted = plan.sort or plan.anchor or plan.derived or plan.having or plan.windows
    if acted or any(m.func in ("max", "min") for m in plan.metrics):
        return None
    return a.first_unread(DEGREE)


def unread_pronoun(a: Analyzer) -> str | None:
    """ "how many goals did he score" over a table of players: which row "he" is, the question does not say, and
    answering for all of them answers another question. The pronoun, or None (read, or none said)."""
    return a.unread_pronouns[0] if a.unread_pronouns else None


_CHOICE = re.compile(r"(?P<a>[^,;:?]+?)\s+or\s+(?P<b>[^,;:?]+?)\s*\??\s*$")


def unmatched_alternative(a: Analyzer) -> str | None:
    """ "which player played more games, r.c hass or clyde alwood?": a choice between two names of which the data
    matched one. Answering about that one alone does not choose; the other name, as the question wrote it."""
    if a.lang != "en":
        return None
    mirrored = _mirrored_alternative(a)
    if mirrored is not None:
        return mirrored
    found = _CHOICE.search(a.text)
    if found is None:
        return None
    sides = [(found.start("a"), found.end("a")), (found.start("b"), found.end("b"))]
    named = [any(t.kind == "value" and s <= t.start and t.end <= e for t in a.terms) for s, e in sides]
    if named.count(True) != 1:
        return None
    start, end = sides[named.index(False)]
    words = [a.question[s:e] for s, e in leftover_spans(a.text, a.taken) if start <= s and e <= end]
    return " ".join(words) or None


_OR_NEXT = re.compile(r"\s+or\s+(?:the\s+)?(?P<head>[a-z]+)\s+(?P<tail>[a-z0-9]+)(?![a-z0-9])")


def _mirrored_alternative(a: Analyzer) -> str | None:
    """ "group a or group b in 2013-2014": a value ("Group A") and, after "or", the same first word with another
    ending the data does not hold ("group b"). The choice is between the two: that side, as written."""
    for t in a.terms:
        if t.kind != "value":
            continue
        said = a.text[t.start : t.end].split()
        after = _OR_NEXT.match(a.text, t.end)
        if len(said) < 2 or after is None or after.group("head") != said[0]:
            continue
        if not any(u.kind == "value" and u.start <= after.start("head") < u.end for u in a.terms):
            return a.question[after.start("head") : after.end("tail")]
    return None


_PARTNER = re.compile(r"\s+(?:and|or|&)\s+(?:the\s+)?$")


def unmatched_partner(a: Analyzer) -> str | None:
    """ "the total area of riverton and springfield": a name joined to a value of the data by "and"/"or" that
    the data does not have; answering for the one it has answers another question. The name, or None."""
    for start, end in leftover_spans(a.text, a.taken):
        joined = _PARTNER.search(a.text, 0, start)
        if joined is None:
            continue
        if any(t.kind == "value" and t.end == joined.start() for t in a.terms):
            return a.question[start:end]
    return None


# "points per zorble", "sales by widget", "每个部门的": what the figure is divided or broken down by ("by" only
# before one word that ends the phrase: "singles by del the funky homosapien" names who made them)
_PER_BEFORE = re.compile(r"(?<![a-z])(?:per|for each|for every|each|every)\s+(?:the\s+|a\s+)?$|(?:每个?|按照?|各)\s*$")
_BY_BEFORE = re.compile(r"(?<![a-z])by\s+(?:the\s+)?$")
_PHRASE_ENDS = re.compile(r"\s*(?:[?.!,;]|$|(?:in|for|and|during|from|over|with|since|before|after)(?![a-z]))")


_HALF = re.compile(r"上半年|下半年|(?<![a-z])(?:h1|h2|first half|second half)(?![a-z0-9])")


def unread_stock_state(a: Analyzer) -> str | None:
    """ "how many items are out of stock" where no column reads as the stock: the state, as written, or None."""
    for m in STOCK_STATE.finditer(a.text):
        read = a.taken.find(1, m.start(), m.end()) != -1 or any(
            t.start < m.end() and m.start() < t.end for t in a.terms
        )
        if not read and not any(t.start <= m.start() and m.end() <= t.end for t in a.cues.thresholds):
            return a.question[m.start() : m.end()]
    return None


def unread_half(a: Analyzer) -> str | None:
    """ "下半年的订单数" over two years of data: which year's half is not said (nor is there one year to take);
    the half, as written, or None when every half said was read."""
    for m in _HALF.finditer(a.text):
        if a.taken.find(1, m.start(), m.end()) == -1:
            return a.question[m.start() : m.end()]
    return None


def unmatched_per(a: Analyzer) -> str | None:
    """ "what were her points per zorble": a word the figure is taken per (or broken down by) that no column or
    value matches; the total over every row would answer another question. The phrase, or None."""
    for start, end in leftover_spans(a.text, a.taken):
        said = _PER_BEFORE.search(a.text, max(0, start - 12), start)
        if said is None and _PHRASE_ENDS.match(a.text, end):
            said = _BY_BEFORE.search(a.text, max(0, start - 8), start)
        if said is not None:
            return a.question[said.start() : end]
    return None


def _edits(one: str, other: str) -> int:
    """Letters to add, drop, change or swap with the next one to turn `one` into `other`."""
    rows = [list(range(len(other) + 1))]
    for i, x in enumerate(one, 1):
        row = [i]
        for j, y in enumerate(other, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y)))
            if i > 1 and j > 1 and x == other[j - 2] and one[i - 2] == y:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


MAX_SLIPS = 2


def misspelt_measure(a: Analyzer, plan: Plan) -> str | None:
    """ "how many epsodse are in series 2" over a table with Episodes: rows would be counted for a word that is
    likely the measure misspelt; the word, so that it is asked about, not counted. None otherwise."""
    if a.lang != "en" or not plan.metrics or any(m.func != "count" or m.column for m in plan.metrics):
        return None
    names = [
        alias
        for v in a.schema.of("measure")
        for alias, _strength in v.aliases
        if alias.isalpha() and len(alias) >= MIN_SLIPPED
    ]
    for word in leftover_words(a.text, a.taken, a.question):
        folded = fold(word)
        if len(folded) >= MIN_SLIPPED and any(_edits(folded, n) <= MAX_SLIPS for n in names if n != folded):
            return word
    return None


MIN_SLIPPED = 5


def ask_about_left_out(a: Analyzer, plan: Plan) -> Clarification | None:
    """Conditions the plan could not apply (no column or value matches them, or a negation it did not read) are
    asked about rather than dropped: answering without them would answer another question. The choice offered
    is the question without them, when they can be taken out cleanly. (A business word with no column, such as
    the "city" of "which city has the most density", is only noted in the answer.)"""
    phrases = {a.question[s:e] for s, e in condition_phrases(a)}
    conditions = [w for w in plan.unmapped if w in phrases]
    conditions += [  # "released in the month of november" where no date column could take it
        w for w in leftover_words(a.text, a.taken, a.question) if fold(w) in _MONTH_NAMES and w not in conditions
    ]
    for m in _YEAR.finditer(a.text):  # "born after 1985" with no date column to take it, "the 2012 olympics"
        if a.taken.find(1, m.start("year"), m.end("year")) != -1:
            continue
        said = a.question[m.start() : m.end()].strip()
        if _context_year(a, int(m.group("year"))) and not _BOUNDED.match(a.text, m.start()):
            said = a.question[m.start() : _occasion_end(a, m.end())].strip()  # "the 2002 … 100 metre backstroke"
            plan.unmapped = list(dict.fromkeys([*plan.unmapped, said]))  # said in the answer as left out
        else:
            conditions.append(said)
    kept = [  # cannot be left out: the negation, the subject of a rate ("复购率": the data has no 复购)
        *[
            n
            for n in [unapplied_negation(a, plan), unapplied_outcome(a, plan), unmatched_alternative(a)]
            + [uncounted_amount(a, plan), unapplied_change(a, plan)]
            + [unapplied_quote(a), unread_pronoun(a), unread_edge(a), unread_having(a, plan)]
            + [unread_degree(a, plan), unread_part_of_values(a, plan), unmatched_partner(a)]
            + [misspelt_measure(a, plan), unmatched_per(a), unread_half(a), unread_stock_state(a)]
            + [unread_content(a, plan)]
            if n
        ],
        *[a.question[s:e] for s, e in leftover_spans(a.text, a.taken) if a.lang == "zh" and a.text.startswith("率", e)],
    ]
    conditions = list(dict.fromkeys(conditions))
    left = list(dict.fromkeys([*conditions, *kept]))
    if not left:
        return None
    with speaking(a.lang):
        rest = a.question
        for word in conditions:
            at = fold(rest).find(fold(word))
            if at >= 0:
                rest = _without(rest, at, at + len(word))
        choices = [rest] if not kept and fold(_asked(rest)) != fold(_asked(a.question)) else []
        columns = names([f"“{v.name}”" for v in a.schema.views if not quotes_a_number(v.name)][:MAX_COLUMNS_SAID])
        quoted = names([f"“{w}”" for w in left if not quotes_a_number(w)])
        if quoted:
            question = _(
                "I could not apply %(words)s to the data, so I have not answered. Please rephrase it with the "
                "data's columns (%(columns)s), or ask without it."
            ) % {"words": quoted, "columns": columns}
        else:
            question = _(
                "Part of this question does not match the data, so I have not answered. Please rephrase it with "
                "the data's columns (%(columns)s)."
            ) % {"columns": columns}
    return Clarification(question, choices)
