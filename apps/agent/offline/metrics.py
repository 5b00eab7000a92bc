"""Turns the mentions of one question into aggregations, conditions, ratios, windows, filters and sorting."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from apps.agent.clarification import Clarification, quotes_a_number
from apps.agent.offline import lexicon as lx
from apps.agent.offline import lookup
from apps.agent.offline.cues import Threshold, find_words, superlative_on, threshold_label
from apps.agent.offline.plan import Group, Lang, Metric, Plan, Shown
from apps.agent.offline.schema_terms import ColumnView, Term, fold, singular
from apps.agent.offline.shaping import PLACEHOLDERS, finish_plan
from apps.agent.offline.wording import speaking
from apps.datasets.query.spec import Derived, Filter, Sort, Window

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer

_ZH = {"sum": "{c}合计", "avg": "平均{c}", "median": "{c}中位数", "max": "最高{c}", "min": "最低{c}"}
_ZH |= {"stddev": "{c}标准差", "variance": "{c}方差", "quantile": "{c}分位数", "nunique": "{c}数"}
_EN = {"sum": "total {c}", "avg": "average {c}", "median": "median {c}", "max": "max {c}", "min": "min {c}"}
_EN |= {"stddev": "stddev of {c}", "variance": "variance of {c}", "quantile": "quantile of {c}"}
_EN |= {"nunique": "distinct {c}"}
_ZH_ROLES = {"corr": "{c}与{c2}相关系数", "per": "{c}/{c2}", "earliest": "最早{c}", "latest": "最晚{c}"}
_ZH_ROLES |= {"min": "{c}最小值", "lower_quartile": "{c}下四分位数", "median": "{c}中位数"}
_ZH_ROLES |= {"upper_quartile": "{c}上四分位数", "max": "{c}最大值"}
_EN_ROLES = {
    "corr": "correlation of {c} and {c2}",
    "per": "{c} per {c2}",
    "earliest": "earliest {c}",
    "latest": "latest {c}",
}
_EN_ROLES |= {"min": "min {c}", "lower_quartile": "lower quartile of {c}", "median": "median {c}"}
_EN_ROLES |= {"upper_quartile": "upper quartile of {c}", "max": "max {c}"}
Condition = tuple[Term, Filter]


_WHO_WHICH = re.compile(r"^\s*(?:who|whom|which)(?![a-z])")
_TOP = re.compile(r"(?<![a-z])(?:top|best)(?![a-z])")
_HIGH = re.compile(r"(?<![a-z])(?:highest|higher|peak)(?![a-z])|最高|最好")
_LOW = re.compile(r"(?<![a-z])(?:lowest|lower|worst|bottom)(?![a-z])|最低|最差")


def ask_ordinal(column: str, lang: Lang) -> Clarification:
    """ "how many rounds were there" over a Round column: its numbers are positions, and their sum means
    nothing; the questions its numbers do answer are offered instead."""
    with speaking(lang):
        question = _("“%(column)s” numbers positions, so adding it up means nothing. Which do you mean?") % {
            "column": column
        }
        choices = [
            _("What is the highest %(column)s?") % {"column": column},
            _("How many different %(column)s values are there?") % {"column": column},
        ]
    return Clarification(question, choices)


def ask_years(column: str, lang: Lang) -> Clarification:
    """ "when did she take office" over a Took office column of years (1990): years added up or averaged mean
    nothing; the earliest and the latest do."""
    with speaking(lang):
        question = _("“%(column)s” holds years, so adding them up means nothing. Which do you mean?") % {
            "column": column
        }
        choices = [
            _("What is the earliest year in %(column)s?") % {"column": column},
            _("What is the latest year in %(column)s?") % {"column": column},
        ]
    return Clarification(question, choices)


def numbers_as_text(view: ColumnView) -> bool:
    """A text column whose cells are numbers but for a few marks ("18", "—", "35"): its values are amounts, so
    counting the different ones answers nothing asked."""
    if view.kind != "text" or not view.values or not view.complete:
        return False
    said = [v.strip() for v in view.values if v.strip() and v.strip().lower() not in PLACEHOLDERS]
    return len(said) >= 2 and sum(1 for v in said if _NUMBER_CELL.fullmatch(v)) >= 0.8 * len(said)


_NUMBER_CELL = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?(?:\[\w+\])?")


def ask_numbers_as_text(column: str, lang: Lang) -> Clarification:
    with speaking(lang):
        if quotes_a_number(column):  # "1 credit": a clarification's question quotes no number
            question = _(
                "The column the question names holds numbers written as text beside marks such as “—”, so I "
                "cannot add them up or count them reliably. Please ask about another column, or clean the column "
                "and upload the file again."
            )
            return Clarification(question, [])
        question = _(
            "“%(column)s” holds numbers written as text beside marks such as “—”, so I cannot add them up or "
            "count them reliably. Please ask about another column, or clean the column and upload the file again."
        ) % {"column": column}
    return Clarification(question, [])


# "占华东总销售额", "as a share of Atlanta's total": what comes right before the whole a share is of
_WHOLE_BEFORE = re.compile(r"占\s*(?:全部|整个)?\s*$|(?<![a-z])of\s+(?:the\s+)?$")

# "有几个月", "多少天", "how many months": periods counted
_COUNTED_PERIOD = re.compile(
    r"(?:几|多少)个?(?P<zh>月|天|周|季度|年)(?![份度])|how many (?P<en>days|weeks|months|quarters|years)(?![a-z])"
)
_PERIOD_GRAIN = {"月": "month", "天": "day", "周": "week", "季度": "quarter", "年": "year"}
_PERIOD_GRAIN |= {"days": "day", "weeks": "week", "months": "month", "quarters": "quarter", "years": "year"}


def _ask_total_or_row(a: Analyzer, target: Term, t: Threshold) -> Clarification:
    """ "how many teams have more than 10 wins" over teams' seasons: in total, or in one row (a season)?"""
    said = a.question[target.start : target.end].strip()
    with speaking(a.lang):
        question = _("Each %(things)s has several rows. Is the condition on %(column)s their total, or one row's?") % {
            "things": target.column,
            "column": t.column,
        }
        choices = [
            _("How many %(things)s have a total %(column)s %(op)s %(value)s?")
            % {"things": said, "column": t.column, "op": t.op, "value": t.label},
            _("How many rows have %(column)s %(op)s %(value)s?") % {"column": t.column, "op": t.op, "value": t.label},
        ]
    return Clarification(question, choices)


