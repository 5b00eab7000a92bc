"""A value looked up in the rows that meet the question's conditions: "what city is miller park in?", "which
stadiums have a capacity over 60000?", "who was an opponent in 1996?", "张三在哪个地区？", "列出所有客户".

Nothing is computed: the cells of the column asked for are listed from the rows that meet the conditions, with
the other columns the question names and those of its threshold conditions beside them, so the answer quotes
the data as it is (a count of those rows, what the planner did before, answers "how many" instead). A value
that many rows repeat is listed once. Read only when the question says which column holds the answer:
- "which …"/"what …" followed by a column ("what city", "which stadiums", "what is the title of …"), a column
  of whole numbers after "which" too ("which stores had 12 sales": store numbers, not their sum);
- "who was the …" followed by a column ("who was an opponent in 1996");
- "who …"/"谁" over a table with exactly one column whose header names people (客户, 姓名, Player, Winner),
  else (none such) exactly one column of names (text, one value per row, not a condition's column);
- "which swimmer …", "name a racer …", "what film …": a noun for a kind of thing no column carries reads the
  one column whose header names that kind: people, towns, grounds or titles (`kind_head`);
- "when …"/"什么时候" over the table's one time column, "where …"/"哪里" over its one column of places;
- in Chinese, a column right after 哪个/哪些/什么 ("张三在哪个地区", "哪些订单的单价超过500") or right before
  是什么/是谁/有哪些 ("A1004的产品是什么", "单价超过500的订单有哪些");
- with no condition, only a request to list a column ("列出所有客户", "list all the players").
Anything else (an aggregate, a count, a ranking) is left to the other kinds.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline import lexicon as lx
from apps.agent.offline.plan import Group, Plan
from apps.agent.offline.schema_terms import ColumnView, Schema, Term, done_by, fold
from apps.datasets.query.spec import Sort

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer
    from apps.agent.offline.metrics import MetricBuilder

LIMIT = 100  # rows read; the answer lists the first few and says the rest is in the table
NAMES_UNIQUE = 0.9  # a column of names: distinct values per row at least this
NAMES_WORDY = 0.8  # and this share of its cells words without digits
_HEAD = re.compile(
    r"^\s*(?:(?:which|what)\s+(?:(?:is|was|are|were)\s+)?|who(?:m)?\s+(?:is|was|are|were)\s+(?=(?:the|a|an)\s))"
    r"(?:(?:the|a|an)\s+)?(?:only\s+)?(?:(?:name|names)\s+of\s+(?:the\s+)?)?"
)
# "哪些订单…", "张三在哪个地区", "A1004的产品是什么", "单价超过500的订单有哪些": the column right after 哪个/什么,
# or right before 是什么/是哪个/是谁/有哪些
_ZH_BEFORE = re.compile(r"(?:哪一个|哪一些|哪个|哪些|哪家|哪位|哪种|哪一|什么)\s*$")
_ZH_AFTER = re.compile(r"\s*(?:(?:是|为)\s*(?:什么|哪个|哪些|哪一个|哪家|哪位|谁)|有哪些)")
# "列出所有客户的名称", "list all the stadiums": every value of the column named, when nothing narrows it
_ZH_LIST = re.compile(r"(?:列出|列举|罗列)\s*(?:所有|全部|一下)?\s*(?:的)?\s*$")
_EN_LIST = re.compile(r"^\s*(?:please\s+)?(?:list|show me|show|name)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?$")
_HEAD_LATER = re.compile(r"(?<![a-z])(?:which|what)\s+(?:other\s+)?(?=[a-z][^?]*\??\s*$)")
_WHO = re.compile(r"^\s*who(?:m)?\s")
_WHO_VERB = re.compile(r"^\s*who\s+(?P<verb>won|[a-z]{5,}(?:ed|d))(?![a-z])")
_ZH_WHO = re.compile(r"谁")
_ZH_WHEN = re.compile(r"什么时候|何时|哪天|哪一天|几号|几月几号|什么日子")
# Columns that name people, by their header: who a "who"/"谁" question asks about when no column is unique
_PERSON_HEADER = re.compile(
    r"姓名|名字|客户|顾客|员工|职员|销售员|业务员|负责人|经理|用户|会员|联系人|学生|老师|作者|选手|球员|运动员|"
    r"(?<![a-z])(?:name|customer|client|employee|staff|person|player|athlete|driver|rider|artist|author|manager|"
    r"coach|winner|member|candidate|nominee|contestant|competitor|performer|singer|actor|owner|student)s?(?![a-z])",
    re.IGNORECASE,
)
# "which swimmer …", "name a racer that …", "who was the only contestant …": a noun for the kind of thing a
# column names, where no column carries that word, asks for that column (the one column of people, places or
# titles; none when the table has none or several)
_KIND_HEAD = re.compile(
    r"^\s*(?:(?:which|what)\s+(?:(?:is|was|are|were)\s+(?:the|a|an)\s+)?|name\s+(?:a|an|the|one|all)\s+|"
    r"who\s+(?:is|was|are|were)\s+(?:the|a|an)\s+)"
    r"(?:(?:only|other|one)\s+)?(?P<noun>[a-z]+)(?![a-z\-'])"
)
_KIND_LATER = re.compile(r"(?<![a-z])(?:which|what)\s+(?:(?:only|other|one)\s+)?(?P<noun>[a-z]+)(?![a-z\-'])")
_PERSON_NOUN = re.compile(
    r"(?:person|people|player|athlete|swimmer|runner|racer|rider|driver|competitor|contestant|performer|artist|singer|"
    r"actor|actress|senator|politician|candidate|coach|finisher|skater|skier|cyclist|boxer|wrestler|golfer|"
    r"sprinter|jumper|thrower|member|representative|author|writer|composer|musician|winner|nominee|pilot)"
    r"(?:s|es)?"
)
# a place noun reads a column of that kind of place only: "which city" never reads Country
_PLACE_NOUN = re.compile(
    r"(?P<town>city|cities|towns?|villages?)|(?P<ground>venues?|locations?|sites?|arenas?|stadiums?)"
)
_TOWN_HEADER = re.compile(r"(?<![a-z])(?:city|cities|town|village|location|venue)s?(?![a-z])", re.IGNORECASE)
_GROUND_HEADER = re.compile(r"(?<![a-z])(?:venue|location|site|arena|stadium|ground)s?(?![a-z])", re.IGNORECASE)
_WORK_NOUN = re.compile(
    r"(?:film|movie|song|single|album|track|book|novel|show|episode|title|collection|volume|poem|opera|musical)s?"
)
_WORK_HEADER = re.compile(
    r"(?<![a-z])(?:title|film|movie|song|single|album|track|book|novel|show|episode|work)s?(?![a-z])",
    re.IGNORECASE,
)


def names_works(column: str) -> bool:
    """Whether a column's header says it holds the titles of works (Title, Film, Album, Show)."""
    return bool(_WORK_HEADER.search(column))


