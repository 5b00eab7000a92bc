"""The task queue in this process (TASK_QUEUE=local): runs wait their tenant's turn, a run the queue cannot take
or that runs too long ends with run.failed, and /metrics shows the queue's depth and wait.
(Celery workers: tests/conversations/test_celery_worker.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone, translation
from prometheus_client.parser import text_string_to_metric_families

from apps.conversations import queue, recovery, run_services, services
from apps.conversations.models import Message, Run, RunEvent, RunStatus
from apps.conversations.run_services import Claim
from apps.datasets import services as dataset_services
from apps.tenants.context import context_for_token
from apps.tenants.scopes import ALL_SCOPES
from apps.tenants.services import token_create
from tests.conversations.conftest import SALES, good_turns
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def rows(**lookup):
    return Run.objects.unscoped_for_admin().filter(**lookup)


def fresh(run: Run) -> Run:
    return Run.objects.for_tenant(run.tenant).get(pk=run.pk)


def dataset_of(tenant):
    file = SimpleUploadedFile("sales.csv", SALES.encode())
    upload = dataset_services.upload_receive(
        tenant=tenant, chunks=file.chunks(), original_name="sales.csv", size=file.size
    )
    return dataset_services.dataset_create(tenant=tenant, upload=upload, name="销售").dataset


def another_conversation(tenant, dataset):
    token, _raw = token_create(tenant=tenant, name="other", scopes=list(ALL_SCOPES))
    return services.conversation_create(tenant=tenant, ctx=context_for_token(token), dataset=dataset)


def test_a_tenant_runs_no_more_at_once_than_its_plan_allows(tenant_a, dataset, conversation, script, gates, settings):
    settings.PLAN_CONCURRENT_RUNS = {"free": 1, "team": 1, "enterprise": None}
    settings.RUN_FAIRNESS_RETRY_SECONDS = 0.05
    [thinking] = gates(1)
    first = good_turns()
    first[0] = thinking.hold(first[0])
    script(*first, *good_turns())  # one model for both runs: the second's turns follow the first's

    one = services.ask_in_background(conversation=conversation, question="各地区销售额？", actor="test")
    assert thinking.reached.wait(10), "the first run started"
    two = services.ask_in_background(
        conversation=another_conversation(tenant_a, dataset), question="各地区销售额？", actor="test"
    )
    looked_at = two.heartbeat_at
    # Each refused claim refreshes the waiting run's heartbeat: it was looked at again and kept waiting.
    wait_until(lambda: fresh(two).heartbeat_at > looked_at, timeout=10, what="the second run was looked at")
    assert (fresh(one).status, fresh(two).status) == (RunStatus.RUNNING, RunStatus.QUEUED)

    thinking.open()
    done = wait_until(
        lambda: (r := fresh(two)).status == RunStatus.ANSWERED and r, timeout=20, what="the second run was answered"
    )
    assert fresh(one).status == RunStatus.ANSWERED
    assert done.started_at >= fresh(one).finished_at, "it started only once the first had ended"


def test_another_tenant_is_not_held_up_by_a_busy_one(tenant_a, make_tenant, dataset, conversation, settings):
    settings.PLAN_CONCURRENT_RUNS = {"free": 1, "team": 1, "enterprise": None}
    running = services.ask_create(conversation=conversation, question="各地区？", actor="test")
    rows(pk=running.pk).update(status=RunStatus.RUNNING)  # tenant_a is at its bound
    waiting = services.ask_create(
        conversation=another_conversation(tenant_a, dataset), question="各产品？", actor="test"
    )
    other = make_tenant("gamma")
    theirs = services.ask_create(
        conversation=another_conversation(other, dataset_of(other)), question="各地区？", actor="t"
    )

    assert run_services.run_claim(tenant=tenant_a, run_id=waiting.pk) == Claim.WAIT
    assert run_services.run_claim(tenant=other, run_id=theirs.pk) == Claim.RUN
    assert fresh(waiting).status == RunStatus.QUEUED and fresh(theirs).status == RunStatus.RUNNING
    rows(pk=running.pk).update(status=RunStatus.ANSWERED)
    assert run_services.run_claim(tenant=tenant_a, run_id=waiting.pk) == Claim.RUN, "its turn once one ended"
    # Delivered again (its worker was lost): executed once more while it has sent nothing, then failed.
    assert run_services.run_claim(tenant=tenant_a, run_id=waiting.pk) == Claim.RUN
    assert run_services.run_claim(tenant=tenant_a, run_id=waiting.pk) == Claim.LOST


def test_a_run_the_queue_refuses_is_failed_at_once(conversation, monkeypatch, settings):
    def broker_down(*_args, **_kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    settings.TASK_QUEUE = "celery"
    monkeypatch.setattr(queue.execute_run, "apply_async", broker_down)
    with translation.override("zh-hans"):  # the asker's
        run = services.ask_in_background(conversation=conversation, question="各地区？", actor="test")
    run = fresh(run)
    assert run.status == RunStatus.FAILED
    final = RunEvent.objects.for_tenant(run.tenant).get(run=run, seq=run.last_seq)
    assert final.type == "run.failed"
    error = final.data["response"]["error"]
    assert error["code"] == "queue_unavailable" and "6379" not in error["message"]
    assert error["message"] == "问题无法排队（任务队列不可用）；请再问一次"


def test_a_run_past_its_time_limit_is_failed_with_a_clear_message(conversation, settings):
    settings.RUN_TIME_LIMIT_SECONDS = 30
    run = services.ask_create(conversation=conversation, question="各地区？", actor="test")
    long_ago = timezone.now() - timedelta(seconds=31)
    rows(pk=run.pk).update(status=RunStatus.RUNNING, started_at=long_ago, last_seq=1)
    with translation.override("zh-hans"):  # as the ticker thread speaks: LANGUAGE_CODE
        assert recovery.in_flight.fail_overdue([run.pk]) == 1
    run = fresh(run)
    assert run.status == RunStatus.FAILED and run.last_seq == 2
    error = Message.objects.for_tenant(run.tenant).get(pk=run.message_id).response["error"]
    assert error == {"code": "run_timeout", "message": "回答用时超过 30 秒，已被停止；请把问题问得更具体一些"}


def test_a_queued_run_waits_longer_than_a_running_one_before_it_is_failed(conversation, settings):
    settings.RUN_STALE_SECONDS, settings.RUN_QUEUE_WAIT_SECONDS = 60, 600
    run = services.ask_create(conversation=conversation, question="各地区？", actor="test")
    rows(pk=run.pk).update(worker="", heartbeat_at=timezone.now() - timedelta(seconds=120))
    assert recovery.stale_runs_fail() == 0, "waiting its turn in Celery's queue, where nothing refreshes it"
    rows(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=601))
    assert recovery.stale_runs_fail() == 1
    error = Message.objects.for_tenant(run.tenant).get(pk=run.message_id).response["error"]
    assert error["code"] == "queue_timeout"


def test_metrics_show_the_queue_depth_and_how_long_runs_waited(conversation, client, django_user_model):
    staff = django_user_model.objects.create_user(username="ops", password="pw-ops-1234", is_staff=True)
    client.force_login(staff)

    def samples():
        return {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(client.get("/metrics").content.decode())
            for sample in family.samples
        }

    before = samples()
    waited = services.ask_create(conversation=conversation, question="各地区？", actor="test")
    started = waited.created_at + timedelta(seconds=3)
    rows(pk=waited.pk).update(status=RunStatus.ANSWERED, started_at=started, finished_at=started)
    services.ask_create(conversation=conversation, question="各产品？", actor="test")  # queued, not started
    after = samples()

    def added(name, **labels):
        key = (name, frozenset(labels.items()))
        return after[key] - before[key]

    assert added("bap_run_queue_depth") == 1
    assert added("bap_run_queue_wait_seconds_count") == 1
    assert added("bap_run_queue_wait_seconds_bucket", le="2.5") == 0
    assert added("bap_run_queue_wait_seconds_bucket", le="5.0") == 1
    assert added("bap_run_queue_wait_seconds_sum") == pytest.approx(3.0)
