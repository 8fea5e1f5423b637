from django.apps import AppConfig


class HistoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "history"
    verbose_name = "Club history: imports, statistics and rating"

    def ready(self) -> None:
        # Connects the receivers that keep imported nights in the league summary and mark the
        # rating out of date when a table's results change.
        from history import receivers  # noqa: F401
