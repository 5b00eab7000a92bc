"""The trust benchmark's tables: per player and overall against the targets of docs/DESIGN.md section 8, every
miss with its reasons, and the verify node's time over a 1,000-cell result."""

from __future__ import annotations

from collections.abc import Iterable

from apps.agent.verification.check import verify
from benchmarks.bench_verify import build
from benchmarks.common import median_seconds, report
from benchmarks.trust.run import Result

TARGETS = {
    "wrong answers blocked": ">= 95%",
    "correct answers falsely intercepted": "<= 3%",
    "no-data answers intercepted": "0",
    "plan-text leaks": "0",
}


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "-"


def _counts(results: Iterable[Result]) -> dict[str, int]:
    rs = list(results)
    wrong = [r for r in rs if r.scenario.truth == "wrong"]
    correct = [r for r in rs if r.scenario.truth == "correct"]
    no_data = [r for r in rs if r.scenario.truth == "no_data"]
    return {
        "runs": len(rs),
        "wrong": len(wrong),
        "blocked": sum(not r.verified for r in wrong),
        "correct": len(correct),
        "intercepted": sum(not r.verified for r in correct),
        "wrong values": sum(bool(r.unshown) for r in correct),
        "no_data": len(no_data),
        "no_data intercepted": sum(not r.verified for r in no_data),
        "leaks": sum(bool(r.leaks) for r in rs),
    }


def player_table(results: list[Result]) -> str:
    rows = []
    for player in dict.fromkeys(r.scenario.player for r in results):
        c = _counts(r for r in results if r.scenario.player == player)
        mine = [r for r in results if r.scenario.player == player]
        rows.append(
            {
                "player": player,
                "runs": c["runs"],
                "answered": sum(r.status == "answered" for r in mine),
                "intercepted": sum(r.status == "intercepted" for r in mine),
                "failed": sum(r.status == "failed" for r in mine),
                "wrong blocked": _pct(c["blocked"], c["wrong"]),
                "correct intercepted": _pct(c["intercepted"], c["correct"]),
                "no-data intercepted": _pct(c["no_data intercepted"], c["no_data"]),
                "leaks": c["leaks"],
                "misses": sum(r.miss for r in mine),
            }
        )
    return report(rows)


def overall_table(results: list[Result]) -> str:
    c = _counts(results)
    measured = {
        "wrong answers blocked": (_pct(c["blocked"], c["wrong"]), not c["wrong"] or c["blocked"] / c["wrong"] >= 0.95),
        "correct answers falsely intercepted": (
            _pct(c["intercepted"], c["correct"]),
            not c["correct"] or c["intercepted"] / c["correct"] <= 0.03,
        ),
        "no-data answers intercepted": (_pct(c["no_data intercepted"], c["no_data"]), c["no_data intercepted"] == 0),
        "plan-text leaks": (f"{c['leaks']} runs", c["leaks"] == 0),
    }
    rows = [
        {"measure": name, "measured": value, "target": TARGETS[name], "met": "yes" if ok else "NO"}
        for name, (value, ok) in measured.items()
    ]
    rows.append(
        {
            "measure": "correct answers shown with values that differ from the truth",
            "measured": _pct(c["wrong values"], c["correct"]),
            "target": "0",
            "met": "yes" if c["wrong values"] == 0 else "NO",
        }
    )
    return report(rows)


def _kind(r: Result) -> str:
    if r.scenario.truth == "wrong":
        return "wrong answer shown as verified"
    if not r.verified:
        return "no-data answer intercepted" if r.scenario.truth == "no_data" else "correct answer not shown"
    if r.unshown:
        return "shown without the true values " + ", ".join(r.unshown)
    return "leak"


def misses(results: list[Result], *, verbose: bool = False) -> str:
    lines = []
    for r in results:
        if not (r.miss or verbose):
            continue
        sc = r.scenario
        mark = "MISS" if r.miss else "ok  "
        lines.append(f"{mark} {sc.id:<10} {sc.player:<15} {sc.truth:<8} {r.status:<12} {sc.question}")
        detail = [f"why: {sc.why}"] if sc.why else []
        if r.miss:
            detail.append(_kind(r))
        if r.reasons:
            detail.append("reasons: " + ", ".join(r.reasons))
        if r.leaks:
            detail.append("leaks: " + "; ".join(r.leaks))
        detail += r.notes
        if verbose and r.answer:
            detail.append(f"answer: {r.answer}")
        lines += [f"       {d}" for d in detail]
    return "\n".join(lines) if lines else "(none)"


def verify_timing(cells: int = 1000, repeat: int = 30) -> str:
    """The verify node alone on a long draft over a `cells`-cell result (bench_verify's input)."""
    inp = build(cells)
    verdict = verify(inp)
    seconds = median_seconds(lambda: verify(inp), repeat=repeat)
    return report(
        [{"cells": cells, "verify ms": seconds * 1000, "target ms": 5.0, "draft passed": bool(verdict.passed)}]
    )
