"""Why a tool could not answer, in words people read: what went wrong and what to do, never the host, port,
file path or driver text (those stay in the audit trail for admins)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CHECK_CONNECTION = _("Check the data source connection and try again")
REPHRASE = _("Rephrase the question and ask again")
NARROW = _("Narrow the question (add filters, a coarser time grain) and ask again")
LATER = _("Try again later")

# error code of the data layer (or the tool runner) -> (why, what to do)
_REASONS: dict[str, tuple[Promise, tuple[Promise, ...]]] = {
    "source_unreachable": (_("the data source could not be reached"), (CHECK_CONNECTION, LATER)),
    "query_timeout": (_("the query took too long and was stopped"), (NARROW, CHECK_CONNECTION)),
    "query_failed": (_("the data source could not run the query"), (CHECK_CONNECTION, REPHRASE)),
    "file_missing": (
        _("the dataset's file is missing"),
        (_("Check the data source: upload the dataset again, then ask again"),),
    ),
    "file_unreadable": (
        _("the dataset's file could not be read"),
        (_("Check the data source: upload the dataset again, then ask again"),),
    ),
    "read_only": (_("the data source refused the query (data sources are read-only)"), (REPHRASE,)),
    "forbidden_source": (
        _("this data source may not be read"),
        (_("Ask an admin to check the data source's settings"),),
    ),
    "tool_crashed": (_("an internal error occurred while reading the data"), (LATER, REPHRASE)),
}
_UNKNOWN = (_("the data source could not answer"), (CHECK_CONNECTION, REPHRASE))


def failure_reason(code: str) -> str:
    """Why the tool failed, in the active language."""
    return str(_REASONS.get(code, _UNKNOWN)[0])


def failure_suggestions(code: str) -> list[str]:
    """What to do about it, in the active language."""
    return [str(s) for s in _REASONS.get(code, _UNKNOWN)[1]]