_TITLE_HEADER = re.compile(r"(?<![a-z])titles?(?![a-z])", re.IGNORECASE)
_WHEN = re.compile(r"^\s*when\s")
_WHEN_YEAR = re.compile(r"^\s*(?:when|(?:in\s+)?(?:what|which)\s+year)\s")  # "in what year was he first elected"
_WHERE = re.compile(r"^\s*where\s")
_ZH_WHERE = re.compile(r"哪里|哪儿|什么地方|何处")
# Columns that name places, by their header: what a "where"/"哪里" question asks when no column is named
_PLACE_HEADER = re.compile(
    r"地点|地址|城市|场地|场馆|所在地|举办地|"
    r"(?<![a-z])(?:venue|location|place|city|town|site|country|host|stadium|ground|arena|address|region)s?(?![a-z])",
    re.IGNORECASE,
)
_WHICH = re.compile(r"^\s*which\s+$|(?:哪个|哪些|哪一个|哪一些|哪一)\s*$")
_NAMED_KINDS = ("id", "dimension", "time", "year")


def read(a: Analyzer, plan: Plan, builder: MetricBuilder) -> bool:
    """Turns the plan into a lookup of the column asked for, when the question reads as one (module doc)."""
    cues = a.cues
    if cues.counting or cues.ranking or cues.agg_words:
        return False
    if not builder.filters_pending():
        column = listed_column(a)  # "列出所有客户": only a request to list, when nothing narrows the rows
    else:
        column = asked_column_zh(a) if a.lang == "zh" else asked_column(a)
    if column is None or column in kept_values(a.text, a.terms):
        return False  # "what ethnicity is next under belorussian": the value named is no answer to itself
    plan.groups, plan.time_group, plan.metrics = [], None, []
    plan.row_columns = [column, *[t.column for t in a.terms if t.kind == "column" and t.column != column]]
    plan.kind = "lookup"
    plan.question_kind = "lookup"
    plan.limit = LIMIT
    return True


