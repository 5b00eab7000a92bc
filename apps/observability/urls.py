"""Operations routes, outside /api/v1/: scraped and probed by infrastructure, not by tenants."""

from django.urls import path

from apps.observability import views

urlpatterns = [
    path("metrics", views.metrics_view, name="metrics"),
    path("health/live", views.live, name="health-live"),
    path("health/ready", views.ready, name="health-ready"),
]
