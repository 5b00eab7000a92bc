"""Audit trail, replay, quotas and billing: every tool call recorded, replays exact, limits enforced, sums right."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from apps.agent.runner import answer_question
from apps.audit.models import AuditEvent, UsageKind, UsageRecord
from apps.audit.quotas import QuotaExceeded
from apps.audit.replay import replay
from apps.conversations.models import Message
from apps.datasets import services as dataset_services
from apps.tenants.scopes import AUDIT_READ, BILLING_READ, CONVERSATIONS_READ, CONVERSATIONS_WRITE
from tests.support.sales import BY_REGION, SALES, run


def test_every_tool_call_of_a_run_is_audited(binding):
    response = run(binding)
    events = list(AuditEvent.objects.for_tenant(binding.tenant).filter(trace_id=response.audit.trace_id))
    assert [(e.step, e.tool, e.status) for e in events] == [
        (1, "get_schema", "ok"),
        (2, "run_query", "ok"),
        (3, "plot", "ok"),
    ]
    query = events[1]
    assert query.arguments == {"spec": BY_REGION} and query.rows == 3 and query.rows_scanned == 4
    assert len(query.result_digest) == 64 and query.result_size > 0 and query.actor == "user:ana"
    assert query.dataset_version_id == binding.version.pk and query.prompt_version == response.audit.prompt_version
    assert [s.latency_ms for s in response.audit.steps] == [e.latency_ms for e in events]


def test_a_replay_of_an_unchanged_run_reports_no_difference(binding):
    trace = run(binding).audit.trace_id
    report = replay(trace_id=trace, tenant=binding.tenant)
    assert [s.tool for s in report.steps] == ["get_schema", "run_query", "plot"] and report.differences == []
    out = io.StringIO()
    call_command("replay", trace, stdout=out)
    assert "No difference" in out.getvalue()


def test_replay_against_a_new_version_shows_what_changed(binding):
    trace = run(binding).audit.trace_id
    more = SALES + "赵敏,华北,500,\n"
    file = SimpleUploadedFile("sales2.csv", more.encode())
    upload = dataset_services.upload_receive(
        tenant=binding.tenant, chunks=file.chunks(), original_name="sales2.csv", size=file.size
    )
    dataset_services.dataset_create(tenant=binding.tenant, upload=upload, dataset=binding.dataset)
    assert replay(trace_id=trace, tenant=binding.tenant).differences == [], "the recorded version is unchanged"
    changed = replay(trace_id=trace, tenant=binding.tenant, against_current=True)
    assert {s.tool for s in changed.differences} == {"get_schema", "run_query", "plot"}
    out = io.StringIO()
    call_command("replay", trace, "--current", stdout=out)
    assert "3 step(s) differ" in out.getvalue()


def test_a_replay_cannot_reach_another_tenants_run(binding, tenant_b):
    trace = run(binding).audit.trace_id
    with pytest.raises(Exception) as info:
        replay(trace_id=trace, tenant=tenant_b)
    assert getattr(info.value, "status", None) == 404


def test_billing_totals_equal_the_sum_of_recorded_calls(binding, make_token, api_client):
    first, second = run(binding, usage=(1000, 200)), run(binding, usage=(300, 50), actor="token:bap_abc")
    client = api_client(make_token(binding.tenant, [BILLING_READ]))
    body = client.get("/api/v1/billing/").json()
    totals = body["totals"]
    assert totals["runs"] == 2 and totals["llm_calls"] == 8 and totals["queries"] == 2
    assert totals["input_tokens"] == first.audit.llm.input_tokens + second.audit.llm.input_tokens == 4 * 1300
    cost = Decimal(str(first.audit.llm.cost_usd)) + Decimal(str(second.audit.llm.cost_usd))
    assert Decimal(str(totals["cost_usd"])) == cost.quantize(Decimal("0.00000001")) and cost > 0
    assert {a["actor"]: a["runs"] for a in body["by_actor"]} == {"token:bap_abc": 1, "user:ana": 1}
    assert [m["model"] for m in body["by_model"]] == ["gpt-4o-mini"] and len(body["by_day"]) == 1
    assert totals["rows_scanned"] == 8 and body["storage_bytes"] > 0
    export = client.get("/api/v1/billing/export/")
    rows = list(csv.DictReader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert len(rows) == UsageRecord.objects.for_tenant(binding.tenant).count() == 12
    assert sum(Decimal(r["cost_usd"]) for r in rows) == Decimal(str(totals["cost_usd"]))


def test_the_offline_planner_is_metered_at_zero_cost_but_counted(binding):
    response = answer_question(binding=binding, question="各地区的金额合计是多少？")
    assert response.status == "answered" and response.audit.llm.model == "offline-planner"
    calls = UsageRecord.objects.for_tenant(binding.tenant).filter(kind=UsageKind.LLM_CALL)
    assert calls.count() == response.audit.llm.calls > 0 and all(c.cost_usd == 0 for c in calls)


def test_run_quota_exceeded_is_a_clear_error_and_no_run(binding, settings, make_token, api_client, conversation_for):
    settings.PLAN_QUOTAS = {**settings.PLAN_QUOTAS, "free": {"runs_per_month": 1, "tokens_per_month": None}}
    run(binding)
    with pytest.raises(QuotaExceeded) as info:
        run(binding)
    assert info.value.code == "quota_exceeded" and "1" in info.value.message
    client = api_client(make_token(binding.tenant, [CONVERSATIONS_READ, CONVERSATIONS_WRITE]))
    conversation = conversation_for(binding)
    resp = client.post(f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "q?"}, format="json")
    assert resp.status_code == 429 and resp.json()["code"] == "quota_exceeded"
    assert not Message.objects.for_tenant(binding.tenant).exists()
    assert UsageRecord.objects.for_tenant(binding.tenant).filter(kind=UsageKind.RUN).count() == 1


def test_storage_quota_refuses_the_upload(binding, settings):
    settings.PLAN_QUOTAS = {**settings.PLAN_QUOTAS, "free": {"storage_bytes": 1000}}
    file = SimpleUploadedFile("big.csv", b"a\n" + b"1\n" * 600)
    with pytest.raises(QuotaExceeded) as info:
        dataset_services.upload_receive(
            tenant=binding.tenant, chunks=file.chunks(), original_name="big.csv", size=file.size
        )
    assert info.value.code == "storage_quota_exceeded"


def test_audit_and_billing_are_scoped_to_the_tenant(binding, tenant_b, make_token, api_client):
    trace = run(binding).audit.trace_id
    other = api_client(make_token(tenant_b, [AUDIT_READ, BILLING_READ]))
    assert other.get(f"/api/v1/audit/events/?trace_id={trace}").json()["count"] == 0
    assert other.get("/api/v1/audit/interceptions/").json()["count"] == 0
    assert other.post(f"/api/v1/runs/{trace}/replay/").status_code == 404
    assert other.get("/api/v1/billing/").json()["totals"]["runs"] == 0
    mine = api_client(make_token(binding.tenant, [AUDIT_READ]))
    assert mine.get(f"/api/v1/audit/events/?trace_id={trace}").json()["count"] == 3
    assert mine.post(f"/api/v1/runs/{trace}/replay/").json()["differences"] == 0
    assert mine.get("/api/v1/billing/").status_code == 403, "billing needs billing:read"
