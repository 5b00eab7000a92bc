"""Staff review of interceptions and editing of the verify rules (patterns, whitelist, required tools).

Rules are read at the start of every run, so a saved change applies to the next run. The audit trail
and usage ledger admins live in admin_runs.py.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import apps.audit.admin_runs  # noqa: F401 - registers the audit trail and usage ledger admins
from apps.audit import services
from apps.audit.admin_review import review_panel
from apps.audit.changes import Actor
from apps.audit.models import DetectionPattern, InterceptionLog, RequiredToolRule, WhitelistPattern
from apps.audit.rule_services import rule_delete, rule_save
from apps.audit.rule_vocabulary import default_pattern_codes, known_tool_names

NEXT_RUN = gettext_lazy("Saved changes apply to the next run; runs already under way keep the rules they started with.")


class MatchedPatternFilter(admin.SimpleListFilter):
    """Interceptions whose draft matched a given detection pattern (codes kept comma-separated)."""

    title = gettext_lazy("matched pattern")
    parameter_name = "pattern"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        stored = list(DetectionPattern.objects.order_by("code").values_list("code", flat=True))
        codes = stored or sorted(default_pattern_codes())  # none stored: the built-in defaults apply
        return [(code, code) for code in codes]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        code = self.value()
        if not code:
            return queryset
        return queryset.filter(
            Q(pattern_codes=code)
            | Q(pattern_codes__startswith=f"{code},")
            | Q(pattern_codes__endswith=f",{code}")
            | Q(pattern_codes__contains=f",{code},")
        )


class ReviewedFilter(admin.SimpleListFilter):
    title = gettext_lazy("reviewed")
    parameter_name = "reviewed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Reviewed")), ("no", _("Not reviewed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(reviewed_at__isnull=self.value() == "no")
        return queryset


@admin.register(InterceptionLog)
class InterceptionLogAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "tenant",
        "reason",
        "pattern_codes",
        "short_question",
        "reviewed_at",
        "false_positive",
    )
    list_filter = ("tenant", "reason", MatchedPatternFilter, ReviewedFilter, "false_positive", "created_at")
    date_hierarchy = "created_at"
    search_fields = ("question", "draft", "trace_id")
    actions = ("whitelist_false_positive", "mark_reviewed")
    fieldsets = (
        (None, {"fields": ("review",), "classes": ("wide",)}),
        (
            gettext_lazy("Run"),
            {
                "fields": (
                    "tenant",
                    "trace_id",
                    "created_at",
                    "reason",
                    "pattern_codes",
                    "source_type",
                    "source_name",
                    "model",
                    "prompt_version",
                    "actor",
                )
            },
        ),
        (gettext_lazy("Review"), {"fields": ("reviewed_at", "false_positive")}),
    )
    readonly_fields = (
        "review",
        "tenant",
        "trace_id",
        "created_at",
        "reason",
        "pattern_codes",
        "source_type",
        "source_name",
        "model",
        "prompt_version",
        "actor",
        "reviewed_at",
        "false_positive",
    )

    class Media:
        css = {"all": ["audit/review.css"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[InterceptionLog]:
        return InterceptionLog.objects.unscoped_for_admin().select_related("tenant")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # interceptions are written by the verify node only

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # part of the audit trail

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The change page is a read-only review; the changelist's actions record the verdict.
        return obj is None and super().has_change_permission(request)

    @admin.display(description=gettext_lazy("question"))
    def short_question(self, obj: InterceptionLog) -> str:
        return obj.question if len(obj.question) <= 60 else obj.question[:60] + "…"

    @admin.display(description=gettext_lazy("Draft and tool results"))
    def review(self, obj: InterceptionLog) -> SafeString:
        return review_panel(obj)

    @admin.action(description=gettext_lazy("False positive → add whitelist pattern"), permissions=["change"])
    def whitelist_false_positive(self, request: HttpRequest, queryset: QuerySet[InterceptionLog]) -> None:
        for log in queryset.select_related("tenant").order_by("pk"):
            created = services.interception_mark_false_positive(log=log, actor=Actor.staff(request.user))
            patterns = ", ".join(w.regex for w in created)
            self.log_change(request, log, f"marked false positive; whitelisted: {patterns or 'nothing new'}")
            values = {"id": log.pk, "patterns": patterns, "reason": log.reason}
            if created:
                message = _("Interception #%(id)s marked false positive; whitelist pattern(s) added: %(patterns)s.")
                self.message_user(request, message % values, messages.SUCCESS)
            elif log.matched_patterns:
                message = _("Interception #%(id)s marked false positive; its texts were already whitelisted.")
                self.message_user(request, message % values, messages.SUCCESS)
            else:
                message = _(
                    "Interception #%(id)s marked false positive, but it matched no pattern (reason: %(reason)s), "
                    "so nothing could be whitelisted."
                )
                self.message_user(request, message % values, messages.WARNING)

    @admin.action(description=gettext_lazy("Mark reviewed"), permissions=["change"])
    def mark_reviewed(self, request: HttpRequest, queryset: QuerySet[InterceptionLog]) -> None:
        count = services.interceptions_mark_reviewed(logs=queryset)
        self.message_user(request, _("%(count)s interception(s) marked reviewed.") % {"count": count})


class AuditedRuleAdmin(admin.ModelAdmin):
    """Saves and deletes go through rule_services, so each is recorded in the administrative trail."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        rule_save(rule=obj, actor=Actor.staff(request.user))

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        rule_delete(rule=obj, actor=Actor.staff(request.user))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for rule in queryset:
            rule_delete(rule=rule, actor=Actor.staff(request.user))


