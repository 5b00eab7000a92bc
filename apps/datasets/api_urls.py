"""Every REST route of the data engine, in one table: datasets and uploads, SQL sources, reading either
kind of data, and charts and downloads."""

from django.urls import path

from apps.datasets import api
from apps.datasets.outputs import api as outputs
from apps.datasets.query import api as reads
from apps.datasets.sources import api as sources

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
    path("datasets/<int:dataset_id>/schema/", reads.DatasetSchemaView.as_view(), name="api-dataset-schema"),
    path("datasets/<int:dataset_id>/rows/", reads.DatasetRowsView.as_view(), name="api-dataset-rows"),
    path("datasets/<int:dataset_id>/query/", reads.DatasetQueryView.as_view(), name="api-dataset-query"),
    path("datasets/<int:dataset_id>/resolve/", reads.DatasetResolveView.as_view(), name="api-dataset-resolve"),
    path("datasets/<int:dataset_id>/plot/", outputs.DatasetPlotView.as_view(), name="api-dataset-plot"),
    path("datasets/<int:dataset_id>/export/", outputs.DatasetExportView.as_view(), name="api-dataset-export"),
    path("synonyms/", api.SynonymListView.as_view(), name="api-synonyms"),
    path("synonyms/<int:synonym_id>/", api.SynonymDetailView.as_view(), name="api-synonym-detail"),
    path("sources/", sources.SourceListView.as_view(), name="api-sources"),
    path("sources/<int:source_id>/", sources.SourceDetailView.as_view(), name="api-source-detail"),
    path("sources/<int:source_id>/test/", sources.SourceTestView.as_view(), name="api-source-test"),
    path("sources/<int:source_id>/tables/", reads.SourceTablesView.as_view(), name="api-source-tables"),
    path("sources/<int:source_id>/tables/<str:table>/", reads.SourceTableView.as_view(), name="api-source-table"),
    path(
        "sources/<int:source_id>/tables/<str:table>/rows/", reads.SourceRowsView.as_view(), name="api-source-table-rows"
    ),
    path("sources/<int:source_id>/query/", reads.SourceQueryView.as_view(), name="api-source-query"),
    path("sources/<int:source_id>/sql/", reads.SourceSqlView.as_view(), name="api-source-sql"),
    path("sources/<int:source_id>/export/", outputs.SourceExportView.as_view(), name="api-source-export"),
]
