"""House rules in the admin: a club's copies made and edited through the copy service.

Adding a house rule is copying one: pick the club, the house rule it is based on and the
overrides (the action "Copy with overrides" opens that form with the base filled in). Saving
checks the overrides as the engine will use them, shows what is wrong against the field, and
freezes a new version; versions themselves are read-only, as sessions point at them.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from houserules.copies import checked_overrides, create_copy, derive_rule, update_copy
from houserules.models import HouseRuleRecord, HouseRuleVersion
from houserules.override_rules import RANGES_HELP
from scoring.engine import HouseRuleError

OVERRIDES_HELP = (
    'Changes to the base house rule as JSON, e.g. {"scoring": {"limit": 2000}, "items": '
    '{"one_suit_only": {"doubles": 6}}, "payment": {"starting_tally": 1000}}. An item set to '
    "null is dropped; add_items adds whole items. " + RANGES_HELP
)


class HouseRuleCopyForm(forms.ModelForm):
    """A club's copy: every field checked by deriving the house rule it makes."""

    class Meta:
        model = HouseRuleRecord
        fields = ["club", "based_on", "slug", "name", "description", "overrides"]
        help_texts = {"overrides": OVERRIDES_HELP,
                      "based_on": "The house rule copied: a built-in or another club's copy."}

    def clean(self):
        data = super().clean()
        if self.instance.pk and self.instance.is_builtin:
            raise forms.ValidationError("Built-in house rules come from the scoring engine and "
                                        "cannot be changed here; copy one for your club.")
        base = data.get("based_on") or self.instance.based_on
        if data.get("club") is None and not self.instance.pk:
            self.add_error("club", "Choose the club this copy belongs to.")
        if base is None:
            self.add_error("based_on", "Choose the house rule this one copies.")
            return data
        if data.get("overrides") is None:
            data["overrides"] = {}
        try:
            data["overrides"] = checked_overrides(base, data["overrides"])
            derive_rule(base, data.get("slug") or self.instance.slug, data["overrides"],
                        name=data.get("name") or self.instance.name,
                        description=data.get("description") or base.description)
        except HouseRuleError as error:
            for path, msgs in error.errors.items():
                for message in msgs:
                    self.add_error("overrides", f"{path}: {message}")
        return data


class ReadOnlyAdmin:
    """Versions are frozen: shown for reading, never added, changed or deleted by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class VersionInline(ReadOnlyAdmin, admin.TabularInline):
    model = HouseRuleVersion
    extra = 0
    fields = ["number", "created", "session_count"]
    readonly_fields = fields
    ordering = ["-number"]
    show_change_link = True

    @admin.display(description="sessions")
    def session_count(self, version: HouseRuleVersion) -> int:
        return version.sessions.count()


@admin.register(HouseRuleRecord)
class HouseRuleRecordAdmin(admin.ModelAdmin):
    form = HouseRuleCopyForm
    list_display = ["slug", "name", "club", "based_on", "newest_version", "version_count"]
    list_filter = [("club", admin.RelatedOnlyFieldListFilter), ("club", admin.EmptyFieldListFilter)]
    search_fields = ["slug", "name", "description"]
    list_select_related = ["club", "based_on"]
    inlines = [VersionInline]
    actions = ["copy_with_overrides"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_versions=Count("versions"))

    @admin.display(description="versions", ordering="_versions")
    def version_count(self, record: HouseRuleRecord) -> int:
        return record._versions

    @admin.display(description="newest")
    def newest_version(self, record: HouseRuleRecord) -> str:
        latest = record.latest_version()
        return f"v{latest.number}" if latest else "-"

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ["parameters"]
        if obj.is_builtin:
            return ["club", "based_on", "slug", "name", "description", "overrides", "parameters"]
        # Which club and base a copy has, and its slug, are fixed once sessions may use it.
        return ["club", "based_on", "slug", "parameters"]

    def get_fields(self, request, obj=None):
        fields = ["club", "based_on", "slug", "name", "description", "overrides"]
        return fields if obj is None else [*fields, "parameters"]

    @admin.display(description="newest version, whole")
    def parameters(self, record: HouseRuleRecord) -> str:
        latest = record.latest_version() if record.pk else None
        if latest is None:
            return "-"
        return format_html("<pre style='max-height: 30em; overflow: auto'>{}</pre>",
                           json.dumps(latest.data, indent=2))

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            stored = HouseRuleRecord.objects.get(pk=obj.pk)
            version = update_copy(stored, data["overrides"], request.user, name=data["name"],
                                  description=data["description"])
        else:
            record = create_copy(data["club"], data["based_on"].slug, data["slug"],
                                 data["name"], data["overrides"], request.user,
                                 description=data["description"] or None)
            obj.pk = record.pk
            obj._state.adding = False
            version = record.latest_version()
        messages.info(request, f"{obj.slug} is at version {version.number}; sessions keep the "
                               "version they were played under.")

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.is_builtin:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        # A house rule that a session was played under stays, so the session can be rescored.
        if obj is not None and (obj.is_builtin or HouseRuleVersion.objects.filter(
                record=obj, sessions__isnull=False).exists()):
            return False
        return super().has_delete_permission(request, obj)

    @admin.action(description="Copy with overrides (for a club)")
    def copy_with_overrides(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one house rule to copy.", messages.WARNING)
            return None
        base = queryset.get()
        url = reverse("admin:houserules_houserulerecord_add")
        return HttpResponseRedirect(f"{url}?based_on={base.pk}")


@admin.register(HouseRuleVersion)
class HouseRuleVersionAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """Read-only: a frozen version is what a session was played under."""

    list_display = ["record", "number", "created", "session_count"]
    list_filter = [("record__club", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["record__slug", "record__name"]
    list_select_related = ["record"]
    readonly_fields = ["record", "number", "created", "whole_rule"]
    fields = readonly_fields

    @admin.display(description="sessions")
    def session_count(self, version: HouseRuleVersion) -> int:
        return version.sessions.count()

    @admin.display(description="house rule")
    def whole_rule(self, version: HouseRuleVersion) -> str:
        return format_html("<pre style='max-height: 40em; overflow: auto'>{}</pre>",
                           json.dumps(version.data, indent=2))
