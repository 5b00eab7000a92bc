from django.urls import path

from apps.tenants import views

urlpatterns = [
    path("tenant/switch/", views.switch_tenant, name="switch_tenant"),
    path("settings/members/", views.members, name="members"),
    path("settings/tokens/", views.api_tokens, name="api_tokens"),
]