def asks_which_number(a: Analyzer, term: Term) -> bool:
    """ "which stores had 12 sales", "哪些门店编号…": a column of whole numbers named right after which/哪些 is
    what is asked for (store numbers, weeks, years), never a measure to add up. Not after "what" ("what sales
    did …" asks the amount)."""
    cues = a.cues
    if term.kind != "column" or cues.counting or cues.ranking or cues.agg_words:
        return False
    if a.view(term).category != "measure" or a.view(term).kind != "integer":
        return False
    if _COMPARED_AFTER.match(a.text, term.end):
        return False  # "徐汇店和浦东店哪个销售额更高": the amounts compared, not a number looked up
    return bool(_WHICH.search(a.text, 0, term.start))


_COMPARED_AFTER = re.compile(r"\s*(?:更|比较|最)?(?:高|多|大|低|少|小|好)")


def asks_position(a: Analyzer, term: Term) -> bool:
    """ "what position did they finish in 2003", "what was the round in 2002": a position named right after
    what/which is read as written (a lookup), never added up."""
    cues = a.cues
    if term.kind != "column" or cues.counting or cues.ranking or cues.agg_words or not a.view(term).ordinal:
        return False
    head = _HEAD.match(a.text)
    return head is not None and 0 <= term.start - head.end() <= 1


def asks_when(a: Analyzer, term: Term) -> bool:
    """ "when was peter brown born": a column of years (Born) after "when" is read as written, never added up."""
    return term.kind == "column" and a.view(term).years and _WHEN_YEAR.match(a.text) is not None


def _the_column_of_years(a: Analyzer) -> str | None:
    """ "what year had the 1st position": the table's one column of years (a Season of years), when the question
    names no column of dates or years itself ("what year was bob ray hired" asks the Hired date's year)."""
    if any(t.kind == "column" and _of_time(a.view(t)) for t in a.terms):
        return None
    kept = kept_values(a.text, a.terms)
    of_years = [v.name for v in a.schema.views if (v.years or v.category == "year") and v.name not in kept]
    return of_years[0] if len(of_years) == 1 else None


def asked_column(a: Analyzer) -> str | None:
    """The column the question asks the value of, or None when it does not say one clearly."""
    if a.kind_head is not None:  # "which swimmer …", "name a racer …"
        return a.kind_head.column
    if _WHEN_YEAR.match(a.text):  # "when was peter brown born": the one column of years the question names
        years = list(dict.fromkeys(t.column for t in a.terms if t.kind == "column" and a.view(t).years))
        if len(years) == 1 and years[0] not in {t.column for t in a.terms if t.kind == "value"}:
            return years[0]
        if not years and not _WHEN.match(a.text):  # "what year …", "in which year …"
            found = _the_column_of_years(a)
            if found is not None:
                return found
    head = _HEAD.match(a.text) or _HEAD_LATER.search(a.text)  # "… a-sharp produced what title?"
    if head is not None:  # "what city …", "who was an opponent …": the column named right after
        named = [t for t in a.terms if t.kind == "column" and 0 <= t.start - head.end() <= 1]
        found = next(  # a position ("what position did they finish") is read as written, never added up
            (
                t.column
                for t in named
                if a.view(t).category in _NAMED_KINDS or a.view(t).ordinal or asks_which_number(a, t)
            ),
            None,
        )
        if found is not None or not a.text.lstrip().startswith("who"):
            return found
    filtered = kept_values(a.text, a.terms)
    if _WHO.match(a.text) or _AND_WHO_ELSE_AT.search(a.text):  # "patrick murphy and who else …"
        return _people(a, filtered)
    if _WHEN.match(a.text) and a.time_col is not None and a.time_col.name not in filtered:
        return a.time_col.name
    if _WHEN.match(a.text):  # "when was zeta eta founded": the Founding Date its verb names (dates written as text)
        timed = {t.column for t in a.terms if t.kind == "column" and _of_time(a.view(t))} - filtered
        return timed.pop() if len(timed) == 1 else None
    if _WHERE.match(a.text):
        return _places(a, filtered)
    return None


