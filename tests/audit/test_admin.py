"""The staff admin: interception review (filters, side-by-side page, whitelist action), rule editing with
validation that applies to the next run, replays of recorded runs, and platform billing for staff only."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.audit.models import AuditEvent, DetectionPattern, InterceptionLog, RequiredToolRule, UsageKind, UsageRecord
from apps.audit.models import WhitelistPattern as Whitelist
from apps.tenants.scopes import Role
from tests.fakes import final
from tests.support.sales import ask, run, schema_then_query

SAMPLE_DRAFT = "推荐套餐：Sample Kit，适合 {{q1.地区[0]}} 的客户。"
HOSTILE_DRAFT = "推荐套餐：Sample Kit，{{q1.地区[0]}} 增长 4321 元。"
# Markup in a model's draft is removed before verify (apps/agent/markup.py); a question keeps whatever was typed.
HOSTILE_QUESTION = "哪个<b>地区</b>最高？<script>alert(document.cookie)</script>"
INTERCEPTIONS = "/admin/audit/interceptionlog/"


def reviewed_whitelist():
    """Whitelist rows added by reviewers (the seeded defaults are there from the start)."""
    return Whitelist.objects.exclude(regex__in=[r"(?i)\bfor example\b"])


@pytest.fixture
def staff(db) -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def intercept(binding, draft=SAMPLE_DRAFT, question="2025 年各地区销售额是多少？"):
    response, _events, _model = ask(binding, *schema_then_query(), final(draft), final(draft), question=question)
    assert response.status == "intercepted"
    return InterceptionLog.objects.for_tenant(binding.tenant).latest("created_at")


def listed(client: Client, url: str) -> int:
    resp = client.get(url)
    assert resp.status_code == 200
    return resp.context["cl"].result_count


def texts_of(resp) -> list[str]:
    return [str(m) for m in resp.context["messages"]]


def test_interceptions_filter_by_tenant_reason_date_and_pattern(staff, binding, tenant_b):
    log = intercept(binding)
    assert log.pattern_codes == "sample_word"
    assert listed(staff, INTERCEPTIONS) == 1
    assert listed(staff, f"{INTERCEPTIONS}?tenant__id__exact={binding.tenant.pk}") == 1
    assert listed(staff, f"{INTERCEPTIONS}?tenant__id__exact={tenant_b.pk}") == 0
    assert listed(staff, f"{INTERCEPTIONS}?reason=fake_data_pattern") == 1
    assert listed(staff, f"{INTERCEPTIONS}?reason=ungrounded_number") == 0
    assert listed(staff, f"{INTERCEPTIONS}?pattern=sample_word") == 1
    assert listed(staff, f"{INTERCEPTIONS}?pattern=test_name") == 0
    day = log.created_at
    assert listed(staff, f"{INTERCEPTIONS}?created_at__year={day.year}&created_at__month={day.month}") == 1
    assert listed(staff, f"{INTERCEPTIONS}?created_at__year={day.year - 1}") == 0
    assert listed(staff, f"{INTERCEPTIONS}?reviewed=no") == 1
    page = staff.get(INTERCEPTIONS).content.decode()
    assert "sample_word" in page and "test_name_zh" in page, "every stored pattern code is a filter choice"


def test_change_page_shows_draft_and_tool_results_side_by_side_escaped(staff, binding):
    log = intercept(binding, HOSTILE_DRAFT, question=HOSTILE_QUESTION)
    page = staff.get(f"{INTERCEPTIONS}{log.pk}/change/").content.decode()
    panel = page.split('class="review-panel"', 1)[1]
    draft, tools = panel.split('class="review-col review-tools"', 1)
    assert '<mark class="pattern" title="matched pattern sample_word">Sample</mark>' in draft
    assert '<mark class="ungrounded" title="number not returned by any tool">4321</mark>' in draft
    assert "&lt;script&gt;alert(document.cookie)&lt;/script&gt;" in draft and "<script>alert" not in page
    assert "哪个&lt;b&gt;地区&lt;/b&gt;最高？" in draft and "<b>地区" not in page
    assert "<code>get_schema</code>" in tools and "<code>run_query</code>" in tools
    assert re.search(r"<tr><td>华东</td><td>160\.5</td></tr>", tools) and "3 of 3 rows" in tools
    assert "&quot;group_by&quot;" in tools, "arguments shown as escaped JSON"
    assert 'name="_save"' not in page, "the review page is read-only"


def test_false_positive_action_whitelists_and_the_same_answer_then_passes(staff, binding):
    log = intercept(binding)
    resp = staff.post(INTERCEPTIONS, {"action": "whitelist_false_positive", "_selected_action": [log.pk]}, follow=True)
    assert resp.status_code == 200
    assert any(f"Interception #{log.pk} marked false positive" in m and "Sample" in m for m in texts_of(resp))
    added = reviewed_whitelist().get()
    assert added.regex == "Sample" and added.active and f"#{log.pk}" in added.note
    log.refresh_from_db()
    assert log.false_positive and log.reviewed_at is not None
    second, _events, _model = ask(binding, *schema_then_query(), final(SAMPLE_DRAFT))
    assert second.status == "answered" and "Sample Kit" in second.answer
    again = staff.post(INTERCEPTIONS, {"action": "whitelist_false_positive", "_selected_action": [log.pk]}, follow=True)
    assert any("already whitelisted" in m for m in texts_of(again)) and reviewed_whitelist().count() == 1


def test_whitelisted_text_is_escaped_so_it_matches_only_itself(staff, binding):
    log = intercept(binding, "参考 Sample.Kit(v2)，{{q1.地区[0]}}。")
    staff.post(INTERCEPTIONS, {"action": "whitelist_false_positive", "_selected_action": [log.pk]})
    assert [w.regex for w in reviewed_whitelist()] == [re.escape(log.matched_patterns[0]["text"])]


def test_mark_reviewed_and_an_interception_without_pattern_text(staff, binding):
    log = intercept(binding, "{{q1.地区[0]}} 增长 4321 元。")
    assert log.reason == "ungrounded_number" and log.matched_patterns == []
    resp = staff.post(INTERCEPTIONS, {"action": "mark_reviewed", "_selected_action": [log.pk]}, follow=True)
    assert "1 interception(s) marked reviewed." in texts_of(resp)
    log.refresh_from_db()
    assert log.reviewed_at is not None and not log.false_positive
    resp = staff.post(INTERCEPTIONS, {"action": "whitelist_false_positive", "_selected_action": [log.pk]}, follow=True)
    assert any("nothing could be whitelisted" in m for m in texts_of(resp)) and not reviewed_whitelist().exists()


@pytest.mark.parametrize("url", ["/admin/audit/detectionpattern/add/", "/admin/audit/whitelistpattern/add/"])
def test_a_regex_that_does_not_compile_is_refused_with_a_clear_message(staff, url):
    resp = staff.post(url, {"code": "broken", "regex": "(unclosed", "description": "", "note": "", "active": "on"})
    assert resp.status_code == 200, "the form is shown again"
    assert "this pattern does not compile (missing ), unterminated subpattern" in resp.content.decode()
    assert not DetectionPattern.objects.filter(code="broken").exists() and not reviewed_whitelist().exists()


def test_required_tools_must_be_known_tool_names(staff, db):
    rule = RequiredToolRule.objects.get(source_type="file")
    url = f"/admin/audit/requiredtoolrule/{rule.pk}/change/"
    resp = staff.post(url, {"source_type": "file", "all_of": '["get_schema", "run_querry"]', "any_of": "[]"})
    page = resp.content.decode()
    assert resp.status_code == 200 and "Unknown tool name(s): run_querry. Known tools: execute_sql_safe" in page
    assert "search_web" in page
    resp = staff.post(url, {"source_type": "file", "all_of": '"get_schema"', "any_of": "[]"})
    assert "Enter a JSON list of tool names" in resp.content.decode()
    rule.refresh_from_db()
    assert rule.all_of == ["get_schema", "run_query"]


def test_rule_edits_in_the_admin_apply_to_the_next_run(staff, binding):
    rule = RequiredToolRule.objects.get(source_type="file")
    resp = staff.post(
        f"/admin/audit/requiredtoolrule/{rule.pk}/change/",
        {"source_type": "file", "all_of": '["get_schema", "run_query", "sample_rows"]', "any_of": ""},
    )
    assert resp.status_code == 302
    response, _events, _model = ask(binding, *schema_then_query(), final("{{q1.地区[0]}}"), final("{{q1.地区[0]}}"))
    assert response.status == "intercepted"
    assert "sample_rows" in InterceptionLog.objects.for_tenant(binding.tenant).get().reasons[0]["message"]
    resp = staff.post(
        "/admin/audit/detectionpattern/add/",
        {"code": "kit_word", "regex": r"\bKit\b", "description": "products are never called Kit", "active": "on"},
    )
    assert resp.status_code == 302
    staff.post(f"/admin/audit/requiredtoolrule/{rule.pk}/change/", {"source_type": "file", "all_of": "", "any_of": ""})
    response, _events, _model = ask(binding, *schema_then_query(), final("Kit {{q1.地区[0]}}"), final("Kit"))
    assert response.status == "intercepted"
    assert InterceptionLog.objects.for_tenant(binding.tenant).latest("created_at").pattern_codes == "kit_word"


def test_audit_events_filter_and_replay_action_reports_no_difference(staff, binding):
    trace = run(binding).audit.trace_id
    base = "/admin/audit/auditevent/"
    assert listed(staff, base) == 3
    assert listed(staff, f"{base}?tool=run_query") == 1 and listed(staff, f"{base}?status=ok") == 3
    assert listed(staff, f"{base}?tenant__id__exact={binding.tenant.pk}") == 3
    assert listed(staff, f"{base}?q={trace[:10]}") == 3 and listed(staff, f"{base}?q=no-such-trace") == 0
    assert staff.get(f"{base}add/").status_code == 403
    pks = list(AuditEvent.objects.for_tenant(binding.tenant).values_list("pk", flat=True))
    resp = staff.post(base, {"action": "replay_runs", "_selected_action": pks}, follow=True)
    assert texts_of(resp) == [f"Run {trace[:12]}: no difference (3 step(s) identical)."]


def test_usage_records_filter_by_kind_and_model(staff, binding):
    run(binding)
    base = "/admin/audit/usagerecord/"
    assert listed(staff, f"{base}?kind={UsageKind.RUN}") == 1
    assert listed(staff, f"{base}?model=gpt-4o-mini") == 5, "four LLM calls and the run"
    assert 'href="/admin/audit/usagerecord/platform-billing/"' in staff.get(base).content.decode()


def test_platform_billing_is_for_staff_only(staff, binding, tenant_b, make_user):
    run(binding, usage=(1000, 200))
    UsageRecord.objects.create(tenant=tenant_b, kind=UsageKind.RUN, model="gpt-4o-mini")
    url = "/admin/audit/usagerecord/platform-billing/"
    page = staff.get(url)
    assert page.status_code == 200
    lines = {line["tenant__slug"]: line for line in page.context["lines"]}
    assert lines["alpha"]["runs"] == 1 and lines["alpha"]["input_tokens"] == 4000 and lines["beta"]["runs"] == 1
    assert page.context["totals"]["runs"] == 2
    assert 'data-tenant="alpha"' in page.content.decode() and 'data-tenant="beta"' in page.content.decode()
    export = staff.get(url, {"month": page.context["month"], "format": "csv"})
    rows = list(csv.DictReader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert {r["tenant"]: int(r["runs"]) for r in rows} == {"alpha": 1, "beta": 1}
    assert staff.get(url, {"month": "2001-01"}).context["lines"] == []
    bad = staff.get(url, {"month": "not-a-month"})
    assert "month must look like 2025-03" in texts_of(bad) and bad.context["month"] == page.context["month"]
    tenant_admin = Client()
    tenant_admin.force_login(make_user(tenant=binding.tenant, role=Role.OWNER))
    denied = tenant_admin.get(url)
    assert denied.status_code == 302 and denied["Location"].startswith("/admin/login/")
    assert Client().get(url).status_code == 302
