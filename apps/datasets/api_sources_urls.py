from django.urls import path

from apps.datasets import api_sources as api

urlpatterns = [
    path("sources/", api.SourceListView.as_view(), name="api-sources"),
    path("sources/<int:source_id>/", api.SourceDetailView.as_view(), name="api-source-detail"),
    path("sources/<int:source_id>/test/", api.SourceTestView.as_view(), name="api-source-test"),
    path("sources/<int:source_id>/tables/", api.SourceTablesView.as_view(), name="api-source-tables"),
    path("sources/<int:source_id>/tables/<str:table>/", api.SourceTableView.as_view(), name="api-source-table"),
    path(
        "sources/<int:source_id>/tables/<str:table>/rows/", api.SourceRowsView.as_view(), name="api-source-table-rows"
    ),
    path("sources/<int:source_id>/query/", api.SourceQueryView.as_view(), name="api-source-query"),
    path("sources/<int:source_id>/sql/", api.SourceSqlView.as_view(), name="api-source-sql"),
]
