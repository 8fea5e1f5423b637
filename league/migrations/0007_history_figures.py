"""The player history's figures in the per-night summary and the stored standings (issue #27:
a season's statistics read from one stored row), filled for the nights already recorded."""

from django.db import migrations, models


def fill(apps, schema_editor):
    # Every table's rows made again with the new columns (the imported tables' too, by
    # history's answer to summary_rebuilt), then the stored standings from them: what
    # manage.py refresh_league does. 0002 and 0004 filled the summary and the standings before;
    # they now leave it to this migration, since the code's SQL names the columns made here.
    from league.summary import refresh_all

    refresh_all()


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_night_by_member_season'),
        ('clubs', '0012_history_figures'),
        ('history', '0003_rating_live_seen'),
    ]

    operations = [
        migrations.AddField(
            model_name='nightresult',
            name='east_hands',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='east_net',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='east_won',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='goulash_hands',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='goulash_net',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='goulash_won',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='imported',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='imported_hands',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='imported_net',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='won_from_wall',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='east_hands',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='east_net',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='east_won',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='goulash_hands',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='goulash_net',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='goulash_won',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='imported_hands',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='imported_net',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='imported_tables',
            field=models.IntegerField(default=0, help_text='Of ``tables``, imported.'),
        ),
        migrations.AddField(
            model_name='standing',
            name='place_1',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='place_2',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='place_3',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='place_4',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='place_5',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='standing',
            name='won_from_wall',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='nightresult',
            name='paid',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
