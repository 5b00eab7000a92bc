"""A tenant's time zone: the check of its IANA name, the label shown beside times ("UTC+08:00 Asia/Shanghai")
and its activation for a request, so pages, API responses and exports show the tenant's own local time."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _


def default_time_zone() -> str:
    return str(settings.TIME_ZONE)


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def invalid_zone_message(value: str) -> str:
    return _(
        "“%(zone)s” is not a time zone name. Use an IANA name such as Asia/Shanghai, Europe/London or America/New_York."
    ) % {"zone": value}


def validate_time_zone(value: str) -> None:
    if value not in zone_names():
        raise ValidationError(invalid_zone_message(value), code="invalid_time_zone")


def zone_label(name: str, at: dt.datetime | None = None) -> str:
    """The zone as people read it beside a time: its offset at `at` (now by default) and its name."""
    offset = (at or timezone.now()).astimezone(ZoneInfo(name)).utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d} {name}"


def current_zone_label() -> str:
    return zone_label(timezone.get_current_timezone_name())
