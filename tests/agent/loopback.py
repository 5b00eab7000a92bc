"""Loopback HTTP servers that stand in for an OpenAI-compatible chat endpoint and for Tavily in tests.

Real sockets on 127.0.0.1 (port 0), one thread per connection, so the real clients (openai through
`ChatOpenAI`, httpx for `search_web`) are exercised end to end. Each server records every request it
received and can be told to fail: an HTTP status, a hang beyond the client's timeout, a closed
connection, malformed JSON or a stream cut off halfway. A scripted turn can also end on its length limit
(`finish_reason="length"`) with tool-call arguments cut mid-JSON (`cut_call`).

    server = OpenAIServer(script=[tool_turn(("get_schema", {"dataset": "sales"})), text_turn("done")])
    server.start(); ...; server.stop()
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

# Keys the tests configure; a test that fails a request checks they appear in no message or log line.
LOOPBACK_OPENAI_KEY = "sk-loopback-0123456789abcdef"
LOOPBACK_TAVILY_KEY = "tvly-loopback-0123456789abcdef"

FailureKind = Literal["status", "hang", "close", "bad_json", "truncate", "cut_short", "stream_error"]


@dataclass(frozen=True)
class Failure:
    """How a server answers a request instead of succeeding.

    - `status`: that HTTP status with an OpenAI-style error body (`message`, `code`) and `headers`;
    - `hang`: accept the request and say nothing for `seconds` (or until the server stops);
    - `close`: read the request, then close the connection without a response;
    - `bad_json`: 200 with a body that is not JSON (a stream: a `data:` line that is not JSON);
    - `truncate`: start a 200 stream, send a couple of chunks, then drop the connection mid-body;
    - `cut_short`: start a 200 stream, send a couple of chunks, then end the body cleanly without a
      `finish_reason` or `[DONE]` (a gateway giving up on its upstream);
    - `stream_error`: start a 200 stream, then send an `{"error": ...}` event (how some providers
      report failures that happen after the response has begun).
    """

    kind: FailureKind = "status"
    status: int = 500
    message: str = "internal error"
    code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    seconds: float = 30.0


def http_error(status: int, message: str = "", *, code: str | None = None, **headers: str) -> Failure:
    return Failure(kind="status", status=status, message=message or f"HTTP {status}", code=code, headers=headers)


HANG = Failure(kind="hang")
CLOSE = Failure(kind="close")
BAD_JSON = Failure(kind="bad_json")
TRUNCATE = Failure(kind="truncate")
CUT_SHORT = Failure(kind="cut_short")
STREAM_ERROR = Failure(kind="stream_error", message="upstream model overloaded", code="server_error")


@dataclass(frozen=True)
class ScriptedCall:
    """A tool call; `raw` sends these exact argument characters instead of `args` (e.g. JSON cut off mid-way)."""

    name: str
    args: dict[str, Any]
    id: str = ""
    raw: str | None = None

    def arguments(self, *, ensure_ascii: bool = False) -> str:
        return self.raw if self.raw is not None else json.dumps(self.args, ensure_ascii=ensure_ascii)


def cut_call(name: str, args: dict[str, Any], *, after: str) -> ScriptedCall:
    """A call whose JSON arguments stop right after the first `after` (as when the model hit its token limit)."""
    text = json.dumps(args, ensure_ascii=False)
    end = text.index(after) + len(after)
    return ScriptedCall(name, args, raw=text[:end])


@dataclass(frozen=True)
class Turn:
    """One assistant turn: text content and/or tool calls, with the token usage to report.

    `finish_reason` overrides the one sent ("stop", or "tool_calls" when there are calls), e.g. "length"
    for a turn that ran into the model's output limit.
    """

    content: str | None = None
    tool_calls: tuple[ScriptedCall, ...] = ()
    input_tokens: int = 100
    output_tokens: int = 20
    finish_reason: str | None = None

    @property
    def finish(self) -> str:
        return self.finish_reason or ("tool_calls" if self.tool_calls else "stop")


def text_turn(
    content: str, *, input_tokens: int = 100, output_tokens: int = 20, finish_reason: str | None = None
) -> Turn:
    return Turn(content=content, input_tokens=input_tokens, output_tokens=output_tokens, finish_reason=finish_reason)


def tool_turn(
    *calls: tuple[str, dict[str, Any]] | ScriptedCall,
    content: str | None = None,
    input_tokens: int = 100,
    output_tokens: int = 20,
    finish_reason: str | None = None,
) -> Turn:
    scripted = tuple(c if isinstance(c, ScriptedCall) else ScriptedCall(c[0], c[1]) for c in calls)
    return Turn(
        content=content,
        tool_calls=scripted,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        finish_reason=finish_reason,
    )


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    # HTTP/1.1 so streams use chunked framing as real endpoints do (a dropped stream is then detectable);
    # every response still closes its connection, one request per connection keeps the bookkeeping simple.
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep the test output quiet

    def do_GET(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    def _dispatch(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        request = RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        self.server.owner._handle(self, request)

    # --- helpers for the servers -----------------------------------------------------------------

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_raw(status, data, "application/json", headers)

    def send_raw(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.close_connection = True
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def start_events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.flush()

    def send_event(self, data: str) -> None:
        payload = f"data: {data}\n\n".encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))
        self.wfile.flush()

    def end_events(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def drop_connection(self) -> None:
        """Close the socket at once (RST where the platform allows), as a crashed upstream would."""
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        except OSError:
            pass
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: LoopbackServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up mid-response (as the tests make them do) is not a server bug


class LoopbackServer:
    """Base: a threaded HTTP server on 127.0.0.1 with recorded requests and scripted failures."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.failures: list[Failure] = []  # consumed one per request, before anything else
        self.always: Failure | None = None  # answers every request while set
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._httpd is not None, "start() the server first"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> LoopbackServer:
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # releases any handler that is hanging on purpose
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def fail_next(self, *failures: Failure) -> None:
        with self._lock:
            self.failures.extend(failures)

    def _handle(self, handler: _Handler, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
            failure = self.failures.pop(0) if self.failures else self.always
        if failure is not None and failure.kind in ("status", "hang", "close"):
            self._fail(handler, failure)
            return
        self.respond(handler, request, failure)

    def _fail(self, handler: _Handler, failure: Failure) -> None:
        if failure.kind == "hang":
            self._stopping.wait(failure.seconds)
            handler.drop_connection()
        elif failure.kind == "close":
            handler.drop_connection()
        else:
            handler.send_json(failure.status, self.error_body(failure), failure.headers)

    def error_body(self, failure: Failure) -> dict[str, Any]:
        return {"error": {"message": failure.message, "type": "error", "code": failure.code}}

    def respond(self, handler: _Handler, request: RecordedRequest, failure: Failure | None) -> None:
        raise NotImplementedError


class OpenAIServer(LoopbackServer):
    """`POST /v1/chat/completions` replaying `script`, one assistant turn per request, streamed or not.

    Streams split each tool call's JSON arguments into pieces of `arg_piece` characters; with
    `interleave` the pieces of parallel calls alternate (deltas are merged by `index`, as the
    protocol allows). `response_model` is the model name the responses carry: by default the
    requested name; set a dated variant (gpt-4o-mini-2024-07-18) to answer as OpenAI does.
    """

    def __init__(
        self,
        script: list[Turn] | None = None,
        *,
        arg_piece: int = 7,
        interleave: bool = False,
        response_model: str | None = None,
    ) -> None:
        super().__init__()
        self.script: list[Turn] = list(script or [])
        self.arg_piece = arg_piece
        self.interleave = interleave
        self.response_model = response_model
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def respond(self, handler: _Handler, request: RecordedRequest, failure: Failure | None) -> None:
        if request.method != "POST" or not request.path.endswith("/chat/completions"):
            handler.send_json(404, {"error": {"message": f"no route {request.path}", "code": "not_found"}})
            return
        with self._lock:
            turn = self.script.pop(0) if self.script else None
        if turn is None:
            handler.send_json(500, {"error": {"message": "the test script has no turn left", "code": "script_empty"}})
            return
        body = request.body if isinstance(request.body, dict) else {}
        model = self.response_model or str(body.get("model") or "unknown")
        completion_id = f"chatcmpl-{next(self._ids)}"
        calls = [
            ScriptedCall(c.name, c.args, c.id or f"call_{completion_id}_{i}", c.raw)
            for i, c in enumerate(turn.tool_calls)
        ]
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._stream(handler, turn, calls, model, completion_id, include_usage, failure)
        elif failure is not None and failure.kind == "bad_json":
            handler.send_raw(200, b'{"id": "chatcmpl-x", "choices": [', "application/json")
        else:
            handler.send_json(200, self._completion(turn, calls, model, completion_id))

    def _completion(self, turn: Turn, calls: list[ScriptedCall], model: str, completion_id: str) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": turn.content}
        if calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments(ensure_ascii=True)},
                }
                for c in calls
            ]
        return {
            "id": completion_id,
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": turn.finish}],
            "usage": _usage(turn),
        }

    def _stream(
        self,
        handler: _Handler,
        turn: Turn,
        calls: list[ScriptedCall],
        model: str,
        completion_id: str,
        include_usage: bool,
        failure: Failure | None,
    ) -> None:
        envelope = {"id": completion_id, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            return json.dumps({**envelope, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

        events = [chunk({"role": "assistant", "content": ""})]
        if turn.content:
            events += [chunk({"content": turn.content[i : i + 5]}) for i in range(0, len(turn.content), 5)]
        events += [chunk({"tool_calls": [delta]}) for delta in self._tool_call_deltas(calls)]
        events.append(chunk({}, turn.finish))
        if include_usage:
            events.append(json.dumps({**envelope, "choices": [], "usage": _usage(turn)}))
        events.append("[DONE]")

        handler.start_events()
        kind = failure.kind if failure is not None else None
        for n, event in enumerate(events):
            if n == 2 and kind == "truncate":
                handler.drop_connection()
                return
            if n == 2 and kind == "cut_short":
                break
            if n == 1 and kind == "bad_json":
                event = '{"id": "chatcmpl-x", "choices": [{"delta": {"content": "oops"'
            if n == 1 and kind == "stream_error":
                assert failure is not None
                event = json.dumps(self.error_body(failure))
            handler.send_event(event)
        handler.end_events()

    def _tool_call_deltas(self, calls: list[ScriptedCall]) -> list[dict[str, Any]]:
        """Per call: a head delta (index, id, name, empty arguments), then the arguments in pieces."""
        per_call: list[list[dict[str, Any]]] = []
        for index, call in enumerate(calls):
            arguments = call.arguments()
            head = {"index": index, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}
            pieces = [
                {"index": index, "function": {"arguments": arguments[i : i + self.arg_piece]}}
                for i in range(0, len(arguments), self.arg_piece)
            ]
            per_call.append([head, *pieces])
        if not self.interleave:
            return [delta for deltas in per_call for delta in deltas]
        ordered: list[dict[str, Any]] = []
        for step in itertools.zip_longest(*per_call):
            ordered.extend(delta for delta in step if delta is not None)
        return ordered


def _usage(turn: Turn) -> dict[str, int]:
    return {
        "prompt_tokens": turn.input_tokens,
        "completion_tokens": turn.output_tokens,
        "total_tokens": turn.input_tokens + turn.output_tokens,
    }


def tavily_result(n: int, *, content_chars: int = 200) -> dict[str, Any]:
    return {
        "title": f"Result {n}",
        "url": f"https://example.com/{n}",
        "content": (f"Content of result {n}. " * (content_chars // 20 + 1))[:content_chars],
        "score": 1.0 - n / 100,
        "raw_content": None,
    }


class TavilyServer(LoopbackServer):
    """`POST /search` answering with `results` (Tavily's response shape); `bad_json` sends a non-JSON body."""

    def __init__(self, results: list[Any] | None = None) -> None:  # Any: tests send malformed items too
        super().__init__()
        self.results = results if results is not None else [tavily_result(n) for n in range(1, 6)]

    def error_body(self, failure: Failure) -> dict[str, Any]:
        return {"detail": {"error": failure.message}}

    def respond(self, handler: _Handler, request: RecordedRequest, failure: Failure | None) -> None:
        if request.method != "POST" or request.path != "/search":
            handler.send_json(404, {"detail": {"error": f"no route {request.path}"}})
            return
        if failure is not None and failure.kind in ("bad_json", "truncate"):
            handler.send_raw(200, b"<html>upstream proxy error</html>", "application/json")
            return
        body = request.body if isinstance(request.body, dict) else {}
        handler.send_json(
            200,
            {
                "query": body.get("query"),
                "follow_up_questions": None,
                "answer": None,
                "images": [],
                "results": self.results,
                "response_time": 0.01,
            },
        )


@dataclass(frozen=True)
class Page:
    """One page of a PageServer: `body` sent as is; `unsized` leaves out Content-Length (the body ends when the
    connection closes, so only reading it shows its size); `location` makes it a redirect."""

    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    location: str | None = None
    unsized: bool = False


class PageServer(LoopbackServer):
    """`GET <path>` answering with `pages[path]` (404 otherwise): web pages for web_reader."""

    def __init__(self, pages: dict[str, Page] | None = None) -> None:
        super().__init__()
        self.pages: dict[str, Page] = dict(pages or {})

    def respond(self, handler: _Handler, request: RecordedRequest, failure: Failure | None) -> None:
        page = self.pages.get(request.path)
        if request.method != "GET" or page is None:
            handler.send_raw(404, b"not found", "text/plain")
            return
        headers = {"Location": page.location} if page.location else {}
        if not page.unsized:
            handler.send_raw(page.status, page.body, page.content_type, headers)
            return
        handler.send_response(page.status)
        handler.send_header("Content-Type", page.content_type)
        handler.send_header("Connection", "close")
        handler.close_connection = True
        handler.end_headers()
        try:
            for start in range(0, len(page.body), 65536):
                handler.wfile.write(page.body[start : start + 65536])
            handler.wfile.flush()
        except OSError:
            pass  # the reader stopped at its size cap and closed the connection
