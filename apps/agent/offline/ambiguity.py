"""Words of a question that fit more than one thing in the data, settled or turned into a clarification.

Three readings are checked right after the question's mentions are found:
- a measure word that reaches two or more measure columns equally well ("销量" with 销售数量 and 销售额, "sales"
  with sales_quantity and sales_amount): settled when the word itself says quantity or amount ("收入" is an
  amount), left as found when the question names one of them elsewhere ("退货率（退货数量/订单数量）"), else asked;
- a value word found in two columns ("线上" as a 地区 and a 渠道): settled when the question names one of those
  columns ("线上（地区）", "region Online"), else asked;
- a rate of a subject that has a quantity and an amount column, each over its own base ("退货率" with 退货数量 /
  订单数量 and 退货金额 / 销售金额): computed on the basis the question states ("按金额", "by quantity"), or on
  the only basis the data has, else asked.
Only words matched through concepts and parts of names count: a column's own name is never ambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification, quotes_a_number
from apps.agent.offline.content_words import HEADS_A_CLAUSE
from apps.agent.offline.lexicon import CONCEPTS, GROUP_MARKERS, RATE_WORDS
from apps.agent.offline.plan import Lang
from apps.agent.offline.schema_terms import (
    CONCEPT_PART,
    NAME,
    ColumnView,
    Schema,
    Term,
    alias_pattern,
    done_by,
    fold,
    name_words,
    without_unit,
)
from apps.agent.offline.wording import names, speaking

Unit = Literal["quantity", "amount"]
UNITS: tuple[Unit, ...] = ("quantity", "amount")
_UNIT_PARTS: dict[Unit, tuple[str, ...]] = {
    "quantity": ("数量", "件数", "个数", "单数", "笔数", "qty", "quantity", "units", "volume", "count"),
    "amount": ("金额", "额", "收入", "营收", "amount", "revenue", "income", "value", "price", "cost", "gmv"),
}
_CONCEPT_UNITS: dict[str, tuple[Unit, ...]] = {
    "quantity": ("quantity",),
    "sales": ("quantity", "amount"),  # the lexicon's "sales" covers 销售额 and 销量 alike
    **dict.fromkeys(("revenue", "amount", "price", "cost", "profit", "salary", "bonus"), ("amount",)),
}
_BASE_CONCEPTS = ("order", "revenue", "sales")  # what business rates are usually taken over
_BASIS: dict[Unit, str] = {
    "quantity": r"件数|数量|个数|单数|笔数|订单数|count|quantity|units|volume",
    "amount": r"金额|销售额|amount|value|revenue",
}
_BASIS_ZH = r"(?:按|以|用)照?\s*(?P<w>{words})\s*(?:来)?\s*(?:算|计算|计|统计|口径)?"
_BASIS_EN = r"(?<![a-z])(?:by|in terms of|based on)\s+(?:the\s+)?(?P<w>{words})(?![a-z])"
_UNIT_AFTER = re.compile(
    r"\s*的?\s*(?P<w>件数|数量|个数|笔数|金额|额|数(?![据字值])|amount|quantity|units|count|value)(?![a-z])"
)


@dataclass(frozen=True)
class Basis:
    """ "按金额算", "by quantity": the unit a rate is to be computed in, and where the question says so."""

    unit: Unit
    start: int
    end: int


@dataclass(frozen=True)
class SubjectRate:
    """A rate of a subject ("退货率"): per unit, its numerator and base columns."""

    word: str
    start: int
    end: int
    pairs: dict[Unit, tuple[str, str]]


def _has_part(name: str, part: str) -> bool:
    if re.search(r"[a-z]", part):
        return re.search(rf"(?<![a-z]){re.escape(part)}(?:s|es)?(?![a-z])", name) is not None
    return part in name


def unit_of_name(name: str) -> Unit | None:
    """What a column (or word) counts by what its name says: 订单数量 -> quantity, 销售额 -> amount."""
    folded = fold(name)
    found = {unit for unit, parts in _UNIT_PARTS.items() if any(_has_part(folded, p) for p in parts)}
    if not found and re.search(r"[\u4e00-\u9fff]数$", folded):  # 订单数, 件数
        found = {"quantity"}
    return found.pop() if len(found) == 1 else None


def units_of_word(word: str) -> set[Unit]:
    """The units a word can mean: from its own text, else from every concept it is a form of."""
    own = unit_of_name(word)
    if own is not None:
        return {own}
    folded = fold(word).strip()
    units: set[Unit] = set()
    for concept, forms in CONCEPTS.items():
        if folded in (fold(f) for f in forms):
            units.update(_CONCEPT_UNITS.get(concept, ()))
    return units


def reached(schema: Schema, text: str, start: int, end: int) -> dict[str, float]:
    """Measure columns a mention at [start, end) reaches, with the strength of their best alias there."""
    out: dict[str, float] = {}
    for view in schema.of("measure"):
        for alias, strength in view.aliases:
            if any(m.start() == start and m.end() == end for m in alias_pattern(alias).finditer(text)):
                out[view.name] = max(out.get(view.name, 0.0), strength)
    return out


def find_basis(text: str) -> Basis | None:
    for unit, words in _BASIS.items():
        for template in (_BASIS_ZH, _BASIS_EN):
            m = re.search(template.format(words=words), text)
            if m:
                return Basis(unit, m.start(), m.end())
    return None


def only_a_basis(question: str) -> bool:
    """The question says nothing but a basis ("按金额", "by quantity"): a reply to a rate asked back about."""
    text = fold(question)
    basis = find_basis(text)
    rest = text[: basis.start] + text[basis.end :] if basis else text
    return basis is not None and not re.sub(r"[\s,，。.?？!！呢吧吗的]", "", rest)


# --- measure words --------------------------------------------------------------------------


def measure_readings(schema: Schema, text: str, term: Term, terms: list[Term]) -> tuple[list[str], int]:
    """The measure columns a measure mention may mean, after what the word and the question settle, and where
    the mention ends (past a unit word that belongs to it: "退货的金额")."""
    strengths = reached(schema, text, term.start, term.end)
    if not strengths or max(strengths.values()) >= NAME:
        return [term.column], term.end
    best = max(strengths.values())  # "chart" of both US Chart and UK Chart: either, so asked
    columns = [c for c, s in strengths.items() if s >= CONCEPT_PART] or [c for c, s in strengths.items() if s == best]
    if {t.column for t in terms if t.kind == "column" and t != term} & set(columns):
        return [term.column], term.end  # "退货率（退货数量/订单数量）": the question names what it means elsewhere
    units = units_of_word(text[term.start : term.end])
    said_after = _UNIT_AFTER.match(text, term.end)
    if said_after:  # "退货件数", "退货的金额", "return amount": the word right after says the unit
        units = {unit_of_name(said_after["w"]) or "quantity"}
    if len(units) == 1:
        chosen = [c for c in columns if unit_of_name(c) in units]
        if len(chosen) == 1 and said_after:
            return chosen, said_after.end()
        columns = chosen or columns
    return columns, term.end


# --- values ----------------------------------------------------------------------------------


def value_columns(schema: Schema, term: Term) -> list[tuple[str, str]]:
    """(column, value as written there) for every text column that holds the mentioned value."""
    wanted = fold(str(term.value)).strip()
    found = []
    for view in schema.views:
        if view.kind != "text" or view.category not in ("dimension", "id", "flag"):
            continue
        same = next((v for v in view.values if fold(v).strip() == wanted), None)
        if same is not None:
            found.append((view.name, same))
    return found


def named_column(text: str, term: Term, terms: list[Term], columns: list[str]) -> str | None:
    """The one of `columns` the question names for a value: right beside it ("线上（地区）", "地区为线上",
    "region Online"), else anywhere in the question except as a grouping ("各渠道")."""
    beside, elsewhere = [], []
    # "of the rivers that flow into the timava": the rows are the rivers, so the value is not the River named
    headed = {
        t.column
        for t in terms
        if t.kind == "column" and t.column in columns and t.end <= term.start and HEADS_A_CLAUSE.match(text, t.end)
    }
    others = [c for c in columns if c not in headed]
    if headed and len(others) == 1:
        return others[0]
    for t in terms:
        if t.kind != "column" or t.column not in columns:
            continue
        gap = text[t.end : term.start] if t.end <= term.start else text[term.end : t.start]
        if t.end <= term.start and gap.strip(" 为是=:：的") == "" or t.start >= term.end and gap.strip(" (（") == "":
            beside.append(t.column)
        elif not any(text[max(0, t.start - 10) : t.start].rstrip().endswith(fold(w)) for w in GROUP_MARKERS):
            elsewhere.append(t.column)
    for found in (beside, elsewhere):
        if len(set(found)) == 1:
            return found[0]
    return None


def _named_beside(text: str, term: Term, terms: list[Term]) -> str | None:
    """The one other column the question names whose name holds the word said ("year" beside "restored", which
    names Year restored): the word is that column's."""
    said = fold(text[term.start : term.end]).strip()
    others = {t.column for t in terms if t.kind == "column" and t is not term and t.column != term.column}
    holding = [c for c in others if said and said in name_words(c)]
    return holding[0] if len(holding) == 1 else None


