"""Fixtures for conversations: a dataset, a conversation about it, and a scripted model behind the runs."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.agent import providers
from apps.conversations import services
from apps.datasets import services as dataset_services
from apps.tenants.context import context_for_token
from apps.tenants.scopes import ALL_SCOPES
from apps.tenants.services import token_create
from tests.fakes import Gate, ScriptedChatModel, call, final, tools

SALES = "客户,地区,金额\n张三,华东,120.5\n李雷,华北,80\n韩梅梅,华东,40\n王芳,华南,60\n"
BY_REGION = {
    "group_by": ["地区"],
    "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}],
    "sort": [{"by": "销售额", "desc": True}],
}


def good_turns(text: str = "最高的是 {{q1.地区[0]}}，{{q1.销售额[0]}}。\n>> 各地区客户数？"):
    return [tools(call("get_schema"), text="先看字段"), tools(call("run_query", spec=BY_REGION)), final(text)]


@pytest.fixture(autouse=True)
def _data_dir(settings, tmp_path):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"


@pytest.fixture
def dataset(tenant_a):
    file = SimpleUploadedFile("sales.csv", SALES.encode())
    upload = dataset_services.upload_receive(
        tenant=tenant_a, chunks=file.chunks(), original_name="sales.csv", size=file.size
    )
    return dataset_services.dataset_create(tenant=tenant_a, upload=upload, name="销售").dataset


@pytest.fixture
def conversation(tenant_a, dataset):
    token, _raw = token_create(tenant=tenant_a, name="setup", scopes=list(ALL_SCOPES))
    return services.conversation_create(tenant=tenant_a, ctx=context_for_token(token), dataset=dataset)


@pytest.fixture
def script(monkeypatch):
    """Runs answer with the given turns (one scripted model shared by every run of the test)."""

    def use(*turns):
        model = ScriptedChatModel(turns=list(turns))
        monkeypatch.setattr(providers, "default_chat_model", lambda: (model, "scripted"))
        return model

    return use


@pytest.fixture
def gates():
    """gates(n): n closed Gates for scripted turns; all are opened when the test ends, whatever happened."""
    made: list[Gate] = []

    def make(n: int = 1) -> list[Gate]:
        new = [Gate() for _ in range(n)]
        made.extend(new)
        return new

    yield make
    for gate in made:
        gate.open()
