"""DRF serializers for ``POST /api/v1/settle`` (shared/contract/README.md).

The request serializer checks the contract's body (its shape, and each full hand parsed and
keyed to its seat); what a seat is worth and the hand at the table come from ``play.seat``, as
for the clubs' tables, so the calculator and a recorded night cannot read an entry apart. Its
``validated_data`` is ``{"table": HandAtTable, "rule": HouseRule}``.
Every problem comes back as DRF field paths: a hand's own problems under ``hands.<seat>``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rest_framework import serializers

from houserules.resolve import EVERY_RULE
from play import UNKNOWN, HandInputError
from play.seat import SeatFacts, full_seat, quick_minimum_problem, quick_seat, table_of
from scoring.engine import HandError, Problem, parse_hand
from scoring.engine.rules.variations import with_players
from scoring.serializers import DEFAULT_RULES, requested_house_rule
from settlements.engine import HandAtTable, Penalty, SettlementInputError
from settlements.engine.penalties import PENALTIES
from settlements.engine.table import WIN_SOURCES, WINDS
from settlements.engine.validate import check_table

SEAT_CHOICES = list(WINDS)
# The discarder as the hands API takes it: a wind, or "unknown" (play.UNKNOWN) for a hand won on
# another player's tile whose discarder nobody knows (settlements.engine: discarder unknown).
DISCARDER_CHOICES = [*WINDS, UNKNOWN]
DISCARDER_WORDS = (f"use a seat wind ({', '.join(WINDS)}), {UNKNOWN!r} when the hand was won on "
                   "a discard or a robbed kong but nobody knows whose, or null")


def nested(errors: dict[str, list[str]]) -> dict[str, Any]:
    """``{"hands.E.score": [...]}`` as DRF's nested body ``{"hands": {"E": {"score": [...]}}}``."""
    tree: dict[str, Any] = {}
    for path, messages in errors.items():
        node = tree
        *parents, leaf = path.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            if isinstance(child, list):
                child = node[part] = {"non_field_errors": child}
            node = child
        if isinstance(node.get(leaf), dict):
            node[leaf].setdefault("non_field_errors", []).extend(messages)
        else:
            node.setdefault(leaf, []).extend(messages)
    return tree


def merge(into: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value)
        elif isinstance(value, list) and isinstance(into.get(key), list):
            into[key] = into[key] + value
        else:
            into[key] = value
    return into


class SettlePenaltySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=sorted(PENALTIES),
        help_text="false_mahjong (004 Sheet 30 item 3: half limit to each other player), "
                  "false_naming (item 2: 50 to the claimant), false_naming_mahjong (item 2: the "
                  "discarder settles for all), cannon (item 5: the offender also pays what the "
                  "others paid), not_calling (000: gave the Mah Jong tile when not calling).")
    offender = serializers.ChoiceField(choices=SEAT_CHOICES)
    claimant = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_null=True,
                                       default=None)
    amount = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0,
                                      max_value=10_000_000,
                                      help_text="Overrides the house rule's figure.")


