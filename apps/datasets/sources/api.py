"""REST endpoints for SQL sources: register, change, test again and delete a connection. Reading a source's data
(tables, schema, rows, query, checked SQL) is in apps/datasets/query/api.py, the same views as for datasets.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.changes import VIA_API, Actor
from apps.datasets.errors import QueryInvalid, SourceFailure
from apps.datasets.models import SourceKind, SqlSource
from apps.datasets.sources import selectors as source_selectors
from apps.datasets.sources import services as source_services
from apps.tenants.api_base import TenantAPIView
from apps.tenants.scopes import DATASETS_READ, SOURCES_MANAGE


def source_out(source: SqlSource) -> dict[str, Any]:
    """A source as the API shows it: never the password, only whether one is set."""
    return {
        "id": source.pk,
        "name": source.name,
        "kind": source.kind,
        "host": source.host,
        "port": source.port,
        "database": source.database,
        "schema": source.schema,
        "username": source.username,
        "has_password": bool(source.password_encrypted),
        "tables": source.tables,
        "tested_at": source.tested_at,
        "created_at": source.created_at,
    }


class _SourceFields(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    host = serializers.CharField(max_length=255, required=False, allow_blank=True)
    port = serializers.IntegerField(min_value=1, max_value=65535, required=False, allow_null=True)
    database = serializers.CharField(max_length=255)
    schema = serializers.CharField(max_length=255, required=False, allow_blank=True)
    username = serializers.CharField(max_length=255, required=False, allow_blank=True)
    password = serializers.CharField(
        max_length=1024, required=False, allow_blank=True, trim_whitespace=False, write_only=True
    )
    tables = serializers.ListField(
        child=serializers.CharField(max_length=255), required=False, max_length=source_services.MAX_ALLOWED_TABLES
    )


class SourceIn(_SourceFields):
    kind = serializers.ChoiceField(choices=SourceKind.choices)


class SourceChangeIn(_SourceFields):
    """Every field optional; the kind of a source cannot change (register a new one instead)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


def _valid(serializer: serializers.Serializer) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class SourceListView(TenantAPIView):
    # Registering makes the platform connect to a host the caller names: an admin power (SOURCES_MANAGE).
    scope_map = {"GET": DATASETS_READ, "POST": SOURCES_MANAGE}

    def get(self, request: Request) -> Response:
        return self.paginate(source_selectors.source_list(tenant=self.tenant), source_out)

    def post(self, request: Request) -> Response:
        values = _valid(SourceIn(data=request.data))
        user = self.tenant_ctx.user
        actor = Actor.of(self.tenant_ctx, via=VIA_API)
        source = source_services.source_create(tenant=self.tenant, created_by=user, actor=actor, **values)
        return Response(source_out(source), status=status.HTTP_201_CREATED)


class SourceDetailView(TenantAPIView):
    scope_map = {"GET": DATASETS_READ, "PATCH": SOURCES_MANAGE, "DELETE": SOURCES_MANAGE}

    def get(self, request: Request, source_id: int) -> Response:
        return Response(source_out(source_selectors.source_get(tenant=self.tenant, source_id=source_id)))

    def patch(self, request: Request, source_id: int) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        if "kind" in request.data:
            raise QueryInvalid(_("the kind of a source cannot change; register a new source"), code="invalid_source")
        values = _valid(SourceChangeIn(data=request.data, partial=True))
        actor = Actor.of(self.tenant_ctx, via=VIA_API)
        return Response(source_out(source_services.source_update(source=source, actor=actor, **values)))

    def delete(self, request: Request, source_id: int) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        source_services.source_delete(source=source, actor=Actor.of(self.tenant_ctx, via=VIA_API))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SourceTestView(TenantAPIView):
    """Test the stored connection again: {ok: true, server, tables} or {ok: false, code, message}."""

    scope_map = {"POST": SOURCES_MANAGE}

    def post(self, request: Request, source_id: int) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        try:
            report = source_services.source_test(source=source)
        except SourceFailure as exc:
            return Response({"ok": False, "code": exc.code, "message": exc.message})
        return Response(
            {"ok": True, "server": report.server, "tables": len(report.tables), "tested_at": source.tested_at}
        )
