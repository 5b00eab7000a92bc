"""/metrics: the counts equal the audit rows; only staff, metrics:read tokens and METRICS_TOKEN may read them."""

from __future__ import annotations

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.db.models import Count, Sum
from prometheus_client.parser import text_string_to_metric_families

from apps.agent.runner import answer_question
from apps.audit.models import AuditEvent, InterceptionLog, UsageKind, UsageRecord
from apps.observability.asgi import CountWebSockets
from apps.observability.metrics import PROCESS_REGISTRY
from apps.tenants.scopes import DATASETS_READ, METRICS_READ, ROLE_SCOPES
from tests.fakes import ScriptedChatModel, call, final, tools
from tests.ops.conftest import BY_REGION


def _ask(binding, *turns, model_name):
    model = ScriptedChatModel(turns=list(turns))
    return answer_question(binding=binding, question="各地区销售额是多少？", model=model, model_name=model_name)


def _samples(text):
    """{(sample name, frozenset of labels): value}."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_user(username="ops", password="pw-ops-1234", is_staff=True)
    client.force_login(staff)
    return client


def test_metric_counts_equal_the_audit_rows(binding, staff_client):
    answered = _ask(
        binding,
        tools(call("get_schema")),
        tools(call("run_query", spec=BY_REGION)),
        final("最高的是 {{q1.地区[0]}}。"),
        model_name="gpt-4o-mini",
    )
    intercepted = _ask(binding, final("销售额为 1,234,567 元。"), final("约 1,234,567 元。"), model_name="gpt-4o")
    invalid = _ask(binding, tools(call("run_query", spec={"bogus": 1})), final("无法回答。"), model_name="gpt-4o")
    assert (answered.status, intercepted.status) == ("answered", "intercepted") and invalid.status

    response = staff_client.get("/metrics")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    samples = _samples(response.content.decode())

    tool_rows = AuditEvent.objects.for_tenant(binding.tenant).values_list("tool", "status").annotate(n=Count("id"))
    assert {("run_query", "validation_error"), ("run_query", "ok")} <= {(t, s) for t, s, _n in tool_rows}
    for tool, status, n in tool_rows:
        assert samples[("bap_tool_calls_total", frozenset({("tool", tool), ("status", status)}))] == n
        total = AuditEvent.objects.for_tenant(binding.tenant).filter(tool=tool).count()
        assert samples[("bap_tool_latency_seconds_count", frozenset({("tool", tool)}))] == total

    reasons = InterceptionLog.objects.for_tenant(binding.tenant).values_list("reason").annotate(n=Count("id"))
    assert reasons
    for reason, n in reasons:
        assert samples[("bap_interceptions_total", frozenset({("reason", reason)}))] == n

    llm = UsageRecord.objects.for_tenant(binding.tenant).filter(kind=UsageKind.LLM_CALL)
    by_model = llm.values("model").annotate(n=Count("id"), i=Sum("input_tokens"), o=Sum("output_tokens")).order_by()
    assert {row["model"] for row in by_model} == {"gpt-4o-mini", "gpt-4o"}
    for row in by_model:
        model = ("model", row["model"])
        assert samples[("bap_llm_calls_total", frozenset({model}))] == row["n"]
        assert samples[("bap_llm_tokens_total", frozenset({model, ("direction", "input")}))] == row["i"]
        assert samples[("bap_llm_tokens_total", frozenset({model, ("direction", "output")}))] == row["o"]
        assert samples[("bap_llm_cost_usd_total", frozenset({model}))] > 0
    runs = UsageRecord.objects.for_tenant(binding.tenant).filter(kind=UsageKind.RUN).count()
    assert runs == 3 and samples[("bap_runs_started_total", frozenset())] == runs
    assert samples[("bap_runs_total", frozenset({("status", "answered")}))] == 0, "no conversation runs here"
    assert samples[("bap_upload_bytes_count", frozenset())] >= 1
    assert samples[("bap_ingest_seconds_count", frozenset({("outcome", "ready")}))] >= 1


def test_metrics_are_refused_without_credentials(client, django_user_model):
    response = client.get("/metrics")
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"
    member = django_user_model.objects.create_user(username="member", password="pw-member-1234")
    client.force_login(member)
    response = client.get("/metrics")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


def test_metrics_by_token(client, tenant_a, make_token, settings):
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer bap_" + "x" * 43).status_code == 401
    without = make_token(tenant_a, [DATASETS_READ])
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {without}")
    assert response.status_code == 403 and response.json()["code"] == "missing_scope"
    scraper = make_token(tenant_a, [METRICS_READ])
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {scraper}").status_code == 200
    settings.METRICS_TOKEN = "scraper-secret-1234567890"
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer scraper-secret-1234567890").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer scraper-secret-wrong").status_code == 401


def test_no_role_carries_the_metrics_scope():
    assert all(METRICS_READ not in scopes for scopes in ROLE_SCOPES.values())


class _Echo(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()


async def test_open_websockets_are_counted():
    gauge = "bap_websocket_connections"
    before = PROCESS_REGISTRY.get_sample_value(gauge)
    communicator = WebsocketCommunicator(CountWebSockets(_Echo.as_asgi()), "/ws/echo/")
    connected, _ = await communicator.connect()
    assert connected and PROCESS_REGISTRY.get_sample_value(gauge) == before + 1
    await communicator.disconnect()
    assert PROCESS_REGISTRY.get_sample_value(gauge) == before