@admin.register(DetectionPattern)
class DetectionPatternAdmin(AuditedRuleAdmin):
    list_display = ("code", "active", "description", "regex", "updated_at")
    list_filter = ("active",)
    search_fields = ("code", "regex", "description")
    fieldsets = ((None, {"fields": ("code", "regex", "description", "active"), "description": NEXT_RUN}),)


@admin.register(WhitelistPattern)
class WhitelistPatternAdmin(AuditedRuleAdmin):
    list_display = ("regex", "active", "note", "updated_at")
    list_filter = ("active",)
    search_fields = ("regex", "note")
    fieldsets = ((None, {"fields": ("regex", "note", "active"), "description": NEXT_RUN}),)


class RequiredToolRuleForm(forms.ModelForm):
    class Meta:
        model = RequiredToolRule
        fields = ("source_type", "all_of", "any_of")
        help_texts = {
            "all_of": gettext_lazy('Tools every answer must have used, as a JSON list: ["get_schema", "run_query"].'),
            "any_of": gettext_lazy("Tools of which an answer must have used at least one (JSON list, may be empty)."),
        }

    def _tool_names(self, field: str) -> list[str]:
        value = self.cleaned_data.get(field)
        if value in (None, "", []):
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValidationError(_('Enter a JSON list of tool names, for example ["get_schema", "run_query"].'))
        known = known_tool_names()
        unknown = sorted(set(value) - set(known))
        if unknown:
            raise ValidationError(
                _("Unknown tool name(s): %(unknown)s. Known tools: %(known)s.")
                % {"unknown": ", ".join(unknown), "known": ", ".join(known)}
            )
        return value

    def clean_all_of(self) -> list[str]:
        return self._tool_names("all_of")

    def clean_any_of(self) -> list[str]:
        return self._tool_names("any_of")


@admin.register(RequiredToolRule)
class RequiredToolRuleAdmin(AuditedRuleAdmin):
    form = RequiredToolRuleForm
    list_display = ("source_type", "all_of", "any_of", "updated_at")
    fieldsets = ((None, {"fields": ("source_type", "all_of", "any_of"), "description": NEXT_RUN}),)
