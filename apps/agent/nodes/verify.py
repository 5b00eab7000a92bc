"""verify: fill the draft's references, then check it (docs/VERIFY.md); one corrective retry, then intercept.

`verify_input` is also what the plan node checks its streamed text with, so both see the same evidence.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _
from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from apps.agent.clarification import read_clarification
from apps.agent.messages import user_error
from apps.agent.references import fill_references
from apps.agent.state import RunContext, RunState
from apps.agent.tools import DataBinding, ToolOutcome
from apps.agent.verification.check import EarlierTurn, ToolCallRecord, VerifyInput, verify
from apps.agent.verification.hygiene import strip_think
from apps.agent.verification.inputs import SEARCH_TOOLS
from apps.agent.verification.verdict import Verdict
from apps.agent.verification.vocabulary import Vocabulary
from apps.audit.services import interception_record
from apps.datasets.errors import SourceFailure
from baplatform.errors import PlatformError

log = logging.getLogger(__name__)


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
            payload=o.payload if o.name in SEARCH_TOOLS else None,
        )
        for o in outcomes
    ]


def earlier_turns(history: list[dict[str, Any]]) -> list[EarlierTurn]:
    """Earlier turns with the result tables stored with their answers (numbers repeated from them are
    re-grounded against those tables, labels included)."""
    turns = []
    for turn in history:
        tables = [
            (list(t.get("columns") or []), list(t.get("rows") or []))
            for t in turn.get("tables") or []
            if isinstance(t, dict)
        ]
        turns.append(
            EarlierTurn(question=str(turn.get("question", "")), answer=str(turn.get("answer", "")), tables=tables)
        )
    return turns


def vocabulary(binding: DataBinding, outcomes: list[ToolOutcome]) -> Vocabulary:
    """The data's words: the dataset's profile (or the profiles of the SQL tables the run looked at) and the
    tenant's synonyms."""
    profiles: list[dict[str, Any]] = [o.payload for o in outcomes if o.name == "get_schema" and o.payload]
    synonyms: dict[str, str] = {}
    data = binding.data
    if data.kind == "file" and binding.version is not None:  # a file's one profile was made at ingest
        profiles.append(binding.version.profile or {})
        synonyms = data.synonyms()
    elif data.kind == "sql":
        seen = {str(o.arguments.get("table")) for o in outcomes if o.name == "get_schema"}
        for table in {str(o.arguments.get("table")) for o in outcomes if o.name == "run_query"} - seen:
            try:
                profiles.append(data.schema(table).model_dump(mode="json"))
            except (SourceFailure, PlatformError):  # the query itself reported it; coverage just knows less
                log.info("no profile for a queried table while verifying")
    return Vocabulary.from_profiles(profiles, synonyms)


def _run_vocabulary(ctx: RunContext, outcomes: list[ToolOutcome]) -> Vocabulary:
    """The vocabulary changes only when a schema or query call is added: the plan node asks at every step."""
    key = sum(1 for o in outcomes if o.name in ("get_schema", "run_query"))
    cached = ctx.vocabularies.get(key)
    if cached is None:
        cached = ctx.vocabularies[key] = vocabulary(ctx.binding, outcomes)
    return cached


def verify_input(state: RunState, ctx: RunContext, draft: str) -> VerifyInput:
    rules = ctx.rules
    return VerifyInput(
        question=state.question,
        draft=draft,
        tool_calls=records(state.outcomes),
        source_type=ctx.binding.source_type,
        earlier=earlier_turns(state.history),
        vocabulary=_run_vocabulary(ctx, state.outcomes),
        required_tools=rules.required_tools,
        patterns=rules.patterns,
        whitelist=rules.whitelist,
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
    answer, _fills = fill_references(strip_think(state.draft), state.outcomes)
    verdict = verify(verify_input(state, ctx, answer))
    retry = not verdict.passed and not state.retried
    asks = verdict.passed and read_clarification(answer) is not None
    ctx.emit(  # people see codes and a short status in their language, never the model-facing text
        "verify",
        passed=verdict.passed,
        message=str(_("A question back: nothing was computed yet.")) if asks else verdict.user_status(),
        reasons=[r.for_people() for r in verdict.reasons],
        warnings=[w.for_people() for w in verdict.warnings],
        retry=retry,
    )
    if verdict.passed:
        return {"answer": answer, "verdict": verdict, "status": "answered"}
    if retry:
        feedback = (
            "VERIFY FAILED: your answer was not shown to the user because:\n"
            + verdict.feedback()
            + "\nWrite the answer again. Quote every number as a reference to a tool result "
            "({{q1.column[row]}}) next to the label of its own row; apply every part of the question in a query "
            "or say plainly what was not applied; if a number is missing, compute it with run_query first (you may "
            "re-run a query). Never show sample or placeholder data."
        )
        return {
            "messages": [HumanMessage(feedback)],
            "retried": True,
            "retry_step": state.steps,
            "verdict": verdict,
            "draft": "",
        }
    _intercept(state, ctx, answer, verdict)
    error = user_error("intercepted", ctx.language, verdict.user_status())
    return {"verdict": verdict, "status": "intercepted", "error": error}
