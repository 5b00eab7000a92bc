from django.urls import path

from apps.conversations import home, views

urlpatterns = [
    path("", home.home, name="home"),
    path("conversations/", views.conversation_list, name="conversations"),
    path("conversations/start/", views.conversation_start, name="conversation_start"),
    path("conversations/<int:conversation_id>/", views.conversation_chat, name="conversation_chat"),
    path("conversations/<int:conversation_id>/rename/", views.conversation_rename, name="conversation_rename"),
    path("conversations/<int:conversation_id>/delete/", views.conversation_delete, name="conversation_delete"),
]
