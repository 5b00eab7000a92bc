from django.urls import path

from apps.datasets import views
from apps.datasets.sources import views as source_views

urlpatterns = [
    path("datasets/", views.dataset_list, name="datasets"),
    path("datasets/upload/", views.dataset_upload, name="dataset_upload"),
    path("datasets/<int:dataset_id>/", views.dataset_detail, name="dataset_detail"),
    path("sources/", source_views.source_list, name="sources"),
    path("sources/new/", source_views.source_create, name="source_create"),
    path("sources/<int:source_id>/", source_views.source_detail, name="source_detail"),
    path("sources/<int:source_id>/test/", source_views.source_test, name="source_test"),
    path("sources/<int:source_id>/edit/", source_views.source_edit, name="source_edit"),
    path("sources/<int:source_id>/tables/", source_views.source_tables, name="source_tables"),
    path("sources/<int:source_id>/delete/", source_views.source_delete, name="source_delete"),
]
