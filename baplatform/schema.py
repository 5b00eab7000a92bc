"""The OpenAPI schema: request bodies and responses of the API views, declared in one place.

The views are thin APIViews that validate with DRF serializers or pydantic models; this module
tells drf-spectacular which is which, so /api/schema/ documents every body without the views
carrying documentation code.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter

OBJECT = OpenApiTypes.OBJECT

# The requirement documents' QuerySpec, verbatim, and the same query in the explicit spelling: both are one model.
DOCUMENTED_SPEC: dict[str, Any] = {
    "filters": [{"col": "年份", "op": "=", "value": 2025}],
    "group_by": ["账号", "月份"],
    "aggregations": [
        {"as": "return_qty", "agg": "sum", "col": "退货数量"},
        {"as": "quality_cnt", "agg": "sum", "col": "产品质量"},
    ],
    "derived": [{"as": "quality_rate", "expr": "quality_cnt / nullif(return_qty, 0)"}],
    "sort": [{"col": "月份", "dir": "asc"}],
    "limit": 5000,
}
EXPLICIT_SPEC: dict[str, Any] = {
    "filters": [{"column": "年份", "op": "=", "value": 2025}],
    "group_by": [{"column": "账号"}, {"column": "月份"}],
    "aggregations": [
        {"name": "return_qty", "func": "sum", "column": "退货数量"},
        {"name": "quality_cnt", "func": "sum", "column": "产品质量"},
    ],
    "derived": [{"name": "quality_rate", "expr": "quality_cnt / nullif(return_qty, 0)"}],
    "sort": [{"by": "月份", "desc": False}],
    "limit": 5000,
}
DOCUMENTED_PLOT: dict[str, Any] = {
    "chart_type": "line",
    "title": "2025 各账号产品质量占比趋势",
    "x": "月份",
    "y": "quality_rate",
    "series": "账号",
    "y_format": "percent",
}


def _spellings(wrap: Any = lambda spec: spec) -> list[OpenApiExample]:
    documented = "the requirement documents' spelling: col, as, agg, dir"
    explicit = "the explicit spelling: column, name, func, by/desc (what responses and audit records use)"
    return [
        OpenApiExample("documented spelling", value=wrap(DOCUMENTED_SPEC), description=documented, request_only=True),
        OpenApiExample("explicit spelling", value=wrap(EXPLICIT_SPEC), description=explicit, request_only=True),
    ]


def _examples() -> dict[str, list[OpenApiExample]]:
    """Request examples per view class name: every QuerySpec body shows both spellings."""
    create = OpenApiExample(
        "create_dataset",
        value={"file_id": 1, "sheet": "Sheet1", "header_row": 1},
        description="a file staged with POST uploads/ (its file_id) becomes a dataset; the answer has dataset_id",
        request_only=True,
    )
    return {
        "DatasetQueryView": _spellings(),
        "DatasetExportView": _spellings(),
        "SourceQueryView": _spellings(lambda spec: {"table": "退货", "spec": spec}),
        "SourceExportView": _spellings(lambda spec: {"table": "退货", "spec": spec}),
        "DatasetPlotView": _spellings(lambda spec: {"query": spec, "plot": DOCUMENTED_PLOT}),
        "DatasetListView": [create],
        "DatasetRowsView": [
            OpenApiExample("sample_rows", value={"n": 5, "columns": ["账号", "月份", "退货数量"]}, request_only=True)
        ],
        "DatasetResolveView": [
            OpenApiExample("resolve_fields", value={"terms": ["退货原因", "质量问题"]}, request_only=True)
        ],
    }


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "apps.tenants.authentication.BearerTokenAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "an API token (bap_...), hashed at rest"}


def _bodies() -> dict[str, tuple[Any, Any]]:
    """(request, response) per view class name; imported lazily (the schema is built on request)."""
    from apps.agent.response import AskResponse
    from apps.audit import api as audit
    from apps.conversations import api as conversations
    from apps.datasets import api as datasets
    from apps.datasets import api_sources as sources
    from apps.datasets.queryspec import QuerySpec
    from apps.datasets.results import ResultTable

    return {
        "DatasetListView": (datasets.DatasetUploadIn, OBJECT),
        "DatasetVersionsView": (datasets.DatasetUploadIn, OBJECT),
        "DatasetQueryView": (QuerySpec, ResultTable),
        "DatasetRowsView": (datasets.SampleRowsIn, ResultTable),
        "DatasetSchemaView": (None, OBJECT),
        "DatasetResolveView": (datasets.ResolveIn, OBJECT),
        "SynonymListView": (datasets.SynonymIn, OBJECT),
        "DatasetExportView": (QuerySpec, OpenApiTypes.BINARY),
        "DatasetPlotView": (OBJECT, OBJECT),  # {"query": QuerySpec, "plot": PlotSpec}
        "SourceListView": (sources.SourceIn, OBJECT),
        "SourceDetailView": (sources.SourceChangeIn, OBJECT),
        "SourceQueryView": (sources.QueryIn, ResultTable),
        "SourceSqlView": (sources.SqlIn, ResultTable),
        "SourceRowsView": (None, ResultTable),
        "ConversationListView": (conversations.ConversationIn, OBJECT),
        "MessageListView": (conversations.AskIn, AskResponse),
        "RunResultView": (None, OpenApiTypes.BINARY),
        "AdminChangeListView": (None, audit.AdminChangePage),
    }


def _parameters() -> dict[str, list[OpenApiParameter]]:
    """Query parameters per view class name (list endpoints also take limit and offset)."""
    from apps.audit.models import ChangeAction

    families = sorted({value.split(".")[0] for value in ChangeAction.values})
    action = OpenApiParameter(
        "action",
        str,
        description="one action (" + ", ".join(ChangeAction.values) + ") or a family (" + ", ".join(families) + ")",
    )
    return {"AdminChangeListView": [action]}


class TenantAutoSchema(AutoSchema):
    """Bodies from the table above; any other view answers a JSON object (errors: {code, message})."""

    def get_operation_id(self) -> str:
        """List endpoints end in _list, so they do not collide with the detail endpoint of the same resource."""
        operation = super().get_operation_id()
        if self.method == "GET" and operation.endswith("_retrieve") and not re.search(r"\{[^}]+\}/?$", self.path):
            return operation.removesuffix("_retrieve") + "_list"
        return operation

    def _declared(self) -> tuple[Any, Any] | None:
        return _bodies().get(type(self.view).__name__)

    def get_override_parameters(self) -> list[Any]:
        return [*super().get_override_parameters(), *_parameters().get(type(self.view).__name__, [])]

    def get_examples(self) -> list[OpenApiExample]:
        return _examples().get(type(self.view).__name__, []) if self.method == "POST" else []

    def get_request_serializer(self) -> Any:
        declared = self._declared()
        if declared is not None and self.method in ("POST", "PUT", "PATCH"):
            request = declared[0]
            return request
        return None

    def get_response_serializers(self) -> Any:
        declared = self._declared()
        if self.method == "DELETE":
            return {204: None}
        return declared[1] if declared is not None else OBJECT