_VERB = re.compile(r"(?<![a-z])(?:[a-z]{5,}|wins?|won)(?![a-z])")


def done_column(text: str, terms: list[Term], columns: list[str]) -> str | None:
    """The one of `columns` whose rows do what the question's verb says: "how many events did ana ruiz win" over
    a Winner and a Second column, "the films she directed" over Director and Cast."""
    verbs = [
        m.group(0) for m in _VERB.finditer(text) if not any(t.start < m.end() and m.start() < t.end for t in terms)
    ]
    found = {c for c in columns for v in verbs if done_by(v, c)}
    return found.pop() if len(found) == 1 else None


# --- rates of a subject ------------------------------------------------------------------------


def _base(schema: Schema, unit: Unit, exclude: set[str]) -> str | None:
    forms = {fold(f) for c in _BASE_CONCEPTS for f in CONCEPTS.get(c, ())}
    bases = [
        v.name
        for v in schema.of("measure")
        if v.name not in exclude
        and not v.averaged
        and unit_of_name(v.name) == unit
        and any(alias in forms and s >= CONCEPT_PART for alias, s in v.aliases)
    ]
    return bases[0] if len(bases) == 1 else None


def subject_rate(schema: Schema, question: str, text: str, terms: list[Term]) -> SubjectRate | None:
    """A rate said right after (or "rate of" before) a measure mention whose columns have a base per unit."""
    measures = [t for t in terms if t.kind == "column" and schema.by_name[t.column].category == "measure"]
    for m in re.finditer("|".join(re.escape(w) for w in sorted(RATE_WORDS, key=len, reverse=True)), text):
        before = [t for t in measures if re.fullmatch(r"[\s的]?", text[t.end : m.start()])]
        after = [t for t in measures if re.fullmatch(r"\s+of\s+(?:the\s+)?", text[m.end() : t.start])]
        if not (before or after):
            continue
        subject = (before or after)[0]
        if any(t != subject for t in measures):
            continue
        strengths = reached(schema, text, subject.start, subject.end)
        columns = [c for c, s in strengths.items() if s >= CONCEPT_PART] or [subject.column]
        pairs: dict[Unit, tuple[str, str]] = {}
        for unit in UNITS:
            numerators = [c for c in columns if unit_of_name(c) == unit]
            base = _base(schema, unit, set(columns))
            if len(numerators) == 1 and base is not None:
                pairs[unit] = (numerators[0], base)
        if pairs:
            start, end = min(subject.start, m.start()), max(subject.end, m.end())
            return SubjectRate(question[start:end], start, end, pairs)
    return None


