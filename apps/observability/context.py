"""The log context (trace_id, tenant, actor) of the work under way, carried by a context variable.

Set once where work starts (an HTTP request, a WebSocket message, a run) and read by the logging
filter, so no function has to pass the trace id along. Threads start with an empty context: code that
starts one either copies the context (`contextvars.copy_context().run`) or binds its own.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

FIELDS = ("trace_id", "tenant", "actor")
_EMPTY: MappingProxyType[str, str] = MappingProxyType({})
_current: ContextVar[MappingProxyType[str, str]] = ContextVar("bap_log_context", default=_EMPTY)
# An incoming X-Request-ID is reused only when it cannot smuggle anything into a log line or a header.
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")


def new_trace_id() -> str:
    return uuid.uuid4().hex


def safe_trace_id(candidate: str | None) -> str:
    """The caller's id when it is a plain token, else a new one."""
    if candidate and _SAFE_ID.match(candidate):
        return candidate
    return new_trace_id()


def current() -> MappingProxyType[str, str]:
    return _current.get()


def _merged(fields: dict[str, Any]) -> MappingProxyType[str, str]:
    known = {k: str(v) for k, v in fields.items() if k in FIELDS and v not in (None, "")}
    return MappingProxyType({**_current.get(), **known})


@contextmanager
def bind(**fields: Any) -> Iterator[None]:
    """Add fields (trace_id, tenant, actor) to the log context until the block ends."""
    token = _current.set(_merged(fields))
    try:
        yield
    finally:
        _current.reset(token)


def annotate(**fields: Any) -> None:
    """Add fields for the rest of the enclosing bind() block (e.g. the tenant, once authentication found it)."""
    _current.set(_merged(fields))
