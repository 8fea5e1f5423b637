"""``NightResult.house_rule`` points at ``houserules.HouseRuleRecord``: the same table, so only
the state changes. Runs before clubs drops its old house-rule models from its state."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0002_fill_night_results"),
        ("houserules", "0001_initial"),
    ]
    run_before = [("clubs", "0006_house_rules_moved_to_houserules")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="nightresult",
                    name="house_rule",
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="houserules.houserulerecord"),
                ),
            ],
            database_operations=[],
        ),
    ]
