"""Every content word of an English question accounted for: a word nothing read, that neither names the rows
asked about nor links them to what is asked, may carry a condition the answer would silently drop ("how many
runners set a personal best", "how many of the senators are democrats", "the total attendance at their home
games"). Such a word is asked about instead of being answered over every row.

A word is accounted for when it is:
- the noun of what is counted or asked for ("how many players …", "which city …", "the list of countries …");
- a verb that only links the rows to their figures ("did norway win", "what song received the most points"), or a
  word saying how much, which kind or when ("the same amount of", "to now");
- a word leading to something read ("ran in heat 1", "were picked in the 7th round", "credited to coil");
- the kind of the value said right before it ("the frederick county", "never used capital punishment"), one
  more word of a column's name ("which age range"), or one word after a date closing its phrase ("the
  11/09/2013 game");
- in a count, the rows counted after more/most ("more beetles came from which country");
- the noun a relative clause qualifies ("for passengers who survived");
- the table's own context, named with this/their and nothing after it ("in their career", "this season").
Degree words (bigger, most, ahead) are `conditions.unread_degree`'s to ask about.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline import lexicon as lx
from apps.agent.offline import lookup
from apps.agent.offline.leftovers import leftover_spans
from apps.agent.offline.schema_terms import singular

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer
    from apps.agent.offline.plan import Plan

# what is counted or asked for: the noun right after these (with "the", "total", "different", "other" … between)
_HEAD_BEFORE = re.compile(
    r"(?<![a-z])(?:how many|number of|count of|list of|which|what|whose|name|each|every|per|all|any|other|"
    r"amount of|total of|next|previous|following|preceding|first|last)\s+"
    r"(?:(?:of|the|a|an|these|those|his|her|their|its|our|total|different|other|all|top|\d+|"
    r"[a-z]+(?:'s|’s))\s+)*(?:[a-z]+-)?$"  # "how many by-elections"
)
# "in their career?", "in this rivalry that …": the whole table's context, one word closing its phrase
_CONTEXT_BEFORE = re.compile(r"(?<![a-z])(?:this|these|that|those|their|his|her|its|our)\s+(?:whole\s+|entire\s+)?$")
# "ran in heat 1", "were picked in the 7th round", "credited to coil": a word leading to what was read qualifies it
_LEADS_TO = re.compile(
    r"\s+(?:(?:in|on|at|to|by|for|from|against|with|into|during|since|until|through|throughout|within|across|"
    r"the|a|an|each|every|all|its|their|his|her|right|just|immediately|after|before)\s+)*(?=\S)"
)
_PHRASE_END = re.compile(
    r"\s*(?:$|[?？,，.。!！;:]|(?:who|that|which|whose|where|when|with|in|on|at|for|from|of|by)(?![a-z]))"
)
_POSSESSIVE = re.compile(r"(?:'s|’s)?\s+$")
_LINK_FOLLOWS = re.compile(r"\s+(?:" + "|".join(sorted(lx.LINK_VERBS_EN, key=len, reverse=True)) + r")(?![a-z])")
_COUNTED_AFTER = re.compile(r"(?<![a-z])(?:more|most|fewer|fewest|less|least)\s+$")
# "for passengers who survived": the noun heads the condition that follows it (conditions.py reads it too)
_OWNER = re.compile(r"(?:'s|’s)(?![a-z])")
HEADS_A_CLAUSE = re.compile(r"\s+(?:who|that|which|whose|where)(?![a-z])")


# a comparative or a superlative: read where the plan orders or compares, else asked about (unread_degree)
DEGREE = re.compile(
    r"(?<![a-z])(?:bigger|biggest|larger|largest|smaller|smallest|longer|longest|shorter|shortest|taller|tallest|"
    r"higher|highest|lower|lowest|deeper|deepest|shallower|shallowest|wider|widest|narrower|narrowest|older|oldest|"
    r"elder|eldest|younger|youngest|heavier|heaviest|lighter|lightest|faster|fastest|slower|slowest|quicker|"
    r"quickest|farther|farthest|further|furthest|nearer|nearest|closer|closest|hotter|hottest|colder|coldest|"
    r"warmer|warmest|richer|richest|poorer|poorest|stronger|strongest|weaker|weakest|greater|greatest|better|best|"
    r"worse|worst|more|most|fewer|fewest|less|least|cheaper|cheapest|newer|newest|later|earlier|busier|busiest|"
    r"ahead|behind)"
    r"(?![a-z])"
)
# words that say how much, which kind or when, not what: "the same amount of bronze medals", "the same type as",
# "from 2019 to now", "did she actually win"
_MEASURING = frozenset(
    (
        "amount amounts type types kind kinds sort sorts one ones something anything now today currently presently "
        "ever still yet already actually really even exactly approximately roughly around altogether"
    ).split()
)


def _links(word: str) -> bool:
    return word in lx.LINK_VERBS_EN or singular(word) in lx.LINK_VERBS_EN or word in _MEASURING


def _accounted(a: Analyzer, plan: Plan, start: int, end: int, heads: set[int]) -> bool:
    """`heads`: where the words of what is counted end, so far, while more may follow ("how many championship
    games": both words)."""
    text = a.text
    word = text[start:end]
    if _links(word) or DEGREE.fullmatch(word):  # a degree word is `conditions.unread_degree`'s to ask about
        return True
    before = text[:start]
    if _HEAD_BEFORE.search(before) or (start - 1 in heads and text[start - 1] == " "):
        if singular(word) == word:  # "how many championship games": a plural ends the noun ("runners set …")
            heads.add(end)
        return True
    led = _LEADS_TO.match(text, end)
    if led is not None and a.taken[led.end()]:
        return True
    kind_of = _POSSESSIVE.search(before)  # "the frederick county", "silver awards": the kind of a value read
    if kind_of is not None and any(t.kind == "value" and t.end == kind_of.start() for t in a.terms):
        if singular(word) == word:  # "never used capital punishment": the words after it, up to a plural
            heads.add(end)
        return True
    if kind_of is not None and any(t.kind == "column" and t.end == kind_of.start() for t in a.terms):
        return True  # "which age range", "the total seats": one word more of a column's name
    counting = bool(plan.metrics) and all(m.func in ("count", "nunique") for m in plan.metrics)
    if counting and _COUNTED_AFTER.search(before):
        return True  # "more beetles came from which country": the rows counted
    # "the 11/09/2013 game", "the 1981's games": one word after a date or a number, closing its phrase (not "2011
    # and 2012 put together")
    dated = kind_of is not None and kind_of.start() > 0 and text[kind_of.start() - 1].isdigit()
    if dated and (_PHRASE_END.match(text, end) or _LINK_FOLLOWS.match(text, end)):
        return True
    if HEADS_A_CLAUSE.match(text, end):  # "for passengers who survived": the condition follows, and is read
        return True
    if _OWNER.match(text, end) and not lookup.names_people(a.schema):  # "lorenzo's top position": whose record
        return True  # the table is (no column of people, so no one else's)
    return _CONTEXT_BEFORE.search(before) is not None and _PHRASE_END.match(text, end) is not None


def unread_content(a: Analyzer, plan: Plan) -> str | None:
    """The first English word no reading accounted for (see the module's doc), as the question wrote it, or None.
    Words the plan already reports as left out (an occasion named by its year) are not asked about again."""
    if a.lang != "en":
        return None
    reported = " ".join(plan.unmapped).lower()
    heads: set[int] = set()
    for start, end in leftover_spans(a.text, a.taken):
        if len(a.text[start:end]) < 3:  # "wu" of "how many eastern wu rules": too short to tell, the nouns go on
            heads |= {end} if start - 1 in heads else set()
            continue
        if a.text[start:end] in reported or _accounted(a, plan, start, end, heads):
            continue
        return a.question[start:end]
    return None
