"""Request validation shared by the data-engine APIs: pydantic errors as one clear QueryInvalid.

Pydantic writes its own messages in English; the common ones are rebuilt here from the error's type
and context, in the user's language (the English text is pydantic's own). Messages raised by our
validators arrive already translated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from pydantic import ValidationError as PydanticValidationError
from pydantic_core import ErrorDetails

from apps.datasets.errors import QueryInvalid
from apps.datasets.query.spec import QuerySpec

_MESSAGES: dict[str, Callable[[dict[str, Any]], str]] = {
    "missing": lambda ctx: _("Field required"),
    "extra_forbidden": lambda ctx: _("Extra inputs are not permitted"),
    "literal_error": lambda ctx: _("Input should be %(expected)s") % ctx,
    "enum": lambda ctx: _("Input should be %(expected)s") % ctx,
    "greater_than": lambda ctx: _("Input should be greater than %(gt)s") % ctx,
    "greater_than_equal": lambda ctx: _("Input should be greater than or equal to %(ge)s") % ctx,
    "less_than": lambda ctx: _("Input should be less than %(lt)s") % ctx,
    "less_than_equal": lambda ctx: _("Input should be less than or equal to %(le)s") % ctx,
    "string_type": lambda ctx: _("Input should be a valid string"),
    "string_pattern_mismatch": lambda ctx: _("String should match pattern '%(pattern)s'") % ctx,
    "string_too_short": lambda ctx: (
        ngettext(
            "String should have at least %(min_length)s character",
            "String should have at least %(min_length)s characters",
            int(ctx["min_length"]),
        )
        % ctx
    ),
    "string_too_long": lambda ctx: (
        ngettext(
            "String should have at most %(max_length)s character",
            "String should have at most %(max_length)s characters",
            int(ctx["max_length"]),
        )
        % ctx
    ),
    "int_type": lambda ctx: _("Input should be a valid integer"),
    "int_parsing": lambda ctx: _("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": lambda ctx: _("Input should be a valid integer, got a number with a fractional part"),
    "float_type": lambda ctx: _("Input should be a valid number"),
    "float_parsing": lambda ctx: _("Input should be a valid number, unable to parse string as a number"),
    "bool_type": lambda ctx: _("Input should be a valid boolean"),
    "bool_parsing": lambda ctx: _("Input should be a valid boolean, unable to interpret input"),
    "list_type": lambda ctx: _("Input should be a valid list"),
    "dict_type": lambda ctx: _("Input should be a valid dictionary"),
    "model_type": lambda ctx: _("Input should be a valid dictionary or instance of %(class_name)s") % ctx,
}
_LISTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "too_short": lambda ctx: (
        ngettext(
            "List should have at least %(min_length)s item after validation, not %(actual_length)s",
            "List should have at least %(min_length)s items after validation, not %(actual_length)s",
            int(ctx["min_length"]),
        )
        % ctx
    ),
    "too_long": lambda ctx: (
        ngettext(
            "List should have at most %(max_length)s item after validation, not %(actual_length)s",
            "List should have at most %(max_length)s items after validation, not %(actual_length)s",
            int(ctx["max_length"]),
        )
        % ctx
    ),
}


def error_message(err: ErrorDetails) -> str:
    """One pydantic error in the user's language; pydantic's own text for the rare kinds not listed."""
    ctx = dict(err.get("ctx") or {})
    if err["type"] == "value_error" and "error" in ctx:
        return str(ctx["error"])  # our validator's message, without pydantic's "Value error, " prefix
    build = _MESSAGES.get(err["type"])
    if build is None and ctx.get("field_type") == "List":
        build = _LISTS.get(err["type"])
    try:
        return build(ctx) if build else err["msg"]
    except (KeyError, TypeError, ValueError):  # a context pydantic shaped differently: its own text then
        return err["msg"]


def pydantic_error(exc: PydanticValidationError, what: str) -> QueryInvalid:
    """A pydantic error as one clear message plus the structured details."""
    errors = exc.errors(include_url=False)
    problems = []
    for err in errors:
        where = ".".join(str(p) for p in err["loc"]) or what
        problems.append(_("%(field)s: %(problem)s") % {"field": where, "problem": error_message(err)})
    details = [{"loc": list(e["loc"]), "msg": error_message(e)} for e in errors]
    return QueryInvalid(
        _("invalid %(what)s: %(problems)s")
        % {"what": what, "problems": pgettext("separator between problems", "; ").join(problems[:5])},
        code="invalid_spec",
        details=details,
    )


def parse_spec(data: Any) -> QuerySpec:
    try:
        return QuerySpec.model_validate(data)
    except PydanticValidationError as exc:
        raise pydantic_error(exc, "QuerySpec") from exc
