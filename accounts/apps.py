from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Logins, invitations and API tokens"
    default_auto_field = "django.db.models.BigAutoField"