class SettleRequestSerializer(serializers.Serializer):
    rules = serializers.CharField(default=DEFAULT_RULES, help_text="The house rule's slug.")
    prevailing_wind = serializers.ChoiceField(choices=SEAT_CHOICES, default="E")
    hands = serializers.DictField(
        child=serializers.JSONField(),
        help_text="Keyed by seat wind: a hand as in the contract (its seat_wind and rules may be "
                  "left out) or {\"score\": N} for a value worked out at the table, optionally "
                  "with \"kongs\" ([\"concealed\"|\"claimed\"|\"added\"]) and \"bonus\" tiles. "
                  "Two, three or four seats; a fifth player sitting out is not listed.")
    winner = serializers.ChoiceField(choices=SEAT_CHOICES, allow_null=True, default=None)
    discarder = serializers.ChoiceField(
        choices=DISCARDER_CHOICES, allow_null=True, default=None,
        error_messages={"invalid_choice": f"{{input!r}} is not a discarder: {DISCARDER_WORDS}."},
        help_text="The seat that gave the winning tile; \"unknown\" when the hand was won on a "
                  "discard or a robbed kong but nobody knows whose: nobody is charged as the "
                  "discarder and every loser pays the winner as the house rule makes everyone "
                  "pay (settlements.engine, discarder unknown); null for a wall game or a tile "
                  "from the wall.")
    draw = serializers.BooleanField(default=False, help_text="A wall game: nobody went Mah Jong.")
    goulash = serializers.BooleanField(default=False)
    pot = serializers.IntegerField(default=0, min_value=0, max_value=10_000_000_000,
                                   help_text="What the goulash pot or kitty holds as the hand starts.")
    dealer = serializers.ChoiceField(choices=SEAT_CHOICES, default="E",
                                     help_text="Who deals (pays and receives double); East unless "
                                               "the house rule lets the winner deal (002).")
    # A plain string checked below rather than a ChoiceField: the schema already has enums of
    # these values under other names (the score API's win.from, the clubs' win_from).
    win_from = serializers.CharField(
        allow_null=True, default=None,
        help_text=f"One of {', '.join(WIN_SOURCES)}. Default: the winner's hand's win.from, "
                  "else discard when a discarder is named, else wall.")
    kong_replacement = serializers.BooleanField(
        default=False, help_text="The winning tile replaced a kong (003: that kong earns no chips).")
    penalties = SettlePenaltySerializer(many=True, default=list, max_length=8)
    players = serializers.IntegerField(required=False, min_value=2, max_value=5,
                                       help_text="Players in the game (5: one sits out). Default: "
                                                 "the number of hands given.")
    clean_hands = serializers.ListField(
        child=serializers.ChoiceField(choices=SEAT_CHOICES), default=list, max_length=4,
        help_text="Losing hands that are clean and cover the minimum doubles (000: paid a count).")
    after_draw = serializers.BooleanField(
        allow_null=True, default=None,
        help_text="This goulash follows a drawn hand (000's kitty). Default: same as goulash.")

    def validate_win_from(self, value: str | None) -> str | None:
        if value is not None and value not in WIN_SOURCES:
            raise serializers.ValidationError(
                f"{value!r} is not a way to win; use one of {', '.join(WIN_SOURCES)}.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        rule = self._rule(attrs)
        if attrs["goulash"] and rule.goulash_rule:
            # Named by a rule the viewer may see, so resolved whoever's it is.
            rule = self._rule({**attrs, "rules": rule.goulash_rule}, EVERY_RULE)
        errors: dict[str, Any] = {}
        seats = tuple(w for w in WINDS if w in attrs["hands"])
        unknown = [k for k in attrs["hands"] if k not in WINDS]
        if unknown:
            errors["hands"] = [f"Unknown seat {', '.join(map(repr, unknown))}: key hands by E, S, W, N."]
            raise serializers.ValidationError(errors)
        entries = {}
        for seat in seats:
            try:
                entries[seat] = self._entry(seat, attrs["hands"][seat], attrs, rule)
            except HandError as error:
                merge(errors, error.prefixed(f"hands.{seat}").as_drf())
        if errors:
            raise serializers.ValidationError(errors)
        table = self._table(attrs, seats, entries, rule)
        try:
            check_table(table, rule)
        except SettlementInputError as error:
            raise serializers.ValidationError(nested(error.errors)) from None
        return {"table": table, "rule": rule}

    # -- pieces -----------------------------------------------------------------------------

    def _rule(self, attrs: dict[str, Any], viewer=None):
        rule = requested_house_rule(attrs["rules"], viewer or self.context.get("viewer"))
        players = attrs.get("players") or len(attrs["hands"])
        if players != rule.scoring.players and players in (2, 3, 5) and rule.scoring.players == 4:
            # 001's games for 2, 3 and 5 players are open to every house rule.
            rule = with_players(rule, players)
        return rule

    def _entry(self, seat: str, data: Any, attrs: dict[str, Any], rule) -> SeatFacts:
        """One seat's facts (play.seat): its score, kongs, bonus tiles and how the win came."""
        if isinstance(data, dict) and "score" in data:
            try:
                facts = quick_seat(data)
            except HandInputError as error:
                raise HandError([_problem(path, message) for path, messages
                                 in error.errors.items() for message in messages]) from None
            # An agreed score is held to the rule's minimum to go out, as the tiles are.
            if seat == attrs["winner"] and (problem := quick_minimum_problem(
                    rule, facts.score, attrs["goulash"])):
                raise HandError([_problem("score", problem)])
            return facts
        if not isinstance(data, dict):
            raise HandError([_problem("", "Give a hand as in the contract, or {\"score\": N}.")])
        full = {"seat_wind": seat, "prevailing_wind": attrs["prevailing_wind"],
                "goulash": attrs["goulash"], "mahjong": seat == attrs["winner"], **data}
        full.setdefault("rules", rule.slug)
        if attrs.get("players"):
            full.setdefault("players", attrs["players"])
        hand = parse_hand(full)
        if hand.seat_wind != seat:
            raise HandError([_problem("seat_wind", f"This hand is keyed {seat}: its seat_wind "
                                                   f"must be {seat} (or left out).")])
        if hand.mahjong != (seat == attrs["winner"]):
            words = ("The winner's hand must have mahjong true." if seat == attrs["winner"]
                     else "Only the winner's hand has mahjong true; set it false or name this "
                          "seat as the winner.")
            raise HandError([_problem("mahjong", words)])
        facts = full_seat(hand, rule)
        if hand.mahjong and not facts.result.meets_minimum:
            raise HandError([_problem("", facts.result.minimum_reason or
                                      "This hand does not reach the house rule's minimum to go out.")])
        return facts

    def _table(self, attrs, seats, entries, rule) -> HandAtTable:
        unknown = attrs["discarder"] == UNKNOWN
        table = table_of(
            entries,
            winner=attrs["winner"],
            discarder=None if unknown else attrs["discarder"],
            discarder_unknown=unknown,
            draw=attrs["draw"],
            goulash=attrs["goulash"],
            dealer=attrs["dealer"],
            pot=attrs["pot"],
            prevailing_wind=attrs["prevailing_wind"],
            win_from=attrs["win_from"],
            kong_replacement=attrs["kong_replacement"],
            penalties=tuple(Penalty(**p) for p in attrs["penalties"]),
            clean_hands=attrs["clean_hands"],
            after_draw=attrs["after_draw"],
        )
        if unknown and table.win_source is None and table.winner is not None:
            # Said neither in win_from nor by the winner's hand: a discard, as with a named
            # discarder (play.check_entry reads "unknown" the same way).
            table = replace(table, win_source="discard")
        return table


def _problem(path: str, message: str) -> Problem:
    return Problem(path=path, code="invalid", message=message)


class SettlePaymentSerializer(serializers.Serializer):
    # "from" is a Python keyword: declare it through the class namespace.
    vars()["from"] = serializers.CharField(source="payer", help_text="A seat, or \"pot\".")
    to = serializers.CharField(source="payee", help_text="A seat, or \"pot\".")
    amount = serializers.IntegerField()
    why = serializers.CharField()


class SettleAnswerSerializer(serializers.Serializer):
    scores = serializers.DictField(child=serializers.IntegerField())
    payments = SettlePaymentSerializer(many=True)
    net = serializers.DictField(child=serializers.IntegerField(),
                                help_text="Sums to zero with the pot's change.")
    pot = serializers.IntegerField(source="pot_after", help_text="What the pot or kitty holds after.")
