from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.audit.models import DetectionPattern, InterceptionLog, RequiredToolRule, WhitelistPattern


@admin.register(InterceptionLog)
class InterceptionLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tenant", "reason", "question", "model")
    list_filter = ("reason", "tenant", "created_at")
    search_fields = ("question", "draft", "trace_id")
    readonly_fields = [f.name for f in InterceptionLog._meta.fields]

    def get_queryset(self, request: HttpRequest) -> QuerySet[InterceptionLog]:
        return InterceptionLog.objects.unscoped_for_admin().select_related("tenant")


admin.site.register(DetectionPattern, list_display=("code", "active", "description"))
admin.site.register(WhitelistPattern, list_display=("regex", "active", "note"))
admin.site.register(RequiredToolRule, list_display=("source_type", "all_of", "any_of"))
