from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League standings"

    def ready(self) -> None:
        # Connects the receivers that keep the per-night summaries in step with clubs' writes.
        from league import summary  # noqa: F401