PER_BETWEEN = re.compile(r"\s*(?:per|每|/)\s*")  # what stands between a measure and the one it is taken per


def _slug(text: str) -> str:
    return re.sub(r"[^\w]+", "_", fold(text).strip()).strip("_")


class MetricBuilder:
    """Builds the plan's computations from the analyzer's mentions; `build()` then `finish()`."""

    def __init__(self, a: Analyzer, plan: Plan, values: dict[str, list[Term]], group_terms: list[Term]) -> None:
        self.a, self.plan, self.values, self.group_terms = a, plan, values, group_terms
        self.zh = a.lang == "zh"
        grouped = {g.column for g in plan.groups}
        seen: set[str] = set()
        self.measures: list[Term] = []
        for t in a.columns("measure"):
            if lookup.asks_which_number(a, t) or lookup.asks_position(a, t) or lookup.asks_when(a, t):
                continue
            if t.column not in grouped and t.column not in seen and not a.threshold_subject(t) and not a.count_word(t):
                seen.add(t.column)
                self.measures.append(t)
        named = [t for t in self.measures if a._before(t, ("按照", "按", "by", "in terms of", "based on"), 4)]
        # "卖得最好的产品（按销售额）": the measure named after 按 ranks; "which department paid the most bonus":
        # the one the superlative is said on, not the one a verb implied (paid: salary)
        on = [t for t in self.measures if superlative_on(a.text, t, a.lang)]
        named = named or (on if len(on) == 1 else [])
        # "the highest points per game": what the measure is taken per ranks with it (a ratio, not the total)
        named += [t for t in self.measures if named and PER_BETWEEN.fullmatch(a.text, named[-1].end, t.start)]
        if named and a.cues.ranking:
            self.measures = named
        self.flags = a.columns("flag")
        self.used: set[int] = set()
        self.names: set[str] = {g.name for g in plan.groups}
        self.positions: dict[str, int] = {}
        self.time_consumed = False  # the kind applied the question's periods itself (not as plain filters)

    # --- names ----------------------------------------------------------------------------
    def unique(self, name: str) -> str:
        candidate, n = name, 2
        while candidate in self.names:
            candidate, n = f"{name}_{n}", n + 1
        self.names.add(candidate)
        return candidate

    def agg_name(self, func: str, column: str) -> str:
        if self.zh:
            return self.unique(_ZH[func].format(c=column))
        # words, then the data's own name: "total Attendance", "total 金额", never "total_Attendance"
        return self.unique(_EN[func].format(c=column))

    def count_name(self) -> str:
        """订单数 / order_count when the question names what is counted, else 记录数 / count."""
        target, text = self.a.cues.count_target, self.a.text
        if any(w in text for w in ("人数", "多少人", "几个人", "headcount")):
            return self.unique("人数" if self.zh else "headcount")
        ids = self.a.columns("id")
        if target is None and ids and not self.measures:
            target = ids[0]
        said = self.a.question[target.start : target.end] if target is not None else ""
        if target is None or self.a.view(target).category not in ("id", "time", "flag") or said.endswith("ed"):
            return self.unique("记录数" if self.zh else "count")  # "how many episodes aired": no "number of aired"
        return self.unique(said + "数" if self.zh else f"number of {fold(said).strip()}")

    def add(self, metric: Metric, at: int) -> Metric:
        self.plan.metrics.append(metric)
        self.positions[metric.name] = at
        return metric

    # --- aggregations ---------------------------------------------------------------------
    def func_for(self, term: Term) -> str:
        if self.a.cues.pace and term.column in [t.column for t in self.a.terms if t.kind == "column"]:
            return "min" if self.a.cues.ascending else "max"  # "which city had the best time": its best one
        words = self.a.cues.agg_words
        gap_ok = re.compile(r"^[\s的之]{0,2}$")
        following = [w for w in words if w[0] >= term.end and gap_ok.match(self.a.text[term.end : w[0]])]
        if following:
            return following[0][2]
        preceding = [w for w in words if w[1] <= term.start]
        if preceding:
            return preceding[-1][2]
        later = [w for w in words if w[0] >= term.end and not any(term.end <= m.start < w[0] for m in self.measures)]
        if later:
            return later[0][2]
        return "avg" if self.a.view(term).averaged else "sum"

    def measure_metric(self, term: Term, func: str | None = None) -> Metric:
        func = func or self.func_for(term)
        view, name = self.a.view(term), ""
        if func == "max" and view.ordinal and _TOP.search(self.a.text):
            func = "min"  # "lorenzo's top position", "the top rank": place number 1 is the top
        elif func == "max" and view.place and _HIGH.search(self.a.text):
            func, name = "min", self.unique(f"最好{term.column}" if self.zh else f"best {term.column}")
        elif func == "min" and view.place and _LOW.search(self.a.text):  # "their lowest position": the largest
            func, name = "max", self.unique(f"最差{term.column}" if self.zh else f"worst {term.column}")
        if func == "sum" and view.ordinal and self.plan.clarification is None:
            self.plan.clarification = ask_ordinal(view.name, self.a.lang)
        if func in ("sum", "avg") and view.years:
            func, name = self.year_edge(term, func, name)
        if func in ("sum", "avg") and view.years and self.plan.clarification is None:
            self.plan.clarification = ask_years(view.name, self.a.lang)  # "when was he born": no sum of years
        q = self.a.cues.quantile if func == "quantile" else None
        return self.add(Metric(name or self.agg_name(func, term.column), func, term.column, q=q), term.start)

    def year_edge(self, term: Term, func: str, name: str) -> tuple[str, str]:
        """ "the earliest year in Opened": over a column of years, the one earliest or latest word said (read
        here) asks for the smallest or largest year; else (`func`, `name`) as they were. Not for "who was born
        first" (a person is asked, not a year), nor the column's own word ("the total of first elected")."""
        if self.plan.groups or _WHO_WHICH.match(self.a.text):
            return func, name
        named = bytearray(len(self.a.text))
        named[term.start : term.end] = b"\x01" * (term.end - term.start)
        edges = find_words(self.a.text, lx.EARLY_WORDS + lx.LATE_WORDS, named)
        kinds = {"min" if w in lx.EARLY_WORDS else "max" for _s, _e, w in edges}
        if len(kinds) != 1:
            return func, name
        func = kinds.pop()
        word = {"min": ("最早", "earliest"), "max": ("最晚", "latest")}[func][0 if self.zh else 1]
        for start, end, _w in edges:
            self.a.taken[start:end] = b"\x01" * (end - start)
        return func, self.unique(f"{word}{term.column}" if self.zh else f"{word} {term.column}")

    def base_metric(self) -> Metric:
        """What a share or rate is taken of: the first measure (added up), else the number of rows."""
        if self.measures:
            term = self.measures[0]
            return self.measure_metric(term, "sum" if self.func_for(term) in ("max", "min") else None)
        return self.count_rows()

    def count_rows(self) -> Metric:
        target = self.a.cues.count_target
        return self.add(Metric(self.count_name(), "count"), target.start if target else 0)

    def counted(self) -> None:
        cues, target = self.a.cues, self.a.cues.count_target
        if not cues.counting or (target is not None and self.a.view(target).category == "measure"):
            return
        if target is None and self.measures and self._one_named_row():
            return  # "how many games did harbour city win" over a league table: its W, not its one row counted
        pinned = target is not None and len(self.values.get(target.column, [])) == 1
        if target is not None and target.column not in {g.column for g in self.plan.groups} and not pinned:
            view = self.a.view(target)
            if numbers_as_text(view) and self.plan.clarification is None:  # "the total number of orders"
                self.plan.clarification = ask_numbers_as_text(view.name, self.a.lang)
                return
            # "how many players", "how many seasons are in the table" (a Season repeated for each team)
            if view.category == "dimension" or (view.category in ("id", "year") and not view.unique):
                self.add(Metric(self.agg_name("nunique", view.name), "nunique", view.name), target.start)
                if not cues.distinct and not self.plan.groups:  # "how many players": people, or their rows?
                    rows = self.add(Metric(self.unique("行数" if self.zh else "rows"), "count"), target.start)
                    self.plan.rows_beside = rows.name
                return
        self.count_rows()
        kind = target if pinned else self._kind_of_value()
        if kind is not None:
            self._occasions_beside(kind)

    def _kind_of_value(self) -> Term | None:
        """ "euro 2000 qualifying competitions": the column named right after its one value named (the kind of
        the value), in a count."""
        for column, values in self.values.items():
            if len(values) != 1:
                continue
            after = [
                t
                for t in self.a.terms
                if t.kind == "column" and t.column == column and self.a.text[values[0].end : t.start] == " "
            ]
            if after:
                return after[0]
        return None

    def _occasions_beside(self, target: Term) -> None:
        """ "how many euro 2000 qualifying competitions are listed": the rows of the one value named are counted
        (one competition, listed several times); where the rows are dated, the number of different dates is said
        beside, when it differs (a match listed once per goal)."""
        time = self.a.time_col
        if time is None or time.name == target.column or self.plan.groups or self.zh:
            return
        if time.distinct >= self.a.schema.row_count * (1 - time.null_ratio):
            return  # one row a date in the whole table: as many dates as rows, nothing to say beside
        name = self.agg_name("nunique", time.name)
        self.add(Metric(name, "nunique", time.name), target.start)
        self.plan.rows_beside = name

    def _one_named_row(self) -> bool:
        """Whether a value the question names is a whole row (a value of a column with one row per value)."""
        named = [t for terms in self.values.values() for t in terms]
        return len(named) == 1 and self.a.view(named[0]).unique

    # --- conditions, ratios and shares ----------------------------------------------------
    def flag_spec(self, term: Term) -> Filter:
        view = self.a.view(term)
        negated = self.a.negated(term) or self.a.excluded(term)  # "不含退货", "excluding returned orders"
        if isinstance(view.true_value, bool):
            return Filter(column=view.name, op="=", value=not negated)
        return Filter(column=view.name, op="!=" if negated else "=", value=view.true_value)

    def conditions(self) -> list[Condition]:
        cues = self.a.cues
        if not (cues.rate or cues.share):
            return []
        first_group = min((t.start for t in self.group_terms), default=None)
        found: list[Condition] = []
        grouped = {g.column for g in self.plan.groups}
        alone = not self.plan.groups and not self.flags  # "share of orders from 华东": the value is the share
        flagged_rate = cues.rate and not cues.share and bool(self.flags)
        for column, terms in self.values.items():
            term = terms[0]
            if len(terms) != 1 or column in grouped or (self.a.scoped(term) and not alone):
                continue
            if self._named_as_the_whole(term):
                continue  # "华东手机销售额占华东总销售额": 华东 is the whole, a filter on both parts
            if flagged_rate and any(term.end <= f.start for f in self.flags):
                continue  # "抖音小店的退货率": the value scopes the rate (a filter), it is not its numerator
            if first_group is None or term.start > first_group:
                found.append((term, Filter(column=column, op="=", value=term.value)))
        found += [(t, self.flag_spec(t)) for t in self.flags if not self.a.scoped(t)]
        return sorted(found, key=lambda c: c[0].start)

    def _named_as_the_whole(self, term: Term) -> bool:
        """The value is named again as the whole the share is of ("…占华东总销售额", "… of Atlanta's total")."""
        text = self.a.text
        again = [
            t
            for t in self.a.terms
            if t.kind == "value" and t.column == term.column and t.value == term.value and t.start >= term.end
        ]
        return any(_WHOLE_BEFORE.search(text, term.end, t.start) for t in again)

    def condition_text(self, conditions: list[Condition]) -> str:
        start, end = conditions[0][0].start, conditions[-1][0].end
        if end - start > 24:
            return "".join(self.a.question[t.start : t.end] for t, _ in conditions)
        return re.sub(r"[\s的]", "", self.a.question[start:end]) if self.zh else _slug(self.a.question[start:end])

    def conditional_ratio(self, conditions: list[Condition]) -> None:
        flag_where = [spec for term, spec in conditions if self.a.view(term).category == "flag"]
        value_where = [spec for term, spec in conditions if self.a.view(term).category != "flag"]
        text = self.condition_text(conditions)
        measure = self.measures[0].column if self.measures else None
        unit = (measure or "数") if self.zh else (_slug(measure) if measure else "count")
        den_text = (
            self.condition_text([c for c in conditions if c[1] in flag_where]) if value_where and flag_where else ""
        )
        if self.zh:
            names = (f"{text}{unit}", f"{den_text or '总'}{unit}", text + ("占比" if self.a.cues.share else "率"))
        else:
            names = (
                f"{text}_{unit}",
                f"{den_text or 'total'}_{unit}",
                text + ("_share" if self.a.cues.share else "_rate"),
            )
        func = "sum" if measure else "count"
        at = conditions[0][0].start
        num = self.add(Metric(self.unique(names[0]), func, measure, where=value_where + flag_where), at)
        den = self.add(Metric(self.unique(names[1]), func, measure, where=flag_where if value_where else []), at)
        self.ratio(names[2], num.name, den.name, "pct")
        self.used |= {term.start for term, _ in conditions}

    def ratio(self, name: str, num: str, den: str, fmt: str | None) -> None:
        name = self.unique(name)
        self.plan.derived.append(Derived(name=name, expr=f"[{num}] / [{den}]"))
        self.plan.shown = [Shown(name, fmt), Shown(num), Shown(den)]

    def sum_ratio(self, word: str, numerator: str, denominator: str, at: int, fmt: str | None = "pct") -> None:
        """A rate named by the question's word ("退货率", "profit margin"): one column's sum over another's."""
        num = self.add(Metric(self.agg_name("sum", numerator), "sum", numerator), at)
        den = self.add(Metric(self.agg_name("sum", denominator), "sum", denominator), at)
        self.ratio(self.rate_name(word), num.name, den.name, fmt)

    def rate_name(self, word: str) -> str:
        """The question's own word for a rate (退货率, profit_margin); "rate" for a Chinese word in English."""
        cjk = bool(re.search(r"[\u4e00-\u9fff]", word))
        name = re.sub(r"\s+", "", word) if self.zh and cjk else _slug(word)
        return name if self.zh or not re.search(r"[\u4e00-\u9fff]", name) else "rate"

    def share(self) -> None:
        base = self.base_metric()
        name = self.unique("占比" if self.zh else "share")
        partition = [self.plan.time_group] if self.plan.time_group and self.plan.dims else []
        self.plan.windows.append(Window(name=name, func="share_of_total", of=base.name, partition_by=partition))
        self.plan.shown = [Shown(base.name), Shown(name, "pct")]

    # --- the whole ----------------------------------------------------------------------------
    def _counted_groups(self) -> bool:
        """ "有多少个地区的销售额超过80万", "how many teams have more than 3000 total points": the things counted span
        many rows each, so the threshold is on each one's total; they are grouped, listed and counted. Said
        without "total" in English ("how many teams have more than 10 wins" over teams' seasons) it may mean one
        row: asked which."""
        cues, target = self.a.cues, self.a.cues.count_target
        if cues.counting and not self.plan.groups and self._counted_periods():
            return True
        if not cues.counting or self.plan.groups or target is None or cues.rate or cues.corr or cues.rate_concept:
            return False
        view = self.a.view(target)
        present = self.a.schema.row_count * (1 - view.null_ratio)
        if view.category not in ("dimension", "id") or view.unique or not view.distinct or present < 2 * view.distinct:
            return False
        measured = [t for t in cues.thresholds if self.a.schema.by_name[t.column].category == "measure"]
        if not measured or any(self.a.schema.by_name[t.column].ordinal for t in measured):
            return False
        totals = self.zh or any(func == "sum" for _s, _e, func in cues.agg_words)
        if not totals:
            self.plan.clarification = _ask_total_or_row(self.a, target, measured[0])
            return False
        self.plan.groups.append(Group(target.column, target.column))
        cues.count_target, cues.counting = None, False
        cues.agg_words = [w for w in cues.agg_words if w[2] != "sum"]
        self.measures = [m for m in self.measures if m.column not in {t.column for t in measured}]
        return True

    def _counted_periods(self) -> bool:
        """ "2025年有几个月的销售额超过150万", "how many months had sales over 1.5 million": each period's total is
        compared, never a single row's; the periods are grouped (at the grain counted) and listed."""
        said = _COUNTED_PERIOD.search(self.a.text)
        column = self.a.time_col
        if said is None or column is None or not self.a.cues.thresholds:
            return False
        grain = _PERIOD_GRAIN[said.group("zh") or said.group("en")]
        if any(self.a.schema.by_name[t.column].category != "measure" for t in self.a.cues.thresholds):
            return False
        if column.period or column.category == "year":
            if (column.period or "year") != grain:
                return False  # "how many days" over a column of months: not a grain the data has
            self.plan.groups.append(Group(column.name, column.name))
        elif column.category == "time":
            label = lx.GRAIN_LABELS[self.a.lang][grain]
            self.plan.groups.append(Group(column.name, self.unique(label), grain))
        else:
            return False
        self.a.cues.counting, self.a.cues.count_target = False, None
        return True

    def group_thresholds(self) -> None:
        """ "销售额超过10万的地区": with groups and nothing else asked, a threshold is on each group's total."""
        cues = self.a.cues
        counted = self._counted_groups()
        if not self.plan.groups or cues.counting or cues.rate or cues.corr or cues.rate_concept:
            return
        if self.measures and not counted:
            return
        for t in list(cues.thresholds):
            view = self.a.schema.by_name[t.column]
            if view.category != "measure" or view.ordinal:
                continue  # "the player in round 3": a position is a row's, never a group's total
            func = "avg" if view.averaged else "sum"
            same = [m for m in self.plan.metrics if m.func == func and m.column == t.column]  # both ends of a range
            metric = same[0] if same else self.add(Metric(self.agg_name(func, t.column), func, t.column), t.start)
            self.plan.having.append(Filter(column=metric.name, op=t.op, value=t.value))
            self.plan.filter_labels.append(threshold_label(metric.name, t, self.a.lang))  # said once (finish_plan)
            cues.thresholds.remove(t)

    def row_count_thresholds(self) -> None:
        """ "which home cities have at least two teams": each group's number of rows (one row per team), kept
        where it meets the condition; the groups are listed with it, most first."""
        cues = self.a.cues
        target = cues.count_target
        if not cues.row_counts:
            return
        if not self.plan.groups and target is not None and self.a.view(target).category == "dimension":
            # "how many home cities have at least 2 teams": the cities that do, listed, and how many they are
            self.plan.groups.append(Group(target.column, target.column))
            cues.count_target = None
        if not self.plan.groups:
            return
        for t in cues.row_counts:
            name = self.unique(f"{t.column}数" if self.zh else f"number of {t.column}")
            metric = self.add(Metric(name, "nunique", t.column), t.start)
            self.plan.having.append(Filter(column=metric.name, op=t.op, value=t.value))
            self.plan.filter_labels.append(threshold_label(metric.name, t, self.a.lang))
        cues.counting = False
        self.plan.shown = [Shown(self.plan.having[0].column)]
        self.plan.sort = [Sort(by=self.plan.having[0].column, desc=True)]

    def build(self) -> None:
        """The kind of question decides the computation (kinds.REGISTRY, in order); thresholds on groups first."""
        from apps.agent.offline.kinds import choose  # the kinds build on this class

        self.row_count_thresholds()
        self.group_thresholds()
        kind = choose(self)
        self.plan.question_kind = kind.name
        kind.build(self)
        self.plan.metrics.sort(key=lambda m: self.positions.get(m.name, 0))

    def aggregate_all(self) -> None:
        """Each measure the question names, aggregated as its words say ("mean and standard deviation of X": each
        of them); then what it counts."""
        funcs = list(dict.fromkeys(f for _s, _e, f in self.a.cues.agg_words))
        if len(self.measures) == 1 and len(funcs) > 1 and not self.a.cues.counting:
            for func in funcs:
                self.measure_metric(self.measures[0], func)
        else:
            for term in self.measures:
                self.measure_metric(term)
        self.counted()
        cues = self.a.cues
        if not self.plan.metrics and (cues.ranking or cues.share) and (self.plan.groups or self.a.columns("id")):
            self.count_rows()

    def name_for(self, role: str, column: str, column2: str = "") -> str:
        """A result column's name in the question's language, from the data's own column names."""
        if self.zh:
            name = _ZH_ROLES[role].format(c=column, c2=column2)
        else:
            name = _EN_ROLES[role].format(c=column, c2=singular(column2) if role == "per" else column2)
        return self.unique(name)

    def filters_pending(self) -> bool:
        return bool(self.a.time_filters or self.values or self.flags or self.a.cues.thresholds)

    def finish(self) -> None:
        finish_plan(self)
