"""Portal pages for datasets: list, upload (with progress), and a dataset's schema and sample."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from apps.datasets import selectors
from apps.datasets.errors import QueryInvalid, SourceFailure
from apps.datasets.models import DatasetVersion
from apps.tenants.context import TenantContext
from apps.tenants.portal import portal_view
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE


@portal_view(scope=DATASETS_READ)
def dataset_list(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    datasets = selectors.dataset_list(tenant=ctx.tenant)
    latest = {v.dataset_id: v for v in DatasetVersion.objects.for_tenant(ctx.tenant).order_by("dataset_id", "number")}
    rows = [(d, latest.get(d.pk)) for d in datasets]
    return render(request, "datasets/list.html", {"rows": rows, "can_write": DATASETS_WRITE in ctx.scopes})


def _upload_strings() -> dict[str, str]:
    """Texts the upload script shows, in the user's language."""
    return {
        "uploading": _("Uploading…"),
        "ingesting": _("Ingesting…"),
        "ready": _("Ready"),
        "failed": _("Failed"),
        "choose_sheets": _("Choose the sheets to import (each becomes its own dataset):"),
        "import": _("Import"),
        "open": _("Open"),
        "network_error": _("The upload was interrupted; check your connection and try again."),
        "pick_file": _("Choose a file first."),
        "pick_sheet": _("Choose at least one sheet."),
    }


@portal_view(scope=DATASETS_WRITE)
def dataset_upload(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    return render(request, "datasets/upload.html", {"strings": _upload_strings()})


@portal_view(scope=DATASETS_READ)
def dataset_detail(request: HttpRequest, ctx: TenantContext, dataset_id: int) -> HttpResponse:
    dataset = selectors.dataset_get(tenant=ctx.tenant, key=dataset_id)
    versions = DatasetVersion.objects.for_tenant(ctx.tenant).filter(dataset=dataset).select_related("upload")
    context: dict = {"dataset": dataset, "versions": versions, "schema": None, "sample": None, "error": None}
    try:
        version = selectors.ready_version(dataset=dataset)
        context["schema"] = selectors.schema_of(version).columns
        context["sample"] = selectors.sample_rows(version=version, n=20)
    except (QueryInvalid, SourceFailure) as exc:
        context["error"] = exc.message
    return render(request, "datasets/detail.html", context)
