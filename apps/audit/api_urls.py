from django.urls import path

from apps.audit import api

urlpatterns = [
    path("audit/events/", api.AuditEventListView.as_view(), name="api-audit-events"),
    path("audit/changes/", api.AdminChangeListView.as_view(), name="api-audit-changes"),
    path("audit/interceptions/", api.InterceptionListView.as_view(), name="api-interceptions"),
    path("runs/<str:trace_id>/replay/", api.ReplayView.as_view(), name="api-run-replay"),
    path("billing/", api.BillingView.as_view(), name="api-billing"),
    path("billing/export/", api.BillingExportView.as_view(), name="api-billing-export"),
]
