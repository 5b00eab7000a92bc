"""Conversations about one dataset or SQL source; each question is a Message answered by a Run.

A run's events are kept (RunEvent, numbered by seq) so a client that reconnects gets what it missed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from apps.datasets.models import Dataset, SqlSource
from apps.tenants.scoping import TenantOwnedModel


class Conversation(TenantOwnedModel):
    title = models.CharField(max_length=200)
    dataset = models.ForeignKey(Dataset, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    source = models.ForeignKey(SqlSource, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.CharField(max_length=200, blank=True, help_text="who started it: user:NAME or token:PREFIX")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.title


class RunStatus(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    ANSWERED = "answered", "answered"
    INTERCEPTED = "intercepted", "intercepted"
    FAILED = "failed", "failed"


ACTIVE = (RunStatus.QUEUED, RunStatus.RUNNING)


class Message(TenantOwnedModel):
    """One question and, once its run ends, the response (docs/DESIGN.md section 5)."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    question = models.TextField()
    response = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=RunStatus.choices, default=RunStatus.QUEUED)
    actor = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.question[:60]


class Run(TenantOwnedModel):
    """The execution of one message: trace id, status, timings; its events are RunEvent rows."""

    message = models.OneToOneField(Message, on_delete=models.CASCADE, related_name="run")
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="runs")
    trace_id = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=12, choices=RunStatus.choices, default=RunStatus.QUEUED)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    # Which process executes the run (host:pid) and when it last showed it was alive: a run whose
    # process stopped is found by its heartbeat going stale (apps/conversations/recovery.py).
    worker = models.CharField(max_length=200, blank=True, db_index=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # How many times a process began executing it (a run delivered again after its worker was lost is retried
    # once if it had sent nothing yet).
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.trace_id


class RunEvent(TenantOwnedModel):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=20)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["run_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="uniq_run_event_seq")]
