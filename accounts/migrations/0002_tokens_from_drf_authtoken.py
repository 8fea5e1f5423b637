"""Tokens made before personal tokens existed (DRF's ``authtoken_token``, one per login, kept
in plain text) become personal tokens named "Token made before named tokens": programs using
them keep working. The old rows are then emptied, so no usable secret stays in plain text."""

from django.db import migrations

from config.authentication import token_digest

OLD = "authtoken_token"


def copy_old_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD}")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        token = ApiToken.objects.create(user_id=user_id, name="Token made before named tokens",
                                        key=token_digest(key), prefix=key[:6])
        ApiToken.objects.filter(pk=token.pk).update(created=created)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {OLD}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_invitations_and_api_tokens")]

    operations = [migrations.RunPython(copy_old_tokens, migrations.RunPython.noop)]