# --- the questions asked back --------------------------------------------------------------------


def _replaced(question: str, start: int, end: int, text: str) -> str:
    return question[:start] + text + question[end:]


def _asked(question: str) -> str:
    return question.strip().rstrip("?？。.!！ ")


def value_of_column(value: str, column: str) -> str:
    """ "线上（渠道）", "Online (channel)": a value with the column it is meant in."""
    return _("%(value)s (%(column)s)") % {"value": value, "column": column}


def ask_measure(question: str, term: Term, columns: list[str], lang: Lang) -> Clarification | None:
    said = question[term.start : term.end]
    if quotes_a_number(said + "".join(columns)):
        return None
    choices = [_replaced(question, term.start, term.end, c).strip() for c in columns]
    with speaking(lang):
        asked = _("Please confirm: “%(said)s” could mean any of these columns: %(columns)s. Which one?")
        return Clarification(asked % {"said": said, "columns": names(columns)}, choices)


def ask_sold(question: str, start: int, end: int, columns: list[str], lang: Lang) -> Clarification | None:
    """ "2025年哪一天卖得最好" over data with both 销售额 and 杯数: best by the money taken or by the units sold."""
    said = question[start:end]
    if quotes_a_number(said + "".join(columns)):
        return None
    with speaking(lang):
        choices = [_replaced(question, start, end, _("with the highest %(column)s") % {"column": c}) for c in columns]
        asked = _("Please confirm: “%(said)s” by which measure: %(columns)s?")
        return Clarification(asked % {"said": said, "columns": names(columns)}, choices)


def ask_value(question: str, term: Term, columns: list[tuple[str, str]], lang: Lang) -> Clarification | None:
    said = question[term.start : term.end]
    if quotes_a_number(said + "".join(c for c, _v in columns)):
        return None
    with speaking(lang):
        choices = [_replaced(question, term.start, term.end, value_of_column(v, c)) for c, v in columns]
        asked = _("Please confirm: “%(said)s” appears in several columns: %(columns)s. Which one do you mean?")
        return Clarification(asked % {"said": said, "columns": names([c for c, _v in columns])}, choices)


