"""The OpenAPI schema: request bodies and responses of the API views, declared in one place.

The views are thin APIViews that validate with DRF serializers or pydantic models; this module
tells drf-spectacular which is which, so /api/schema/ documents every body without the views
carrying documentation code.
"""

from __future__ import annotations

import inspect
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
    from apps.datasets.query import api as reads
    from apps.datasets.query.results import ResultTable
    from apps.datasets.query.spec import QuerySpec
    from apps.datasets.sources import api as sources

    return {
        "DatasetListView": (datasets.DatasetUploadIn, OBJECT),
        "DatasetVersionsView": (datasets.DatasetUploadIn, OBJECT),
        "DatasetQueryView": (QuerySpec, ResultTable),
        "DatasetRowsView": (reads.SampleRowsIn, ResultTable),
        "DatasetSchemaView": (None, OBJECT),
        "DatasetResolveView": (reads.ResolveIn, OBJECT),
        "SynonymListView": (datasets.SynonymIn, OBJECT),
        "DatasetExportView": (QuerySpec, OpenApiTypes.BINARY),
        "DatasetPlotView": (OBJECT, OBJECT),  # {"query": QuerySpec, "plot": PlotSpec}
        "SourceListView": (sources.SourceIn, OBJECT),
        "SourceDetailView": (sources.SourceChangeIn, OBJECT),
        "SourceQueryView": (reads.QueryIn, ResultTable),
        "SourceSqlView": (reads.SqlIn, ResultTable),
        "SourceRowsView": (None, ResultTable),
        "ConversationListView": (conversations.ConversationIn, OBJECT),
        "MessageListView": (conversations.AskIn, AskResponse),
        "RunResultView": (None, OpenApiTypes.BINARY),
        "AdminChangeListView": (None, audit.AdminChangePage),
    }


def _parameters() -> dict[str, list[OpenApiParameter]]:
    """Query parameters per view class name (list endpoints also take limit and offset: _paginated)."""
    from apps.audit.models import ChangeAction

    families = sorted({value.split(".")[0] for value in ChangeAction.values})
    action = OpenApiParameter(
        "action",
        str,
        description="one action (" + ", ".join(ChangeAction.values) + ") or a family (" + ", ".join(families) + ")",
    )
    month = OpenApiParameter("month", str, description="YYYY-MM; empty: the current month", pattern=r"^\d{4}-\d{2}$")
    return {
        "AdminChangeListView": [action],
        "AuditEventListView": [OpenApiParameter("trace_id", str, description="only this run's events")],
        "RunDetailView": [
            OpenApiParameter("after", int, description="only the events after this seq (the last one you hold)")
        ],
        "BillingView": [month],
        "BillingExportView": [month],
        "ReplayView": [OpenApiParameter("current", bool, description="true: replay against the current version")],
        "DatasetRowsView": [
            OpenApiParameter("n", int, description="rows to return (1 to 50)"),
            OpenApiParameter("columns", str, description="comma-separated column names; empty: all"),
        ],
        "SourceRowsView": [
            OpenApiParameter("n", int, description="rows to return (1 to 50)"),
            OpenApiParameter("columns", str, description="comma-separated column names; empty: all"),
        ],
    }


PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="items per page (default 50, at most 500)"),
    OpenApiParameter("offset", int, description="items to skip"),
]

# POSTs that create something answer 201; the ask answers 200 with the response, or 202 with wait=false.
CREATED = {
    "ConversationListView",
    "DatasetListView",
    "DatasetVersionsView",
    "UploadView",
    "SourceListView",
    "SynonymListView",
    "TokenListView",
    "MemberListView",
}
# Views that answer a file: its media types (errors stay JSON).
FILE_RESPONSES = {
    "BillingExportView": ["text/csv"],
    "RunResultView": ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    "DatasetExportView": ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    "SourceExportView": ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
}
ERROR_STATUSES = {
    400: "the request is invalid: `code` names the problem, `message` says what to do",
    401: "no valid credentials",
    403: "the token or role lacks the scope",
    404: "not found (or another tenant's)",
    405: "the path does not take this method",
    429: "too many requests: retry after the Retry-After seconds",
}


def _error_body() -> Any:
    from drf_spectacular.utils import inline_serializer
    from rest_framework import serializers

    return inline_serializer(
        "ErrorBody",
        fields={
            "code": serializers.CharField(help_text="stable error code, the same in every language"),
            "message": serializers.CharField(help_text="what went wrong and what to do, in the caller's language"),
            "details": serializers.JSONField(required=False, help_text="per-field problems, when there are any"),
        },
    )


def _run_accepted() -> Any:
    from drf_spectacular.utils import inline_serializer
    from rest_framework import serializers

    return inline_serializer(
        "RunAccepted",
        fields={
            "trace_id": serializers.CharField(),
            "status": serializers.CharField(),
            "run": serializers.CharField(help_text="the run to poll: GET runs/{trace_id}/"),
        },
    )


def _paginated(view: Any) -> bool:
    """A GET that pages its items with TenantAPIView.paginate (count, next, previous, results)."""
    get = getattr(type(view), "get", None)
    try:
        return get is not None and "self.paginate(" in inspect.getsource(get)
    except (OSError, TypeError):
        return False


def _page() -> Any:
    from drf_spectacular.utils import inline_serializer
    from rest_framework import serializers

    return inline_serializer(
        "Page",
        fields={
            "count": serializers.IntegerField(help_text="items in every page"),
            "next": serializers.CharField(allow_null=True, help_text="the next page's URL"),
            "previous": serializers.CharField(allow_null=True, help_text="the previous page's URL"),
            "results": serializers.ListField(child=serializers.DictField(), help_text="this page's items"),
        },
    )


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
        paging = PAGE_PARAMETERS if self.method == "GET" and _paginated(self.view) else []
        return [*super().get_override_parameters(), *_parameters().get(type(self.view).__name__, []), *paging]

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
        name = type(self.view).__name__
        errors = dict.fromkeys(ERROR_STATUSES, _error_body())
        if self.method == "DELETE":
            return {204: None, **errors}
        body = declared[1] if declared is not None else OBJECT
        if name in FILE_RESPONSES:
            return {**{(200, media): OpenApiTypes.BINARY for media in FILE_RESPONSES[name]}, **errors}
        if self.method == "GET" and _paginated(self.view):
            return {200: _page() if body is OBJECT else body, **errors}  # a declared body is its own page
        if self.method == "POST" and name == "MessageListView":
            return {200: body, 202: _run_accepted(), **errors, 409: _error_body(), 429: _error_body()}
        if self.method == "POST" and name in CREATED:
            return {201: body, **errors, 409: _error_body(), 422: _error_body()}
        return {200: body, **errors}