_TIME_HEADER = re.compile(r"(?<![a-z])(?:date|dates|year|years|time|day|season|period|era|founded|born)(?![a-z])")


def _of_time(view: ColumnView) -> bool:
    """A column of times: dates or years by its values, or by its header (dates written as text)."""
    return view.category in ("time", "year") or bool(_TIME_HEADER.search(fold(view.name)))


def listed_column(a: Analyzer) -> str | None:
    """The column a request to list names right after 列出/list ("列出所有客户", "list all the stadiums")."""
    pattern = _ZH_LIST if a.lang == "zh" else _EN_LIST
    named = [
        t.column
        for t in a.terms
        if t.kind == "column" and a.view(t).category in _NAMED_KINDS and pattern.search(a.text, 0, t.start)
    ]
    return named[0] if len(named) == 1 else None


def asked_column_zh(a: Analyzer) -> str | None:
    """The column a Chinese question asks the value of: named right after 哪个/哪些/什么 or right before
    是什么/是谁/有哪些; None when no column stands there (or two do)."""
    columns = [
        t for t in a.terms if t.kind == "column" and (a.view(t).category in _NAMED_KINDS or asks_which_number(a, t))
    ]
    after = [t.column for t in columns if _ZH_BEFORE.search(a.text, 0, t.start)]  # "华东地区有哪些客户": 客户
    named = after or [t.column for t in columns if _ZH_AFTER.match(a.text, t.end)]
    filtered = kept_values(a.text, a.terms)
    if not named and _ZH_WHO.search(a.text):  # "谁买了咖啡机": the column of people
        return _people(a, filtered)
    if not named and _ZH_WHEN.search(a.text) and a.time_col is not None and a.time_col.name not in filtered:
        return a.time_col.name  # "张三什么时候下的单": the time column
    if not named and _ZH_WHERE.search(a.text):  # "比赛在哪里举行": the column of places
        return _places(a, filtered)
    return named[0] if len(set(named)) == 1 else None


ARTICLES_END = re.compile(r"(?:(?<![a-z])(?:a|an|the)\s*)+$")  # "other than a friendly match": skipped
# "patrick murphy and who else was drafted", "2006 and what other year": the value named first is left out
_AND_WHO_ELSE = re.compile(r"\s+and\s+(?:who|what|which)(?:\s+[a-z]+)?\s+(?:else|other)(?![a-z])")
_AND_WHO_ELSE_AT = re.compile(r"(?<![a-z])and\s+who\s+else(?![a-z])")


def left_out(text: str, term: Term) -> bool:
    """ "excluding Social", "besides reyna royo", "除了华东", "patrick murphy and who else": the value is left out
    of the rows, not kept."""
    before = ARTICLES_END.sub("", text[max(0, term.start - 18) : term.start].rstrip()).rstrip()[-14:]
    return any(before.endswith(fold(w).strip()) for w in lx.VALUE_NEGATIONS) or and_who_else(text, term.end)


def and_who_else(text: str, end: int) -> bool:
    """ "patrick murphy and who else", "2006 and what other year": what ends at `end` is left out."""
    return bool(_AND_WHO_ELSE.match(text, end))


def kept_values(text: str, terms: list[Term]) -> set[str]:
    """The columns the question keeps rows by a value of (a value left out is no such condition: "which player
    besides patrick murphy" still asks for a Player)."""
    return {t.column for t in terms if t.kind == "value" and not left_out(text, t)}


def kind_head(text: str, schema: Schema, terms: list[Term]) -> Term | None:
    """The column a kind of thing at the head of an English question stands for ("which swimmer", "name a
    racer", "what film"), when no column is named there: the one column of people, of places or of titles, not
    one the question filters on. None when the word is no such noun or the table has no single such column."""
    who = _WHO_VERB.match(text)
    if who is not None and not any(t.start < who.end() and who.start("verb") < t.end for t in terms):
        # "who directed red sky", "who produced it": the one column of the ones who do that
        filtered = kept_values(text, terms)
        done = [
            v.name
            for v in schema.views
            if v.name not in filtered and v.category in ("id", "dimension") and done_by(who.group("verb"), v.name)
        ]
        if len(done) == 1:
            return Term(done[0], "column", who.start("verb"), who.end("verb"), 2.0)
    head = _KIND_HEAD.match(text) or _KIND_LATER.search(text)  # "… all directed which film?"
    if head is None or any(t.start < head.end("noun") and head.start("noun") < t.end for t in terms):
        return None
    found = noun_column(head.group("noun"), schema, kept_values(text, terms))
    return None if found is None else Term(found, "column", head.start(), head.end("noun"), 2.0)


