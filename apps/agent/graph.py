"""The graph: plan -> tool -> plan ... (at most 8 steps) -> verify -> narrate, or verify -> plan once;
a refused model turn goes back to plan (bounded)."""

from __future__ import annotations

import logging
import time
from functools import lru_cache
from typing import Any, Literal, Protocol

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from apps.agent.nodes.narrate import narrate
from apps.agent.nodes.plan import plan
from apps.agent.nodes.tool import tool
from apps.agent.nodes.verify import verify_node
from apps.agent.state import Node, RunContext, RunState

log = logging.getLogger(__name__)


class NodeFn(Protocol):
    def __call__(self, state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]: ...


def logged(name: Node, node: NodeFn) -> NodeFn:
    """The node, with a log line when it is entered and one when it is left (with its duration)."""

    def run(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        log.info("node entered", extra={"node": name.value, "step": state.steps})
        started = time.perf_counter()
        outcome = "error"
        try:
            update = node(state, runtime)
            outcome = str(update.get("status") or state.status)
            return update
        finally:
            duration = round((time.perf_counter() - started) * 1000, 3)
            log.info("node left", extra={"node": name.value, "outcome": outcome, "duration_ms": duration})

    run.__name__ = name.value
    return run


def after_plan(state: RunState) -> Literal["plan", "tool", "verify", "narrate"]:
    if state.status != "running":
        return Node.NARRATE.value
    last = state.messages[-1] if state.messages else None
    if not isinstance(last, AIMessage):  # the turn was refused and the model told why: it tries again
        return Node.PLAN.value
    return Node.TOOL.value if last.tool_calls else Node.VERIFY.value


def after_tool(state: RunState) -> Literal["plan", "narrate"]:
    return Node.PLAN.value if state.status == "running" else Node.NARRATE.value


def after_verify(state: RunState) -> Literal["plan", "narrate"]:
    last = state.messages[-1] if state.messages else None
    retrying = state.status == "running" and isinstance(last, HumanMessage)
    return Node.PLAN.value if retrying else Node.NARRATE.value


@lru_cache(maxsize=1)
def build_graph() -> Any:
    graph = StateGraph(RunState, context_schema=RunContext)
    graph.add_node(Node.PLAN.value, logged(Node.PLAN, plan))
    graph.add_node(Node.TOOL.value, logged(Node.TOOL, tool))
    graph.add_node(Node.VERIFY.value, logged(Node.VERIFY, verify_node))
    graph.add_node(Node.NARRATE.value, logged(Node.NARRATE, narrate))
    graph.add_edge(START, Node.PLAN.value)
    graph.add_conditional_edges(Node.PLAN.value, after_plan)
    graph.add_conditional_edges(Node.TOOL.value, after_tool)
    graph.add_conditional_edges(Node.VERIFY.value, after_verify)
    graph.add_edge(Node.NARRATE.value, END)
    return graph.compile()
