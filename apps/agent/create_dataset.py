"""create_dataset: the requirement documents' first tool — a file staged with POST uploads/ becomes a dataset.

`{"file_id", "sheet", "header_row"}` -> `{"dataset_id"}`, through the same lookup and service as the API's
`POST datasets/` (the tenant is the run's, so another tenant's file is "not found"). It is a write, so it is
not offered to the model in a conversation (a conversation reads the one dataset or source it was started
on); a caller that wants it passes `CREATE_DATASET` to `tools_for(binding, [...])`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import Http404
from pydantic import Field

from apps.agent.tools import DataBinding, Tool, ToolInputError, ToolOutcome, _Args
from apps.datasets import selectors, services


class CreateDatasetArgs(_Args):
    """Register an uploaded file (file_id from POST uploads/) as a new dataset; answers its dataset_id."""

    file_id: int = Field(ge=1, description="the id POST uploads/ answered for the staged file")
    sheet: str | None = Field(default=None, max_length=255, description="workbooks: the sheet; default the first")
    header_row: int = Field(default=1, ge=1, le=1000, description="the row holding the column names (1 = first)")
    name: str | None = Field(default=None, max_length=200, description="default: the file's name (and sheet)")


def create_dataset(binding: DataBinding, args: CreateDatasetArgs, previous: Sequence[ToolOutcome]) -> dict[str, Any]:
    try:
        upload = selectors.upload_get(tenant=binding.tenant, file_id=args.file_id)
    except Http404 as exc:
        raise ToolInputError(str(exc), code="not_found") from None
    version = services.dataset_create(
        tenant=binding.tenant, upload=upload, name=args.name, sheet=args.sheet, header_row=args.header_row
    )
    payload = {
        "dataset_id": version.dataset_id,
        "name": version.dataset.name,
        "version": version.number,
        "status": version.status,
        "row_count": version.row_count,
    }
    return {"payload": payload}


CREATE_DATASET = Tool("create_dataset", CreateDatasetArgs, create_dataset, source_types=())