def noun_column(noun: str, schema: Schema, filtered: set[str]) -> str | None:
    """The one column a noun for a kind of thing stands for: people ("swimmer"), places ("city", "venue") or
    titles ("film", "song"); none that a condition of the question filters on. None when the noun is no such
    word or the table has no single such column."""
    views = [v for v in schema.views if v.name not in filtered and v.category in ("id", "dimension")]
    place = _PLACE_NOUN.fullmatch(noun)
    if _PERSON_NOUN.fullmatch(noun):  # a column whose header names people, never any column of unique names
        found = _one([v.name for v in views if _PERSON_HEADER.search(v.name)])
    elif place is not None:
        header = _TOWN_HEADER if place.group("town") else _GROUND_HEADER
        found = _one([v.name for v in views if header.search(v.name)])
    elif _WORK_NOUN.fullmatch(noun):  # "what song": a Song column; else the one Title ("the only single": Title,
        works = [v.name for v in views if _WORK_HEADER.search(v.name)]  # not Album)
        own = [w for w in works if re.search(rf"(?<![a-z]){re.escape(noun.rstrip('s'))}s?(?![a-z])", w, re.I)]
        titles = [w for w in works if _TITLE_HEADER.search(w)]
        found = _one(own) if own else _one(works) or _one(titles)
    elif _THING_NOUN.fullmatch(noun):  # "which ship", "the oldest stadium": the table's one column of names
        found = _one([v.name for v in views if _NAME_HEADER.fullmatch(v.name.strip())])
    else:
        return None
    return found


# things a table lists one a row, named in a column called Name: "which ship was commissioned last"
_THING_NOUN = re.compile(
    r"(?:ship|boat|vessel|submarine|building|tower|skyscraper|stadium|arena|university|college|school|bridge|lake|"
    r"river|mountain|peak|island|airport|station|church|cathedral|hotel|company|locomotive|aircraft|plane|car|"
    r"hospital|museum|park|dam|volcano|canal|tunnel|castle|palace|mine|plant|factory|satellite|rocket|planet|"
    r"star|galaxy|asteroid|comet|road|highway|route|street|building)s?"
)
_NAME_HEADER = re.compile(r"(?i)names?|official name|name\s*\(.*\)")


def names_people(schema: Schema) -> bool:
    """The table has a column of people by its header (Name, Player, Athlete, 姓名): a name it does not hold may
    be one of them misspelt, never the table's own subject."""
    return any(v.category in ("id", "dimension") and _PERSON_HEADER.search(v.name) for v in schema.views)


def _one(names: list[str]) -> str | None:
    return names[0] if len(names) == 1 else None


def _people(a: Analyzer, filtered: set[str]) -> str | None:
    """The one column a "who"/"谁" question reads: the one column whose header names people (客户, 姓名, Player,
    Winner), else (none such) the one column of names (one per row): "who had the constructor mclaren" reads
    Winner, not the Race column beside it. None when there is no such column or more than one."""
    views = [v for v in a.schema.views if v.name not in filtered]
    people = [v.name for v in views if v.category in ("id", "dimension") and _PERSON_HEADER.search(v.name)]
    if people:
        return _one(people)
    return _one([v.name for v in views if _names_rows(v, a.schema.row_count)])


def _places(a: Analyzer, filtered: set[str]) -> str | None:
    """The one column a "where"/"哪里" question reads: the one text column whose header names places (Venue,
    城市); None when there is none or more than one."""
    places = [
        v.name
        for v in a.schema.views
        if v.name not in filtered and v.category in ("id", "dimension") and _PLACE_HEADER.search(v.name)
    ]
    return places[0] if len(places) == 1 else None


