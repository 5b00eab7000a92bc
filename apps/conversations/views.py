"""Portal pages for conversations: the list (searchable), starting one about a dataset or SQL source,
renaming and deleting one (after a confirmation page), and the chat page.

The chat page renders the stored history; asking and the live steps go through the WebSocket
(`apps.conversations.consumers`), driven by static/js/chat.js.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.agent.runner import MAX_QUESTION_CHARS
from apps.conversations import conversation_services, selectors, services
from apps.conversations.models import Conversation, Message
from apps.datasets import selectors as dataset_selectors
from apps.datasets.sources import selectors as source_selectors
from apps.tenants.context import TenantContext
from apps.tenants.portal import portal_view
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from baplatform.errors import PlatformError

MAX_PREFILL = 500  # a suggested question carried to the chat page
HISTORY_MESSAGES = 50  # the most recent turns shown on the chat page


LIST_LIMIT = 200  # conversations shown on the list page; a search finds older ones


def distinct_titles(conversations: Sequence[Conversation]) -> dict[int, str]:
    """A label per conversation that tells same-titled ones apart: the title, then its local start time
    (and the number when two started in the same minute)."""
    counts = Counter(c.title for c in conversations)
    labels = {}
    for c in conversations:
        labels[c.pk] = c.title
        if counts[c.title] > 1:
            labels[c.pk] = f"{c.title} · {timezone.localtime(c.created_at):%Y-%m-%d %H:%M}"
    repeated = Counter(labels.values())
    return {pk: f"{label} · #{pk}" if repeated[label] > 1 else label for pk, label in labels.items()}


@require_GET
@portal_view(scope=CONVERSATIONS_READ)
def conversation_list(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:200]
    rows = selectors.conversation_list(tenant=ctx.tenant, search=search).annotate(questions=Count("messages"))
    conversations = list(rows.order_by("-updated_at", "-id")[:LIST_LIMIT])
    labels = distinct_titles(conversations)
    for conversation in conversations:
        conversation.label = labels[conversation.pk]  # type: ignore[attr-defined]
    can_write = CONVERSATIONS_WRITE in ctx.scopes
    datasets = dataset_selectors.dataset_list(tenant=ctx.tenant) if can_write else []
    return render(
        request,
        "conversations/list.html",
        {"conversations": conversations, "can_write": can_write, "datasets": datasets, "search": search},
    )


@require_POST
@portal_view(scope=CONVERSATIONS_WRITE)
def conversation_rename(request: HttpRequest, ctx: TenantContext, conversation_id: int) -> HttpResponse:
    conversation = selectors.conversation_get(tenant=ctx.tenant, conversation_id=conversation_id)
    try:
        conversation_services.conversation_rename(conversation=conversation, title=request.POST.get("title", ""))
        messages.success(request, _("Conversation renamed."))
    except PlatformError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("conversation_chat", args=[conversation.pk]))


@require_http_methods(["GET", "POST"])
@portal_view(scope=CONVERSATIONS_WRITE)
def conversation_delete(request: HttpRequest, ctx: TenantContext, conversation_id: int) -> HttpResponse:
    """GET asks for confirmation; POST deletes the conversation with its questions and answers."""
    conversation = selectors.conversation_get(tenant=ctx.tenant, conversation_id=conversation_id)
    if request.method == "GET":
        count = selectors.messages_of(conversation=conversation).count()
        question = ngettext(
            "Delete the conversation “%(title)s” with its %(count)s question and answer?",
            "Delete the conversation “%(title)s” with its %(count)s questions and answers?",
            count,
        ) % {"title": conversation.title, "count": count}
        return render(
            request,
            "portal/confirm.html",
            {
                "title": _("Delete the conversation"),
                "question": question,
                "warning": _("This cannot be undone."),
                "confirm_label": _("Delete"),
                "cancel_url": reverse("conversation_chat", args=[conversation.pk]),
            },
        )
    try:
        conversation_services.conversation_delete(conversation=conversation)
    except PlatformError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("conversation_chat", args=[conversation.pk]))
    messages.success(request, _("Conversation “%(title)s” deleted.") % {"title": conversation.title})
    return redirect("conversations")


@require_POST
@portal_view(scope=CONVERSATIONS_WRITE)
def conversation_start(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    """Start a conversation about one of the tenant's datasets or SQL sources (a form POST), then open its chat page
    (with a suggested question filled in when the form carried one)."""
    if "source" in request.POST:
        source = source_selectors.source_get(tenant=ctx.tenant, source_id=_id(request.POST["source"]))
        conversation = services.conversation_create(tenant=ctx.tenant, ctx=ctx, source=source)
        return _open_chat(conversation, request.POST.get("question", ""))
    dataset = dataset_selectors.dataset_get(tenant=ctx.tenant, key=_id(request.POST.get("dataset", "")))
    conversation = services.conversation_create(tenant=ctx.tenant, ctx=ctx, dataset=dataset)
    return _open_chat(conversation, request.POST.get("question", ""))


def _id(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise Http404("no such dataset or source") from None


def _open_chat(conversation: Conversation, question: str) -> HttpResponse:
    """The new conversation's chat page; a suggested question is filled in, for the user to send."""
    url = reverse("conversation_chat", args=[conversation.pk])
    question = question.strip()[:MAX_PREFILL]
    return redirect(f"{url}?{urlencode({'question': question})}" if question else url)


