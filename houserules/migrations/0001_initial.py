"""The house-rule models move here from clubs with their tables kept (``clubs_houserulerecord``,
``clubs_houseruleversion``): this migration adds them to houserules' state only, and
``clubs/migrations/0006_house_rules_moved_to_houserules.py`` repoints clubs' foreign keys and
drops the old models from clubs' state. No row is copied and no table is touched.

The content types of the two models are relabelled too, so permissions given on them and the
admin's history follow them."""

import django.db.models.deletion
from django.db import migrations, models

MODELS = ("houserulerecord", "houseruleversion")


def relabel_content_types(old: str, new: str):
    def relabel(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MODELS:
            if not ContentType.objects.using(db).filter(app_label=new, model=model).exists():
                ContentType.objects.using(db).filter(app_label=old, model=model).update(
                    app_label=new)

    return relabel


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("clubs", "0005_hand_computed_and_result_facts"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="HouseRuleRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("slug", models.SlugField(max_length=80, unique=True)),
                        ("name", models.CharField(max_length=120)),
                        ("description", models.TextField(blank=True)),
                        ("overrides", models.JSONField(blank=True, default=dict)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("updated", models.DateTimeField(auto_now=True)),
                        ("based_on", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="derived", to="houserules.houserulerecord")),
                        ("club", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="house_rules", to="clubs.club")),
                    ],
                    options={
                        "db_table": "clubs_houserulerecord",
                        "ordering": ["slug"],
                        "indexes": [models.Index(fields=["club", "slug"], name="houserule_by_club")],
                    },
                ),
                migrations.CreateModel(
                    name="HouseRuleVersion",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("number", models.PositiveIntegerField()),
                        ("data", models.JSONField()),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("record", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="versions", to="houserules.houserulerecord")),
                    ],
                    options={
                        "db_table": "clubs_houseruleversion",
                        "ordering": ["record", "-number"],
                        "constraints": [
                            models.UniqueConstraint(fields=("record", "number"), name="houseruleversion_unique_number"),
                            models.CheckConstraint(condition=models.Q(("number__gte", 1)), name="houseruleversion_number_from_1"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(relabel_content_types("clubs", "houserules"),
                             relabel_content_types("houserules", "clubs")),
    ]
