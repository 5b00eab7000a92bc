"""Conversations REST API: start, ask (sync and async), poll runs, download results; tenancy and bad input."""

from __future__ import annotations

import csv
import io
import json

import pytest
import yaml
from langchain_core.messages import AIMessage

from apps.agent.runner import check_question
from apps.conversations.models import Message, Run, RunStatus
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE, DATASETS_READ
from tests.conversations.conftest import BY_REGION, good_turns
from tests.support.waiting import wait_until


@pytest.fixture
def client(tenant_a, make_token, api_client):
    return api_client(make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE, DATASETS_READ]))


def test_start_a_conversation_and_ask_synchronously(client, dataset, script):
    conv = client.post("/api/v1/conversations/", {"dataset": dataset.pk}, format="json").json()
    assert conv["title"] == "销售" and conv["dataset"] == dataset.pk
    script(*good_turns())
    body = client.post(
        f"/api/v1/conversations/{conv['id']}/messages/", {"question": "各地区销售额？"}, format="json"
    ).json()
    assert body["status"] == "answered" and body["answer"] == "最高的是 华东，160.5。"
    assert body["recommended_questions"] == ["各地区客户数？"] and body["verification"]["passed"] is True
    assert body["tables"][0]["rows"][0] == ["华东", 160.5]
    link = body["download_links"][0]
    assert link == f"/api/v1/runs/{body['trace_id']}/results/q1.csv"
    download = client.get(link)
    rows = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig"))))
    assert download.status_code == 200 and rows[0] == ["地区", "销售额"] and rows[1] == ["华东", "160.5"]
    assert client.get(body["download_links"][1]).status_code == 200
    detail = client.get(f"/api/v1/conversations/{conv['id']}/").json()
    assert [m["question"] for m in detail["messages"]] == ["各地区销售额？"]
    assert detail["messages"][0]["response"]["answer"] == body["answer"]


def test_follow_up_questions_see_earlier_turns(client, conversation, script):
    model = script(*good_turns(), *good_turns("仍然是 {{q1.地区[0]}}。"))
    url = f"/api/v1/conversations/{conversation.pk}/messages/"
    client.post(url, {"question": "各地区销售额？"}, format="json")
    second = client.post(url, {"question": "那最高的呢？"}, format="json").json()
    assert second["status"] == "answered"
    sent = [m.content for m in model.seen[-3]]
    assert sent[1:] == ["各地区销售额？", "最高的是 华东，160.5。", "那最高的呢？"], (
        "the earlier turn, then the question"
    )


@pytest.mark.django_db(transaction=True)
def test_ask_asynchronously_and_poll_the_run(tenant_a, make_token, api_client, conversation, script):
    client = api_client(make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE]))
    script(*good_turns())
    accepted = client.post(
        f"/api/v1/conversations/{conversation.pk}/messages/",
        {"question": "各地区销售额？", "wait": False},
        format="json",
    )
    assert accepted.status_code == 202
    url = accepted.json()["run"]

    def finished():
        run = client.get(url).json()
        return run if run["status"] not in ("queued", "running") else None

    run = wait_until(finished, timeout=20, what="the run finished")
    assert run["status"] == "answered" and run["response"]["answer"].startswith("最高的是 华东")
    types = [e["type"] for e in run["events"]]
    assert types[0] == "run.started" and types[-1] == "run.finished" and "verify" in types
    assert [e["seq"] for e in run["events"]] == list(range(1, len(types) + 1))
    later = client.get(url + "?after=3").json()["events"]
    assert [e["seq"] for e in later] == list(range(4, len(types) + 1))


def test_asking_while_a_run_is_in_progress_is_a_conflict(client, conversation, tenant_a):
    message = Message.objects.create(tenant=tenant_a, conversation=conversation, question="q")
    Run.objects.create(
        tenant=tenant_a, conversation=conversation, message=message, trace_id="a" * 32, status=RunStatus.RUNNING
    )
    resp = client.post(f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "又一个问题"}, format="json")
    assert resp.status_code == 409 and resp.json()["code"] == "run_in_progress"
    assert Message.objects.for_tenant(tenant_a).count() == 1, "nothing recorded"


@pytest.mark.parametrize(
    ("body", "code"),
    [({"question": "   "}, "empty_question"), ({"question": "x" * 2100}, "question_too_long"), ({}, "invalid")],
)
def test_bad_questions_are_refused_and_nothing_is_recorded(client, conversation, tenant_a, body, code):
    resp = client.post(f"/api/v1/conversations/{conversation.pk}/messages/", body, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == code
    assert not Message.objects.for_tenant(tenant_a).exists()


def test_bad_conversation_requests(client, dataset):
    assert client.post("/api/v1/conversations/", {}, format="json").json()["code"] == "invalid"
    both = client.post("/api/v1/conversations/", {"dataset": dataset.pk, "source": 1}, format="json")
    assert both.status_code == 400
    assert client.post("/api/v1/conversations/", {"dataset": 99999}, format="json").status_code == 404


def test_a_reader_cannot_ask(tenant_a, make_token, api_client, conversation):
    reader = api_client(make_token(tenant_a, [CONVERSATIONS_READ]))
    resp = reader.post(f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "q"}, format="json")
    assert resp.status_code == 403 and resp.json()["code"] == "missing_scope"
    assert reader.get(f"/api/v1/conversations/{conversation.pk}/").status_code == 200


