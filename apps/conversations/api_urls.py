from django.urls import path, re_path

from apps.conversations import api

urlpatterns = [
    path("conversations/", api.ConversationListView.as_view(), name="api-conversations"),
    path("conversations/<int:conversation_id>/", api.ConversationDetailView.as_view(), name="api-conversation"),
    path("conversations/<int:conversation_id>/messages/", api.MessageListView.as_view(), name="api-messages"),
    path("runs/<str:trace_id>/", api.RunDetailView.as_view(), name="api-run"),
    re_path(
        r"^runs/(?P<trace_id>[0-9a-f]{8,64})/results/(?P<ref>q[1-9][0-9]*)\.(?P<fmt>csv|xlsx)$",
        api.RunResultView.as_view(),
        name="api-run-result",
    ),
]
