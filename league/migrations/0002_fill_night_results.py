"""Fill the per-night summary for the nights recorded before the league app existed."""

from django.db import migrations


def fill(apps, schema_editor):
    from league.summary import refresh_all

    # refresh_all reads and writes by SQL on the tables as they stand at this migration.
    # The stored standings come in 0004, which fills them. No summary_rebuilt: history, whose
    # imported nights add rows of their own, came later and its tables may not be made yet.
    refresh_all(apps.get_model("clubs", "Table").objects.all(), standings=False, notify=False)


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
