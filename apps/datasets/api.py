"""REST endpoints for datasets: upload, list, detail with schema, versions, synonyms. Reading a dataset's data
(schema, rows, query, resolve) is in apps/datasets/query/api.py, the same views as for SQL sources.

Bodies and answers carry the requirement documents' names (file_id, dataset_id, example_values,
mapped_columns) beside the richer ones.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.changes import VIA_API, Actor
from apps.datasets import selectors, services
from apps.datasets.errors import QueryInvalid
from apps.datasets.ingest.profile import TableProfile
from apps.datasets.models import Dataset, DatasetVersion, FieldSynonym, Upload
from apps.tenants.api_base import TenantAPIView
from apps.tenants.idempotency import idempotent
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE
from apps.tenants.scoping import get_for_tenant_or_404

SOURCE_TYPES = {"csv": "csv", "xlsx": "excel", "xls": "excel"}


def upload_out(upload: Upload) -> dict[str, Any]:
    return {
        "id": upload.pk,
        "file_id": upload.pk,  # the documented name: create a dataset with {"file_id", "sheet", "header_row"}
        "name": upload.original_name,
        "format": upload.file_format,
        "size_bytes": upload.size_bytes,
        "content_hash": upload.content_hash,
        "sheets": upload.sheets,
    }


def version_out(version: DatasetVersion) -> dict[str, Any]:
    return {
        "number": version.number,
        "status": version.status,
        "progress": version.progress,
        "stage": version.stage,
        "error": {"code": version.error_code, "message": version.error_message} if version.error_code else None,
        "row_count": version.row_count,
        "sheet": version.sheet,
        "header_row": version.header_row,
        "file": version.upload.original_name,
        "content_hash": version.upload.content_hash,
        "created_at": version.created_at,
        "ready_at": version.ready_at,
    }


def dataset_out(dataset: Dataset, *, detail: bool = False) -> dict[str, Any]:
    current = dataset.current_version
    body: dict[str, Any] = {
        "id": dataset.pk,
        "dataset_id": dataset.pk,
        "name": dataset.name,
        "description": dataset.description,
        "row_count": current.row_count if current else None,
        "version": current.number if current else None,
        "created_at": dataset.created_at,
        "updated_at": dataset.updated_at,
    }
    if detail:
        versions = DatasetVersion.objects.for_tenant(dataset.tenant).filter(dataset=dataset).select_related("upload")
        body["versions"] = [version_out(v) for v in versions]
        body["schema"] = schema_out(current)["columns"] if current and current.profile else None
        body["source_type"] = SOURCE_TYPES.get(current.upload.file_format) if current else None
    return body


def schema_out(version: DatasetVersion) -> dict[str, Any]:
    """get_schema's answer: `columns` with name, type, null_ratio and example_values, and the richer profile."""
    return TableProfile.model_validate(version.profile).model_dump(mode="json")


class DatasetUploadIn(serializers.Serializer):
    file = serializers.FileField(required=False, allow_empty_file=True)  # the ingest explains empty files
    upload = serializers.IntegerField(required=False, help_text="id of a staged upload instead of a file")
    file_id = serializers.IntegerField(
        required=False, help_text="the same as upload (the documented name): a file staged with POST uploads/"
    )
    name = serializers.CharField(required=False, max_length=200)
    sheet = serializers.CharField(required=False, max_length=255)
    header_row = serializers.IntegerField(required=False, default=1, min_value=1, max_value=1000)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if sum(key in attrs for key in ("file", "upload", "file_id")) != 1:
            raise serializers.ValidationError(
                _("send either a file (multipart 'file') or the id of an upload ('file_id' or 'upload')")
            )
        if "file_id" in attrs:
            attrs["upload"] = attrs.pop("file_id")
        return attrs


class _DatasetsBase(TenantAPIView):
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    def receive(self, request: Request, data: dict[str, Any]) -> Upload:
        if "upload" in data:
            return selectors.upload_get(tenant=self.tenant, file_id=data["upload"])
        file = data["file"]
        return services.upload_receive(
            tenant=self.tenant,
            chunks=file.chunks(),
            original_name=file.name or "upload",
            size=file.size,
            created_by=services.user_or_none(self.tenant_ctx.user),
        )

    def created(self, version: DatasetVersion) -> Response:
        dataset = Dataset.objects.for_tenant(self.tenant).select_related("current_version").get(pk=version.dataset_id)
        body = dataset_out(dataset, detail=True)
        body["ingest"] = version_out(version)
        ready = version.status == "ready"
        return Response(body, status=status.HTTP_201_CREATED if ready else status.HTTP_202_ACCEPTED)


