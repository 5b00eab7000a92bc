"""REST endpoints for SQL sources: register and manage connections, browse tables, query, checked SQL."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.changes import VIA_API, Actor
from apps.datasets import source_selectors, source_services, sources
from apps.datasets.errors import QueryInvalid, SourceFailure
from apps.datasets.models import SourceKind, SqlSource
from apps.datasets.validation import parse_spec
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


class QueryIn(serializers.Serializer):
    table = serializers.CharField(max_length=255)
    spec = serializers.DictField()


class SqlIn(serializers.Serializer):
    sql = serializers.CharField(max_length=20_000, trim_whitespace=False)
    params = serializers.DictField(required=False, default=dict)


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


class SourceTablesView(TenantAPIView):
    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, source_id: int) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        return Response({"tables": sources.list_tables(source)})


class SourceTableView(TenantAPIView):
    """One table's schema: column names, types, kinds, null ratios, distinct counts, examples, roles."""

    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, source_id: int, table: str) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        profile = sources.get_schema(source, table)
        return Response({"table": table, **profile.model_dump(mode="json")})


class SourceRowsView(TenantAPIView):
    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, source_id: int, table: str) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        try:
            n = int(request.query_params.get("n", 10))
        except ValueError:
            raise QueryInvalid(
                _("n must be a whole number from 1 to %(max)s") % {"max": sources.MAX_SAMPLE_ROWS},
                code="invalid_sample_size",
            ) from None
        columns = [c.strip() for c in request.query_params.get("columns", "").split(",") if c.strip()] or None
        result = sources.sample_rows(source, table, n=n, columns=columns)
        return Response(result.model_dump(exclude={"sql", "params"}))


class SourceQueryView(TenantAPIView):
    scope_map = {"POST": DATASETS_READ}  # a query reads; sessions on sources are read-only

    def post(self, request: Request, source_id: int) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        values = _valid(QueryIn(data=request.data))
        result = sources.run_query(source, values["table"], parse_spec(values["spec"]))
        return Response({**result.model_dump(), "source": source.pk, "table": values["table"]})


class SourceSqlView(TenantAPIView):
    """One checked, read-only SELECT with :name parameters bound from `params`."""

    scope_map = {"POST": DATASETS_READ}

    def post(self, request: Request, source_id: int) -> Response:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        values = _valid(SqlIn(data=request.data))
        result = sources.execute_sql_safe(source, values["sql"], values["params"])
        return Response({**result.model_dump(), "source": source.pk})
