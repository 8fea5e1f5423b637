from django.apps import AppConfig


class DoorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "door"
    verbose_name = "Club night at the door"
