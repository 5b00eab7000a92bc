"""Fixtures for the operations tests: a small dataset bound for runs, and the configured log handler captured."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.agent.tools import DataBinding
from apps.datasets import services

# Cell values that must never reach a log line.
SALES = "客户,地区,金额\n张三,华东,120.5\n李雷,华北,80\n韩梅梅,华东,40\n王芳,华南,60\n"
CELL_VALUES = ("张三", "李雷", "韩梅梅", "王芳", "华东", "华北", "华南", "120.5", "160.5")
BY_REGION = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}


@pytest.fixture
def binding(tenant_a: Any, settings: Any, tmp_path: Any) -> DataBinding:
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    file = SimpleUploadedFile("sales.csv", SALES.encode())
    upload = services.upload_receive(tenant=tenant_a, chunks=file.chunks(), original_name="sales.csv", size=file.size)
    dataset = services.dataset_create(tenant=tenant_a, upload=upload, name="sales").dataset
    return DataBinding.for_dataset(tenant=tenant_a, dataset=dataset)


class CapturedLines:
    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream

    def text(self) -> str:
        return self.stream.getvalue()

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text().splitlines() if line.strip()]


@pytest.fixture
def log_lines() -> Iterator[CapturedLines]:
    """What the handler configured in settings writes (JSON lines), redirected to a buffer."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    stream = io.StringIO()
    previous = handler.setStream(stream)  # type: ignore[attr-defined]
    try:
        yield CapturedLines(stream)
    finally:
        handler.setStream(previous)  # type: ignore[attr-defined]
