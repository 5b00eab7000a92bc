"""WebSocket authentication: Bearer tokens for integrations, Origin checks for browsers."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator

from apps.tenants import services
from apps.tenants.scopes import DATASETS_READ
from apps.tenants.websocket import websocket_stack


class WhoAmI(AsyncJsonWebsocketConsumer):
    """Reports what the middleware resolved, then closes."""

    async def connect(self):
        await self.accept()
        ctx = self.scope.get("tenant_ctx")
        await self.send_json(
            {
                "tenant": ctx.tenant.slug if ctx else None,
                "scopes": sorted(ctx.scopes) if ctx else [],
                "rejection": self.scope.get("auth_rejection"),
            }
        )


APP = websocket_stack(WhoAmI.as_asgi())


async def _connect(headers):
    communicator = WebsocketCommunicator(APP, "/ws/test/", headers=headers)
    connected, _ = await communicator.connect()
    message = await communicator.receive_json_from() if connected else None
    await communicator.disconnect()
    return connected, message


@pytest.mark.django_db(transaction=True)
async def test_bearer_token_resolves_tenant_without_origin(make_tenant):
    tenant = await database_sync_to_async(make_tenant)("wsco")
    _token, raw = await database_sync_to_async(services.token_create)(tenant=tenant, name="ws", scopes=[DATASETS_READ])
    connected, message = await _connect([(b"authorization", f"Bearer {raw}".encode())])
    assert connected
    assert message == {"tenant": "wsco", "scopes": [DATASETS_READ], "rejection": None}


@pytest.mark.django_db(transaction=True)
async def test_revoked_token_is_reported_as_rejected(make_tenant):
    tenant = await database_sync_to_async(make_tenant)("wsrev")
    token, raw = await database_sync_to_async(services.token_create)(tenant=tenant, name="ws", scopes=[DATASETS_READ])
    await database_sync_to_async(services.token_revoke)(tenant=tenant, token_id=token.pk)
    connected, message = await _connect([(b"authorization", f"Bearer {raw}".encode())])
    assert message == {"tenant": None, "scopes": [], "rejection": "token_revoked"}


@pytest.mark.django_db(transaction=True)
async def test_browser_connection_needs_an_allowed_origin():
    connected, _ = await _connect([(b"origin", b"https://evil.example")])
    assert not connected
    connected, _ = await _connect([])
    assert not connected, "no Origin and no token: refused"
    connected, message = await _connect([(b"origin", b"http://localhost")])
    assert connected and message["tenant"] is None
