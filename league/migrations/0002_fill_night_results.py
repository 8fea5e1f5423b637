"""The per-night summary for the nights recorded before the league app existed: filled by 0007."""

from django.db import migrations


def fill(apps, schema_editor):
    # Left to 0007, which fills the summary and the stored standings with every column: the
    # summary's SQL (league.summary) names columns made after this migration.
    pass


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
