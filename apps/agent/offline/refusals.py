"""The honest answer to a question that needs an analysis the tools cannot do (a statistical test, outlier
rules, a model or forecast, the table's row order, causes and advice): it names what the question needed,
computes nothing, and offers the nearest question the planner can answer itself."""

from __future__ import annotations

from dataclasses import dataclass

from apps.agent.offline.followups import MAX_FOLLOW_UPS, follow_ups, no_digits
from apps.agent.offline.plan import Plan
from apps.agent.offline.schema_terms import ColumnView, Schema, find_terms, fold

# What each family needs, said to the user (zh, en). No digits: a refusal quotes no numbers.
_NEEDS: dict[str, tuple[str, str]] = {
    "stat_test": (
        "统计检验（如 t 检验、p 值、显著性、正态性、卡方检验或方差分析）",
        "a statistical test (such as a t-test, a p-value, normality, chi-square or ANOVA)",
    ),
    "outliers": (
        "按规则判定异常值（如四分位距规则或几倍标准差规则）",
        "outlier detection by a rule (such as the IQR rule or the three-sigma rule)",
    ),
    "model": (
        "预测或机器学习模型（如预测未来、聚类、回归、分类）",
        "a forecast or a machine-learning model (prediction, clustering, regression, classification)",
    ),
    "row_order": (
        "数据表中行的原始顺序（如“第一行”“上一行”）",
        "the original order of the rows in the table (such as “the first row” or “the previous row”)",
    ),
    "explain": ("解释原因、给出建议或模拟假设情景", "explaining causes, giving advice or simulating scenarios"),
}
# How the nearest answerable question (the first suggestion) relates to what was asked (zh, en).
_NEAREST: dict[str, tuple[str, str]] = {
    "stat_test": (
        "我可以比较各组的平均值或给出分布情况（不做检验）",
        "I can compare the groups' averages or show the distribution",
    ),
    "outliers": (
        "我可以给出分布情况（最小值、四分位数、中位数和最大值），极端值从中可见",
        "I can show the distribution (minimum, quartiles, median and maximum), where extreme values show",
    ),
    "model": (
        "我可以给出已有数据的趋势或分组统计（不外推未来）",
        "I can show the trend or a breakdown of the data so far",
    ),
    "row_order": (
        "查询结果没有“第几行”，只能按某一列（如日期或编号）排序，例如先看最早的日期",
        "Query results have no row positions, only an order by a column such as a date or an id (the earliest date)",
    ),
}


@dataclass
class _Picks:
    """The columns a suggestion is built from: those the question mentions first, else the schema's own."""

    measure: ColumnView | None
    dim: ColumnView | None
    time: ColumnView | None
    groups_named: bool  # the question names groups (a dimension, one of its values, a yes/no column)


def _picks(schema: Schema, question: str, refused: list[str]) -> _Picks:
    """`refused`: the question's words for the analysis, never read as a column (预测 is not 预测准确率)."""
    terms = [t for t in find_terms(question, schema) if question[t.start : t.end] not in refused]
    mentioned = [schema.by_name[t.column] for t in terms]
    usable = [v for v in [*mentioned, *schema.views] if no_digits(v.name)]
    measures = [v for v in usable if v.category == "measure"]
    asked = [v for v in measures if v in mentioned]
    summed = [v for v in measures if not v.averaged]
    measure = next(iter(asked or summed or measures), None)
    dim = next((v for v in usable if v.category == "dimension" and v.distinct <= 50), None)
    time = next((v for v in usable if v.category == "time"), None)
    return _Picks(measure, dim, time, any(v.category in ("dimension", "flag") for v in mentioned))


def _phrase(view: ColumnView, zh: bool) -> str:
    if zh:
        return f"平均{view.name}" if view.averaged else f"{view.name}合计"
    return f"average {view.name}" if view.averaged else f"total {view.name}"


def _by_group(p: _Picks, zh: bool, average: bool) -> str | None:
    """ "各地区的平均金额是多少？": a measure by a group, else the records per group."""
    m, d = p.measure, p.dim
    if m is not None:
        phrase = (f"平均{m.name}" if zh else f"average {m.name}") if average else _phrase(m, zh)
        if d is not None:
            return f"各{d.name}的{phrase}是多少？" if zh else f"What is the {phrase} by {d.name}?"
        return f"{phrase}是多少？" if zh else f"What is the {phrase}?"
    if d is not None:
        return f"各{d.name}有多少条记录？" if zh else f"How many records are there per {d.name}?"
    return None


def nearest_question(family: str, schema: Schema, question: str, refused: list[str], zh: bool) -> str | None:
    """The closest question to what was asked that the planner can answer itself, or None."""
    p = _picks(schema, question, refused)
    if family == "stat_test" and (p.groups_named or p.measure is None):  # groups compared: their averages
        return _by_group(p, zh, average=True)
    if family in ("stat_test", "outliers") and p.measure is not None:  # one variable: its distribution
        return f"{p.measure.name}的分布如何？" if zh else f"What is the distribution of {p.measure.name}?"
    if family == "outliers":
        return _by_group(p, zh, average=False)
    if family == "model":
        if p.time is not None and p.measure is not None:
            phrase = _phrase(p.measure, zh)
            return f"每月{phrase}的趋势如何？" if zh else f"What is the monthly trend of {phrase}?"
        return _by_group(p, zh, average=False)
    if family == "row_order" and p.time is not None:
        return f"最早的{p.time.name}是哪天？" if zh else f"What is the earliest {p.time.name}?"
    return None


def refusal_draft(plan: Plan, schema: Schema, question: str) -> str:
    zh = plan.lang == "zh"
    need_zh, need_en = _NEEDS.get(plan.unsupported, _NEEDS["explain"])
    said = next((w for w in plan.unmapped if no_digits(w)), "")
    if zh:
        asked = f"这个问题中的“{said}”" if said else "这个问题"
        head = f"抱歉，{asked}需要{need_zh}，而我的工具只能对数据做筛选、分组、汇总和排序，无法完成这类分析。"
        head += "为避免给出不可靠的结论，我没有计算任何数字。"
    else:
        asked = f"“{said}” in this question" if said else "this question"
        head = (
            f"Sorry, {asked} needs {need_en}, and my tools only filter, group, aggregate and sort the data, so "
            "they cannot do it. I did not compute any numbers rather than give an unreliable answer."
        )
    nearest = nearest_question(plan.unsupported, schema, question, plan.unmapped, zh)
    said_how = _NEAREST.get(plan.unsupported) if nearest else None
    if said_how is None:
        intro = ("可以试试下面推荐的问题。", "Try one of the suggested questions below.")
    else:
        intro = (f"{said_how[0]}，见下面推荐的第一个问题。", f"{said_how[1]}: see the first suggested question below.")
    suggested = [nearest] if nearest else []
    asked = fold(question).strip(" ?？。.")
    for extra in follow_ups(schema, None, plan.lang, question):
        if fold(extra).strip(" ?？。.") != asked and extra not in suggested:
            suggested.append(extra)
    lines = [head, intro[0] if zh else intro[1]]
    return "\n".join(lines + [f">> {q}" for q in suggested[:MAX_FOLLOW_UPS]])
