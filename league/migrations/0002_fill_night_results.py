"""Fill the per-night summary for the nights recorded before the league app existed."""

from django.db import migrations


def fill(apps, schema_editor):
    from league.summary import refresh_all

    refresh_all(apps=apps)


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
