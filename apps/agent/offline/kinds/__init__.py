"""The question kinds the offline planner answers, one module each, in the order they are tried.

A kind has a detector (does the reading of the question ask for this?) and a builder (the computation
it becomes, as typed aggregations, ratios and windows on the plan). The first kind whose detector
accepts the reading builds the plan; the order is the list below and nothing else. Filters, time
windows, ranking and order are then added the same way for every kind (`shaping.finish_plan`).

Adding a kind = adding a module with `KIND = Kind(...)` and placing it in `REGISTRY`; its golden cases
name it (`tests/agent/golden/`), and a test checks every kind here has some.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.agent.offline.kinds import (
    aggregate,
    conditional_ratio,
    correlation,
    distribution,
    extreme_rows,
    group_average,
    measure_ratio,
    named_choice,
    named_difference,
    named_rate,
    net_measure,
    period_change,
    share,
    spread,
    subject_rate,
    threshold_share,
    tied_extreme,
    time_edge,
    to_date,
)
from apps.agent.offline.kinds.base import Kind

if TYPE_CHECKING:
    from apps.agent.offline.metrics import MetricBuilder

REGISTRY: tuple[Kind, ...] = (
    period_change.KIND,  # "2025年退货金额同比增长了多少": this period against last year's or the one before
    to_date.KIND,  # "截至6月底累计销售额": one total from the start of the year
    group_average.KIND,  # "月均销售额", "平均每个地区的销售额": the average of the periods' (groups') totals
    named_difference.KIND,  # "how many more medals did A win than B": two named groups, one difference
    named_choice.KIND,  # "which location had more tournaments, oldsmar or los angeles": the one that has more
    spread.KIND,  # "the difference between the highest and lowest salary": max − min
    correlation.KIND,  # "correlation between price and quantity"
    named_rate.KIND,  # 转化率 / profit margin: a rate the glossary defines over two concepts
    subject_rate.KIND,  # 退货率 with the data's own 退货数量 / 订单数量 columns
    threshold_share.KIND,  # "what percentage of seasons had more than 8 wins": the threshold is the numerator's
    conditional_ratio.KIND,  # "share of orders that were returned", "华东的退货率"
    share.KIND,  # "各地区销售额占比": each group's share of the whole
    measure_ratio.KIND,  # "revenue per session", "A/B"
    net_measure.KIND,  # "扣掉优惠之后实际收了多少钱": one measure less another
    time_edge.KIND,  # "最早的下单日期"
    distribution.KIND,  # "金额的分布"
    tied_extreme.KIND,  # "how many teams had the most seasons": the rows holding the top value, ties counted
    extreme_rows.KIND,  # "金额最高的5笔订单": whole rows, sorted
    aggregate.KIND,  # totals, averages, counts, distinct counts (the default)
)
NAMES: tuple[str, ...] = tuple(k.name for k in REGISTRY)


def choose(b: MetricBuilder) -> Kind:
    """The first kind in REGISTRY that accepts the question (the default, `aggregate`, always does)."""
    return next(kind for kind in REGISTRY if kind.detect(b))
