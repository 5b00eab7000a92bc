"""Log records as JSON lines (or text), with the log context injected and secrets redacted.

Configured in settings (LOGGING, from LOG_FORMAT and LOG_LEVEL). Log names, statuses, counts, codes
and latencies; never argument values, result rows, tokens or passwords. The redaction filter is the
safety net for what slips through (an exception message quoting a header, say), not a licence.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from typing import Any

from apps.observability import context

# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
_DROPPED = {"request", "server_time"}  # Django's: objects, not fields
_SECRET_KEYS = re.compile(r"^(password|passwd|secret|token|raw_token|authori[sz]ation|api_?key|cookie)$", re.IGNORECASE)
_REDACTIONS = (
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+"), r"\1 [REDACTED]"),
    # A token is bap_ + 43 characters; its first 8 (the public prefix in "token:bap_1a2b3c4d") may stay.
    (re.compile(r"bap_[A-Za-z0-9_-]{9,}"), "bap_[REDACTED]"),
    (
        re.compile(r"(?i)\b(password|passwd|pwd|secret|api_?key)(\s*[=:]\s*|\"\s*:\s*\")[^\s&,;\"']+"),
        r"\1\2[REDACTED]",
    ),
    # "token=..." but not the actor label "token:bap_1a2b3c4d" (a token's public prefix).
    (re.compile(r"(?i)\b(token)(\s*=\s*|\"\s*:\s*\")[^\s&,;\"']+"), r"\1\2[REDACTED]"),
    (re.compile(r"(?i)(://[^:/@\s]+:)[^@\s]+@"), r"\1[REDACTED]@"),  # credentials in URLs
)


def redact(text: str) -> str:
    for pattern, replacement in _REDACTIONS:
        text = pattern.sub(replacement, text)
    return text


def extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and k not in _DROPPED}


class ContextFilter(logging.Filter):
    """Copies the log context (trace_id, tenant, actor) onto each record, unless the record set its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in context.current().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class RedactFilter(logging.Filter):
    """Rewrites the message, the traceback and string fields with secrets masked."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        for key, value in extra_fields(record).items():
            if _SECRET_KEYS.match(key):
                setattr(record, key, "[REDACTED]")
            elif isinstance(value, str):
                setattr(record, key, redact(value))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the context fields, then extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        body: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        body.update(extra_fields(record))
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            body["exception"] = record.exc_text
        if record.stack_info:
            body["stack"] = record.stack_info
        return json.dumps(body, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """For a terminal: the usual line, then the context and extra fields as key=value."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = " ".join(f"{k}={v}" for k, v in extra_fields(record).items())
        if not fields:
            return line
        head, sep, tail = line.partition("\n")
        return f"{head} [{fields}]{sep}{tail}"


def logging_config(log_format: str = "json", level: str = "INFO") -> dict[str, Any]:
    """The LOGGING setting: one stderr handler on the root logger, filters first, then the formatter."""
    formatter = "text" if log_format.lower() == "text" else "json"
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "context": {"()": "apps.observability.logs.ContextFilter"},
            "redact": {"()": "apps.observability.logs.RedactFilter"},
        },
        "formatters": {
            "json": {"()": "apps.observability.logs.JsonFormatter"},
            "text": {"()": "apps.observability.logs.TextFormatter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["context", "redact"],
                "formatter": formatter,
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own handlers (console when DEBUG, mail_admins) are replaced by the root's.
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.server": {"handlers": [], "level": level, "propagate": True},
        },
    }
