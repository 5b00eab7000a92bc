"""REST endpoints that read data, the same way for a file dataset and a SQL source: tables, schema, sample
rows, QuerySpec results, checked SQL and resolve. Each view finds the tenant's dataset or source, takes its
DataSource (apps/datasets/data_source.py) and asks it; only the URLs and the answers' labels differ.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.datasets import selectors
from apps.datasets.data_source import DataSource, data_source_for
from apps.datasets.errors import QueryInvalid
from apps.datasets.models import Dataset, DatasetVersion, SqlSource
from apps.datasets.query.resolve import mapped_columns, resolve_fields
from apps.datasets.query.results import ResultTable
from apps.datasets.sources import selectors as source_selectors
from apps.datasets.validation import parse_spec
from apps.tenants.api_base import TenantAPIView
from apps.tenants.scopes import DATASETS_READ

MAX_SAMPLE_ROWS = selectors.MAX_SAMPLE_ROWS


def same_dataset(dataset: Dataset, given: Any) -> None:
    """A documented body may name its dataset; the URL already does, so the two must agree."""
    if given in (None, "") or str(given).strip() == str(dataset.pk):
        return
    raise QueryInvalid(
        _("dataset_id %(given)s in the body is not this dataset (%(id)s); send %(id)s or leave it out")
        % {"given": str(given)[:40], "id": dataset.pk},
        code="dataset_mismatch",
    )


def sample_size(request: Request) -> int:
    """`?n=`: a whole number (its range is checked where the rows are read)."""
    try:
        return int(request.query_params.get("n", 10))
    except ValueError:
        raise QueryInvalid(
            _("n must be a whole number from 1 to %(max)s") % {"max": MAX_SAMPLE_ROWS},
            code="invalid_sample_size",
        ) from None


def sample_columns(request: Request) -> list[str] | None:
    """`?columns=a,b` or `?columns=a, b`: the names listed, spaces around them ignored; None for every column."""
    return [c.strip() for c in request.query_params.get("columns", "").split(",") if c.strip()] or None


def rows_out(result: ResultTable) -> dict[str, Any]:
    return result.model_dump(exclude={"sql", "params"})


class SampleRowsIn(serializers.Serializer):
    """sample_rows as documented: {"dataset_id", "n", "columns"} (dataset_id, if sent, must be the URL's)."""

    dataset_id = serializers.CharField(required=False, allow_null=True, max_length=40)
    n = serializers.IntegerField(required=False, default=10, min_value=1, max_value=MAX_SAMPLE_ROWS)
    columns = serializers.ListField(
        child=serializers.CharField(max_length=255), required=False, default=list, max_length=50
    )


class ResolveIn(serializers.Serializer):
    terms = serializers.ListField(child=serializers.CharField(max_length=100), min_length=1, max_length=20)
    dataset_id = serializers.CharField(required=False, allow_null=True, max_length=40, help_text="the URL's, if sent")


class QueryIn(serializers.Serializer):
    table = serializers.CharField(max_length=255)
    spec = serializers.DictField()


class SqlIn(serializers.Serializer):
    sql = serializers.CharField(max_length=20_000, trim_whitespace=False)
    params = serializers.DictField(required=False, default=dict)


def _valid(serializer: serializers.Serializer) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class _DataView(TenantAPIView):
    """A read of the tenant's data; another tenant's dataset or source is a 404 like a missing one."""

    scope_map = {"GET": DATASETS_READ, "POST": DATASETS_READ}  # reads never change the data

    def dataset_data(self, dataset_id: int, *, named: Any = None) -> tuple[Dataset, DatasetVersion, DataSource]:
        """The dataset, its ready version and the DataSource over that version; `named` is the dataset_id a
        documented body may carry, which must be the URL's."""
        dataset = selectors.dataset_get(tenant=self.tenant, key=dataset_id)
        same_dataset(dataset, named)
        version = selectors.ready_version(dataset=dataset)
        return dataset, version, data_source_for(tenant=self.tenant, dataset=dataset, version=version)

    def source_data(self, source_id: int) -> tuple[SqlSource, DataSource]:
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        return source, data_source_for(tenant=self.tenant, source=source)


class DatasetSchemaView(_DataView):
    """get_schema: per column its name, type, null_ratio, example_values, and kind, role, distinct count..."""

    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, dataset_id: int) -> Response:
        dataset, version, data = self.dataset_data(dataset_id)
        return Response({"dataset_id": dataset.pk, "version": version.number, **data.schema().model_dump(mode="json")})


class DatasetRowsView(_DataView):
    def post(self, request: Request, dataset_id: int) -> Response:
        """The documented body: {"n": 5, "columns": ["账号", "月份"]}."""
        values = _valid(SampleRowsIn(data=request.data))
        _dataset, _version, data = self.dataset_data(dataset_id, named=values.get("dataset_id"))
        return Response(rows_out(data.sample_rows(n=values["n"], columns=values["columns"] or None)))

    def get(self, request: Request, dataset_id: int) -> Response:
        _dataset, _version, data = self.dataset_data(dataset_id)
        return Response(rows_out(data.sample_rows(n=sample_size(request), columns=sample_columns(request))))


class DatasetQueryView(_DataView):
    scope_map = {"POST": DATASETS_READ}

    def post(self, request: Request, dataset_id: int) -> Response:
        _dataset, version, data = self.dataset_data(dataset_id)
        result = data.run_query(parse_spec(request.data))
        return Response({**result.model_dump(), "dataset_version": version.number})


class DatasetResolveView(_DataView):
    """Map user words to columns or column values (resolve_fields)."""

    scope_map = {"POST": DATASETS_READ}

    def post(self, request: Request, dataset_id: int) -> Response:
        values = _valid(ResolveIn(data=request.data))
        _dataset, _version, data = self.dataset_data(dataset_id, named=values.get("dataset_id"))
        resolutions = resolve_fields(values["terms"], data.schema(), synonyms=data.synonyms())
        return Response(
            {"mapped_columns": mapped_columns(resolutions), "resolutions": [r.model_dump() for r in resolutions]}
        )


class SourceTablesView(_DataView):
    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, source_id: int) -> Response:
        _source, data = self.source_data(source_id)
        return Response({"tables": data.list_tables()})


class SourceTableView(_DataView):
    """One table's schema: column names, types, kinds, null ratios, distinct counts, examples, roles."""

    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, source_id: int, table: str) -> Response:
        _source, data = self.source_data(source_id)
        return Response({"table": table, **data.schema(table).model_dump(mode="json")})


class SourceRowsView(_DataView):
    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, source_id: int, table: str) -> Response:
        _source, data = self.source_data(source_id)
        return Response(rows_out(data.sample_rows(table, n=sample_size(request), columns=sample_columns(request))))


class SourceQueryView(_DataView):
    scope_map = {"POST": DATASETS_READ}  # sessions on sources are read-only

    def post(self, request: Request, source_id: int) -> Response:
        source, data = self.source_data(source_id)
        values = _valid(QueryIn(data=request.data))
        result = data.run_query(parse_spec(values["spec"]), values["table"])
        return Response({**result.model_dump(), "source": source.pk, "table": values["table"]})


class SourceSqlView(_DataView):
    """One checked, read-only SELECT with :name parameters bound from `params`."""

    scope_map = {"POST": DATASETS_READ}

    def post(self, request: Request, source_id: int) -> Response:
        source, data = self.source_data(source_id)
        values = _valid(SqlIn(data=request.data))
        result = data.execute_sql(values["sql"], values["params"])
        return Response({**result.model_dump(), "source": source.pk})
