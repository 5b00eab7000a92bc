from django.urls import path

from apps.conversations import views

urlpatterns = [
    path("conversations/", views.conversation_list, name="conversations"),
    path("conversations/start/", views.conversation_start, name="conversation_start"),
    path("conversations/<int:conversation_id>/", views.conversation_chat, name="conversation_chat"),
]