def test_another_tenants_conversations_runs_and_results_are_404(
    client, conversation, script, tenant_b, make_token, api_client, dataset
):
    script(*good_turns())
    body = client.post(
        f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "各地区销售额？"}, format="json"
    ).json()
    other = api_client(make_token(tenant_b, [CONVERSATIONS_READ, CONVERSATIONS_WRITE, DATASETS_READ]))
    attempts = [
        other.get(f"/api/v1/conversations/{conversation.pk}/"),
        other.get(f"/api/v1/conversations/{conversation.pk}/messages/"),
        other.post(f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "q"}, format="json"),
        other.get(f"/api/v1/runs/{body['trace_id']}/"),
        other.get(body["download_links"][0]),
        other.post("/api/v1/conversations/", {"dataset": dataset.pk}, format="json"),
    ]
    assert [r.status_code for r in attempts] == [404] * len(attempts)
    assert other.get("/api/v1/conversations/").json()["count"] == 0


def _structured(kind, content, round_, **action):
    body = {
        "task_analysis": "按地区汇总销售额。",
        "execution_plan": "R1: 查看字段；R2: 汇总；R3: 结论",
        "current_round": round_,
        "action": {"type": kind, "content": content, **action},
    }
    return AIMessage(content=json.dumps(body, ensure_ascii=False))


def test_the_response_carries_the_structured_plan_and_the_documented_names(client, conversation, script):
    script(
        _structured("tool_call", [{"tool_name": "get_schema", "tool_call_id": "c1", "arguments": {}}], 1),
        _structured(
            "tool_call", [{"tool_name": "run_query", "tool_call_id": "c2", "arguments": {"spec": BY_REGION}}], 2
        ),
        _structured(
            "complete", "最高的是 {{q1.地区[0]}}（{{q1.销售额[0]}}）。", 3, recommended_questions=["各地区客户数？"]
        ),
    )
    body = client.post(
        f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "各地区销售额？"}, format="json"
    ).json()
    assert body["status"] == "answered" and body["answer"] == "最高的是 华东（160.5）。"
    assert (body["task_analysis"], body["execution_plan"], body["current_round"]) == (
        "按地区汇总销售额。",
        "R1: 查看字段；R2: 汇总；R3: 结论",
        3,
    )
    assert body["recommended_questions"] == ["各地区客户数？"]
    assert body["tables"][0]["name"] and body["tables"][0]["rows"][0] == ["华东", 160.5]
    assert body["audit"]["trace_id"] == body["trace_id"] and body["audit"]["llm_cost_usd"] == 0.0
    assert [(s["tool"], s["rows"]) for s in body["audit"]["steps"]] == [("get_schema", 4), ("run_query", 3)]
    assert all(isinstance(s["latency_ms"], float) for s in body["audit"]["steps"])
    run = client.get(f"/api/v1/runs/{body['trace_id']}/").json()
    plans = [e["data"] for e in run["events"] if e["type"] == "plan"]
    assert [p["current_round"] for p in plans] == [1, 2, 3] and plans[0]["task_analysis"] == "按地区汇总销售额。"
    assert run["response"]["execution_plan"] == body["execution_plan"], "the stored response keeps it"


def test_the_offline_planners_plan_reaches_the_rest_response(client, conversation):
    body = client.post(
        f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "各地区的金额合计是多少？"}, format="json"
    ).json()
    assert body["status"] == "answered", body
    assert body["task_analysis"] and body["execution_plan"].endswith("（当前）") and body["current_round"] >= 3
    run = client.get(f"/api/v1/runs/{body['trace_id']}/").json()
    plans = [e["data"] for e in run["events"] if e["type"] == "plan"]
    assert plans[1]["task_analysis"].startswith("这个问题可以用一条查询回答") and "R2：" in plans[1]["execution_plan"]


def test_the_documented_question_limit_is_the_enforced_one(client, conversation, tenant_a):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    documented = schema["components"]["schemas"]["AskInRequest"]["properties"]["question"]["maxLength"]
    url = f"/api/v1/conversations/{conversation.pk}/messages/"
    over = client.post(
        url, {"question": "问" * (documented + 1), "wait": False}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert over.status_code == 400 and over.json()["code"] == "question_too_long"
    assert f"at most {documented:,}" in over.json()["message"]
    assert check_question("问" * documented) == "问" * documented  # the limit itself is allowed
    assert not Message.objects.for_tenant(tenant_a).exists()


def test_api_errors_follow_accept_language(client, conversation, tenant_a, script):
    script(*good_turns(), *good_turns())
    for lang, bad_json, both, after in (
        ("zh-CN", "有效的 JSON", "请只给出 dataset", "after 必须是整数"),
        ("en", "valid JSON", "give exactly one", "after must be a whole number"),
    ):
        broken = client.post(
            "/api/v1/conversations/", "{bad", content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang
        )
        assert broken.status_code == 400 and bad_json in broken.json()["message"]
        assert "Expecting" not in broken.json()["message"]  # never the parser's own words
        two = client.post(
            "/api/v1/conversations/", {"dataset": 1, "source": 2}, format="json", HTTP_ACCEPT_LANGUAGE=lang
        )
        assert two.status_code == 400 and both in two.json()["message"]
        ask = client.post(
            f"/api/v1/conversations/{conversation.pk}/messages/",
            {"question": "各地区销售额？"},
            format="json",
            HTTP_ACCEPT_LANGUAGE=lang,
        )
        trace = ask.json()["trace_id"]
        paged = client.get(f"/api/v1/runs/{trace}/?after=x", HTTP_ACCEPT_LANGUAGE=lang)
        assert paged.status_code == 400 and after in paged.json()["message"]
