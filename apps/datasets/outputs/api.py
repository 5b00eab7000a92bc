"""REST endpoints that turn a QuerySpec result into a chart (ECharts option or PNG) or a CSV/XLSX file."""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import HttpResponse
from django.utils.translation import gettext as _
from pydantic import ValidationError as PydanticValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.datasets import selectors
from apps.datasets.data_source import data_source_for
from apps.datasets.errors import QueryInvalid
from apps.datasets.models import Dataset, DatasetVersion
from apps.datasets.outputs.export import CONTENT_TYPES, content_disposition, download_filename, export_csv, export_xlsx
from apps.datasets.outputs.plot import PlotSpec, build_echarts, render_png
from apps.datasets.query.results import ResultTable
from apps.datasets.sources import selectors as source_selectors
from apps.datasets.validation import parse_spec, pydantic_error
from apps.tenants.api_base import TenantAPIView
from apps.tenants.scopes import DATASETS_READ


class FormatIsAFileType(DefaultContentNegotiation):
    """Here `?format=` names the file to produce (png, csv, xlsx), not a DRF renderer: bodies are JSON."""

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = renderers[0]
        return renderer, renderer.media_type


def parse_plot(data: Any) -> PlotSpec:
    try:
        return PlotSpec.model_validate(data)
    except PydanticValidationError as exc:
        raise pydantic_error(exc, "PlotSpec") from exc


def result_out(result: ResultTable, version: DatasetVersion) -> dict[str, Any]:
    return {**result.model_dump(), "dataset_version": version.number}


def file_response(content: bytes, *, content_type: str, filename: str, inline: bool = False) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition(filename, inline=inline)
    response["Cache-Control"] = "private, no-store"  # tenant data: never kept by shared caches
    return response


class _OutputView(TenantAPIView):
    renderer_classes: ClassVar[list[Any]] = [JSONRenderer]
    content_negotiation_class = FormatIsAFileType
    scope_map = {"POST": DATASETS_READ}  # charts and downloads read; they never change the dataset
    formats: ClassVar[tuple[str, ...]] = ()

    def output_format(self, request: Request) -> str:
        chosen = request.query_params.get("format", self.formats[0]).strip().lower()
        if chosen not in self.formats:
            raise QueryInvalid(
                _("format must be one of %(allowed)s; got '%(chosen)s'")
                % {"allowed": ", ".join(self.formats), "chosen": chosen},
                code="invalid_format",
            )
        return chosen

    def run(self, dataset_id: int, query: Any) -> tuple[Dataset, DatasetVersion, ResultTable]:
        dataset = selectors.dataset_get(tenant=self.tenant, key=dataset_id)
        version = selectors.ready_version(dataset=dataset)
        data = data_source_for(tenant=self.tenant, dataset=dataset, version=version)
        return dataset, version, data.run_query(parse_spec(query))


class DatasetPlotView(_OutputView):
    """Body `{"query": QuerySpec, "plot": PlotSpec}`: the option with the result it was drawn from."""

    formats = ("json", "png")

    def post(self, request: Request, dataset_id: int) -> HttpResponse:
        chosen = self.output_format(request)
        body = request.data if isinstance(request.data, dict) else {}
        missing = [key for key in ("query", "plot") if key not in body]
        if missing:
            raise QueryInvalid(
                _('send {"query": <QuerySpec>, "plot": <PlotSpec>}; missing: %(missing)s')
                % {"missing": ", ".join(missing)},
                code="invalid_spec",
            )
        plot = parse_plot(body["plot"])
        dataset, version, result = self.run(dataset_id, body["query"])
        if chosen == "png":
            png = render_png(plot, result)
            filename = download_filename(dataset.name, "png")
            return file_response(png, content_type="image/png", filename=filename, inline=True)
        return Response({"option": build_echarts(plot, result), "result": result_out(result, version)})


def export_response(result: ResultTable, *, chosen: str, name: str) -> HttpResponse:
    content = export_csv(result) if chosen == "csv" else export_xlsx(result, title=name)
    response = file_response(content, content_type=CONTENT_TYPES[chosen], filename=download_filename(name, chosen))
    response["X-Result-Rows"] = str(result.row_count)
    response["X-Result-Truncated"] = "true" if result.truncated else "false"
    return response


class DatasetExportView(_OutputView):
    """Body: a QuerySpec. The result as a CSV (default) or XLSX download named after the dataset."""

    formats = ("csv", "xlsx")

    def post(self, request: Request, dataset_id: int) -> HttpResponse:
        chosen = self.output_format(request)
        dataset, version, result = self.run(dataset_id, request.data)
        response = export_response(result, chosen=chosen, name=dataset.name)
        response["X-Dataset-Version"] = str(version.number)
        return response


class SourceExportView(_OutputView):
    """Body `{"table": ..., "spec": QuerySpec}` or `{"sql": ..., "params": {...}}`: a SQL source's result as a file."""

    formats = ("csv", "xlsx")

    def post(self, request: Request, source_id: int) -> HttpResponse:
        chosen = self.output_format(request)
        source = source_selectors.source_get(tenant=self.tenant, source_id=source_id)
        data = data_source_for(tenant=self.tenant, source=source)
        body = request.data if isinstance(request.data, dict) else {}
        if isinstance(body.get("sql"), str):
            params = body.get("params") or {}
            if not isinstance(params, dict):
                raise QueryInvalid(_("params must be an object of :name values"), code="invalid_params")
            result = data.execute_sql(body["sql"], params)
            name = source.name
        elif isinstance(body.get("table"), str) and isinstance(body.get("spec"), dict):
            result = data.run_query(parse_spec(body["spec"]), body["table"])
            name = f"{source.name} {body['table']}"
        else:
            raise QueryInvalid(
                _('send {"table": <name>, "spec": <QuerySpec>} or {"sql": <SELECT>, "params": {...}}'),
                code="invalid_spec",
            )
        return export_response(result, chosen=chosen, name=name)
