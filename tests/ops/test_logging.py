"""Structured logs: every line of a run carries its trace id; nothing secret or from the data is logged."""

from __future__ import annotations

import contextvars
import json
import logging

from apps.agent.runner import answer_question
from apps.observability import context
from apps.observability.logs import JsonFormatter, logging_config, redact
from tests.fakes import ScriptedChatModel, call, final, tools
from tests.ops.conftest import BY_REGION, CELL_VALUES


def _run_in_a_worker_thread(binding, *turns):
    """As the platform runs them: in a worker thread, which starts with an empty log context (an empty
    Context here, so the test's database transaction stays usable)."""

    def work():
        return answer_question(
            binding=binding,
            question="各地区销售额是多少？",
            model=ScriptedChatModel(turns=list(turns)),
            model_name="scripted",
            actor="user:alice",
        )

    return contextvars.Context().run(work)


def test_every_line_of_a_run_carries_its_trace_id_and_no_cell_value(binding, log_lines):
    response = _run_in_a_worker_thread(
        binding,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        final("最高的是 {{q1.地区[0]}}，为 {{q1.销售额[0]}}。"),
    )
    assert response.status == "answered"
    lines = log_lines.records()
    trace_id = response.audit.trace_id
    assert lines and all(line["trace_id"] == trace_id for line in lines), lines
    assert all(line["tenant"] == binding.tenant.slug and line["actor"] == "user:alice" for line in lines)
    assert {line["level"] for line in lines} <= {"INFO", "WARNING"} and all("time" in line for line in lines)
    entered = [line["node"] for line in lines if line["message"] == "node entered"]
    assert entered == ["plan", "tool", "plan", "tool", "plan", "verify", "narrate"]
    left = [line for line in lines if line["message"] == "node left"]
    assert len(left) == len(entered) and all(line["duration_ms"] >= 0 for line in left)
    calls = [line for line in lines if line["message"] == "tool call"]
    assert [(c["tool"], c["status"], c["rows"]) for c in calls] == [("get_schema", "ok", 4), ("run_query", "ok", 3)]
    assert all(c["latency_ms"] >= 0 for c in calls)
    assert [line["message"] for line in lines][:1] == ["run started"] and lines[-1]["message"] == "run finished"
    text = log_lines.text()
    assert not [value for value in CELL_VALUES if value in text], "no cell value is logged"
    assert "各地区" not in text, "nor the question"


def test_a_request_gets_a_trace_id_which_its_log_lines_and_response_carry(tenant_a, make_token, api_client, log_lines):
    raw = make_token(tenant_a)
    client = api_client(raw)
    response = client.get("/api/v1/me/", HTTP_X_REQUEST_ID="req-12345678")
    assert response.status_code == 200 and response["X-Request-ID"] == "req-12345678"
    (line,) = [r for r in log_lines.records() if r["message"] == "request finished"]
    assert line["trace_id"] == "req-12345678" and line["tenant"] == tenant_a.slug
    assert line["actor"].startswith("token:bap_") and line["status"] == 200 and line["path"] == "/api/v1/me/"
    assert raw not in log_lines.text() and raw[12:] not in log_lines.text()


def test_an_unsafe_incoming_request_id_is_replaced(client):
    response = client.get("/health/live", HTTP_X_REQUEST_ID='x" injected\nlevel=ERROR')
    assert len(response["X-Request-ID"]) == 32 and response["X-Request-ID"].isalnum()
    assert client.get("/health/live")["X-Request-ID"] != response["X-Request-ID"]


def test_tokens_passwords_and_bearer_headers_are_redacted(log_lines):
    token = "bap_" + "A1b2" * 10 + "xyz"
    logger = logging.getLogger("tests.ops")
    logger.warning("login failed password=hunter2 with Authorization: Bearer %s", token, extra={"password": "hunter2"})
    logger.info("connecting", extra={"dsn": "postgresql://app:s3cret@db:5432/bap", "token": token})
    try:
        raise ValueError(f"bad token {token}")
    except ValueError:
        logger.exception("failed")
    text = log_lines.text()
    assert token not in text and "hunter2" not in text and "s3cret" not in text and "bap_A1b2" not in text
    first, second, third = log_lines.records()
    assert first["message"] == "login failed password=[REDACTED] with Authorization: Bearer [REDACTED]"
    assert first["password"] == "[REDACTED]" and second["token"] == "[REDACTED]"
    assert second["dsn"] == "postgresql://app:[REDACTED]@db:5432/bap"
    assert "ValueError: bad token bap_[REDACTED]" in third["exception"]


def test_redact_leaves_ordinary_text_alone():
    text = "tool run_query status ok rows 3 latency_ms 1.5 input_tokens=120"
    assert redact(text) == text
    assert redact('{"password": "x1"}') == '{"password": "[REDACTED]"}'


def test_context_fields_are_scoped_to_their_block():
    with context.bind(trace_id="outer-1234", tenant="alpha"):
        with context.bind(trace_id="inner-1234", actor="user:bob"):
            assert dict(context.current()) == {"trace_id": "inner-1234", "tenant": "alpha", "actor": "user:bob"}
        assert dict(context.current()) == {"trace_id": "outer-1234", "tenant": "alpha"}
    assert dict(context.current()) == {}


def test_log_format_and_level_come_from_settings():
    assert logging_config("text", "debug")["handlers"]["console"]["formatter"] == "text"
    assert logging_config("json", "warning")["root"]["level"] == "WARNING"
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello %s", ("world",), None)
    record.rows = 3
    body = json.loads(JsonFormatter().format(record))
    assert body["message"] == "hello world" and body["rows"] == 3 and body["level"] == "INFO"
