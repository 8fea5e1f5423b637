"""The league API's shapes: query filters, league rules, standings and snapshots."""

from __future__ import annotations

from django.db import models
from rest_framework import serializers

from config.plain_serializer import PlainSerializer
from league.forms import FORMATS
from league.models import Snapshot
from league.queries import Filters
from league.ranking import (
    COMBINES,
    MEASURES,
    POINT_SCHEMES,
    PRESETS,
    TIE_BREAKS,
    LeagueRules,
    LeagueRulesError,
)


class StandingsQuerySerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=FORMATS, required=False, default="json")
    start = serializers.DateField(required=False, help_text="Nights from this date.")
    end = serializers.DateField(required=False, help_text="Nights up to this date.")
    as_of = serializers.DateField(required=False, help_text="The standings as they stood then.")
    # An id past the id column's range reached the standings' SQL and failed there (a 500:
    # "Python int too large to convert to SQLite INTEGER"); no house rule has one.
    house_rule = serializers.IntegerField(
        required=False, min_value=1, max_value=models.BigIntegerField.MAX_BIGINT,
        error_messages={"max_value": "No house rule has this id."},
        help_text="Only nights played under this house rule (id).")
    table = serializers.IntegerField(required=False, min_value=1, max_value=999,
                                     help_text="Only this table number's nights.")

    def validate(self, attrs):
        if attrs.get("start") and attrs.get("end") and attrs["start"] > attrs["end"]:
            raise serializers.ValidationError({"end": ["The end date is before the start: swap them."]})
        return attrs

    def filters(self) -> Filters:
        d = self.validated_data
        return Filters(start=d.get("start"), end=d.get("end"), as_of=d.get("as_of"),
                       house_rule=d.get("house_rule"), table=d.get("table"))


class LeagueRulesSerializer(serializers.Serializer):
    preset = serializers.ChoiceField(choices=list(PRESETS), required=False, write_only=True,
                                     help_text="Start from this preset; fields given override it.")
    measure = serializers.ChoiceField(choices=list(MEASURES.items()), required=False)
    combine = serializers.ChoiceField(choices=list(COMBINES.items()), required=False)
    points = serializers.ChoiceField(choices=list(POINT_SCHEMES), required=False)
    best_n = serializers.IntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
    min_nights = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    min_share = serializers.IntegerField(min_value=0, max_value=100, required=False)
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)),
                                       required=False, max_length=len(TIE_BREAKS))
    description = serializers.CharField(read_only=True)

    def validate(self, attrs):
        base = PRESETS[attrs["preset"]][1] if "preset" in attrs else self.context["current"]
        data = {**base.to_dict(), **{k: v for k, v in attrs.items() if k != "preset"}}
        try:
            attrs["rules"] = LeagueRules.from_dict(data).check()
        except LeagueRulesError as err:
            raise serializers.ValidationError(err.errors) from None
        return attrs

    def to_representation(self, rules: LeagueRules | dict):
        if isinstance(rules, dict):  # as a snapshot stored it
            rules = LeagueRules.from_dict(rules)
        return {**rules.to_dict(), "description": rules.describe()}


class StandingRowSerializer(PlainSerializer):
    """One player's line of the standings: ranked members by place, then members below the
    gate, then guests."""

    place = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    name = serializers.CharField()
    member_id = serializers.IntegerField(allow_null=True)
    nights = serializers.IntegerField()
    hands = serializers.IntegerField()
    mahjongs = serializers.IntegerField()
    given = serializers.IntegerField()
    net = serializers.IntegerField()
    table_points = serializers.FloatField()
    average = serializers.FloatField()
    score = serializers.FloatField(help_text="The value ranked on (as the league rules say).")
    average_place = serializers.FloatField()
    note = serializers.CharField(help_text='Below the gate: "4 of 6 nights".')
    place_label = serializers.CharField()
    group = serializers.ChoiceField(choices=["ranked", "unranked", "guest"])


class FiltersSerializer(serializers.Serializer):
    """The filters the standings were read under (those given only)."""

    start = serializers.DateField(required=False)
    end = serializers.DateField(required=False)
    as_of = serializers.DateField(required=False)
    house_rule = serializers.IntegerField(required=False)
    table = serializers.IntegerField(required=False)


class StandingsSerializer(PlainSerializer):
    """Standings as ``league.ranking.Standings.to_json()`` gives them (live, or as a snapshot
    stored them), with the filters they were read under."""

    # Plain (PlainSerializer): its nested fields are built once, not copied for each answer.

    rules = LeagueRulesSerializer()
    season_nights = serializers.IntegerField()
    required_nights = serializers.IntegerField()
    calculation = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)
    filters = FiltersSerializer(required=False)


class SnapshotSerializer(serializers.ModelSerializer):
    standings = StandingsSerializer(source="data", read_only=True)

    class Meta:
        model = Snapshot
        fields = ["id", "season", "as_of", "published", "note", "standings"]
        read_only_fields = ["id", "season", "published", "standings"]
        extra_kwargs = {"as_of": {"required": False}}


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                   help_text="Why, for the club's records.")


class WithdrawnSerializer(serializers.Serializer):
    """Withdrawn standings as the audit trail keeps them."""

    entry = serializers.IntegerField(source="pk", help_text="The audit entry that keeps them.")
    snapshot = serializers.SerializerMethodField()
    as_of = serializers.SerializerMethodField()
    withdrawn = serializers.DateTimeField(source="at")
    note = serializers.CharField()

    def get_snapshot(self, entry) -> int:
        return int(entry.object_id)

    def get_as_of(self, entry) -> str:
        return entry.before["as_of"]


class RepublishSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, help_text="The withdrawn standings' entry.")
