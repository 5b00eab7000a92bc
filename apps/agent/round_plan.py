"""The structured plan of a plan step — task analysis, execution plan by round, current round — from whatever
the model gave: its structured JSON, the offline planner's own outline, or (for a model that gives neither)
the rounds the run has made so far. `plan` events stream it; the response carries the last one.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from langchain_core.messages import AIMessage

from apps.agent.aliases import ALIASES
from apps.agent.structured import RoundPlan, read_plan

if TYPE_CHECKING:
    from apps.agent.tools import ToolOutcome

# Where a chat model that is not an endpoint (the offline planner) puts its outline of the step.
PLAN_METADATA_KEY = "structured_plan"


def outline_of(reply: AIMessage) -> RoundPlan | None:
    """The outline a chat model attached to its turn (`response_metadata["structured_plan"]`), if any."""
    metadata = getattr(reply, "response_metadata", None)
    outline = metadata.get(PLAN_METADATA_KEY) if isinstance(metadata, dict) else None
    return read_plan(outline) if isinstance(outline, dict) else None


# "1. 识别意图；2. 预判风险" — an enumeration written inline; a marker follows a start, a space or punctuation.
_MARKER = re.compile(r"(?:(?<=^)|(?<=[\s:：;；。,，]))(?P<n>[1-9]|1[0-9])[.、)）](?![0-9])")


def enumeration_as_lines(text: str) -> str:
    """`text` with an inline enumeration (1. …；2. …；3. …, numbered from 1 in order) one item per line, as
    people read a list — and as the plan-text check knows list markers: at the start of a line."""
    markers = list(_MARKER.finditer(text))
    if len(markers) < 2 or [int(m["n"]) for m in markers] != list(range(1, len(markers) + 1)):
        return text
    out, at = [], 0
    for m in markers:
        before = text[at : m.start()].rstrip(" \t")
        out.append(before + ("\n" if before and not before.endswith("\n") else ""))
        at = m.start()
    out.append(text[at:])
    return "".join(out)


def format_round(number: int, what: str, *, current: bool = False) -> str:
    """One round of an execution plan, as the requirements write it: `R2: run_query (current)`."""
    text = _("R%(round)s: %(what)s") % {"round": number, "what": what}
    return text + (_(" (current)") if current else "")


def join_rounds(rounds: Sequence[str]) -> str:
    return pgettext("separator between the rounds of an execution plan", "; ").join(rounds)


def answering() -> str:
    """What the last round does."""
    return _("write the answer, every number checked against the results")


def known_tool(name: object, tools: Collection[str]) -> str:
    """A tool name as people may see it: one the run offers (or a documented alias of one), else a placeholder,
    since a name the model made up is model text that no check has read."""
    said = str(name)
    return said if said in tools or said in ALIASES else _("(unknown tool)")


def rounds_so_far(
    outcomes: Sequence[ToolOutcome], planned: Sequence[dict[str, Any]], current_round: int, tools: Collection[str]
) -> str:
    """`R1: get_schema; R2: run_query (current)`: the tools of each earlier round, then this one's (or the
    answer, when this round writes it)."""
    by_round: dict[int, list[str]] = {}
    for outcome in outcomes:
        names = by_round.setdefault(outcome.step, [])
        if outcome.name not in names:
            names.append(outcome.name)
    parts = [format_round(n, ", ".join(names)) for n, names in sorted(by_round.items()) if n < current_round]
    if planned:
        now = ", ".join(dict.fromkeys(known_tool(c.get("name"), tools) for c in planned))
    else:
        now = answering()
    parts.append(format_round(current_round, now, current=True))
    return join_rounds(parts)
