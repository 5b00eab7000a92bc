"""Turns the mentions of one question into aggregations, conditions, ratios, windows, filters and sorting."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from apps.agent.offline.cues import find_words
from apps.agent.offline.lexicon import WHEN_WORDS, WHICH_WORDS
from apps.agent.offline.plan import Metric, Plan, Shown
from apps.agent.offline.schema_terms import Term, fold, singular
from apps.agent.offline.shaping import finish_plan

if TYPE_CHECKING:
    from apps.agent.offline.intent import Analyzer

_ZH = {"sum": "{c}合计", "avg": "平均{c}", "median": "{c}中位数", "max": "最高{c}", "min": "最低{c}"}
_ZH |= {"stddev": "{c}标准差", "variance": "{c}方差", "quantile": "{c}分位数", "nunique": "{c}数"}
_EN = {"sum": "total_{c}", "avg": "avg_{c}", "median": "median_{c}", "max": "max_{c}", "min": "min_{c}"}
_EN |= {"stddev": "stddev_{c}", "variance": "variance_{c}", "quantile": "quantile_{c}", "nunique": "distinct_{c}"}
Condition = tuple[Term, dict[str, Any]]


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
            if t.column not in grouped and t.column not in seen and not a.threshold_subject(t) and not a.count_word(t):
                seen.add(t.column)
                self.measures.append(t)
        self.flags = a.columns("flag")
        self.used: set[int] = set()
        self.names: set[str] = {g.name for g in plan.groups}
        self.positions: dict[str, int] = {}

    # --- names ----------------------------------------------------------------------------
    def unique(self, name: str) -> str:
        candidate, n = name, 2
        while candidate in self.names:
            candidate, n = f"{name}_{n}", n + 1
        self.names.add(candidate)
        return candidate

    def agg_name(self, func: str, column: str) -> str:
        template = (_ZH if self.zh else _EN)[func]
        return self.unique(template.format(c=column if self.zh else re.sub(r"\s+", "_", column)))

    def count_name(self) -> str:
        """订单数 / order_count when the question names what is counted, else 记录数 / count."""
        target, text = self.a.cues.count_target, self.a.text
        if any(w in text for w in ("人数", "多少人", "几个人", "headcount")):
            return self.unique("人数" if self.zh else "headcount")
        ids = self.a.columns("id")
        if target is None and ids and not self.measures:
            target = ids[0]
        if target is None or self.a.view(target).category not in ("id", "time", "flag"):
            return self.unique("记录数" if self.zh else "count")
        said = self.a.question[target.start : target.end]
        return self.unique(said + "数" if self.zh else singular(_slug(said)) + "_count")

    def add(self, metric: Metric, at: int) -> Metric:
        self.plan.metrics.append(metric)
        self.positions[metric.name] = at
        return metric

    # --- aggregations ---------------------------------------------------------------------
    def func_for(self, term: Term) -> str:
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
        q = self.a.cues.quantile if func == "quantile" else None
        return self.add(Metric(self.agg_name(func, term.column), func, term.column, q=q), term.start)

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
        if target is not None and target.column not in {g.column for g in self.plan.groups}:
            view = self.a.view(target)
            if view.category == "dimension" or (view.category == "id" and not view.unique):
                self.add(Metric(self.agg_name("nunique", view.name), "nunique", view.name), target.start)
                return
        self.count_rows()

    # --- conditions, ratios and shares ----------------------------------------------------
    def flag_spec(self, term: Term) -> dict[str, Any]:
        view = self.a.view(term)
        negated = self.a.negated(term)
        if isinstance(view.true_value, bool):
            return {"column": view.name, "op": "=", "value": not negated}
        return {"column": view.name, "op": "!=" if negated else "=", "value": view.true_value}

    def conditions(self) -> list[Condition]:
        cues = self.a.cues
        if not (cues.rate or cues.share):
            return []
        first_group = min((t.start for t in self.group_terms), default=None)
        found: list[Condition] = []
        grouped = {g.column for g in self.plan.groups}
        alone = not self.plan.groups and not self.flags  # "share of orders from 华东": the value is the share
        for column, terms in self.values.items():
            term = terms[0]
            if len(terms) != 1 or column in grouped or (self.a.scoped(term) and not alone):
                continue
            if first_group is None or term.start > first_group:
                found.append((term, {"column": column, "op": "=", "value": term.value}))
        found += [(t, self.flag_spec(t)) for t in self.flags if not self.a.scoped(t)]
        return sorted(found, key=lambda c: c[0].start)

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
        self.plan.derived.append({"name": name, "expr": f"[{num}] / [{den}]"})
        self.plan.shown = [Shown(name, fmt), Shown(num), Shown(den)]

    def subject_ratio(self, numerator: str, base: str) -> None:
        """ "退货率" (ambiguity.SubjectRate): the subject's column over its base, in the unit settled for it."""
        rate = self.a.readings.rate
        assert rate is not None  # noqa: S101 - a rate pair comes with its rate
        num = self.add(Metric(self.agg_name("sum", numerator), "sum", numerator), rate.start)
        den = self.add(Metric(self.agg_name("sum", base), "sum", base), rate.start)
        name = re.sub(r"\s+", "", rate.word) if self.zh else _slug(rate.word)
        self.ratio(name, num.name, den.name, "pct")

    def concept_ratio(self) -> bool:
        if self.a.cues.rate_concept is None:
            return False
        numerator, denominator, word = self.a.cues.rate_concept
        num_view = self.a.schema.concept_column(numerator)
        den_view = self.a.schema.concept_column(denominator)
        if num_view is None or den_view is None:
            self.plan.unmapped.append(word)
            return False
        at = self.a.cues.rate_at
        num = self.add(Metric(self.agg_name("sum", num_view.name), "sum", num_view.name), at)
        den = self.add(Metric(self.agg_name("sum", den_view.name), "sum", den_view.name), at)
        name = word if self.zh and re.search(r"[\u4e00-\u9fff]", word) else _slug(word)
        self.ratio(name if self.zh or not re.search(r"[\u4e00-\u9fff]", name) else "rate", num.name, den.name, "pct")
        return True

    def share(self) -> None:
        base = self.base_metric()
        name = self.unique("占比" if self.zh else "share")
        window: dict[str, Any] = {"name": name, "func": "share_of_total", "of": base.name}
        if self.plan.time_group and self.plan.dims:
            window["partition_by"] = [self.plan.time_group]
        self.plan.windows.append(window)
        self.plan.shown = [Shown(base.name), Shown(name, "pct")]

    # --- the whole ----------------------------------------------------------------------------
    def group_thresholds(self) -> None:
        """ "销售额超过10万的地区": with groups and nothing else asked, a threshold is on each group's total."""
        cues = self.a.cues
        if not self.plan.groups or cues.counting or self.measures or cues.rate or cues.corr or cues.rate_concept:
            return
        for t in list(cues.thresholds):
            view = self.a.schema.by_name[t.column]
            if view.category != "measure":
                continue
            func = "avg" if view.averaged else "sum"
            metric = self.add(Metric(self.agg_name(func, t.column), func, t.column), t.start)
            self.plan.having.append({"column": metric.name, "op": t.op, "value": t.value})
            self.plan.filter_labels.append(f"{metric.name} {t.op} {t.label}")
            cues.thresholds.remove(t)

    def build(self) -> None:
        cues = self.a.cues
        self.group_thresholds()
        conditions = self.conditions()
        if cues.corr and len(self.measures) >= 2:
            first, second = self.measures[0].column, self.measures[1].column
            name = self.unique(f"{first}与{second}相关系数" if self.zh else f"corr_{_slug(first)}_{_slug(second)}")
            self.add(Metric(name, "corr", first, column2=second), self.measures[0].start)
        elif cues.rate_concept:
            self.concept_ratio()
        elif self.a.readings.rate_pair is not None:
            self.subject_ratio(*self.a.readings.rate_pair)
        elif conditions:
            self.conditional_ratio(conditions)
        elif cues.share and self.plan.groups:
            self.share()
        elif (cues.rate or self.per()) and len(self.measures) >= 2:
            num = self.measure_metric(self.measures[0], "sum").name
            den = self.measure_metric(self.measures[1], "sum").name
            first, second = self.measures[0].column, self.measures[1].column
            name = f"{first}/{second}" if self.zh else f"{_slug(first)}_per_{singular(_slug(second))}"
            self.ratio(name, num, den, None)
        elif self.time_edge_asked():
            self.time_edge()
        elif cues.summary and len(self.measures) == 1 and not self.plan.groups and not cues.counting:
            self.summary(self.measures[0])
        elif cues.ranking and not self.plan.groups and self.measures and not cues.counting:
            self.rows()
        else:
            for term in self.measures:
                self.measure_metric(term)
            self.counted()
            if not self.plan.metrics and (cues.ranking or cues.share) and (self.plan.groups or self.a.columns("id")):
                self.count_rows()
        self.plan.metrics.sort(key=lambda m: self.positions.get(m.name, 0))

    def time_edge_asked(self) -> bool:
        cues = self.a.cues
        return bool(cues.when and self.a.time_col and not self.measures and not cues.counting)

    def time_edge(self) -> None:
        """The earliest or latest value of the time column: 最早下单日期 / earliest_order_date."""
        assert self.a.time_col is not None  # noqa: S101 - time_edge_asked() checked it
        column, func = self.a.time_col.name, self.a.cues.when or "min"
        if self.zh:
            name = ("最早" if func == "min" else "最晚") + column
        else:
            name = ("earliest_" if func == "min" else "latest_") + re.sub(r"\s+", "_", column)
        self.add(Metric(self.unique(name), func, column), 0)
        cues, text = self.a.cues, self.a.text
        asked_when = bytearray(len(text))  # "哪天" asks for the date, not which group
        for start, end, _word in find_words(text, WHEN_WORDS, asked_when):
            asked_when[start:end] = b"\x01" * (end - start)
        if self.plan.dims and not cues.ranking and find_words(text, WHICH_WORDS, asked_when):
            cues.ranking, cues.ascending = True, func == "min"  # "which department hired first"

    def summary(self, term: Term) -> None:
        """A measure's distribution: minimum, lower quartile, median, upper quartile and maximum."""
        column = term.column
        zh = ("最小值", "下四分位数", "中位数", "上四分位数", "最大值")
        en = ("min", "lower_quartile", "median", "upper_quartile", "max")
        steps: tuple[tuple[str, float | None], ...] = (("min", None), ("quantile", 0.25), ("median", None))
        steps += (("quantile", 0.75), ("max", None))
        slug = re.sub(r"\s+", "_", column)
        for (func, q), zh_word, en_word in zip(steps, zh, en, strict=True):
            name = self.unique(f"{column}{zh_word}" if self.zh else f"{en_word}_{slug}")
            self.add(Metric(name, func, column, q=q), term.start)

    def per(self) -> bool:
        """ "revenue per session": one measure over another."""
        if len(self.measures) < 2:
            return False
        first, second = self.measures[:2]
        return bool(re.fullmatch(r"\s*(per|每|/)\s*", self.a.text[first.end : second.start]))

    def rows(self) -> None:
        measure = self.measures[0].column
        schema = self.a.schema
        labels = [v.name for v in schema.of("id", "dimension", "time", "year") if v.name != measure][:6]
        self.plan.row_columns = [*labels, measure]
        self.plan.sort = [{"by": measure, "desc": not self.a.cues.ascending}]
        self.plan.limit = self.a.cues.top_n or (10 if self.a.cues.plural else 1)
        self.plan.shown = [Shown(measure)]

    def filters_pending(self) -> bool:
        return bool(self.a.time_filters or self.values or self.flags or self.a.cues.thresholds)

    def finish(self) -> None:
        finish_plan(self)
