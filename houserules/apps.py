from django.apps import AppConfig


class HouseRulesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "houserules"
    verbose_name = "House rules"

    def ready(self) -> None:
        # Connects the signals that keep the version cache honest.
        from houserules import resolve  # noqa: F401
