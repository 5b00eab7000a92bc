"""The average of each period's (or each group's) total: "月均销售额", "平均每月的订单数", "日均金额", "average monthly
revenue", "平均每个地区的销售额". One query: the total of every period (or group), and a window averaging those
totals over them, so the answer quotes the average and the totals it is the average of. The rows' own average in
each period ("每个月的平均订单金额") is another question (aggregate), and so is an average of prices or rates,
whose totals mean nothing (the question then stays with the kinds after this one)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.agent.clarification import Clarification
from apps.agent.offline import lexicon as lx
from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Group, Metric, Shown
from apps.agent.offline.schema_terms import Term
from apps.agent.offline.wording import speaking
from apps.datasets.query.spec import Filter, Sort, Window

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder

_ZH_GRAIN = {"月": "month", "天": "day", "日": "day", "周": "week", "季": "quarter", "季度": "quarter", "年": "year"}
_EN_GRAIN = {"monthly": "month", "daily": "day", "weekly": "week", "quarterly": "quarter", "yearly": "year"}
_EN_GRAIN |= {"annual": "year", "month": "month", "day": "day", "week": "week", "quarter": "quarter", "year": "year"}
_PERIOD = re.compile(
    r"(?P<a>月|日|周|季|年)均|平均每个?(?P<b>月|天|日|周|季度|年)|每个?(?P<c>月|天|日|周|季度|年)平均"
    r"|(?<![a-z])average (?P<d>monthly|daily|weekly|quarterly|yearly|annual)(?![a-z])"
    r"|(?<![a-z])(?P<e>monthly|daily|weekly|quarterly|yearly|annual) average(?![a-z])"
    r"|(?<![a-z])average [a-z ]{1,30}? (?:per|a|each) (?P<f>month|day|week|quarter|year)(?![a-z])"
)
# "平均每个地区的销售额": the average over the regions of each region's total (not 每个地区的平均销售额)
_ZH_EACH = re.compile(r"平均每(?:个|家|位|名|款|种|类)?\s*$")


def _period(b: MetricBuilder) -> str | None:
    """The grain whose periods' totals are averaged, when the question asks for it (with or without times)."""
    found = _PERIOD.search(b.a.text)
    if found is None:
        return None
    word = next(g for g in found.groups() if g)
    return _ZH_GRAIN.get(word) or _EN_GRAIN.get(word)


def _each_group(b: MetricBuilder) -> Term | None:
    """The dimension after 平均每个 ("平均每个地区的销售额"), in a Chinese question."""
    if b.a.lang != "zh":
        return None
    for term in b.a.columns("dimension"):
        if _ZH_EACH.search(b.a.text, 0, term.start):
            return term
    return None


def _additive(b: MetricBuilder) -> bool:
    """One measure people add up (not a price or a rate), or rows counted with no measure named."""
    if len(b.measures) > 1 or b.a.cues.share or b.a.cues.rate or b.a.cues.change or b.a.cues.cumulative:
        return False
    if b.measures:
        return not b.a.view(b.measures[0]).averaged
    return b.a.cues.counting


def detect(b: MetricBuilder) -> bool:
    if _period(b) is not None:
        return True
    group = _each_group(b)
    return group is not None and all(g.column == group.column for g in b.plan.groups)


