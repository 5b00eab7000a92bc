"""Portal pages for conversations: the list, starting one about a dataset, and the chat page.

The chat page renders the stored history; asking and the live steps go through the WebSocket
(`apps.conversations.consumers`), driven by static/js/chat.js.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.conversations import selectors, services
from apps.conversations.models import Message
from apps.datasets import selectors as dataset_selectors
from apps.tenants.context import TenantContext
from apps.tenants.portal import portal_view
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE

HISTORY_MESSAGES = 50  # the most recent turns shown on the chat page


@require_GET
@portal_view(scope=CONVERSATIONS_READ)
def conversation_list(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    conversations = selectors.conversation_list(tenant=ctx.tenant).annotate(questions=Count("messages"))
    can_write = CONVERSATIONS_WRITE in ctx.scopes
    datasets = dataset_selectors.dataset_list(tenant=ctx.tenant) if can_write else []
    return render(
        request,
        "conversations/list.html",
        {"conversations": conversations, "can_write": can_write, "datasets": datasets},
    )


@require_POST
@portal_view(scope=CONVERSATIONS_WRITE)
def conversation_start(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    """Start a conversation about one of the tenant's datasets (a form POST), then open its chat page."""
    try:
        dataset_id = int(request.POST.get("dataset", ""))
    except ValueError:
        raise Http404("no such dataset") from None
    dataset = dataset_selectors.dataset_get(tenant=ctx.tenant, key=dataset_id)
    conversation = services.conversation_create(tenant=ctx.tenant, ctx=ctx, dataset=dataset)
    return redirect(reverse("conversation_chat", args=[conversation.pk]))


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
    }
    return render(request, "conversations/chat.html", context)
