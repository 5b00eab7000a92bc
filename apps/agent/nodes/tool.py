"""tool: execute the planned calls (at most 6 per step), record them, stop on system errors or no progress."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from apps.agent.aliases import canonical_or_same
from apps.agent.messages import user_error
from apps.agent.state import RunContext, RunState
from apps.agent.tools import ToolOutcome, run_tool
from apps.audit.services import tool_call_record


def _key(name: str, args: dict[str, Any]) -> str:
    return name + json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)


def _no_progress_keys(state: RunState) -> set[str]:
    """Keys of the earlier calls that a new call may not repeat (no progress).

    After verify asked for a retry, re-running a query made before it is the correction asked for, not a
    loop: those calls are allowed once more, so only repeats of calls made since the retry count.
    """
    since = state.retry_step if state.retried else -1
    return {_key(o.name, o.arguments) for o in state.outcomes if o.step > since}


def _rows_scanned(ctx: RunContext, outcome: ToolOutcome) -> int:
    """File queries scan the whole table; elsewhere the rows returned are what is known."""
    version = ctx.binding.version
    if outcome.name == "run_query" and version is not None and version.row_count is not None:
        return int(version.row_count)
    return outcome.row_count


def _audit(ctx: RunContext, outcome: ToolOutcome) -> None:
    binding = ctx.binding
    tool_call_record(
        tenant=binding.tenant,
        trace_id=ctx.trace_id,
        actor=ctx.actor,
        prompt_version=ctx.prompt.version,
        source_type=binding.source_type,
        dataset_version_id=binding.version.pk if binding.version is not None else None,
        source_id=binding.source.pk if binding.source is not None else None,
        outcome=outcome,
        rows_scanned=_rows_scanned(ctx, outcome) if outcome.status == "ok" else 0,
    )


def tool(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    last = state.messages[-1]
    calls = last.tool_calls if isinstance(last, AIMessage) else []  # routed here only after tool calls
    seen = _no_progress_keys(state)
    outcomes: list[ToolOutcome] = []
    replies: list[ToolMessage] = []
    for index, call in enumerate(calls):
        call_id = call.get("id") or f"call-{state.steps}-{index}"
        if index >= ctx.max_parallel:
            text = f"skipped: at most {ctx.max_parallel} tool calls per step; ask again in the next step"
            replies.append(ToolMessage(content=text, tool_call_id=call_id, name=call["name"], status="error"))
            continue
        name, args = canonical_or_same(call["name"], call["args"])  # an alias repeats its canonical call
        key = _key(name, args)
        if key in seen:
            ctx.emit("tool.finished", step=state.steps, tool=call["name"], status="repeated", call_id=call_id)
            return {"outcomes": outcomes, "status": "failed", "error": user_error("no_progress", ctx.language)}
        seen.add(key)
        alias = {"called_as": call["name"]} if name != call["name"] else {}
        ctx.emit("tool.started", step=state.steps, tool=name, call_id=call_id, args=call["args"], **alias)
        outcome = run_tool(
            ctx.binding,
            tools=ctx.tools,
            name=call["name"],
            arguments=call["args"],
            call_id=call_id,
            step=state.steps,
            previous=[*state.outcomes, *outcomes],
        )
        outcomes.append(outcome)
        _audit(ctx, outcome)
        ctx.emit(
            "tool.finished",
            step=state.steps,
            tool=outcome.name,
            call_id=call_id,
            status=outcome.status,
            rows=outcome.row_count,
            latency_ms=outcome.latency_ms,
            ref=outcome.ref,
            error=outcome.error,
            **({"called_as": outcome.called_as} if outcome.called_as else {}),
        )
        replies.append(ToolMessage(content=outcome.for_model(), tool_call_id=call_id, name=outcome.name))
        if outcome.status == "system_error":  # never answered around: the run stops here
            error = user_error("tool_failed", ctx.language, cause=outcome.error_code)
            return {"outcomes": outcomes, "messages": replies, "status": "failed", "error": error}
    invalid = state.validation_errors + sum(1 for o in outcomes if o.status == "validation_error")
    update: dict[str, Any] = {"outcomes": outcomes, "messages": replies, "validation_errors": invalid}
    if invalid > ctx.max_validation_errors:
        update.update(status="failed", error=user_error("invalid_requests", ctx.language))
    return update
