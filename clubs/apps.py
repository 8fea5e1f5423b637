from django.apps import AppConfig


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"

    def ready(self) -> None:
        # Receives houserules' changes to write the club's audit trail.
        from clubs import house_rule_audit  # noqa: F401