class UploadView(_DatasetsBase):
    """Stage a file once, see its sheets, then create one dataset per chosen sheet."""

    scope_map = {"POST": DATASETS_WRITE}

    @idempotent
    def post(self, request: Request) -> Response:
        file = request.FILES.get("file")
        if file is None:
            raise QueryInvalid(_("send the file as multipart field 'file'"), code="file_required")
        return Response(upload_out(self.receive(request, {"file": file})), status=status.HTTP_201_CREATED)


class UploadDetailView(TenantAPIView):
    """Delete a staged upload and its file; refused (409) while a dataset's version was made from it."""

    scope_map = {"DELETE": DATASETS_WRITE}

    def delete(self, request: Request, file_id: int) -> Response:
        services.upload_delete(tenant=self.tenant, upload=selectors.upload_get(tenant=self.tenant, file_id=file_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DatasetListView(_DatasetsBase):
    scope_map = {"GET": DATASETS_READ, "POST": DATASETS_WRITE}

    def get(self, request: Request) -> Response:
        return self.paginate(selectors.dataset_list(tenant=self.tenant), dataset_out)

    @idempotent
    def post(self, request: Request) -> Response:
        data = DatasetUploadIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        upload = self.receive(request, values)
        version = services.dataset_create(
            tenant=self.tenant,
            upload=upload,
            name=values.get("name"),
            sheet=values.get("sheet"),
            header_row=values["header_row"],
            created_by=services.user_or_none(self.tenant_ctx.user),
            discard_upload="file" in values,  # a file sent with this request goes if it is refused
        )
        return self.created(version)


class DatasetDetailView(TenantAPIView):
    scope_map = {"GET": DATASETS_READ, "DELETE": DATASETS_WRITE}

    def get(self, request: Request, dataset_id: int) -> Response:
        return Response(dataset_out(selectors.dataset_get(tenant=self.tenant, key=dataset_id), detail=True))

    def delete(self, request: Request, dataset_id: int) -> Response:
        services.dataset_delete(tenant=self.tenant, dataset=selectors.dataset_get(tenant=self.tenant, key=dataset_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DatasetVersionsView(_DatasetsBase):
    scope_map = {"POST": DATASETS_WRITE}

    @idempotent
    def post(self, request: Request, dataset_id: int) -> Response:
        dataset = selectors.dataset_get(tenant=self.tenant, key=dataset_id)
        data = DatasetUploadIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        version = services.dataset_create(
            tenant=self.tenant,
            upload=self.receive(request, values),
            sheet=values.get("sheet"),
            header_row=values["header_row"],
            created_by=services.user_or_none(self.tenant_ctx.user),
            dataset=dataset,
            discard_upload="file" in values,
        )
        return self.created(version)


class DatasetVersionView(TenantAPIView):
    scope_map = {"GET": DATASETS_READ}

    def get(self, request: Request, dataset_id: int, number: int) -> Response:
        dataset = selectors.dataset_get(tenant=self.tenant, key=dataset_id)
        return Response(version_out(selectors.version_get(tenant=self.tenant, dataset=dataset, number=number)))


class SynonymIn(serializers.Serializer):
    term = serializers.CharField(max_length=100)
    column = serializers.CharField(max_length=255)
    dataset = serializers.IntegerField(required=False, allow_null=True)


def synonym_out(synonym: FieldSynonym) -> dict[str, Any]:
    return {"id": synonym.pk, "term": synonym.term, "column": synonym.column, "dataset": synonym.dataset_id}


class SynonymListView(TenantAPIView):
    scope_map = {"GET": DATASETS_READ, "POST": DATASETS_WRITE}

    def get(self, request: Request) -> Response:
        return self.paginate(FieldSynonym.objects.for_tenant(self.tenant), synonym_out)

    def post(self, request: Request) -> Response:
        data = SynonymIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        dataset = None
        if values.get("dataset"):
            dataset = selectors.dataset_get(tenant=self.tenant, key=values["dataset"])
        synonym = services.synonym_create(
            tenant=self.tenant,
            term=values["term"],
            column=values["column"],
            dataset=dataset,
            actor=Actor.of(self.tenant_ctx, via=VIA_API),
        )
        return Response(synonym_out(synonym), status=status.HTTP_201_CREATED)


class SynonymDetailView(TenantAPIView):
    scope_map = {"DELETE": DATASETS_WRITE}

    def delete(self, request: Request, synonym_id: int) -> Response:
        synonym = get_for_tenant_or_404(FieldSynonym, self.tenant, pk=synonym_id)
        services.synonym_delete(synonym=synonym, actor=Actor.of(self.tenant_ctx, via=VIA_API))
        return Response(status=status.HTTP_204_NO_CONTENT)