def _history(messages: list[Message]) -> list[dict[str, Any]]:
    """What the chat script renders for each earlier turn (the stored response, as the API gives it)."""
    out = []
    for message in messages:
        run = getattr(message, "run", None)
        out.append(
            {
                "id": message.pk,
                "question": message.question,
                "status": message.status,
                "trace_id": run.trace_id if run else None,
                "response": message.response,
            }
        )
    return out


def _chat_strings() -> dict[str, str]:
    """Texts the chat script shows, in the user's language."""
    return {
        "ask": _("Ask"),
        "asking": _("Answering…"),
        "connecting": _("Connecting…"),
        "reconnecting": _("The connection dropped; reconnecting…"),
        "connection_failed": _("Could not reach the server; check your connection and try again."),
        "lost_question": _("The connection dropped while the question was sent; reload the page to see its answer."),
        "started": _("Started on %(source)s"),
        "plan": _("Plan: %(text)s"),
        "calls": _("calls %(tools)s"),
        "writing": _("Writing the answer"),
        "round": _("Round %(round)s"),
        "task_analysis": _("Task analysis"),
        "execution_plan": _("Execution plan"),
        "tool_running": _("running…"),
        "row": _("%(rows)s row"),
        "rows": _("%(rows)s rows"),
        "latency": _("%(ms)s ms"),
        "tool_error": _("failed"),
        "verify_passed": _("Verification passed: every number was checked against the tool results"),
        "verify_failed": _("Verification found problems"),
        "verify_retry": _("the answer is being written again"),
        "checked_title": _("Numbers and definitions checked"),
        "checked_numbers_title": _("Numbers checked"),
        "checked_nothing": _("This answer has no numbers to check"),
        "checked_number": _("%(count)s number bound to its result row"),
        "checked_numbers": _("%(count)s numbers bound to their result rows"),
        "checked_labels": _("each number's labels match the row it came from"),
        "checked_part": _("%(count)s part of the question applied: %(anchors)s"),
        "checked_coverage": _("%(count)s parts of the question applied: %(anchors)s"),
        "checked_disclosed": _("Not applied, and the answer says so: %(anchor)s"),
        "checked_missing": _("Not applied: %(anchor)s"),
        "checked_no_fake": _("no sample or placeholder data"),
        "warning": _("Please note: %(message)s"),
        "explanation": _("How it was computed"),
        "explain_source": _("Source"),
        "explain_filters": _("Filters"),
        "explain_no_filters": _("none: every row is included"),
        "explain_grouping": _("Grouping"),
        "explain_measures": _("Measures"),
        "explain_windows": _("Windows"),
        "explain_sort": _("Sort and limit"),
        "explain_rows": _("Rows returned"),
        "explain_more_rows": _("(more rows matched)"),
        "explain_assumptions": _("Assumptions"),
        "grounded": _("From step %(step)s (%(tool)s), row %(row)s, column %(column)s"),
        "grounded_all": _("From step %(step)s (%(tool)s), column %(column)s"),
        "traced_hint": _("Numbers traced to their result rows: use the arrow keys to move between them."),
        "step_label": _("Step %(step)s"),
        "steps": _("Steps"),
        "rows_shown": _("Showing %(shown)s of %(total)s rows"),
        "no_rows": _("No data matched."),
        "download": _("Download %(name)s (%(format)s)"),
        "recommended": _("You could also ask"),
        "needs_choice": _("Needs your choice"),
        "choose": _("Which did you mean? Choose one to ask it:"),
        "intercepted": _("The answer was held back"),
        "failed": _("The question could not be answered"),
        "suggestions": _("What to try"),
        "charts_unavailable": _("Charts cannot be drawn: the chart library is missing (run the setup again)."),
        "error": _("Error"),
        "empty_question": _("Type a question first."),
    }


@require_GET
@portal_view(scope=CONVERSATIONS_READ)
def conversation_chat(request: HttpRequest, ctx: TenantContext, conversation_id: int) -> HttpResponse:
    conversation = selectors.conversation_get(tenant=ctx.tenant, conversation_id=conversation_id)
    stored = selectors.messages_of(conversation=conversation)
    turns = list(reversed(stored.order_by("-created_at", "-id")[:HISTORY_MESSAGES]))
    config = {
        "conversation": conversation.pk,
        "ws_path": f"/ws/conversations/{conversation.pk}/",
        "history": _history(turns),
    }
    context = {
        "conversation": conversation,
        "turns": turns,  # not "messages": the base template shows the messages framework's under that name
        "can_ask": CONVERSATIONS_WRITE in ctx.scopes,
        "config": config,
        "strings": _chat_strings(),
        "omitted": max(stored.count() - len(turns), 0),
        "prefill": request.GET.get("question", "")[:MAX_PREFILL],
        "max_question": MAX_QUESTION_CHARS,
    }
    return render(request, "conversations/chat.html", context)