def build(b: MetricBuilder) -> None:
    a, plan = b.a, b.plan
    grain = _period(b)
    said = _PERIOD.search(a.text) if grain is not None else None
    if said is not None:  # "日均", "average monthly": read here
        a.taken[said.start() : said.end()] = b"\x01" * (said.end() - said.start())
    if grain is not None and a.time_col is None:  # "average monthly revenue" over months written as text
        plan.clarification = _no_periods(b, said, grain)
        return
    if not _additive(b):
        plan.clarification = _ask_total(b, said, grain)
        return
    others: list[str] = []
    if grain is not None:
        others = [g.name for g in plan.groups if g.column != (a.time_col.name if a.time_col else None)]
        with speaking(a.lang):
            over = _period_group(b, grain)
    else:
        term = _each_group(b)
        assert term is not None  # noqa: S101 - detected
        plan.groups = [Group(term.column, term.column)]
        over = term.column
    b.names.add(over)
    if b.measures:
        measure = b.measures[0]
        total = b.add(Metric(b.agg_name("sum", measure.column), "sum", measure.column), measure.start)
    else:
        total = b.count_rows()
    with speaking(a.lang):
        if grain is not None:
            name = _("average %(measure)s per %(period)s") % {"measure": total.name, "period": _period_word(grain)}
        else:
            name = _("average %(measure)s per %(group)s") % {"measure": total.name, "group": over}
    name = b.unique(name)
    # "每个地区的月均销售额": each region's months averaged, one average per region
    plan.windows.append(Window(name=name, func="mean_of_groups", of=total.name, partition_by=others))
    plan.shown = [Shown(name), Shown(total.name)]
    plan.sort = [Sort(by=g.name) for g in plan.groups]  # each group's periods together, in order


def _without(question: str, said: re.Match[str] | None) -> str:
    """The question without the words of the average ("月均"), as a question the data answers plainly."""
    return question if said is None else (question[: said.start()] + question[said.end() :]).strip()


def _no_periods(b: MetricBuilder, said: re.Match[str] | None, grain: str) -> Clarification:
    """ "月均销售额" where no column reads as dates or periods: each period's total cannot be formed."""
    a = b.a
    rest = _without(a.question, said)
    with speaking(a.lang):
        question = _(
            "An average per %(period)s needs each %(period)s's total, but no column of this data reads as dates or "
            "periods to group by, so I have not answered. Ask for the total, or for each value of the column that "
            "holds the periods."
        ) % {"period": lx.GRAIN_LABELS[a.lang][grain]}
    return Clarification(question, [rest] if rest else [])


def _ask_total(b: MetricBuilder, said: re.Match[str] | None, grain: str | None) -> Clarification:
    """ "月均客单价": an average of each month's total, of something that is no total (a price, a rate, or more
    than one measure): the whole period's figure, or each period's, is asked for instead."""
    a = b.a
    rest = _without(a.question, said)
    with speaking(a.lang):
        period = lx.GRAIN_LABELS[a.lang][grain or "month"]
        question = _(
            "An average per %(period)s adds up each %(period)s's total first, but what is asked is not a total that "
            "adds up (a price, a rate, an average, or several measures). Do you mean it over the whole period, or "
            "for each %(period)s?"
        ) % {"period": period}
        each = _("%(question)s, for each %(period)s") % {"question": rest.rstrip("?？。. "), "period": period}
    return Clarification(question, [c for c in (rest, each) if c])


def _period_group(b: MetricBuilder, grain: str) -> str:
    """The group of periods at `grain` (the one the question's 每月 already made, else a new one), periods with no
    time left out as a group of their own; its name."""
    a, plan = b.a, b.plan
    column = a.time_col
    assert column is not None  # noqa: S101 - detected
    own = column.category == "year" or column.period
    others = [g for g in plan.groups if g.column != column.name]
    made = next((g for g in plan.groups if g.column == column.name and (own or g.grain == grain)), None)
    if made is not None:
        plan.groups, plan.time_group = [*others, made], made.name
        return made.name
    named = column.name if own else b.unique(lx.GRAIN_LABELS[a.lang][grain])
    plan.groups = [*others, Group(column.name, named, grain if column.category == "time" else None)]
    plan.time_group = named
    if column.null_ratio > 0 and not any(f.column == column.name and f.op == "is_null" for f in plan.filters):
        plan.filters.append(Filter(column=column.name, op="is_null", value=False))
        plan.filter_labels.append(_("%(column)s is not blank") % {"column": column.name})
    return named


def _period_word(grain: str) -> str:
    words = {
        "month": pgettext("a period whose totals are averaged", "month"),
        "day": pgettext("a period whose totals are averaged", "day"),
        "week": pgettext("a period whose totals are averaged", "week"),
        "quarter": pgettext("a period whose totals are averaged", "quarter"),
        "year": pgettext("a period whose totals are averaged", "year"),
    }
    return words[grain]


KIND = Kind("group_average", detect, build)
