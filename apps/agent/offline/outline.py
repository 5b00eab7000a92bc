"""The offline planner's structured plan of a step (task analysis, execution plan by round), written from the
move it has already decided — the calls and their arguments, or the draft — never deciding anything itself.

It rides on the planner's message (`response_metadata["structured_plan"]`); the plan node checks it like any
text shown beside tool calls and streams it in the step's `plan` event.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.agent.clarification import read_clarification
from apps.agent.messages import language_of
from apps.agent.offline.steps import Move
from apps.agent.offline.transcript import Transcript
from apps.agent.offline.wording import names, speaking
from apps.agent.round_plan import answering, format_round, join_rounds


def _purpose(name: str) -> str:
    purposes = {
        "list_tables": _("find the table the question is about"),
        "get_schema": _("read the data's columns and values"),
        "run_query": _("compute the figures with a query"),
        "plot": _("draw the result as a chart"),
    }
    return purposes.get(name, name)


def _later(name: str | None) -> list[str]:
    """The rounds the planner expects after this one (a chart is drawn only when the result suits one)."""
    following = {
        "list_tables": ["get_schema", "run_query"],
        "get_schema": ["run_query"],
    }
    return [_purpose(n) for n in following.get(name or "", [])] + ([answering()] if name else [])


def _filter(item: dict[str, Any]) -> str:
    value = item.get("value")
    shown = names([str(v) for v in value]) if isinstance(value, list) else str(value)
    grain = f" ({item['grain']})" if item.get("grain") else ""
    return f"{item.get('column')}{grain} {item.get('op', '=')} {shown}"


def _group(item: Any) -> str:
    if not isinstance(item, dict):
        return str(item)
    return str(item.get("column")) + (f" ({item['grain']})" if item.get("grain") else "")


def _measure(item: dict[str, Any]) -> str:
    column = item.get("column") or "*"
    return f"{item.get('name')} = {item.get('func')}({column})"


def describe_query(spec: dict[str, Any]) -> str:
    """What a QuerySpec computes, in words: measures, grouping, filters, windows, order."""
    parts: list[str] = []
    measures = [_measure(m) for m in spec.get("aggregations") or [] if isinstance(m, dict)]
    # Derived measures by name only: their expressions hold constants (nullif(x, 0)) that are not figures.
    measures += [str(d.get("name")) for d in spec.get("derived") or [] if isinstance(d, dict)]
    if measures:
        parts.append(_("compute %(measures)s") % {"measures": names(measures)})
    elif spec.get("columns"):
        parts.append(_("list %(columns)s") % {"columns": names([str(c) for c in spec["columns"]])})
    if spec.get("group_by"):
        parts.append(_("by %(groups)s") % {"groups": names([_group(g) for g in spec["group_by"]])})
    filters = [_filter(f) for f in spec.get("filters") or [] if isinstance(f, dict)]
    if filters:
        parts.append(_("where %(filters)s") % {"filters": names(filters)})
    windows = [str(w.get("func")) for w in spec.get("windows") or [] if isinstance(w, dict)]
    if windows:
        parts.append(_("then %(windows)s over the result") % {"windows": names(windows)})
    order = [str(s.get("by")) for s in spec.get("sort") or [] if isinstance(s, dict)]
    if order:
        parts.append(_("ordered by %(columns)s") % {"columns": names(order)})
    return pgettext("separator between the parts of a query's description", "; ").join(parts)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _analysis(transcript: Transcript, move: Move) -> str:
    name, args = move.calls[0] if move.calls else (None, {})
    if name == "list_tables":
        return _("The question is about a database: first find the table it is about.")
    if name == "get_schema":
        return _(
            "First read the data's columns, their types and some of their values, to map the question's words to them."
        )
    if name == "run_query":
        spec = _mapping(args.get("spec"))
        if move.purpose == "anchor":
            return _("First read the named row's value, to compare the other rows with: %(query)s.") % {
                "query": describe_query(spec)
            }
        if move.purpose == "compared":
            return _("Then compare the other rows with that value: %(query)s.") % {"query": describe_query(spec)}
        if any(c.name == "run_query" and c.ok for c in transcript.calls):
            return _("A second query computes the overall change of the series: %(query)s.") % {
                "query": describe_query(spec)
            }
        if transcript.of("run_query"):
            return _("The planned query could not run; count the rows instead and say what could not be computed.")
        return _("The question maps onto one query: %(query)s.") % {"query": describe_query(spec)}
    if name == "plot":
        plot = _mapping(args.get("plot"))
        return _("Draw %(ref)s as a %(chart)s chart from the query's own rows (x: %(x)s).") % {
            "ref": args.get("result", "q1"),
            "chart": plot.get("chart_type", ""),
            "x": plot.get("x", ""),
        }
    if name is not None:
        return _purpose(name)
    if read_clarification(move.draft) is not None:
        return _("The question can be read in more than one way: ask which was meant before computing anything.")
    if not any(c.name == "run_query" and c.ok for c in transcript.calls):
        return _("No query can answer this as asked: say so plainly, with no figure that a query did not return.")
    return _("The results are in: write the answer from them; it is checked against the results before it is shown.")


def _execution_plan(transcript: Transcript, move: Move) -> str:
    done = [format_round(n, _purpose(c.name)) for n, c in enumerate(transcript.calls, start=1)]
    current = len(done) + 1
    name = move.calls[0][0] if move.calls else None
    now = names([_purpose(n) for n in dict.fromkeys(n for n, _args in move.calls)]) if name else answering()
    rounds = [*done, format_round(current, now, current=True)]
    rounds += [format_round(current + i, what) for i, what in enumerate(_later(name), start=1)]
    return join_rounds(rounds)


def outline(transcript: Transcript, move: Move) -> dict[str, Any]:
    """The step's task analysis and execution plan, in the question's language."""
    with speaking(language_of(transcript.question)):
        return {
            "task_analysis": _analysis(transcript, move),
            "execution_plan": _execution_plan(transcript, move),
            "current_round": len(transcript.calls) + 1,
        }
