"""narrate: the response users see (docs/DESIGN.md section 5), built from the run's results, never typed.

A final text that opens with the clarification marker (apps/agent/clarification.py) and passes its rule (a
question quoting no number, at least two choices) becomes a clarification: `answer` is the question,
`recommended_questions` and `clarification.choices` the choices. The marker line is removed from every answer.
"""

from __future__ import annotations

import time
from typing import Any

from django.utils.translation import gettext as _
from langgraph.runtime import Runtime

from apps.agent.clarification import read_clarification, strip_marker
from apps.agent.explain import explain
from apps.agent.response import (
    AskResponse,
    AuditOut,
    ChartOut,
    ClarificationOut,
    CoverageOut,
    GroundingOut,
    LlmUsageOut,
    StepOut,
    TableOut,
    VerificationOut,
)
from apps.agent.state import RunContext, RunState
from apps.agent.verification.hygiene import split_follow_ups


def answer_parts(answer: str) -> tuple[str, list[str], ClarificationOut | None]:
    """The answer's text, its suggested questions, and the clarification it asks (if it is one)."""
    asked = read_clarification(answer)
    if asked is not None:
        return asked.question, list(asked.choices), ClarificationOut(question=asked.question, choices=asked.choices)
    text, questions = split_follow_ups(strip_marker(answer)[1])
    return text, questions, None


def _markup_warning() -> dict[str, str]:
    return {
        "code": "model_markup_removed",
        "message": str(_("HTML or chart code written by the model was removed; charts come only from the data.")),
    }


def _verification(state: RunState) -> VerificationOut:
    verdict = state.verdict
    if verdict is None:
        return VerificationOut(passed=False)
    removed = [_markup_warning()] if state.markup_removed else []
    return VerificationOut(  # people's wording only: what the model was told stays in the audit
        passed=verdict.passed,
        reasons=[r.for_people() for r in verdict.reasons],
        warnings=[w.for_people() for w in verdict.warnings] + removed,
        grounding=[GroundingOut(**g.model_dump()) for g in verdict.grounding],
        coverage=[CoverageOut(**c.model_dump()) for c in verdict.coverage],
        checks=list(verdict.checks),
    )


def _audit(state: RunState, ctx: RunContext) -> AuditOut:
    calls = state.llm_calls
    return AuditOut(
        trace_id=ctx.trace_id,
        prompt_version=ctx.prompt.version,
        steps=[
            StepOut(
                step=o.step,
                tool=o.name,
                status=o.status,
                latency_ms=o.latency_ms,
                rows=o.row_count,
                ref=o.ref,
                error=o.error,
            )
            for o in state.outcomes
        ],
        llm=LlmUsageOut(
            model=ctx.model_name,
            calls=len(calls),
            input_tokens=sum(c.input_tokens for c in calls),
            output_tokens=sum(c.output_tokens for c in calls),
            cost_usd=round(sum(c.cost_usd for c in calls), 6),
        ),
        elapsed_ms=round((time.perf_counter() - ctx.started) * 1000, 3) if ctx.started else 0.0,
    )


def narrate(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    status = state.status if state.status != "running" else "failed"
    ok = [o for o in state.outcomes if o.status == "ok"]
    response = AskResponse(
        status=status,
        verification=_verification(state),
        error=state.error,
        audit=_audit(state, ctx),
        task_analysis=state.task_analysis,
        execution_plan=state.execution_plan,
        current_round=state.current_round,
    )
    if status == "answered":
        response.answer, response.recommended_questions, response.clarification = answer_parts(state.answer)
        response.tables = [
            TableOut(
                name=f"{o.ref} · {o.name}",
                ref=o.ref,
                columns=o.columns,
                rows=o.rows,
                row_count=o.row_count,
                truncated=o.truncated,
            )
            for o in ok
            if o.ref and o.name != "sample_rows"
        ]
        response.charts = [
            ChartOut(type=o.payload["chart_type"], result=o.payload["result"], option=o.payload["option"])
            for o in ok
            if o.name == "plot" and o.payload
        ]
        binding = ctx.binding
        response.explanation = explain(
            state.outcomes,
            source_name=binding.name,
            source_type=binding.source_type,
            language=ctx.language,
            dataset_profile=binding.version.profile if binding.version is not None else None,
        )
        if ctx.link_for is not None:
            response.download_links = [
                link
                for t in response.tables
                for link in (ctx.link_for(t.ref, "csv"), ctx.link_for(t.ref, "xlsx"))
                if link
            ]
    return {"response": response, "status": status}
