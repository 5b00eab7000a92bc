"""Request validation shared by the data-engine APIs: pydantic errors as one clear QueryInvalid."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError as PydanticValidationError

from apps.datasets.errors import QueryInvalid
from apps.datasets.queryspec import QuerySpec


def pydantic_error(exc: PydanticValidationError, what: str) -> QueryInvalid:
    """A pydantic error as one clear message plus the structured details."""
    problems = []
    for err in exc.errors(include_url=False, include_context=False):
        where = ".".join(str(p) for p in err["loc"]) or what
        problems.append(f"{where}: {err['msg']}")
    details = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors(include_url=False)]
    return QueryInvalid(f"invalid {what}: " + "; ".join(problems[:5]), code="invalid_spec", details=details)


def parse_spec(data: Any) -> QuerySpec:
    try:
        return QuerySpec.model_validate(data)
    except PydanticValidationError as exc:
        raise pydantic_error(exc, "QuerySpec") from exc
