"""Tables of outcomes per set, the list of wrong answers shown as verified, and the final summary."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence

from benchmarks.accuracy.outcome import Item, Outcome
from benchmarks.common import report as table

WRONG_TARGET = 0.02
LONG_LISTING = 4


def excerpt(answer: str, width: int = 240) -> str:
    lines = [line.strip() for line in answer.splitlines() if line.strip() and not line.lstrip().startswith(">>")]
    text = " / ".join(lines)
    return text if len(text) <= width else text[: width - 1] + "…"


def _rate(part: int, whole: int, digits: int = 1) -> str:
    return f"{part / whole:.{digits}%}" if whole else "-"


def wrong_among_verified(items: Sequence[Item]) -> tuple[int, int]:
    """Wrong answers among those shown as verified results (correct + wrong-but-verified)."""
    counts = Counter(i.outcome for i in items)
    return counts[Outcome.WRONG], counts[Outcome.WRONG] + counts[Outcome.CORRECT]


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latency(items: Sequence[Item]) -> dict[str, float]:
    seconds = [i.seconds * 1000 for i in items if i.seconds]
    plan = [ms for i in items for ms in i.plan_ms]
    return {
        "question_ms_median": statistics.median(seconds) if seconds else 0.0,
        "question_ms_p95": _percentile(seconds, 0.95),
        "plan_ms_median": statistics.median(plan) if plan else 0.0,
        "plan_ms_p95": _percentile(plan, 0.95),
        "plan_calls_per_question": len(plan) / len(seconds) if seconds else 0.0,
    }


def line(item: Item) -> str:
    slowest = f" plan {max(item.plan_ms):.0f}ms" if item.plan_ms else ""
    text = f"[{item.set}] {item.id} {item.outcome.value} {item.seconds:.2f}s{slowest}  {item.question}"
    if item.outcome is Outcome.CORRECT:
        return text + f"\n      answer: {excerpt(item.answer, 160)}"
    text += f"\n      expected: {item.expected}\n      answer: {excerpt(item.answer)}"
    if item.reason:
        text += f"\n      why: {item.reason}"
    if item.missing:
        text += f"\n      not applied: {', '.join(item.missing)}"
    return text


def set_report(name: str, items: Sequence[Item], group_label: str, *, value_in_text: bool = False) -> str:
    """`value_in_text`: the set's judge looks for one value anywhere in the answer (WTQ), so a right value
    inside a long listing is reported apart."""
    counts = Counter(i.outcome for i in items)
    rows = [{"outcome": o.value, "count": counts[o], "rate": _rate(counts[o], len(items))} for o in Outcome]
    wrong, shown = wrong_among_verified(items)
    verdict = "ok" if shown and wrong / shown <= WRONG_TARGET else ("-" if not shown else "OVER TARGET")
    lines = [f"== {name}: {len(items)} questions", table(rows)]
    said = _rate(wrong, shown, 2)  # 4/196 is 2.04%: over the target, which 2.0% would hide
    lines.append(f"wrong among shown-as-verified: {wrong}/{shown} = {said} (target <= 2%: {verdict})")
    listed = sum(i.outcome is Outcome.CORRECT and i.listed >= LONG_LISTING for i in items)
    if listed and value_in_text:
        lines.append(
            f"correct only by appearing in a listing of {LONG_LISTING}+ rows: {listed} (a looser kind of correct)"
        )
    groups: dict[str, list[Item]] = {}
    for item in items:
        groups.setdefault(item.group, []).append(item)
    if len(groups) > 1:
        parts = [
            f"{g} {sum(i.outcome is Outcome.CORRECT for i in members)}/{len(members)}"
            for g, members in sorted(groups.items())
        ]
        lines.append(f"correct by {group_label}: " + ", ".join(parts))
    lat = latency(items)
    lines.append(
        f"time per question: median {lat['question_ms_median']:.0f} ms, p95 {lat['question_ms_p95']:.0f} ms; "
        f"plan node: median {lat['plan_ms_median']:.1f} ms, p95 {lat['plan_ms_p95']:.1f} ms, "
        f"{lat['plan_calls_per_question']:.1f} calls per question"
    )
    wrong_items = [i for i in items if i.outcome is Outcome.WRONG]
    if wrong_items:
        lines.append("wrong-but-verified:")
        for item in wrong_items:
            disclosed = f" (disclosed: {', '.join(item.disclosed)})" if item.disclosed else ""
            lines.append(f"  {item.id} | {item.question}")
            lines.append(f"      expected: {item.expected}")
            lines.append(f"      answer: {excerpt(item.answer)}{disclosed}")
            lines.append(f"      why: {item.reason}")
    return "\n".join(lines)


def summary(results: Mapping[str, Sequence[Item]]) -> str:
    rows = []
    for name, items in results.items():
        counts, n = Counter(i.outcome for i in items), len(items)
        wrong, shown = wrong_among_verified(items)
        lat = latency(items)
        rows.append(
            {
                "set": name,
                "n": n,
                "correct": _rate(counts[Outcome.CORRECT], n),
                "wrong-verified": _rate(counts[Outcome.WRONG], n),
                "clarified/refused": _rate(counts[Outcome.REFUSED], n),
                "intercepted": _rate(counts[Outcome.INTERCEPTED], n),
                "failed": _rate(counts[Outcome.FAILED], n),
                "wrong/shown-verified": _rate(wrong, shown, 2),
                "ms/question": f"{lat['question_ms_median']:.0f}",
                "plan ms/step": f"{lat['plan_ms_median']:.1f}",
            }
        )
    return "== summary (medians for times)\n" + table(rows)
