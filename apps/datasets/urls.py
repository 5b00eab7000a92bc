from django.urls import path

from apps.datasets import views

urlpatterns = [
    path("datasets/", views.dataset_list, name="datasets"),
    path("datasets/upload/", views.dataset_upload, name="dataset_upload"),
    path("datasets/<int:dataset_id>/", views.dataset_detail, name="dataset_detail"),
]
