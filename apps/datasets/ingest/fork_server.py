"""Imported once by the ingest fork server when it starts: Django set up and the readers (DuckDB, fastexcel,
pyarrow, sqlglot) loaded, so every ingest child forked from it starts ready. Never imported elsewhere."""

from __future__ import annotations

import django

django.setup()

from apps.datasets.ingest import worker as ingest_worker  # noqa: E402,F401 - loads the readers into the fork server
