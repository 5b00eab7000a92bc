"""Portal pages for tenant admins: billing (totals equal the ledger, quotas, month picker, CSV with the
session), the audit trail of runs with replay; another tenant's run is a 404; viewers are refused."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db.models import Sum
from django.template.defaultfilters import floatformat
from django.test import Client

from apps.audit import views
from apps.audit.models import UsageKind, UsageRecord
from apps.audit.selectors import month_bounds
from apps.tenants.scopes import Role
from tests.fakes import final
from tests.support.sales import ask, run, schema_then_query


def logged_in(user, lang: str = "en", **kwargs) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang, **kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def tenant_admin(binding, make_user):
    return make_user(tenant=binding.tenant, role=Role.ADMIN)


@pytest.fixture
def admin_client(tenant_admin):
    return logged_in(tenant_admin)


def cell(page: str, attr: str, key: str) -> str:
    found = re.search(rf'{attr}="{key}">([^<]*)<', page)
    assert found, key
    return found.group(1)


def without_csrf(page: str) -> str:
    """The page with its per-response CSRF tokens blanked (they are masked differently each time)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', page)


def this_month() -> str:
    return month_bounds(None)[0].strftime("%Y-%m")


def test_billing_page_totals_equal_the_recorded_usage(binding, admin_client):
    run(binding, usage=(1000, 200))
    run(binding, usage=(300, 50), actor="token:bap_abc")
    ledger = UsageRecord.objects.for_tenant(binding.tenant)
    sums = ledger.aggregate(i=Sum("input_tokens"), o=Sum("output_tokens"), c=Sum("cost_usd"), r=Sum("rows"))
    resp = admin_client.get("/settings/billing/")
    page = resp.content.decode()
    assert resp.status_code == 200 and "Usage in " + this_month() in page
    assert cell(page, "data-total", "runs") == str(ledger.filter(kind=UsageKind.RUN).count()) == "2"
    assert cell(page, "data-total", "llm_calls") == str(ledger.filter(kind=UsageKind.LLM_CALL).count())
    assert cell(page, "data-total", "queries") == str(ledger.filter(kind=UsageKind.QUERY).count())
    assert cell(page, "data-total", "input_tokens") == str(sums["i"]) == "5200"
    assert cell(page, "data-total", "output_tokens") == str(sums["o"])
    assert cell(page, "data-total", "rows_scanned") == str(sums["r"])
    assert cell(page, "data-total", "cost_usd") == floatformat(sums["c"], 6) and sums["c"] > 0
    by_actor = page.split('id="by-actor"')[1].split("</table>")[0]
    assert "token:bap_abc" in by_actor and "user:ana" in by_actor
    assert "gpt-4o-mini" in page.split('id="by-model"')[1].split("</table>")[0]
    assert page.split('id="by-day"')[1].split("</table>")[0].count("<tr>") == 2, "a header and one day"
    quota = page.split('data-quota="runs_per_month"')[1].split("</tr>")[0]
    assert ">2<" in quota and ">300<" in quota, "two of the free plan's 300 questions"
    csv_link = f'href="/api/v1/billing/export/?month={this_month()}"'
    assert csv_link in page
    export = admin_client.get(f"/api/v1/billing/export/?month={this_month()}")
    assert export.status_code == 200, "the CSV link works with the portal session"
    assert len(list(csv.DictReader(io.StringIO(export.content.decode("utf-8-sig"))))) == ledger.count()


def test_billing_month_picker_unlimited_quotas_and_chinese(binding, tenant_admin, admin_client, settings):
    run(binding)
    settings.PLAN_QUOTAS = {**settings.PLAN_QUOTAS, "free": {"runs_per_month": 10, "tokens_per_month": None}}
    page = admin_client.get("/settings/billing/").content.decode()
    tokens = page.split('data-quota="tokens_per_month"')[1].split("</tr>")[0]
    storage = page.split('data-quota="storage_bytes"')[1].split("</tr>")[0]
    assert "unlimited" in tokens and "unlimited" in storage and "<progress" not in tokens
    assert '<progress max="100" value="10">' in page, "1 of 10 questions"
    old = admin_client.get("/settings/billing/?month=2020-01").content.decode()
    assert cell(old, "data-total", "runs") == "0" and '<option value="2020-01" selected>' in old
    assert "?month=2020-01" in old
    bad = admin_client.get("/settings/billing/?month=soon").content.decode()
    assert "month must look like 2025-03" in bad and f'<option value="{this_month()}" selected>' in bad
    chinese = logged_in(tenant_admin, "zh-hans").get("/settings/billing/").content.decode()
    assert "计费" in chinese and "不限" in chinese and "按模型" in chinese


