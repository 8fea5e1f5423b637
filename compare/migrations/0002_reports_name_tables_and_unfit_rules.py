"""Reports stored before tables were named by their number in the night, and before a rule that
does not fit a table gave its players no total (they held 0, place 1 and arrows): each stored
table part gains its table's number (on itself and on its hands not valid under a rule), and
each finished report is merged again from its parts. Nothing is replayed."""

from django.db import migrations


def upgrade(apps, schema_editor):
    from compare.replay_compare import merge_parts

    Comparison = apps.get_model("compare", "Comparison")
    Part = apps.get_model("compare", "ComparisonPart")
    for comparison in Comparison.objects.exclude(report=None).iterator():
        results = []
        parts = Part.objects.filter(comparison=comparison).select_related("table")
        if not parts.exists():
            continue  # its parts were deleted when its report was written (0003): current
        for part in parts.order_by("position"):
            result = part.result
            if result is None:
                continue
            number = part.table.number
            result["table_number"] = number
            for bad in result.get("invalid", ()):
                bad["table_number"] = number
            for key in result.get("players", {}):
                totals = result["players"][key]["totals"]
                result["players"][key]["totals"] = [
                    None if slug in result["refused"] else total
                    for slug, total in zip(result["rules"], totals, strict=True)]
            part.result = result
            part.save(update_fields=["result"])
            results.append(result)
        comparison.report = merge_parts(results, comparison.rules)
        comparison.save(update_fields=["report"])


class Migration(migrations.Migration):
    dependencies = [("compare", "0001_initial")]

    operations = [migrations.RunPython(upgrade, migrations.RunPython.noop)]
