"""Nothing is left behind: refused files, deleted datasets' uploads, failed datasets' names; uploads can be
deleted (refused while a dataset uses them)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.datasets import services
from apps.datasets.models import Dataset, DatasetVersion, Upload, VersionStatus
from apps.datasets.storage import uploads_dir
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE

GOOD = "地区,金额\n华东,1\n华北,2\n"
BAD = "金额,金额\n1,2\n"


def csv_file(text: str, name: str = "data.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def stored(tenant) -> list[str]:
    return sorted(p.name for p in uploads_dir(tenant).iterdir())


def test_a_refused_file_sent_with_the_request_leaves_no_upload(writer, tenant_a):
    resp = writer.post("/api/v1/datasets/", {"file": csv_file(BAD)}, format="multipart")
    assert resp.status_code == 400 and resp.json()["code"] == "duplicate_header"
    assert not Upload.objects.for_tenant(tenant_a).exists() and stored(tenant_a) == []


def test_a_staged_upload_stays_when_one_dataset_from_it_is_refused_and_can_be_deleted(writer, tenant_a):
    staged = writer.post("/api/v1/uploads/", {"file": csv_file(GOOD)}, format="multipart").json()
    resp = writer.post("/api/v1/datasets/", {"file_id": staged["file_id"], "header_row": 3}, format="json")
    assert resp.status_code == 400
    assert Upload.objects.for_tenant(tenant_a).filter(pk=staged["file_id"]).exists(), "staged: the user's to delete"
    assert writer.delete(f"/api/v1/uploads/{staged['file_id']}/").status_code == 204
    assert not Upload.objects.for_tenant(tenant_a).exists() and stored(tenant_a) == []
    assert writer.delete(f"/api/v1/uploads/{staged['file_id']}/").status_code == 404


def test_deleting_a_dataset_deletes_its_upload_unless_another_dataset_uses_it(writer, tenant_a):
    first = writer.post("/api/v1/datasets/", {"file": csv_file(GOOD), "name": "一"}, format="multipart").json()
    second = writer.post("/api/v1/datasets/", {"file": csv_file(GOOD), "name": "二"}, format="multipart").json()
    assert Upload.objects.for_tenant(tenant_a).count() == 1, "the same content is stored once"
    assert writer.delete(f"/api/v1/datasets/{first['id']}/").status_code == 204
    assert Upload.objects.for_tenant(tenant_a).count() == 1 and len(stored(tenant_a)) == 1, "二 still uses it"
    assert writer.delete(f"/api/v1/datasets/{second['id']}/").status_code == 204
    assert not Upload.objects.for_tenant(tenant_a).exists() and stored(tenant_a) == []


def test_an_upload_a_dataset_uses_is_not_deleted(writer, tenant_a):
    dataset = writer.post("/api/v1/datasets/", {"file": csv_file(GOOD), "name": "销售"}, format="multipart").json()
    upload = Upload.objects.for_tenant(tenant_a).get()
    resp = writer.delete(f"/api/v1/uploads/{upload.pk}/")
    assert resp.status_code == 409 and resp.json()["code"] == "upload_in_use" and "销售" in resp.json()["message"]
    assert writer.get(f"/api/v1/datasets/{dataset['id']}/schema/").status_code == 200


def test_another_tenants_upload_is_a_404(writer, tenant_b, make_token, api_client):
    other = api_client(make_token(tenant_b, [DATASETS_READ, DATASETS_WRITE]))
    staged = other.post("/api/v1/uploads/", {"file": csv_file(GOOD)}, format="multipart").json()
    assert writer.delete(f"/api/v1/uploads/{staged['file_id']}/").status_code == 404
    assert Upload.objects.for_tenant(tenant_b).filter(pk=staged["file_id"]).exists()


@pytest.mark.django_db
def test_a_dataset_whose_every_version_failed_gives_its_name_to_a_new_one(tenant_a, monkeypatch):
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 1)
    monkeypatch.setattr(services, "_start_background_ingest", lambda *args: None)
    body = BAD.encode()
    bad = services.upload_receive(tenant=tenant_a, chunks=[body], original_name="s.csv", size=len(body))
    failed = services.dataset_create(tenant=tenant_a, upload=bad, name="销售")
    DatasetVersion.objects.for_tenant(tenant_a).filter(pk=failed.pk).update(status=VersionStatus.FAILED)
    good_body = GOOD.encode()
    good = services.upload_receive(tenant=tenant_a, chunks=[good_body], original_name="s.csv", size=len(good_body))
    version = services.dataset_create(tenant=tenant_a, upload=good, name="销售", wait=True)
    assert version.status == VersionStatus.READY
    assert list(Dataset.objects.for_tenant(tenant_a).values_list("name", flat=True)) == ["销售"]
    assert list(Upload.objects.for_tenant(tenant_a)) == [good], "the failed dataset's file went with it"
