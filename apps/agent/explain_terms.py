"""The pieces of an explanation: values, conditions, aggregations and derived expressions as people read them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.datasets.query.expressions import Bin, Call, Neg, Node, Num, Ref
from apps.datasets.query.spec import Aggregation, Filter

GRAINS = {
    "day": gettext_lazy("by day"),
    "week": gettext_lazy("by week"),
    "month": gettext_lazy("by month"),
    "quarter": gettext_lazy("by quarter"),
    "year": gettext_lazy("by year"),
    "month_of_year": gettext_lazy("by month of the year, all years together"),
}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_ATOM = 3


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def filter_text(f: Filter) -> str:
    """地区 = 华东; 下单日期（按年）= 2025; 金额 from 10 to 20 (inclusive)."""
    column = _("%(column)s (%(grain)s)") % {"column": f.column, "grain": GRAINS[f.grain]} if f.grain else f.column
    values = {"column": column, "value": value_text(f.value)}
    if f.op == "in":
        return _("%(column)s is one of %(value)s") % values
    if f.op == "between" and isinstance(f.value, list):
        low, high = f.value
        return _("%(column)s from %(low)s to %(high)s (inclusive)") % {
            "column": column,
            "low": value_text(low),
            "high": value_text(high),
        }
    if f.op == "contains":
        return _("%(column)s contains “%(value)s” (ignoring case)") % values
    if f.op == "is_null":
        return (_("%(column)s is empty") if f.value else _("%(column)s is not empty")) % values
    return f"{column} {f.op} {values['value']}"


def aggregate_formula(agg: Aggregation) -> str:
    """sum(退货数量); count(*); count(distinct 客户); quantile(金额, 0.9); with its conditions, if any."""
    column = agg.column or "*"
    if agg.func == "nunique":
        text = f"count(distinct {column})"
    elif agg.func == "quantile":
        text = f"quantile({column}, {agg.q:g})"
    elif agg.func == "corr":
        text = f"corr({column}, {agg.column2})"
    else:
        text = f"{agg.func}({column})"
    if not agg.where:
        return text
    conditions = "; ".join(filter_text(f) for f in agg.where)
    return _("%(formula)s where %(conditions)s") % {"formula": text, "conditions": conditions}


def walk(node: Node | None) -> Iterator[Node]:
    if node is None:
        return
    yield node
    if isinstance(node, Neg):
        yield from walk(node.operand)
    elif isinstance(node, Bin):
        yield from walk(node.left)
        yield from walk(node.right)
    elif isinstance(node, Call):
        for arg in node.args:
            yield from walk(arg)


def render(node: Node, name: Callable[[str], str]) -> str:
    """An expression as arithmetic, with only the parentheses it needs; `name` renders each reference."""
    return _render(node, name)[0]


def _render(node: Node, name: Callable[[str], str]) -> tuple[str, int]:
    if isinstance(node, Num):
        return value_text(node.value), _ATOM
    if isinstance(node, Ref):
        text = name(node.name)
        return text, _ATOM if text == node.name or text.endswith((")", "）")) else 0
    if isinstance(node, Neg):
        text, precedence = _render(node.operand, name)
        return "-" + (f"({text})" if precedence < _ATOM else text), _ATOM
    if isinstance(node, Bin):
        precedence = _PRECEDENCE[node.op]
        left, left_p = _render(node.left, name)
        right, right_p = _render(node.right, name)
        if left_p < precedence:
            left = f"({left})"
        if right_p < precedence or (right_p == precedence and node.op in "-/"):
            right = f"({right})"
        return f"{left} {node.op} {right}", precedence
    args = ", ".join(_render(arg, name)[0] for arg in node.args)
    return f"{node.func}({args})", _ATOM
