"""The OpenAI-compatible chat model, its token prices, and the mapping of endpoint failures to clear errors.

`langchain_openai` costs over a second to import, so it is imported only when a model is built: the web
server loads this module at start without paying for it.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from baplatform.errors import PlatformError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, AIMessageChunk

logger = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

DEFAULT_ENDPOINT = "https://api.openai.com/v1"
# Modules whose own exceptions (ValueError, TypeError...) mean "the endpoint's answer could not be read".
_CLIENT_MODULES = ("openai", "langchain_openai")
_KEY_LIKE = re.compile(r"\b(sk|tvly)-[A-Za-z0-9_\-]{6,}")


class LLMUnavailable(PlatformError):
    """The language model endpoint could not give a usable answer; `message` says what to do about it."""

    status = 503
    code = "llm_unreachable"


# --- the model ------------------------------------------------------------------------------------


def openai_configured() -> bool:
    return bool(settings.OPENAI_API_KEY.strip())


def openai_chat_model(*, streaming: bool = True) -> BaseChatModel:
    """A `ChatOpenAI` for the configured endpoint; bind tools with `.bind_tools([...])`."""
    if not openai_configured():
        raise LLMUnavailable(
            _(
                "No language model is configured. Ask your administrator to set OPENAI_API_KEY "
                "(and OPENAI_BASE_URL for an endpoint other than OpenAI's)."
            ),
            code="llm_not_configured",
        )
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    return ChatOpenAI(
        model=settings.OPENAI_MODEL,
        api_key=SecretStr(settings.OPENAI_API_KEY.strip()),
        base_url=settings.OPENAI_BASE_URL or None,
        timeout=settings.LLM_TIMEOUT_SECONDS,
        max_retries=settings.LLM_MAX_RETRIES,
        streaming=streaming,
        stream_usage=True,
        temperature=0,
        # OpenAI-compatible endpoints (DeepSeek, Qwen, vLLM...) speak chat completions, not the Responses API.
        use_responses_api=False,
    )


# --- usage and cost -------------------------------------------------------------------------------

_warned_models: set[str] = set()
_warned_lock = threading.Lock()


def _warn_once(model: str, reason: str) -> None:
    with _warned_lock:
        if model in _warned_models:
            return
        _warned_models.add(model)
    logger.warning("no usable price for model %r (%s); its calls are counted at 0 USD", model, reason)


def _price_entry(model: str) -> dict[str, float] | None:
    """The table's entry for `model`: an exact name, else the longest listed prefix (dated variants).

    A router's provider prefix (`openai/gpt-4o-mini`) is ignored.
    """
    prices: dict[str, dict[str, float]] = settings.LLM_PRICES
    name = model.strip().lower().rsplit("/", 1)[-1]
    table = {key.lower(): value for key, value in prices.items()}
    if name in table:
        return table[name]
    prefixes = [key for key in table if name.startswith(key + "-")]
    return table[max(prefixes, key=len)] if prefixes else None


def cost_usd(model: str, input_tokens: int, output_tokens: int) -> float:
    """What a call cost, from `settings.LLM_PRICES` (USD per 1M tokens); 0.0 for an unlisted model."""
    entry = _price_entry(model)
    if entry is None:
        _warn_once(model, "not in LLM_PRICES")
        return 0.0
    try:
        per_input, per_output = float(entry["input"]), float(entry["output"])
    except (KeyError, TypeError, ValueError):
        _warn_once(model, "its LLM_PRICES entry needs numeric 'input' and 'output'")
        return 0.0
    return (input_tokens * per_input + output_tokens * per_output) / 1_000_000


def usage_of(message: AIMessage | AIMessageChunk) -> tuple[int, int]:
    """(input tokens, output tokens) reported with a model's message; (0, 0) when it reported none."""
    usage = getattr(message, "usage_metadata", None)
    if not usage:
        return 0, 0
    return int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0)


# --- failures -------------------------------------------------------------------------------------


def _endpoint() -> str:
    """Host (and port) of the endpoint, for messages: never the path, query or credentials of the URL."""
    parts = urlsplit(settings.OPENAI_BASE_URL or DEFAULT_ENDPOINT)
    host = parts.hostname or "?"
    return f"{host}:{parts.port}" if parts.port else host


def redact(text: str) -> str:
    """`text` without the configured keys, nor anything shaped like an API key."""
    for secret in (settings.OPENAI_API_KEY.strip(), settings.TAVILY_API_KEY.strip()):
        if secret:
            text = text.replace(secret, "***")
    return _KEY_LIKE.sub(lambda m: f"{m.group(1)}-***", text)


