"""Portal pages for datasets: list, upload page, detail with schema and sample; roles and tenancy."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.datasets import services
from apps.tenants.scopes import Role


def logged_in(user, lang: str = "zh-hans") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


@pytest.fixture
def sales(tenant_a):
    file = SimpleUploadedFile("sales.csv", "地区,金额\n华东,=1+1\n华北,20\n".encode())
    upload = services.upload_receive(tenant=tenant_a, chunks=file.chunks(), original_name="sales.csv", size=file.size)
    return services.dataset_create(tenant=tenant_a, upload=upload, name="销售").dataset


def test_list_and_detail_show_schema_and_sample_in_chinese(tenant_a, make_user, sales):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST))
    listing = client.get("/datasets/").content.decode()
    assert "销售" in listing and "上传文件" in listing
    page = client.get(f"/datasets/{sales.pk}/").content.decode()
    assert 'id="schema"' in page and "地区" in page and "华北" in page
    assert "=1+1" in page and "<script" not in page.split('id="sample"')[1].split("</table>")[0]


def test_english_pages(tenant_a, make_user, sales):
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST), "en")
    assert "Upload a file" in client.get("/datasets/").content.decode()
    upload = client.get("/datasets/upload/").content.decode()
    assert 'id="upload-form"' in upload and "Choose a file first." in upload


def test_viewer_reads_but_cannot_open_upload(tenant_a, make_user, sales):
    client = logged_in(make_user(tenant=tenant_a, role=Role.VIEWER), "en")
    listing = client.get("/datasets/").content.decode()
    assert "销售" in listing and "Upload a file" not in listing
    resp = client.get("/datasets/upload/")
    assert resp.status_code == 403 and "does not allow" in resp.content.decode()


def test_another_tenants_dataset_page_is_a_404(tenant_b, make_user, sales):
    client = logged_in(make_user(tenant=tenant_b, role=Role.OWNER))
    assert client.get(f"/datasets/{sales.pk}/").status_code == 404
    assert "销售" not in client.get("/datasets/").content.decode()


def test_pending_dataset_page_says_so(tenant_a, make_user, monkeypatch):
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 1)
    monkeypatch.setattr(services, "_start_background_ingest", lambda *args: None)
    file = SimpleUploadedFile("p.csv", b"a\n1\n")
    upload = services.upload_receive(tenant=tenant_a, chunks=file.chunks(), original_name="p.csv", size=file.size)
    dataset = services.dataset_create(tenant=tenant_a, upload=upload).dataset
    client = logged_in(make_user(tenant=tenant_a, role=Role.ANALYST), "en")
    assert "try again shortly" in client.get(f"/datasets/{dataset.pk}/").content.decode()
