"""Every hand keeps its computed row (``Hand.computed``) and each result what standings count
(won, gave, limit), so pages and standings read them instead of replaying. Existing tables are
replayed once here, with the historical models, to fill them in."""

from django.db import migrations, models


def fill_in(apps, schema_editor):
    from play import RecordedHand, SeatInfo, SessionRules, replay
    from play.errors import HandInputError
    from scoring.engine import HouseRule

    Table = apps.get_model("clubs", "Table")
    Seat = apps.get_model("clubs", "Seat")
    Hand = apps.get_model("clubs", "Hand")
    HandEntry = apps.get_model("clubs", "HandEntry")
    HandResult = apps.get_model("clubs", "HandResult")
    HouseRuleVersion = apps.get_model("clubs", "HouseRuleVersion")
    rules: dict[int, HouseRule] = {}

    def rule(version_id):
        if version_id not in rules:
            rules[version_id] = HouseRule.from_dict(
                HouseRuleVersion.objects.get(pk=version_id).data)
        return rules[version_id]

    for table in Table.objects.select_related("session").iterator():
        session = table.session
        seats = tuple(
            SeatInfo(s.pk, s.member.display_name if s.member_id else s.guest_name, s.position,
                     s.starting_wind, s.member_id)
            for s in Seat.objects.filter(table=table).select_related("member")
            .order_by("position")
        )
        hands = []
        for hand in Hand.objects.filter(table=table).order_by("number"):
            entries = {
                e.seat_id: {"kind": e.kind, "data": e.data, "wind": e.seat_wind}
                for e in HandEntry.objects.filter(hand=hand).order_by("seat__position")
            }
            hands.append(RecordedHand(
                hand.pk, hand.number, hand.voided, hand.prevailing_wind, hand.dealer_id,
                hand.winner_id, hand.discarder_id, hand.draw, hand.goulash, hand.win_source,
                hand.facts or {}, entries))
        goulash = session.goulash_rule_version_id
        try:
            state = replay(seats, hands, SessionRules(
                rule(session.house_rule_version_id), rule(goulash) if goulash else None),
                table_id=table.pk)
        except HandInputError:
            continue  # seats that cannot start a game: the page says so; nothing to fill in
        for row in state.hands:
            Hand.objects.filter(pk=row.id).update(computed=row.to_json())
            if not row.counted:
                continue
            for seat_id in row.scores:
                result = row.results.get(seat_id)
                HandResult.objects.filter(hand_id=row.id, seat_id=seat_id).update(
                    won=seat_id == row.winner,
                    gave=seat_id == row.discarder,
                    limit=(getattr(result, "limit", None) or "")[:60],
                )


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0004_drop_indexes_covered_by_composites'),
    ]

    operations = [
        migrations.AddField(
            model_name='hand',
            name='computed',
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='handresult',
            name='gave',
            field=models.BooleanField(default=False, help_text='This seat gave the winning tile (a discard, or a robbed kong).'),
        ),
        migrations.AddField(
            model_name='handresult',
            name='limit',
            field=models.CharField(blank=True, help_text='The limit that capped or set the score, if any.', max_length=60),
        ),
        migrations.AddField(
            model_name='handresult',
            name='won',
            field=models.BooleanField(default=False, help_text='This seat went Mah Jong.'),
        ),
        migrations.RunPython(fill_in, migrations.RunPython.noop),
    ]
