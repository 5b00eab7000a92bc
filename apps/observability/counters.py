"""In-process counters, the ground floor of observability: any part may count into them without reaching the
tables the scrape-time collector reads (see apps/observability/metrics.py). Per process; pooled across processes
when PROMETHEUS_MULTIPROC_DIR is set.

  bap_upload_bytes                              histogram of received upload sizes
  bap_ingest_seconds{outcome}                   histogram of ingest durations, outcome = ready | rejected | failed
  bap_ingest_rows                               histogram of rows per successful ingest
  bap_websocket_connections                     WebSocket connections open now
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Gauge, Histogram

PROCESS_REGISTRY = CollectorRegistry()
UPLOAD_BYTES = Histogram(
    "bap_upload_bytes",
    "Size of received uploads in bytes.",
    buckets=(64 * 1024, 1024**2, 10 * 1024**2, 50 * 1024**2, 200 * 1024**2, 1024**3, 4 * 1024**3),
    registry=PROCESS_REGISTRY,
)
INGEST_SECONDS = Histogram(
    "bap_ingest_seconds",
    "Duration of dataset ingests in seconds.",
    ["outcome"],
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600),
    registry=PROCESS_REGISTRY,
)
INGEST_ROWS = Histogram(
    "bap_ingest_rows",
    "Rows of successfully ingested dataset versions.",
    buckets=(100, 1_000, 10_000, 100_000, 1_000_000, 5_000_000, 50_000_000),
    registry=PROCESS_REGISTRY,
)
WEBSOCKET_CONNECTIONS = Gauge(
    "bap_websocket_connections",
    "WebSocket connections open now.",
    registry=PROCESS_REGISTRY,
    multiprocess_mode="livesum",
)