def _names_rows(view: ColumnView, rows: int) -> bool:
    """A column of names: text, one value per row (almost), no digits in its name (not "No." or "#") and
    words in its cells (not scores such as "22-21" or codes)."""
    cells = [str(v) for v in view.values if v is not None]
    wordy = sum(1 for c in cells if not any(ch.isdigit() for ch in c) and any(ch.isalpha() for ch in c))
    return (
        view.category in ("id", "dimension")
        and view.kind == "text"
        and view.distinct >= NAMES_UNIQUE * max(rows, 1)
        and not any(ch.isdigit() for ch in view.name)
        and "#" not in view.name
        and bool(cells)
        and wordy >= NAMES_WORDY * len(cells)
    )


def add_context(plan: Plan, schema: Schema) -> None:
    """The other columns the question names and the columns of its threshold conditions ("capacity over 60000")
    beside each row: the reader sees why it was listed. A column with one value for every row (an equality
    condition) is said once, in the filters line. When the column asked for repeats across rows (the products
    of 华东's orders), each value is listed once: the query groups by the columns shown instead of listing rows."""
    one_value = {f.column for f in plan.filters if f.op == "="}  # "张三和李四分别在哪个地区": whose is shown
    named = [c for c in plan.row_columns[1:] if c not in one_value]  # "what city is the stadium …": the stadium
    beside = [f.column for f in plan.filters if f.op in (">", ">=", "<", "<=", "in")]
    shown = list(dict.fromkeys([plan.row_columns[0], *named, *beside]))[:4]
    asked = schema.by_name.get(shown[0])
    if asked is not None and asked.distinct < NAMES_UNIQUE * max(schema.row_count, 1):
        plan.row_columns = []
        plan.groups = [Group(c, c) for c in shown]
        plan.sort = [Sort(by=c) for c in shown]
    else:
        plan.row_columns = shown
        if asked is not None and asked.category in ("time", "year"):  # "什么时候": in the order of time
            plan.sort = [Sort(by=shown[0])]


def shown_columns(plan: Plan) -> list[str]:
    """The columns a lookup's answer shows, the one asked for first."""
    return plan.row_columns or [g.name for g in plan.groups]


# "what is the name of the biggest stadium", "name a senator who …": "name" asks for the thing's own label,
# which the answer gives by listing that thing; it is no condition of its own
_NAME_ASKED = re.compile(
    r"^\s*name(?=\s+(?:a|an|the|one|two|three|all|any|another|some|each|every)\s)|(?<![a-z])names?(?=\s+of\s)"
)
# "what was her first role", "how far did they make it": a pronoun for the one the table is about. Where a
# column's header names people (Player, Winner), "he" could be any of its rows; "they" also any of its sides
# (Team, Nation), while a Team(s) column beside one driver's seasons leaves "his" his.
# The subject said as a noun reads the same way: "this person", "this competitor" as "he"; "this team", "the team"
# as "they", though only a column of sides (Team, Nation) could name which team (a Player column does not).
_PRONOUN = re.compile(
    r"(?<![a-z'])(?:(?P<person>he|she|him|her|his|hers|himself|herself"
    r"|this\s+(?:person|competitor|athlete|contestant|player|individual|artist|singer|actor|actress|driver|rider))"
    r"|(?P<side>(?:this|the)\s+(?:team|club|squad|side))|they|them|themselves)(?![a-z'])"
)
_SIDE_HEADER = re.compile(
    r"(?<![a-z])(?:team|club|nation|country|countries|squad|noc|party|parties|school|college|university)s?(?![a-z])",
    re.IGNORECASE,
)
# people by their office or role, beside `_PERSON_HEADER`: "his party" over a table of governors is any of them
# (not those around one subject, Opponent, Director, Producer: "her opponent" is never herself)
_ROLE_HEADER = re.compile(
    r"(?<![a-z])(?:governor|senator|president|incumbent|leader|champion|chair|chairman|chairperson|chairwoman|"
    r"mayor|minister|representative|recipient|holder|jockey|trainer|pilot|officer|deputy|delegate|king|queen|"
    r"monarch|ruler|emperor|pope|bishop|officeholder|mp|assemblyman|councillor|councilor|commissioner|secretary|"
    r"chancellor|premier|skater|swimmer|runner|cyclist|boxer|wrestler|golfer|scorer|goalscorer|speaker|"
    r"headmaster|principal|dean|people)s?(?![a-z])",
    re.IGNORECASE,
)
_LINK_VERB = re.compile(r"(?<![a-z])(?:[a-z]{5,}|wins?|won)(?![a-z])")


