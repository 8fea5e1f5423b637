"""A finished comparison's parts are deleted when its report is written (compare.runs.finish):
the parts of reports written before that are deleted here. Nothing is replayed or rewritten."""

from django.db import migrations


def delete_parts(apps, schema_editor):
    Part = apps.get_model("compare", "ComparisonPart")
    Part.objects.filter(comparison__report__isnull=False).delete()


class Migration(migrations.Migration):
    dependencies = [("compare", "0002_reports_name_tables_and_unfit_rules")]

    operations = [migrations.RunPython(delete_parts, migrations.RunPython.noop)]
