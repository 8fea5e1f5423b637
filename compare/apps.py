from django.apps import AppConfig


class CompareConfig(AppConfig):
    name = "compare"
    verbose_name = "Compare house rules"
    default_auto_field = "django.db.models.BigAutoField"