# "the number of total skaters in the competition", "according to this table": the table's own setting, said at
# the end of the question, where no column or value of the data is named
# phrases that link a row to what is asked and say nothing more: "the temples are a part of what prefecture"
# (the temples' Prefecture), "what year did it take place in sherbrooke" (the year of the row held there)
_LINK_PHRASE = re.compile(
    r"(?<![a-z])(?:(?:is|are|was|were)\s+(?:a\s+)?part\s+of|(?:take|takes|took|taken|taking)\s+place)(?![a-z])"
)
_AT_THE_EDGE = re.compile(r"(?<![a-z])(?:top|bottom)\s*$")
_SETTING = re.compile(
    r"(?<![a-z])(?:in|at|of|from|during|on|according\s+to|based\s+on)\s+(?:the|this)\s+"
    r"(?P<noun>competition|tournament|championship|contest|event|race|games|league|season|table|chart|list|data)s?"
    r"\s*[?.!]?\s*$"
)


# "what competition was the only one where …": "one" is the thing asked for again, no count
_THE_ONLY_ONE = re.compile(r"(?<![a-z])the\s+only\s+(?P<one>one)\s+(?=(?:where|that|which|who|when|to|in)\s)")


def linking_words(text: str, schema: Schema, terms: list[Term], head: Term | None) -> list[tuple[int, int]]:
    """Spans of an English question that only link what is asked to the rows named, adding no condition:
    "name" asked for ("the name of the stadium", "name a senator"); a verb done by the column of a value or of
    the thing asked ("a-sharp produced what track" over Producer(s), "… all directed which film" over
    Director); the table's own setting said at the end ("… in the competition"). Pronouns are read apart
    (`subject_pronouns`)."""
    spans = [(m.start(), m.end()) for m in _NAME_ASKED.finditer(text)]
    spans += [m.span("one") for m in _THE_ONLY_ONE.finditer(text)]
    spans += [m.span() for m in _LINK_PHRASE.finditer(text)]  # "are a part of what prefecture", "took place in"
    setting = _SETTING.search(text)
    if setting is not None and _AT_THE_EDGE.search(text, 0, setting.start()):
        setting = None  # "at the top of the list": a place in the list (position.py), not the list as a setting
    if setting is not None and not any(t.start < setting.end() and setting.start() < t.end for t in terms):
        noun = setting.group("noun")  # "in the championship" over a Division of "… League Championship" is a value
        if not any(noun in fold(str(v)) for view in schema.views for v in (view.name, *view.values)):
            spans.append((setting.start(), setting.end()))
    linked = {t.column for t in terms if t.kind == "value"} | ({head.column} if head else set())
    # "what director directed the most films": the verb of a column of doers the question names
    linked |= {
        t.column for t in terms if t.kind == "column" and schema.by_name[t.column].category in ("id", "dimension")
    }
    for m in _LINK_VERB.finditer(text):
        if any(t.start < m.end() and m.start() < t.end for t in terms):
            continue
        if any(done_by(m.group(0), column) for column in linked):
            spans.append((m.start(), m.end()))
    return spans


def subject_pronouns(text: str, schema: Schema, terms: list[Term]) -> tuple[list[tuple[int, int]], list[str]]:
    """The pronouns of an English question (he, she, they, her …) for the one the table is about: their spans,
    and none unread, when no column's header could name whom they stand for; else no spans and the pronouns
    unread (which of its rows "he" is, the question does not say)."""
    found = [m for m in _PRONOUN.finditer(text) if not any(t.start < m.end() and m.start() < t.end for t in terms)]
    if not found:
        return [], []
    views = [v.name for v in schema.views if v.category in ("id", "dimension")]
    people = any(_PERSON_HEADER.search(name) or _ROLE_HEADER.search(name) for name in views)
    named_sides = any(_SIDE_HEADER.search(name) for name in views)
    sides = people or named_sides
    unread = [m.group(0) for m in found if (people if m.group("person") else named_sides if m.group("side") else sides)]
    if unread:
        return [], list(dict.fromkeys(unread))
    return [(m.start(), m.end()) for m in found], []
