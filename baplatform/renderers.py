"""JSON for the API with every date-time in the current time zone with its offset, as the portal shows it and the
exports write it: 2026-11-24T17:35:07+08:00, never a UTC "Z" beside a local portal time. The current zone is the
caller's tenant's (TenantAPIView activates it after authentication), else settings.TIME_ZONE."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder


class LocalTimeEncoder(JSONEncoder):
    def default(self, obj: Any) -> Any:
        if isinstance(obj, dt.datetime) and timezone.is_aware(obj):
            return timezone.localtime(obj).isoformat()
        return super().default(obj)


class LocalTimeJSONRenderer(JSONRenderer):
    encoder_class = LocalTimeEncoder
