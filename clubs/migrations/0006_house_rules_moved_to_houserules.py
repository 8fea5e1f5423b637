"""Clubs' foreign keys now point at ``houserules.HouseRuleRecord`` / ``HouseRuleVersion`` (the
same tables, so nothing changes in the database) and the old models leave clubs' state. See
``houserules/migrations/0001_initial.py``."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0005_hand_computed_and_result_facts"),
        ("houserules", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="club",
                    name="default_house_rule",
                    field=models.ForeignKey(blank=True, help_text="The house rule a new session starts with (its newest version).", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="default_for_clubs", to="houserules.houserulerecord"),
                ),
                migrations.AlterField(
                    model_name="clubsession",
                    name="house_rule_version",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name="sessions", to="houserules.houseruleversion"),
                ),
                migrations.AlterField(
                    model_name="clubsession",
                    name="goulash_rule_version",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name="goulash_sessions", to="houserules.houseruleversion"),
                ),
                migrations.DeleteModel(name="HouseRuleVersion"),
                migrations.DeleteModel(name="HouseRuleRecord"),
            ],
            database_operations=[],
        ),
    ]
