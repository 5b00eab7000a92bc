from django.urls import path

from apps.datasets import api_outputs

urlpatterns = [
    path("datasets/<int:dataset_id>/plot/", api_outputs.DatasetPlotView.as_view(), name="api-dataset-plot"),
    path("datasets/<int:dataset_id>/export/", api_outputs.DatasetExportView.as_view(), name="api-dataset-export"),
    path("sources/<int:source_id>/export/", api_outputs.SourceExportView.as_view(), name="api-source-export"),
]
