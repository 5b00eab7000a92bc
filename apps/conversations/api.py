"""REST endpoints for integrations: conversations, asking (synchronously or not), runs and their results."""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.agent.runner import MAX_QUESTION_CHARS
from apps.conversations import access, selectors, services
from apps.conversations.models import Conversation, Message, Run
from apps.datasets import selectors as dataset_selectors
from apps.datasets.outputs.api import FormatIsAFileType, export_response
from apps.datasets.query.results import ResultTable
from apps.datasets.sources import selectors as source_selectors
from apps.tenants.api_base import TenantAPIView
from apps.tenants.idempotency import idempotent
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.throttling import ASK_THROTTLES, AskThrottled
from baplatform.errors import InvalidInput


def conversation_out(conversation: Conversation) -> dict[str, Any]:
    return {
        "id": conversation.pk,
        "title": conversation.title,
        "dataset": conversation.dataset_id,
        "source": conversation.source_id,
        "created_at": conversation.created_at,
        "updated_at": conversation.updated_at,
        "actor": conversation.actor,
    }


def message_out(message: Message) -> dict[str, Any]:
    run = getattr(message, "run", None)
    return {
        "id": message.pk,
        "question": message.question,
        "status": message.status,
        "trace_id": run.trace_id if run else None,
        "response": message.response,
        "created_at": message.created_at,
    }


def run_out(run: Run, *, after: int = 0) -> dict[str, Any]:
    return {
        "trace_id": run.trace_id,
        "conversation": run.conversation_id,
        "status": run.status,
        "question": run.message.question,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "last_seq": run.last_seq,
        "response": run.message.response,
        "events": selectors.events_after(run=run, after=after),
    }


class ConversationIn(serializers.Serializer):
    dataset = serializers.IntegerField(required=False)
    source = serializers.IntegerField(required=False)
    title = serializers.CharField(required=False, max_length=200, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("dataset" in attrs) == ("source" in attrs):
            raise serializers.ValidationError(
                _("give exactly one of dataset (a dataset id) or source (a SQL source id)")
            )
        return attrs


@extend_schema_field({"type": "string", "maxLength": MAX_QUESTION_CHARS})
class QuestionField(serializers.CharField):
    """The question's limit is documented here and checked by runner.check_question (one constant for both),
    which answers `question_too_long` like the WebSocket does."""


class AskIn(serializers.Serializer):
    question = QuestionField(trim_whitespace=True, allow_blank=True)
    wait = serializers.BooleanField(default=True, help_text="false: answer 202 at once and poll the run")


class ConversationReadView(TenantAPIView):
    """Reads a conversation or run; with conversations:write alone, only those the caller created
    (apps/conversations/access.py); another's is a 404 like a missing one."""

    def readable_conversation(self, conversation_id: int) -> Conversation:
        conversation = selectors.conversation_get(tenant=self.tenant, conversation_id=conversation_id)
        if self.reads_own_only and not access.may_read_conversation(self.tenant_ctx, conversation):
            raise Http404("conversation not found")
        return conversation

    def readable_run(self, trace_id: str) -> Run:
        run = selectors.run_get(tenant=self.tenant, trace_id=trace_id)
        if self.reads_own_only and not access.may_read_run(self.tenant_ctx, run):
            raise Http404("run not found")
        return run


class ConversationListView(TenantAPIView):
    scope_map = {"GET": CONVERSATIONS_READ, "POST": CONVERSATIONS_WRITE}

    def get(self, request: Request) -> Response:
        return self.paginate(selectors.conversation_list(tenant=self.tenant), conversation_out)

    @idempotent
    def post(self, request: Request) -> Response:
        data = ConversationIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        dataset = source = None
        if "dataset" in values:
            dataset = dataset_selectors.dataset_get(tenant=self.tenant, key=values["dataset"])
        else:
            source = source_selectors.source_get(tenant=self.tenant, source_id=values["source"])
        conversation = services.conversation_create(
            tenant=self.tenant, ctx=self.tenant_ctx, dataset=dataset, source=source, title=values.get("title", "")
        )
        return Response(conversation_out(conversation), status=status.HTTP_201_CREATED)


class ConversationDetailView(ConversationReadView):
    scope_map = {"GET": CONVERSATIONS_READ}
    own_read_scope = CONVERSATIONS_WRITE

    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = self.readable_conversation(conversation_id)
        body = conversation_out(conversation)
        body["messages"] = [message_out(m) for m in selectors.messages_of(conversation=conversation)]
        return Response(body)


class MessageListView(ConversationReadView):
    """POST a question: with wait (default) the full response; with wait=false 202 and the run to poll."""

    scope_map = {"GET": CONVERSATIONS_READ, "POST": CONVERSATIONS_WRITE}
    own_read_scope = CONVERSATIONS_WRITE
    throttle_classes: ClassVar[list[Any]] = [*TenantAPIView.throttle_classes, *ASK_THROTTLES]

    def throttled(self, request: Request, wait: float | None) -> None:
        raise AskThrottled(wait)

    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = self.readable_conversation(conversation_id)
        return self.paginate(selectors.messages_of(conversation=conversation), message_out)

    @idempotent
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = selectors.conversation_get(tenant=self.tenant, conversation_id=conversation_id)
        data = AskIn(data=request.data)
        data.is_valid(raise_exception=True)
        question, actor = data.validated_data["question"], self.tenant_ctx.actor_label
        if not data.validated_data["wait"]:
            run = services.ask_in_background(conversation=conversation, question=question, actor=actor)
            body = {"trace_id": run.trace_id, "status": run.status, "run": f"/api/v1/runs/{run.trace_id}/"}
            return Response(body, status=status.HTTP_202_ACCEPTED)
        run, response = services.ask_sync(conversation=conversation, question=question, actor=actor)
        return Response({**response, "trace_id": run.trace_id, "message": run.message_id})


class RunDetailView(ConversationReadView):
    """A run: status, its response once finished, and its events (?after=SEQ for the ones not seen yet)."""

    scope_map = {"GET": CONVERSATIONS_READ}
    own_read_scope = CONVERSATIONS_WRITE

    def get(self, request: Request, trace_id: str) -> Response:
        run = self.readable_run(trace_id)
        try:
            after = int(request.query_params.get("after", 0))
        except ValueError:
            raise InvalidInput(_("after must be a whole number (the last seq you received)")) from None
        return Response(run_out(run, after=max(after, 0)))


class RunResultView(ConversationReadView):
    """A result table of a finished run (q1, q2...) as CSV or XLSX, from the stored response."""

    scope_map = {"GET": CONVERSATIONS_READ}
    own_read_scope = CONVERSATIONS_WRITE
    renderer_classes: ClassVar[list[Any]] = [JSONRenderer]
    content_negotiation_class = FormatIsAFileType

    def get(self, request: Request, trace_id: str, ref: str, fmt: str) -> HttpResponse:
        run = self.readable_run(trace_id)
        tables = (run.message.response or {}).get("tables") or []
        table = next((t for t in tables if t.get("ref") == ref), None)
        if table is None:
            raise Http404("no such result in this run")
        result = ResultTable(columns=table["columns"], rows=table["rows"], row_count=table["row_count"])
        return export_response(result, chosen=fmt, name=f"{run.conversation.title} {ref}")
