"""Admin pages for records nobody edits by hand: audit entries, derived results. Shown for reading; adding, changing and deleting are refused."""

from __future__ import annotations


class ReadOnlyAdmin:
    """Mixed into a ModelAdmin or an inline (the ``obj`` argument is the inline's parent).
    ``deletable`` keeps the delete permission Django would give."""

    deletable = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return self.deletable and super().has_delete_permission(request, obj)
