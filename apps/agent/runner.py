"""answer_question(): one question, one run of the graph, always ending with run.finished or run.failed.

The caller chooses the tenant and the data (a DataBinding); the model only ever sees tools bound to it.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from langchain_core.language_models import BaseChatModel

from apps.agent import providers
from apps.agent.events import Emit, EventSink, answer_chunks
from apps.agent.graph import build_graph
from apps.agent.messages import language_of, user_error
from apps.agent.prompts import load_prompt
from apps.agent.response import AskResponse, AuditOut, LlmUsageOut
from apps.agent.rules import verification_rules
from apps.agent.state import RunContext, RunState
from apps.agent.tools import DataBinding, Tool, tools_for
from apps.audit.quotas import check_run_allowed
from apps.audit.services import run_record
from apps.observability import context as log_context
from baplatform.errors import InvalidInput

log = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 2000  # the one limit: the API schema, the chat box and every ask path use it
PROMPT_NAME = "analyst"


def _failed(trace_id: str, model_name: str, version: str, lang: Any, code: str = "internal") -> AskResponse:
    return AskResponse(
        status="failed",
        error=user_error(code, lang),
        audit=AuditOut(trace_id=trace_id, prompt_version=version, llm=LlmUsageOut(model=model_name)),
    )


def check_question(question: str) -> str:
    text = (question or "").strip()
    if not text:
        raise InvalidInput(_("ask a question (the text is empty)"), code="empty_question")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidInput(
            _("the question is %(length)s characters long; keep it to at most %(max)s")
            % {"length": f"{len(text):,}", "max": f"{MAX_QUESTION_CHARS:,}"},
            code="question_too_long",
        )
    return text


def stream_answer(sink: EventSink, answer: str) -> None:
    """The verified answer in answer.delta events, all at once: the web process relaying them to a socket types
    them out (apps/conversations/consumers.py), so the run's worker is not held while people watch."""
    for chunk in answer_chunks(answer):
        sink("answer.delta", text=chunk)


def answer_question(
    *,
    binding: DataBinding,
    question: str,
    history: Sequence[dict[str, Any]] = (),
    model: BaseChatModel | None = None,
    model_name: str | None = None,
    emit: Emit | None = None,
    trace_id: str | None = None,
    actor: str = "",
    extra_tools: Sequence[Tool] = (),
    link_for: Callable[[str, str], str | None] | None = None,
) -> AskResponse:
    question = check_question(question)
    trace_id = trace_id or uuid.uuid4().hex
    with log_context.bind(trace_id=trace_id, tenant=binding.tenant.slug, actor=actor):
        started = time.perf_counter()
        log.info("run started", extra={"source_type": binding.source_type})
        response = _answer(
            binding=binding,
            question=question,
            history=history,
            model=model,
            model_name=model_name,
            emit=emit,
            trace_id=trace_id,
            actor=actor,
            extra_tools=extra_tools,
            link_for=link_for,
        )
        duration = round((time.perf_counter() - started) * 1000, 3)
        log.info("run finished", extra={"status": response.status, "duration_ms": duration})
        return response


def _answer(
    *,
    binding: DataBinding,
    question: str,
    history: Sequence[dict[str, Any]],
    model: BaseChatModel | None,
    model_name: str | None,
    emit: Emit | None,
    trace_id: str,
    actor: str,
    extra_tools: Sequence[Tool],
    link_for: Callable[[str, str], str | None] | None,
) -> AskResponse:
    sink = EventSink(trace_id, emit)
    if model is None:
        model, model_name = providers.default_chat_model()
    model_name = model_name or getattr(model, "model_name", None) or type(model).__name__
    prompt = load_prompt(PROMPT_NAME)
    lang = language_of(question)
    check_run_allowed(binding.tenant)  # before anything is spent
    run_record(tenant=binding.tenant, trace_id=trace_id, actor=actor, model=model_name)
    sink("run.started", question=question, source=binding.name, source_type=binding.source_type, model=model_name)
    ctx = RunContext(
        binding=binding,
        model=model,
        model_name=model_name,
        tools=tools_for(binding, [*providers.optional_tools(), *extra_tools]),
        emit=sink,
        trace_id=trace_id,
        prompt=prompt,
        rules=verification_rules(),
        actor=actor,
        language=lang,
        link_for=link_for,
        started=time.perf_counter(),
    )
    try:
        # Tool messages to the model and the user's errors follow the question's language.
        with translation.override("zh-hans" if lang == "zh" else "en"):
            final = build_graph().invoke(
                RunState(question=question, history=list(history)), context=ctx, config={"recursion_limit": 64}
            )
        response: AskResponse = final["response"]
    except Exception:  # a bug must still end the run with a clear event, never a silent hang
        log.exception("run crashed")
        response = _failed(trace_id, model_name, prompt.version, lang)
    if response.status == "failed" and response.error is None:
        response.error = user_error("internal", lang)
    if response.status == "answered":  # verified: now, and only now, its text is typed out
        stream_answer(sink, response.answer)
    sink("run.finished" if response.status != "failed" else "run.failed", response=response.model_dump(mode="json"))
    return response
