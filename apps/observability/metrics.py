"""Prometheus metrics. Counters about runs, tools, interceptions and LLM usage are computed from the audit
tables at scrape time, so every process reports the same numbers and they agree with the audit rows.
Upload, ingest and WebSocket metrics are kept in-process by apps/observability/counters.py (per process; pooled
across processes when PROMETHEUS_MULTIPROC_DIR is set); this module only reads them at scrape time.

From the database (platform-wide, no tenant label):
  bap_runs_total{status}                        conversation runs by status (queued ... failed)
  bap_runs_started_total                        runs started (usage ledger rows of kind "run")
  bap_run_queue_depth                           runs queued now (waiting for a worker, or for their tenant's bound)
  bap_run_queue_wait_seconds                    histogram of how long runs waited from the question to their start
  bap_interceptions_total{reason}               answers held back by the verify node, by first reason
  bap_tool_calls_total{tool,status}             audited tool calls by outcome (ok, validation_error, system_error)
  bap_tool_latency_seconds{tool}                histogram of tool call latency
  bap_query_rows_scanned_total                  rows scanned by queries (usage ledger)
  bap_llm_calls_total{model}                    LLM calls
  bap_llm_tokens_total{model,direction}         LLM tokens, direction = input | output
  bap_llm_cost_usd_total{model}                 LLM cost in USD, from the price table
Per process:
  bap_upload_bytes                              histogram of received upload sizes
  bap_ingest_seconds{outcome}                   histogram of ingest durations, outcome = ready | rejected | failed
  bap_ingest_rows                               histogram of rows per successful ingest
  bap_websocket_connections                     WebSocket connections open now
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from apps.observability.counters import PROCESS_REGISTRY

TOOL_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
QUEUE_WAIT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


class AuditCollector(Collector):
    """Aggregates over the audit and usage tables, one query per family, at each scrape."""

    def collect(self) -> Iterator[Metric]:
        yield from self._runs()
        yield self._interceptions()
        yield from self._tool_calls()
        yield from self._usage()

    def _runs(self) -> Iterator[Metric]:
        from apps.audit.models import UsageKind, UsageRecord
        from apps.conversations.models import Run, RunStatus

        runs = CounterMetricFamily("bap_runs", "Conversation runs by status.", labels=["status"])
        counts = dict(Run.objects.unscoped_for_admin().order_by().values_list("status").annotate(n=Count("id")))
        for status in RunStatus.values:
            runs.add_metric([status], counts.get(status, 0))
        yield runs
        started = UsageRecord.objects.unscoped_for_admin().filter(kind=UsageKind.RUN).count()
        yield CounterMetricFamily("bap_runs_started", "Runs started (usage ledger).", value=started)
        queued = counts.get(RunStatus.QUEUED, 0)
        yield GaugeMetricFamily("bap_run_queue_depth", "Runs queued now, waiting for a worker.", value=queued)
        yield self._queue_wait()

    def _queue_wait(self) -> Metric:
        from apps.conversations.models import Run

        waited = ExpressionWrapper(F("started_at") - F("created_at"), output_field=DurationField())
        runs = Run.objects.unscoped_for_admin().filter(started_at__isnull=False).annotate(waited=waited)
        buckets = {
            f"le{i}": Count("id", filter=Q(waited__lte=timedelta(seconds=b))) for i, b in enumerate(QUEUE_WAIT_BUCKETS)
        }
        row = runs.aggregate(n=Count("id"), total=Sum("waited"), **buckets)
        family = HistogramMetricFamily("bap_run_queue_wait_seconds", "Time from a question to its run's start.")
        cumulative = [(str(b), row[f"le{i}"]) for i, b in enumerate(QUEUE_WAIT_BUCKETS)]
        total = row["total"].total_seconds() if row["total"] is not None else 0.0
        family.add_metric([], [*cumulative, ("+Inf", row["n"])], total)
        return family

    def _interceptions(self) -> Metric:
        from apps.audit.models import InterceptionLog

        family = CounterMetricFamily("bap_interceptions", "Answers intercepted by the verify node.", labels=["reason"])
        rows = InterceptionLog.objects.unscoped_for_admin().values_list("reason").annotate(n=Count("id"))
        for reason, n in rows.order_by("reason"):
            family.add_metric([reason], n)
        return family

    def _tool_calls(self) -> Iterator[Metric]:
        from apps.audit.models import AuditEvent

        events = AuditEvent.objects.unscoped_for_admin()
        calls = CounterMetricFamily("bap_tool_calls", "Audited tool calls.", labels=["tool", "status"])
        for tool, status, n in events.values_list("tool", "status").annotate(n=Count("id")).order_by("tool", "status"):
            calls.add_metric([tool, status], n)
        yield calls
        buckets = {
            f"le{i}": Count("id", filter=Q(latency_ms__lte=b * 1000)) for i, b in enumerate(TOOL_LATENCY_BUCKETS)
        }
        latency = HistogramMetricFamily("bap_tool_latency_seconds", "Latency of tool calls.", labels=["tool"])
        rows = events.values("tool").annotate(n=Count("id"), total=Sum("latency_ms"), **buckets).order_by("tool")
        for row in rows:
            cumulative = [(str(b), row[f"le{i}"]) for i, b in enumerate(TOOL_LATENCY_BUCKETS)]
            latency.add_metric([row["tool"]], [*cumulative, ("+Inf", row["n"])], (row["total"] or 0.0) / 1000)
        yield latency

    def _usage(self) -> Iterator[Metric]:
        from apps.audit.models import UsageKind, UsageRecord

        usage = UsageRecord.objects.unscoped_for_admin()
        scanned = usage.filter(kind=UsageKind.QUERY).aggregate(rows=Sum("rows"))["rows"] or 0
        yield CounterMetricFamily("bap_query_rows_scanned", "Rows scanned by queries.", value=scanned)
        calls = CounterMetricFamily("bap_llm_calls", "LLM calls.", labels=["model"])
        tokens = CounterMetricFamily("bap_llm_tokens", "LLM tokens.", labels=["model", "direction"])
        cost = CounterMetricFamily("bap_llm_cost_usd", "LLM cost in USD.", labels=["model"])
        rows = (
            usage.filter(kind=UsageKind.LLM_CALL)
            .values("model")
            .annotate(n=Count("id"), input=Sum("input_tokens"), output=Sum("output_tokens"), usd=Sum("cost_usd"))
            .order_by("model")
        )
        for row in rows:
            calls.add_metric([row["model"]], row["n"])
            tokens.add_metric([row["model"], "input"], row["input"] or 0)
            tokens.add_metric([row["model"], "output"], row["output"] or 0)
            cost.add_metric([row["model"]], float(row["usd"] or 0))
        yield from (calls, tokens, cost)


def _process_registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        pooled = CollectorRegistry()
        MultiProcessCollector(pooled)
        return pooled
    return PROCESS_REGISTRY


def render() -> bytes:
    """The exposition text: database-derived families, then the in-process ones."""
    database = CollectorRegistry()
    database.register(AuditCollector())
    return generate_latest(database) + generate_latest(_process_registry())
