from django.urls import path

from apps.datasets import api

urlpatterns = [
    path("uploads/", api.UploadView.as_view(), name="api-uploads"),
    path("uploads/<int:file_id>/", api.UploadDetailView.as_view(), name="api-upload-detail"),
    path("datasets/", api.DatasetListView.as_view(), name="api-datasets"),
    path("datasets/<int:dataset_id>/", api.DatasetDetailView.as_view(), name="api-dataset-detail"),
    path("datasets/<int:dataset_id>/versions/", api.DatasetVersionsView.as_view(), name="api-dataset-versions"),
    path(
        "datasets/<int:dataset_id>/versions/<int:number>/",
        api.DatasetVersionView.as_view(),
        name="api-dataset-version",
    ),
    path("datasets/<int:dataset_id>/schema/", api.DatasetSchemaView.as_view(), name="api-dataset-schema"),
    path("datasets/<int:dataset_id>/rows/", api.DatasetRowsView.as_view(), name="api-dataset-rows"),
    path("datasets/<int:dataset_id>/query/", api.DatasetQueryView.as_view(), name="api-dataset-query"),
    path("datasets/<int:dataset_id>/resolve/", api.DatasetResolveView.as_view(), name="api-dataset-resolve"),
    path("synonyms/", api.SynonymListView.as_view(), name="api-synonyms"),
    path("synonyms/<int:synonym_id>/", api.SynonymDetailView.as_view(), name="api-synonym-detail"),
]
