"""Suggested next questions, built from the schema so the planner can answer each of them itself,
and the plain answer for questions it cannot map."""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.agent.offline.drafts import reference
from apps.agent.offline.lexicon import CONCEPTS
from apps.agent.offline.plan import Lang, Plan
from apps.agent.offline.schema_terms import ColumnView, Schema, flag_core, fold

MAX_FOLLOW_UPS = 3
_CJK = re.compile(r"[\u4e00-\u9fff]")


def no_digits(text: str) -> bool:
    return not any(ch.isdigit() for ch in text)


_HEADLINE_CONCEPTS = ("revenue", "amount", "salary", "profit", "cost", "quantity", "session", "conversion", "stock")


@dataclass
class _Picks:
    measure: ColumnView | None
    dims: list[str]
    time: str | None
    flag: str | None
    flag_used: bool


def _headline_measure(schema: Schema, plan: Plan | None) -> ColumnView | None:
    """The measure to suggest: the one just asked about, else money or volume, else any summable one."""
    measures = [v for v in schema.of("measure") if no_digits(v.name)]
    asked = {m.column for m in plan.metrics if m.column} if plan else set()
    for view in measures:
        if view.name in asked:
            return view
    for concept in _HEADLINE_CONCEPTS:
        found = schema.concept_column(concept)
        if found is not None and found in measures:
            return found
    return next((v for v in measures if not v.averaged), measures[0] if measures else None)


def _picks(schema: Schema, plan: Plan | None) -> _Picks:
    used = {g.column for g in plan.groups} if plan else set()
    dims = [v.name for v in schema.of("dimension") if no_digits(v.name) and v.distinct <= 50]
    fresh = [d for d in dims if d not in used] or dims
    time = next((v.name for v in schema.of("time")), None)
    flag = next((v.name for v in schema.of("flag") if no_digits(v.name)), None)
    flag_used = bool(plan and flag and any(flag in str(m.where) for m in plan.metrics))
    return _Picks(_headline_measure(schema, plan), fresh, time, flag, flag_used)


def follow_ups(schema: Schema, plan: Plan | None, lang: Lang, question: str) -> list[str]:
    picks, zh = _picks(schema, plan), lang == "zh"
    dims, trended = picks.dims, bool(plan and plan.time_group)
    candidates: list[str] = []
    if picks.flag and dims:
        core = _flag_word(schema, picks.flag, zh)
        rate_by = f"各{dims[0]}的{core}率是多少？" if zh else f"What is the {core} rate by {dims[0]}?"
        rate_trend = f"每月{core}率的趋势如何？" if zh else f"What is the monthly trend of the {core} rate?"
        if picks.flag_used:
            candidates += [rate_by] + ([rate_trend] if picks.time and not trended else [])
    if picks.measure is not None:
        m, averaged = picks.measure.name, picks.measure.averaged
        phrase = (f"平均{m}" if averaged else f"{m}合计") if zh else (f"average {m}" if averaged else f"total {m}")
        if dims:
            candidates.append(f"各{dims[0]}的{phrase}是多少？" if zh else f"What is the {phrase} by {dims[0]}?")
        if picks.time and not trended:
            candidates.append(f"每月{phrase}的趋势如何？" if zh else f"What is the monthly trend of {phrase}?")
        if len(dims) > 1:
            candidates.append(
                f"{phrase}最高的{dims[1]}是哪个？" if zh else f"Which {dims[1]} has the highest {phrase}?"
            )
        if dims and not averaged and not (plan and plan.windows):
            candidates.append(f"各{dims[0]}的{m}占比是多少？" if zh else f"What is the share of {m} by {dims[0]}?")
    elif dims:
        candidates.append(f"各{dims[0]}有多少条记录？" if zh else f"How many records are there per {dims[0]}?")
    if picks.flag and dims and not picks.flag_used:
        candidates.append(rate_by)
    asked = fold(question).strip(" ?？。.")
    unique = [c for c in dict.fromkeys(candidates) if fold(c).strip(" ?？。.") != asked]
    return unique[:MAX_FOLLOW_UPS]


def _flag_word(schema: Schema, flag: str, zh: bool) -> str:
    """What people call a yes/no column: 退货 for 是否退货, "return" for it in English, 远程 for remote."""
    core = flag_core(flag)
    if zh == bool(_CJK.search(core)):
        return core
    for key, forms in CONCEPTS.items():
        if core in (fold(f) for f in forms):
            return next((f for f in forms if bool(_CJK.search(f)) == zh), core) if zh else key
    return core


def fallback_draft(plan: Plan, schema: Schema, ref: str | None, metric: str, lang: Lang, question: str) -> str:
    zh = lang == "zh"
    words = ("、" if zh else ", ").join(f"“{w}”" for w in plan.unmapped)
    if plan.reason == "greeting":
        return _greeting(schema, ref, metric, lang, question)
    if plan.reason == "query_failed":  # analyses no tool does are refused before any query (refusals.py)
        why = "按这个问题构造的查询没有成功执行" if zh else "the query built for this question could not run"
    elif words:
        why = f"数据中没有与{words}对应的列" if zh else f"no column in the data matches {words}"
    else:
        why = (
            "我没有在问题中找到可以对应到数据列的指标或维度"
            if zh
            else "I found no measure or dimension of the data in the question"
        )
    columns = ("、" if zh else ", ").join(v.name for v in schema.views)
    lines = [
        f"抱歉，这个问题我无法可靠地对应到数据：{why}。为避免猜测，我没有计算其他数字。"
        if zh
        else f"Sorry, I could not map this question to the data reliably: {why}. I did not guess any numbers."
    ]
    if ref:
        count = reference(ref, metric, 0)
        lines.append(
            f"这份数据共有 {count} 行，包含这些列：{columns}。"
            if zh
            else f"The data has {count} rows with these columns: {columns}."
        )
    else:
        lines.append(f"这份数据包含这些列：{columns}。" if zh else f"The data has these columns: {columns}.")
    lines.append("可以试试下面推荐的问题。" if zh else "Try one of the suggested questions below.")
    lines += [f">> {q}" for q in follow_ups(schema, None, lang, question)]
    return "\n".join(lines)


def _greeting(schema: Schema, ref: str | None, metric: str, lang: Lang, question: str) -> str:
    zh = lang == "zh"
    columns = ("、" if zh else ", ").join(v.name for v in schema.views)
    count = reference(ref, metric, 0) if ref else ""
    if zh:
        lines = ["你好！我可以回答关于这份数据的问题，答案中的数字都来自对数据的实际查询。"]
        lines.append(f"这份数据共有 {count} 行，包含这些列：{columns}。" if ref else f"这份数据包含这些列：{columns}。")
        lines.append("可以试试下面推荐的问题。")
    else:
        lines = ["Hello! I answer questions about this data; every number comes from a query on it."]
        lines.append(f"The data has {count} rows with these columns: {columns}." if ref else f"Columns: {columns}.")
        lines.append("Try one of the suggested questions below.")
    return "\n".join(lines + [f">> {q}" for q in follow_ups(schema, None, lang, question)])
