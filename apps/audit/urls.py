from django.urls import path

from apps.audit import views

urlpatterns = [
    path("settings/billing/", views.billing, name="billing"),
    path("settings/audit/", views.audit_runs, name="audit_runs"),
    path("settings/audit/changes/", views.admin_changes, name="audit_changes"),
    path("settings/audit/<str:trace_id>/", views.audit_run, name="audit_run"),
]