def _upstream_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if not isinstance(message, str) or not message:
        message = getattr(exc, "message", None) or str(exc)
    return redact(" ".join(str(message).split()))[:300]


def _upstream_code(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    code = (body.get("code") or body.get("type")) if isinstance(body, dict) else None
    return str(code or getattr(exc, "code", "") or "")


def _raised_by_client(exc: BaseException) -> bool:
    """True when the innermost frame of `exc` is inside the openai client or its LangChain wrapper."""
    tb = exc.__traceback__
    module = ""
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        tb = tb.tb_next
    return module.split(".")[0] in _CLIENT_MODULES


def _is_context_overflow(exc: BaseException, detail: str) -> bool:
    core = sys.modules.get("langchain_core.exceptions")
    if core is not None and isinstance(exc, core.ContextOverflowError):
        return True
    return "context_length_exceeded" in detail or "maximum context length" in detail


def _from_status(status: int, exc: BaseException, detail: str) -> LLMUnavailable:
    endpoint, model = _endpoint(), settings.OPENAI_MODEL
    args = {"endpoint": endpoint, "model": model, "status": status}
    if status in (401, 403):
        return LLMUnavailable(
            _(
                "The language model service (%(endpoint)s) refused the platform's credentials (HTTP %(status)s). "
                "Ask your administrator to check OPENAI_API_KEY and that the key may use model “%(model)s”."
            )
            % args,
            code="llm_auth_failed",
        )
    if status == 429:
        if "quota" in _upstream_code(exc) or "quota" in detail.lower():
            text = _(
                "The language model account has used up its quota (HTTP 429). "
                "Ask your administrator to check the plan and billing of the account behind OPENAI_API_KEY."
            )
        else:
            text = _(
                "The language model service is receiving too many requests (HTTP 429). Wait a minute and ask again."
            )
        return LLMUnavailable(text, code="llm_rate_limited")
    if status == 404:
        return LLMUnavailable(
            _(
                "The language model service (%(endpoint)s) does not know model “%(model)s” (HTTP 404). "
                "Ask your administrator to check OPENAI_MODEL, and that OPENAI_BASE_URL ends with the API's "
                "version path (usually /v1)."
            )
            % args,
            code="llm_model_not_found",
        )
    if status == 408:
        return _timeout()
    if status >= 500:
        return LLMUnavailable(
            _("The language model service (%(endpoint)s) failed (HTTP %(status)s). Try again in a few minutes.") % args,
            code="llm_server_error",
        )
    if _is_context_overflow(exc, detail):
        return _context_overflow()
    return LLMUnavailable(
        _("The language model service refused the request (HTTP %(status)s): %(detail)s")
        % {**args, "detail": detail or "-"},
        code="llm_request_rejected",
    )


def _timeout() -> LLMUnavailable:
    return LLMUnavailable(
        _(
            "The language model service (%(endpoint)s) did not answer within %(seconds)s seconds. "
            "Try again, perhaps with a simpler question; if it keeps happening, ask your administrator "
            "to check the service or raise LLM_TIMEOUT_SECONDS."
        )
        % {"endpoint": _endpoint(), "seconds": f"{settings.LLM_TIMEOUT_SECONDS:g}"},
        code="llm_timeout",
    )


def _unreachable() -> LLMUnavailable:
    return LLMUnavailable(
        _(
            "The language model service (%(endpoint)s) could not be reached, or the connection to it broke off. "
            "Try again shortly; if it keeps happening, ask your administrator to check OPENAI_BASE_URL and the "
            "server's network."
        )
        % {"endpoint": _endpoint()},
        code="llm_unreachable",
    )


def _bad_response() -> LLMUnavailable:
    return LLMUnavailable(
        _(
            "The language model service (%(endpoint)s) sent an answer that could not be read. Try again; if it "
            "keeps happening, ask your administrator to check that OPENAI_BASE_URL points at an "
            "OpenAI-compatible API (usually ending in /v1)."
        )
        % {"endpoint": _endpoint()},
        code="llm_bad_response",
    )


def _context_overflow() -> LLMUnavailable:
    return LLMUnavailable(
        _("The conversation has grown too long for the language model. Start a new conversation and ask again."),
        code="llm_context_overflow",
    )


def _classify_openai(exc: BaseException, openai: Any) -> LLMUnavailable:
    detail = _upstream_message(exc)
    if isinstance(exc, openai.APITimeoutError):
        return _timeout()
    if isinstance(exc, openai.APIConnectionError):
        return _unreachable()
    if isinstance(exc, openai.APIStatusError):
        return _from_status(exc.status_code, exc, detail)
    if isinstance(exc, openai.APIResponseValidationError):
        return _bad_response()
    if _is_context_overflow(exc, detail):
        return _context_overflow()
    # An error event inside a stream, or another failure the endpoint reported without a status.
    return LLMUnavailable(
        _("The language model service (%(endpoint)s) failed: %(detail)s. Try again in a few minutes.")
        % {"endpoint": _endpoint(), "detail": detail or "-"},
        code="llm_server_error",
    )


def _classify(exc: BaseException) -> LLMUnavailable | None:
    openai = sys.modules.get("openai")  # loaded whenever one of its errors exists; never imported here
    if openai is not None and isinstance(exc, openai.OpenAIError):
        return _classify_openai(exc, openai)
    if isinstance(exc, TimeoutError):  # includes the async per-chunk stream timeout
        return _timeout()
    for name in ("httpx", "httpx2"):
        httpx = sys.modules.get(name)
        if httpx is not None and isinstance(exc, httpx.TimeoutException):
            return _timeout()
        if httpx is not None and isinstance(exc, httpx.TransportError):
            return _unreachable()
    if isinstance(exc, ConnectionError):
        return _unreachable()
    if isinstance(exc, json.JSONDecodeError):
        return _bad_response()
    if isinstance(exc, ValueError | TypeError | KeyError | AttributeError) and _raised_by_client(exc):
        return _bad_response()
    return None


def llm_unavailable_from(exc: BaseException) -> LLMUnavailable | None:
    """The `LLMUnavailable` an endpoint failure stands for, or None when `exc` is not one (a bug: re-raise it)."""
    if isinstance(exc, LLMUnavailable):
        return exc
    error = _classify(exc)
    if error is not None:
        status = getattr(exc, "status_code", None)
        error.details = {"endpoint": _endpoint(), "model": settings.OPENAI_MODEL, "status": status}
        logger.warning(
            "language model call failed: %s (%s%s: %s)",
            error.code,
            type(exc).__name__,
            f", HTTP {status}" if status else "",
            _upstream_message(exc),
            exc_info=error.code == "llm_bad_response",
        )
    return error


def require_complete(message: T) -> T:
    """Refuse an OpenAI answer that ended without a finish reason: the stream was cut off upstream.

    Such a message can hold half an answer or half a tool call's arguments; acting on it would mean
    answering from a failure. Messages of other chat models (the offline planner) pass unchanged.
    """
    metadata = getattr(message, "response_metadata", None)
    if isinstance(metadata, dict) and metadata.get("model_provider") == "openai" and not finish_reason(message):
        logger.warning("language model answer ended without a finish reason; treated as cut off")
        raise _bad_response()
    return message


# OpenAI-compatible endpoints say "length"; other providers' wrappers pass on "max_tokens" or "MAX_TOKENS".
_OUTPUT_LIMIT_REASONS = frozenset({"length", "max_tokens"})


def finish_reason(message: object) -> str:
    """Why the model stopped ("stop", "tool_calls", "length"...), as the provider reported it; "" when unknown.

    `langchain_openai` keeps it in `response_metadata`, streamed or not (the last chunk carries it).
    """
    metadata = getattr(message, "response_metadata", None)
    reason = metadata.get("finish_reason") if isinstance(metadata, dict) else None
    return str(reason or "")


def hit_output_limit(message: object) -> bool:
    """True when the model stopped because it ran out of output tokens: its text or tool-call arguments are
    cut, and a cut stream's arguments may even have been repaired into valid JSON that means something else."""
    return finish_reason(message).lower() in _OUTPUT_LIMIT_REASONS


@contextmanager
def translate_llm_errors() -> Iterator[None]:
    """Turn endpoint failures raised inside the block into `LLMUnavailable` (sync or async code alike).

    For a hand-written stream loop: `with translate_llm_errors(): for chunk in model.stream(...): ...`,
    then `require_complete(aggregated_message)`.
    """
    try:
        yield
    except Exception as exc:
        error = llm_unavailable_from(exc)
        if error is None or error is exc:
            raise
        # Not chained: the upstream text may carry a key; `details` and the log line keep what helps.
        raise error from None


def call_guarded(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` (a model call) with endpoint failures and cut-off answers as `LLMUnavailable`."""
    with translate_llm_errors():
        result = fn(*args, **kwargs)
    return require_complete(result)


async def acall_guarded(fn: Callable[P, Awaitable[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """The async twin of `call_guarded`, e.g. `await acall_guarded(model.ainvoke, messages)`."""
    with translate_llm_errors():
        result = await fn(*args, **kwargs)
    return require_complete(result)