def test_audit_lists_runs_and_interceptions_newest_first(binding, admin_client, monkeypatch):
    first = run(binding, question="第一个问题？").audit.trace_id
    second = run(binding, question="第二个问题？").audit.trace_id
    draft = "推荐套餐：Sample Kit，适合 {{q1.地区[0]}} 的客户。"
    ask(binding, *schema_then_query(), final(draft), final(draft), question="被拦截的问题？")
    page = admin_client.get("/settings/audit/").content.decode()
    runs = page.split('id="runs"')[1].split("</table>")[0]
    traces = re.findall(r'data-trace="([^"]+)"', runs)
    assert len(traces) == 3 and traces.index(second) < traces.index(first)
    interceptions = page.split('id="interceptions"')[1].split("</table>")[0]
    assert "被拦截的问题？" in interceptions and "fake_data_pattern" in interceptions
    monkeypatch.setattr(views, "RUNS_PER_PAGE", 2)
    paged = admin_client.get("/settings/audit/?page=2").content.decode()
    assert re.findall(r'data-trace="([^"]+)"', paged.split('id="runs"')[1].split("</table>")[0]) == [first]
    assert "Page 2 of 2" in paged


def test_run_page_shows_steps_and_replays_with_csrf(binding, make_user):
    trace = run(binding).audit.trace_id
    client = logged_in(make_user(tenant=binding.tenant, role=Role.OWNER), enforce_csrf_checks=True)
    url = f"/settings/audit/{trace}/"
    page = client.get(url).content.decode()
    steps = page.split('id="steps"')[1].split("</table>")[0]
    assert [m for m in re.findall(r"<code>(\w+)</code>", steps) if m in ("get_schema", "run_query", "plot")] == [
        "get_schema",
        "run_query",
        "plot",
    ]
    assert "group_by" in steps and 'id="replay-form"' in page and "replay-report" not in page
    assert client.post(url, {"against": "recorded"}).status_code == 403, "no CSRF token, no replay"
    token = client.cookies["csrftoken"].value
    replayed = client.post(url, {"against": "recorded", "csrfmiddlewaretoken": token}).content.decode()
    report = replayed.split('id="replay-report"')[1]
    assert "No difference: every result is identical." in report and report.count("data-replayed=") == 3


def test_another_tenants_run_is_the_same_404_as_a_missing_one(binding, tenant_b, make_user):
    trace = run(binding).audit.trace_id
    other = logged_in(make_user(tenant=tenant_b, role=Role.OWNER))
    theirs, missing = other.get(f"/settings/audit/{trace}/"), other.get("/settings/audit/no-such-trace/")
    assert theirs.status_code == missing.status_code == 404
    as_missing = theirs.content.decode().replace(trace, "no-such-trace")  # the page echoes its own path
    assert without_csrf(as_missing) == without_csrf(missing.content.decode())
    assert other.post(f"/settings/audit/{trace}/").status_code == 404
    assert trace not in other.get("/settings/audit/").content.decode()
    assert cell(other.get("/settings/billing/").content.decode(), "data-total", "runs") == "0"


@pytest.mark.parametrize("role", [Role.VIEWER, Role.ANALYST])
def test_viewers_and_analysts_get_the_forbidden_page(binding, make_user, role):
    trace = run(binding).audit.trace_id
    client = logged_in(make_user(tenant=binding.tenant, role=role))
    for url in ("/settings/billing/", "/settings/audit/", f"/settings/audit/{trace}/"):
        resp = client.get(url)
        assert resp.status_code == 403 and "does not allow" in resp.content.decode(), url
    home = client.get("/").content.decode()
    assert 'href="/settings/billing/"' not in home and 'href="/settings/audit/"' not in home


def test_admins_see_the_nav_links(binding, admin_client):
    home = admin_client.get("/").content.decode()
    assert 'href="/settings/billing/"' in home and 'href="/settings/audit/"' in home
