"""Questions are rate limited per user or token and per tenant, over REST and WebSocket alike (one count):
an ask over the limit is refused with rate_limited, in the asker's language, and nothing is run."""

from __future__ import annotations

import pytest

from apps.conversations.models import Run
from apps.tenants.context import context_for_token
from apps.tenants.models import ApiToken
from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
from apps.tenants.throttling import ask_wait_seconds
from tests.conversations.conftest import good_turns


@pytest.fixture
def ask_rates(settings):
    def use(per_asker: str, per_tenant: str) -> None:
        rates = {"token": "600/min", "ask": per_asker, "ask_tenant": per_tenant}
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    return use


def test_a_rest_ask_over_the_limit_is_429_in_the_askers_language(
    tenant_a, make_token, api_client, conversation, script, ask_rates
):
    ask_rates("1/min", "100/min")
    script(*good_turns())
    client = api_client(make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE]))
    url = f"/api/v1/conversations/{conversation.pk}/messages/"
    assert client.post(url, {"question": "各地区销售额？"}, format="json").status_code == 200
    refused = client.post(url, {"question": "再问一个"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert "提问过于频繁" in refused.json()["message"] and 0 < int(refused["Retry-After"]) <= 60
    assert client.get(url).status_code == 200, "reading is not a question"
    assert Run.objects.for_tenant(tenant_a).count() == 1


def test_rest_and_websocket_asks_share_one_count(tenant_a, make_token, api_client, conversation, script, ask_rates):
    ask_rates("1/min", "100/min")
    script(*good_turns())
    raw = make_token(tenant_a, [CONVERSATIONS_READ, CONVERSATIONS_WRITE], name="shared")
    client = api_client(raw)
    assert client.post(f"/api/v1/conversations/{conversation.pk}/messages/", {"question": "q"}).status_code == 200
    ctx = context_for_token(ApiToken.objects.for_tenant(tenant_a).get(name="shared"))
    assert ask_wait_seconds(ctx) is not None, "the WebSocket ask sees the REST ask's count"


def test_the_tenant_limit_counts_every_asker(tenant_a, make_token, conversation, ask_rates):
    ask_rates("100/min", "2/min")
    for name in ("one", "two", "three"):
        make_token(tenant_a, [CONVERSATIONS_WRITE], name=name)
    contexts = [
        context_for_token(t) for t in ApiToken.objects.for_tenant(tenant_a).filter(name__in=["one", "two", "three"])
    ]
    assert [ask_wait_seconds(ctx) is None for ctx in contexts] == [True, True, False]
