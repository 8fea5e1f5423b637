from django.apps import AppConfig


class SafekeepingConfig(AppConfig):
    """Keeping a club's data safe: database backups, and one club's history exported to a
    file and imported elsewhere (issue #13). Commands only; no models."""

    name = "safekeeping"
    default_auto_field = "django.db.models.BigAutoField"
