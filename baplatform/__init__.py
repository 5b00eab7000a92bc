"""The project package. The Celery application loads with it, so tasks bind to it in web processes and workers."""

from baplatform.celery import app as celery_app

__all__ = ("celery_app",)
