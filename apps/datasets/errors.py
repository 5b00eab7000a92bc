"""Data-engine errors. Two kinds matter to callers (the agent above all):

- `QueryInvalid` / `IngestRejected`: the input was wrong; the message says what and how to fix it
  (an agent may correct itself and retry);
- `SourceFailure`: the system could not answer (source unreachable, timeout); never retried blindly,
  never answered around.
"""

from __future__ import annotations

from baplatform.errors import InvalidInput, PlatformError


class IngestRejected(InvalidInput):
    """An upload that cannot be ingested as given (empty, corrupt, too large, bad headers...)."""

    code = "ingest_rejected"


class QueryInvalid(InvalidInput):
    """A QuerySpec, PlotSpec or SQL statement that fails validation; nothing was executed."""

    code = "query_invalid"


class SourceFailure(PlatformError):
    """The data source could not answer: unreachable, timed out, or failed while executing."""

    status = 503
    code = "source_failure"


class QueryTimeout(SourceFailure):
    code = "query_timeout"


class TooManyConnectionTests(PlatformError):
    """A tenant asked for more connection tests than SOURCE_CONNECTION_TESTS_PER_MINUTE allows."""

    status = 429
    code = "too_many_connection_tests"
