from django.apps import AppConfig


class DoorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "door"
    verbose_name = "Club night at the door"

    def ready(self) -> None:
        # Check-ins follow the seats when clubs gives a player's nights to another player.
        # And when a table is re-seated (who sat there corrected).
        from door import player_moves, reseating  # noqa: F401
