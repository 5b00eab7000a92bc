"""The interception review panel: the draft (suspect texts highlighted) beside what the tools returned.

Every value comes from a model's draft or a database and is escaped: pieces are assembled with
format_html/format_html_join only, never marked safe.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from apps.audit.models import InterceptionLog

MAX_ROWS_SHOWN = 20
MAX_ARGUMENTS_CHARS = 2000


def _span_of(draft: str, text: str, position: Any) -> tuple[int, int] | None:
    """Where a reported text sits in the draft: at its recorded position, else its first occurrence."""
    if not text:
        return None
    if isinstance(position, int) and draft[position : position + len(text)] == text:
        return position, position + len(text)
    found = draft.find(text)
    return (found, found + len(text)) if found >= 0 else None


def suspect_spans(log: InterceptionLog) -> list[tuple[int, int, str, str]]:
    """Non-overlapping (start, end, css class, tooltip) spans of the draft to highlight, in order."""
    spans: list[tuple[int, int, str, str]] = []
    for item in log.matched_patterns or []:
        span = _span_of(log.draft, str(item.get("text", "")), item.get("position"))
        if span:
            spans.append((*span, "pattern", _("matched pattern %(code)s") % {"code": item.get("pattern", "")}))
    for item in log.ungrounded or []:
        span = _span_of(log.draft, str(item.get("text", "")), item.get("position"))
        if span:
            spans.append((*span, "ungrounded", _("number not returned by any tool")))
    spans.sort(key=lambda s: (s[0], -s[1]))
    kept: list[tuple[int, int, str, str]] = []
    for suspect in spans:
        if not kept or suspect[0] >= kept[-1][1]:
            kept.append(suspect)
    return kept


def highlighted_draft(log: InterceptionLog) -> SafeString:
    pieces: list[SafeString] = []
    cursor = 0
    for start, end, css, title in suspect_spans(log):
        pieces.append(format_html("{}", log.draft[cursor:start]))
        pieces.append(format_html('<mark class="{}" title="{}">{}</mark>', css, title, log.draft[start:end]))
        cursor = end
    pieces.append(format_html("{}", log.draft[cursor:]))
    return format_html_join("", "{}", ((p,) for p in pieces))


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def _result_table(call: dict[str, Any]) -> SafeString:
    columns = [str(c) for c in call.get("columns") or []]
    rows = list(call.get("rows") or [])[:MAX_ROWS_SHOWN]
    if not columns:
        return format_html("")
    head = format_html_join("", "<th>{}</th>", ((c,) for c in columns))
    body = format_html_join(
        "",
        "<tr>{}</tr>",
        ((format_html_join("", "<td>{}</td>", ((_cell(v),) for v in row)),) for row in rows),
    )
    total = call.get("row_count", len(rows))
    caption = _("%(shown)s of %(total)s rows") % {"shown": len(rows), "total": total}
    return format_html(
        '<table class="review-rows"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{}</tbody></table>',
        caption,
        head,
        body,
    )


def _arguments(call: dict[str, Any]) -> str:
    text = json.dumps(call.get("arguments") or {}, ensure_ascii=False, indent=1, sort_keys=True, default=str)
    return text if len(text) <= MAX_ARGUMENTS_CHARS else text[:MAX_ARGUMENTS_CHARS] + " …"


def _tool_call(call: dict[str, Any]) -> SafeString:
    error, sql = call.get("error") or "", call.get("sql") or ""
    return format_html(
        '<section class="review-call status-{}"><h4>{} {} · <code>{}</code> · {} {}</h4>'
        '<pre class="review-args">{}</pre>{}{}{}</section>',
        call.get("status", ""),
        _("step"),
        call.get("step", "?"),
        call.get("name", ""),
        call.get("status", ""),
        call.get("ref") or "",
        _arguments(call),
        format_html('<pre class="review-sql">{}</pre>', sql) if sql else "",
        format_html('<p class="errornote">{}</p>', error) if error else "",
        _result_table(call),
    )


def _reasons(reasons: Iterable[dict[str, Any]]) -> SafeString:
    return format_html_join(
        "", "<li><code>{}</code> {}</li>", ((r.get("code", ""), r.get("message", "")) for r in reasons)
    )


def review_panel(log: InterceptionLog) -> SafeString:
    """The two-column review: question, reasons and the highlighted draft left; each tool call right."""
    calls = log.tool_calls or []
    right = (
        format_html_join("", "{}", ((_tool_call(c),) for c in calls))
        if calls
        else format_html("<p>{}</p>", _("No tool was called: nothing in this draft came from the data."))
    )
    return format_html(
        '<div class="review-panel">'
        '<div class="review-col review-draft"><h3>{}</h3><p class="review-question">{}</p>'
        '<h3>{}</h3><ul>{}</ul><h3>{}</h3><div class="review-text">{}</div>'
        '<p class="review-legend"><mark class="pattern">{}</mark> <mark class="ungrounded">{}</mark></p></div>'
        '<div class="review-col review-tools"><h3>{}</h3>{}</div></div>',
        _("Question"),
        log.question,
        _("Why it was held back"),
        _reasons(log.reasons or []),
        _("Draft"),
        highlighted_draft(log),
        _("matched pattern"),
        _("ungrounded number"),
        _("Tool calls and their results"),
        right,
    )
