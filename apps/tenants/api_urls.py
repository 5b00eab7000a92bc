from django.urls import path

from apps.tenants import api

urlpatterns = [
    path("me/", api.MeView.as_view(), name="api-me"),
    path("tokens/", api.TokenListView.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", api.TokenDetailView.as_view(), name="api-token-detail"),
    path("members/", api.MemberListView.as_view(), name="api-members"),
    path("members/<int:member_id>/", api.MemberDetailView.as_view(), name="api-member-detail"),
]
