"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by daphne)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baplatform.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)

from apps.observability.asgi import CountWebSockets  # noqa: E402
from apps.tenants.websocket import websocket_stack  # noqa: E402
from baplatform.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": CountWebSockets(websocket_stack(URLRouter(websocket_urlpatterns))),
    }
)
