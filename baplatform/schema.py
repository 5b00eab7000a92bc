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

OBJECT = OpenApiTypes.OBJECT


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "apps.tenants.authentication.BearerTokenAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "an API token (bap_...), hashed at rest"}


def _bodies() -> dict[str, tuple[Any, Any]]:
    """(request, response) per view class name; imported lazily (the schema is built on request)."""
    from apps.agent.response import AskResponse
    from apps.conversations import api as conversations
    from apps.datasets import api as datasets
    from apps.datasets import api_sources as sources
    from apps.datasets.queryspec import QuerySpec
    from apps.datasets.results import ResultTable

    return {
        "DatasetListView": (datasets.DatasetUploadIn, OBJECT),
        "DatasetVersionsView": (datasets.DatasetUploadIn, OBJECT),
        "DatasetQueryView": (QuerySpec, ResultTable),
        "DatasetRowsView": (None, ResultTable),
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
    }


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
