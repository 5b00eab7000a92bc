"""The Celery application: runs (and what else is queued) execute in workers started with
`celery -A baplatform worker` (deploy/run --workers N). Settings are the CELERY_* names in baplatform/settings.py.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baplatform.settings")

app = Celery("baplatform")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
