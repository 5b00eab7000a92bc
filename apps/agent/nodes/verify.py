"""verify: fill the draft's references, then check it (VERIFY.md); one corrective retry, then intercept."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from apps.agent.messages import user_error
from apps.agent.references import fill_references
from apps.agent.state import RunContext, RunState
from apps.agent.tools import ToolOutcome
from apps.agent.verification.check import ToolCallRecord, VerifyInput, verify
from apps.agent.verification.verdict import Verdict
from apps.audit.services import interception_record


def records(outcomes: list[ToolOutcome]) -> list[ToolCallRecord]:
    return [
        ToolCallRecord(
            step=o.step,
            name=o.name,
            status=o.status,
            arguments=o.arguments,
            columns=o.columns,
            rows=o.rows,
            row_count=o.row_count,
            error=o.error,
        )
        for o in outcomes
    ]


def check(state: RunState, ctx: RunContext, answer: str) -> Verdict:
    rules = ctx.rules
    return verify(
        VerifyInput(
            question=state.question,
            draft=answer,
            tool_calls=records(state.outcomes),
            source_type=ctx.binding.source_type,
            history=[text for turn in state.history for text in (turn["question"], turn["answer"])],
            required_tools=rules.required_tools,
            patterns=rules.patterns,
            whitelist=rules.whitelist,
        )
    )


def _intercept(state: RunState, ctx: RunContext, answer: str, verdict: Verdict) -> None:
    interception_record(
        tenant=ctx.binding.tenant,
        trace_id=ctx.trace_id,
        question=state.question,
        draft=answer,
        reasons=[r.model_dump() for r in verdict.reasons],
        matched_patterns=[m.model_dump() for m in verdict.matched_patterns],
        ungrounded=[u.model_dump() for u in verdict.ungrounded],
        tool_calls=[o.model_dump(exclude={"rows"}) | {"rows": o.rows[:20]} for o in state.outcomes],
        source_type=ctx.binding.source_type,
        source_name=ctx.binding.name,
        model=ctx.model_name,
        prompt_version=ctx.prompt.version,
        actor=ctx.actor,
    )


def verify_node(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    answer, _fills = fill_references(state.draft, state.outcomes)
    verdict = check(state, ctx, answer)
    retry = not verdict.passed and not state.retried
    ctx.emit(
        "verify",
        passed=verdict.passed,
        reasons=[r.model_dump() for r in verdict.reasons],
        warnings=[w.model_dump() for w in verdict.warnings],
        retry=retry,
    )
    if verdict.passed:
        return {"answer": answer, "verdict": verdict, "status": "answered"}
    if retry:
        feedback = (
            "VERIFY FAILED: your answer was not shown to the user because:\n"
            + verdict.feedback()
            + "\nWrite the answer again. Quote every number as a reference to a tool result "
            "({{q1.column[row]}}); if a number is missing, compute it with run_query first. "
            "Never show sample or placeholder data."
        )
        return {"messages": [HumanMessage(feedback)], "retried": True, "verdict": verdict, "draft": ""}
    _intercept(state, ctx, answer, verdict)
    return {"verdict": verdict, "status": "intercepted", "error": user_error("intercepted", ctx.language)}
