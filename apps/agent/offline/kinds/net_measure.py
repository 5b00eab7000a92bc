"""One measure less another: "2025年扣掉优惠之后实际收了多少钱" (销售额 minus 优惠金额), "revenue minus cost",
"sales net of discounts". Both are added up in one query and the difference is derived from them, so the
answer quotes only numbers of the query."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apps.agent.offline.kinds.base import Kind
from apps.agent.offline.plan import Shown
from apps.datasets.query.spec import Derived

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder
    from apps.agent.offline.schema_terms import Term

_MINUS = re.compile(
    r"(?:扣掉|扣除|减去|减掉|去掉|刨去|刨除|除去|(?<![a-z])(?:minus|net of|less|after deducting))\s*的?\s*$"
)


def _split(b: MetricBuilder) -> tuple[Term, Term] | None:
    """(the measure kept, the measure taken off it) when one measure follows a word for taking off."""
    off = [t for t in b.measures if _MINUS.search(b.a.text[max(0, t.start - 16) : t.start])]
    kept = [t for t in b.measures if t not in off]
    if len(off) != 1 or len(kept) != 1:
        return None
    return kept[0], off[0]


def detect(b: MetricBuilder) -> bool:
    return not b.a.cues.rate and _split(b) is not None


def build(b: MetricBuilder) -> None:
    found = _split(b)
    assert found is not None  # noqa: S101 - detect() checked it
    kept, off = found
    total = b.measure_metric(kept, "sum").name
    taken = b.measure_metric(off, "sum").name
    name = b.unique(f"扣除{off.column}后的{kept.column}" if b.zh else f"{kept.column}_minus_{off.column}")
    b.plan.derived.append(Derived(name=name, expr=f"[{total}] - [{taken}]"))
    b.plan.shown = [Shown(name), Shown(total), Shown(taken)]


KIND = Kind("net_measure", detect, build)
