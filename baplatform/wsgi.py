"""WSGI entry point (management and plain HTTP hosting); the product is served through asgi.py."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baplatform.settings")
application = get_wsgi_application()