def ask_rate(question: str, rate: SubjectRate, lang: Lang) -> Clarification | None:
    q_num, q_base = rate.pairs["quantity"]
    a_num, a_base = rate.pairs["amount"]
    if quotes_a_number(rate.word + q_num + q_base + a_num + a_base):
        return None
    said = {"rate": rate.word, "q_num": q_num, "q_base": q_base, "a_num": a_num, "a_base": a_base}
    asked = {"question": _asked(question)}
    with speaking(lang):
        return Clarification(
            _(
                "Please confirm: should the %(rate)s be computed by quantity (%(q_num)s / %(q_base)s) or by amount "
                "(%(a_num)s / %(a_base)s)?"
            )
            % said,
            [_("%(question)s (by quantity)?") % asked, _("%(question)s (by amount)?") % asked],
        )


def _one_quantity(columns: list[str]) -> list[str]:
    """ "Isolation (mi)" and "Isolation (km)", "Weight at birth (g)" and "(oz)": one quantity in two units, which
    order, compare and count alike; the first is read (its unit is in its name, shown with every value)."""
    bare = {without_unit(fold(c).strip()) for c in columns}
    return columns[:1] if len(columns) > 1 and len(bare) == 1 and None not in bare else columns


@dataclass
class Readings:
    """What the question's mentions mean once settled: the mentions, the rate of a subject to compute (its
    numerator and base columns), the span of a stated basis, and the question to ask back, if any."""

    terms: list[Term]
    rate: SubjectRate | None = None
    rate_pair: tuple[str, str] | None = None
    basis_span: tuple[int, int] | None = None
    asked: Clarification | None = None


def read(question: str, text: str, schema: Schema, terms: list[Term], lang: Lang) -> Readings:
    open_measures: list[tuple[Term, list[str]]] = []
    open_values: list[tuple[Term, list[tuple[str, str]]]] = []
    settled: list[Term] = []
    for term in terms:
        if settled and term.start < settled[-1].end:
            continue  # the unit word of the mention before it ("退货的金额")
        view: ColumnView = schema.by_name[term.column]
        if term.kind == "column" and view.category == "measure":
            columns, end = measure_readings(schema, text, term, terms)
            columns = _one_quantity(columns)
            named = _named_beside(text, term, terms) if len(columns) > 1 else None
            if named is not None:  # "the year forth and clyde was restored": the year of Year restored
                columns, end = [named], term.end
            if len(columns) == 1:
                term = replace(term, column=columns[0], end=end)
            else:
                open_measures.append((term, columns))
        elif term.kind == "value":
            holders = value_columns(schema, term)
            columns = [c for c, _v in holders]
            chosen = (
                named_column(text, term, terms, columns) or done_column(text, terms, columns)
                if len(holders) > 1
                else None
            )
            if chosen is not None:
                term = replace(term, column=chosen, value=dict(holders)[chosen])
            elif len(holders) > 1:
                open_values.append((term, holders))
        settled.append(term)
    readings = Readings(settled)
    _read_rate(readings, question, text, schema, lang)
    if readings.rate is not None:
        rate = readings.rate
        open_measures = [(t, c) for t, c in open_measures if not rate.start <= t.start < rate.end]
    asked = [ask_measure(question, t, c, lang) for t, c in open_measures]
    asked += [ask_value(question, t, h, lang) for t, h in open_values]
    readings.asked = readings.asked or next((a for a in asked if a is not None), None)
    return readings


def _read_rate(readings: Readings, question: str, text: str, schema: Schema, lang: Lang) -> None:
    """ "退货率" over quantity and amount columns: the basis the question states ("按金额"), the only one the data
    has, or a question back. The words of a stated basis are the basis, not mentions of columns."""
    basis = find_basis(text)
    inside = [t for t in readings.terms if basis and basis.start <= t.start and t.end <= basis.end]
    rate = subject_rate(schema, question, text, [t for t in readings.terms if t not in inside])
    if rate is None or (basis is not None and basis.unit not in rate.pairs):
        return
    readings.rate = rate
    if basis is not None:
        readings.rate_pair = rate.pairs[basis.unit]
        readings.terms = [t for t in readings.terms if t not in inside]
        readings.basis_span = (basis.start, basis.end)
    elif len(rate.pairs) == 1:
        readings.rate_pair = next(iter(rate.pairs.values()))
    else:
        readings.asked = ask_rate(question, rate, lang)
