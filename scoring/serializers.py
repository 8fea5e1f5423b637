"""DRF serializers for ``POST /api/v1/score`` (shared/contract/README.md).

The request serializer's fields document the contract's hand for the API schema; reading the
hand is the engine's parser's job (``parse_hand``), whose problems come back as DRF's field
paths, so a hand is checked by exactly the same rules wherever it enters.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from houserules.resolve import resolve_visible_house_rule
from scoring.engine import HandError, HouseRule, HouseRuleError, UnknownHouseRule, parse_hand
from scoring.engine.hand import MELD_KINDS, WIN_SOURCES, WINDS

DEFAULT_RULES = "bmja"


class MeldSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=MELD_KINDS)
    tile = serializers.CharField(help_text="The set's tile; a chow's lowest tile, e.g. \"c2\".")
    concealed = serializers.BooleanField(default=False)
    added = serializers.BooleanField(
        default=False, help_text="A kong made by adding a drawn tile to an exposed pung.")


class WinSerializer(serializers.Serializer):
    tile = serializers.CharField(help_text="The winning tile, e.g. \"we\".")
    # "from" is a Python keyword: declare it through the class namespace.
    vars()["from"] = serializers.ChoiceField(choices=WIN_SOURCES, default="discard")
    last_wall_tile = serializers.BooleanField(default=False)
    last_discard = serializers.BooleanField(default=False)
    robbed_kong = serializers.BooleanField(default=False)
    kong_replacement = serializers.BooleanField(default=False)
    original_call = serializers.BooleanField(default=False)
    heavenly = serializers.BooleanField(default=False)
    earthly = serializers.BooleanField(default=False)
    second_kong_replacement = serializers.BooleanField(default=False)


class HandSerializer(serializers.Serializer):
    """A hand as the contract gives it; ``validated_data`` is ``{"hand": Hand, "rule":
    HouseRule}``."""

    rules = serializers.CharField(
        default=DEFAULT_RULES, help_text="The house rule's slug (default bmja).")
    seat_wind = serializers.ChoiceField(choices=WINDS)
    prevailing_wind = serializers.ChoiceField(choices=WINDS)
    mahjong = serializers.BooleanField()
    melds = MeldSerializer(many=True, required=False)
    concealed = serializers.ListField(child=serializers.CharField(), required=False)
    bonus = serializers.ListField(child=serializers.CharField(), required=False)
    win = WinSerializer(required=False, help_text="Only for the Mah Jong hand.")
    goulash = serializers.BooleanField(default=False)
    fishing = serializers.BooleanField(default=False)
    players = serializers.IntegerField(required=False, min_value=2, max_value=5)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        try:
            hand = parse_hand(data)
        except HandError as error:
            raise serializers.ValidationError(error.as_drf()) from None
        viewer = self.context.get("viewer")
        return {"hand": hand, "rule": requested_house_rule(hand.rules or DEFAULT_RULES, viewer)}


def requested_house_rule(slug: str, viewer) -> HouseRule:
    """The house rule a calculator request names, if ``viewer`` may see it (None: an anonymous
    visitor), or a 400 on ``rules`` that says why not."""
    try:
        return resolve_visible_house_rule(slug, viewer)
    except UnknownHouseRule as error:
        raise serializers.ValidationError({"rules": [str(error)]}) from None
    except HouseRuleError as error:
        raise serializers.ValidationError({"rules": [
            f"The house rule {slug!r} cannot be used: {error}. Ask the club to mend it."
        ]}) from None


class ScoreLineSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The house rule's item code.")
    name = serializers.CharField(help_text="The item in the house rule's words.")
    points = serializers.IntegerField()
    doubles = serializers.IntegerField()
    count = serializers.IntegerField(help_text="How many times the item matched.")


class ArrangedSetSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="pung, kong, chow, pair, or group (a special "
                                 "hand's tiles that are not sets).")
    tile = serializers.CharField()
    concealed = serializers.BooleanField()
    tiles = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="A group's tiles, or a set's tiles with wild ones.")

    def to_representation(self, meld) -> dict[str, Any]:
        out = {"kind": meld.kind, "tile": meld.tile, "concealed": meld.concealed}
        if meld.tiles:
            out["tiles"] = list(meld.tiles)
        return out


class ScoreResultSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    doubles = serializers.IntegerField()
    score = serializers.IntegerField(help_text="Before any payment rule (East, discarder).")
    limit = serializers.CharField(allow_null=True, help_text="The limit that capped or set "
                                  "the score: \"limit\", \"half limit\", a fishing part-score.")
    items = ScoreLineSerializer(source="lines", many=True)
    arrangement = ArrangedSetSerializer(many=True)
    loose = serializers.ListField(child=serializers.CharField(),
                                  help_text="A losing hand's tiles outside any set.")
    shape = serializers.CharField()
    mahjong = serializers.BooleanField()
    meets_minimum = serializers.BooleanField()
    minimum_reason = serializers.CharField(allow_null=True)
    special = serializers.CharField(allow_null=True, help_text="The special hand scored.")
    fishing_for = serializers.CharField(allow_null=True)
    rules = serializers.SerializerMethodField(help_text="The house rule's slug.")

    def get_rules(self, result) -> str:
        return self.context["rules"]
