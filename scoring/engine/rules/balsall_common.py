"""The ``balsall-common`` house rule: Balsall Common U3A's Hong Kong-style rules (``003``).

Points only, no doubles. A winning hand scores its hand's points ("Chicken 0+", "Pure 6+"...)
plus one point for each "+" extra (lines 315-359). Special hands replace the basic hand's
points; the extras still add, except that special concealed hands earn nothing for pongs of
honours or for being concealed (line 457). Each item names the line it comes from.
"""

from __future__ import annotations

from typing import Any

from .model import HouseRule, Item, PaymentParams, RotationParams, ScoringParams

SOURCE = "003_332fcd91a722cdf3.txt"
PUNG_OR_KONG = ("pung", "kong")

# 003 says what a hand is worth in points but not what it pays (see the README's known gaps):
# the usual Hong Kong table, doubling at first and capped at the 10-point hands. A club
# changes payment.points_to_payment.
POINTS_TO_PAYMENT = ((0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 24), (6, 32), (7, 48),
                     (8, 64), (9, 96), (10, 128))

DESCRIPTION = (
    "Balsall Common U3A house rules (003_332fcd91a722cdf3.txt), based on the Hong Kong "
    "Gateway Ladies' rules. "
    "Points rather than doubles: a hand scores its basic or special hand's points and one point "
    "for each '+' extra (pong/kong of dragons, of the round's wind, of the seat's wind; last "
    "tile of the wall; last discard; replacement tile from the flower wall; self-draw; "
    "concealed hand; no flowers; each bouquet; the round's red flower; the seat's blue flower). "
    "Minimum 3 points to go out (line 311), 5 in a goulash (lines 537, 569); a three-player "
    "table may agree on 5 (line 313: variation three_player_five_point_minimum). Any number of "
    "chows. Only the winner scores. Payments: self-drawn, everyone pays; on a discard only the "
    "discarder pays (line 361); kong chips are paid at once, 3 for a hidden kong, 2 for a kong "
    "by discard, 1 for a kong added to an exposed pong (lines 238-250); in a goulash each "
    "player puts 5 chips in the pot and the winner takes the pot only (line 535). The dealer "
    "repeats after a win or a draw, with no limit; after a goulash the dice pass (line 569). "
    "Readings chosen where the rules are unclear: 003 gives no points-to-payment table, so the "
    "usual Hong Kong table is the default (0 points 1 chip, 1: 2, 2: 4, 3: 8, 4: 16, 5: 24, "
    "6: 32, 7: 48, 8: 64, 9: 96, 10 or more: 128), changed in payment.points_to_payment; "
    "red flowers are the contract's flowers f1-f4 (for the round) and blue flowers its seasons "
    "s1-s4 (for the seat); basic hands add up where a hand is both (all pongs and pure: 9); "
    "a special hand replaces the basic hands and any lower special hand; a win on a kong "
    "replacement tile counts as self-drawn (line 264: 'one for self-draw'); a Chicken hand "
    "has no item of its own: it is any hand that is none of the others; a concealed hand "
    "is one with nothing exposed before going out, the winning tile may be a discard."
)


def _item(code: str, wording: str, rule: str, line: str, points: int, *,
          replaces: tuple[str, ...] = (), **args: Any) -> Item:
    return Item.with_args(code, wording, rule, args,
                          points=points, who="mahjong", replaces=replaces, source=f"003 line {line}")


EXTRAS = (
    _item("dragon_set", "+ Pong/Kong of dragons", "sets", "319", 1, kind=PUNG_OR_KONG,
          tiles="dragon"),
    _item("round_wind_set", "+ Pong/Kong of the wind of the round", "sets", "320-322", 1,
          kind=PUNG_OR_KONG, tiles="round_wind"),
    _item("seat_wind_set", "+ Pong/Kong of the wind of your seat", "sets", "324-326", 1,
          kind=PUNG_OR_KONG, tiles="own_wind"),
    _item("last_wall_tile", "+ Win on the last tile of the wall", "win", "328-330", 1,
          fact="last_wall_tile"),
    _item("last_discard", "+ Win on the last discard", "win", "331", 1, fact="last_discard"),
    _item("replacement_tile", "+ Win on a replacement tile from the flower wall", "win",
          "333-335, 258-264", 1, fact="kong_box"),
    _item("self_draw", "+ Self-draw to Mahjong", "win", "337-339", 1,
          fact=("wall", "kong_box")),
    _item("concealed_hand", "+ Concealed hand", "held_concealed", "341-345", 1),
    _item("no_flowers", "+ No flowers", "no_bonus_tiles", "347", 1),
    _item("red_bouquet", "+ All 4 red flowers (bouquet)", "bouquet", "349-351", 1,
          kind="flower"),
    _item("blue_bouquet", "+ All 4 blue flowers (bouquet)", "bouquet", "353-355", 1,
          kind="season"),
    _item("round_flower", "+ Flower for the round (red)", "wind_bonus", "357", 1,
          kind="flower", wind="round"),
    _item("seat_flower", "+ Flower for the seat (blue)", "wind_bonus", "359", 1,
          kind="season", wind="own"),
)

BASIC = (
    _item("sequence", "Sequence: four chows and a pair", "set_mix", "373-376", 1, chows=4),
    _item("all_pongs", "All pongs: four pongs/kongs and a pair", "set_mix", "380", 3,
          pungs=4),
    _item("semi_pure", "Semi-pure hand with honours: one suit with honour tiles", "one_suit",
          "384-389", 3, honours=True),
    _item("pure", "Pure: one suit, no honours", "one_suit", "393-396", 6, honours=False),
)
BASIC_CODES = tuple(item.code for item in BASIC)
# Line 457: these extras are not earned by the special concealed hands.
HONOUR_AND_CONCEALED_EXTRAS = ("dragon_set", "round_wind_set", "seat_wind_set",
                               "concealed_hand")


def _specials(rows: tuple[tuple, ...], extra_replaced: tuple[str, ...] = (),
              earlier: tuple[str, ...] = ()) -> tuple[Item, ...]:
    """Special hands, each replacing the basic hands and every special hand listed before it,
    so that only one special hand counts (listed from the lowest value up)."""
    items = []
    replaced = list(earlier)
    for code, wording, rule, line, points, args in rows:
        items.append(_item(code, wording, rule, line, points,
                           replaces=(*BASIC_CODES, *extra_replaced, *replaced), **args))
        replaced.append(code)
    return tuple(items)


SPECIAL = _specials((
    ("three_big_dragons", "3 Big Dragons: pongs/kongs of all three dragons", "family_sets",
     "401-403", 6, {"family": "dragon", "count": 3}),
    ("little_winds", "Little Winds: pongs/kongs of three winds and a pair of the fourth",
     "family_sets", "407-410", 8, {"family": "wind", "count": 3, "pair": True}),
    ("big_four_winds", "Big 4 Winds: pongs/kongs of each wind and any pair", "family_sets",
     "414", 10, {"family": "wind", "count": 4}),
    ("all_honours", "All Honours: honour pongs/kongs and a pair", "all_winds_and_dragons",
     "418", 10, {}),
    ("all_terminals", "All Terminal: pongs/kongs and a pair of 1s and 9s", "heads_and_tails",
     "422-425", 10, {}),
    ("all_kongs", "All Kongs: four kongs and any pair", "fourfold_plenty", "429", 10, {}),
    ("jade_dragon", "Jade Dragon: bamboo pongs/kongs and pair, pong/kong of green dragons",
     "dragon_suit_hand", "435-437", 10, {"suit": "b", "dragon": "dg"}),
    ("ruby_dragon", "Ruby Dragon: character pongs/kongs and pair, pong/kong of red dragons",
     "dragon_suit_hand", "441-443", 10, {"suit": "c", "dragon": "dr"}),
    ("pearl_dragon", "Pearl Dragon: circle pongs/kongs and pair, pong/kong of white dragons",
     "dragon_suit_hand", "447-450", 10, {"suit": "d", "dragon": "dw"}),
))

SPECIAL_CONCEALED = _specials((
    ("seven_pairs", "7 Pairs: any seven pairs", "seven_pairs", "461", 6, {}),
    ("double_knitting", "Double Knitting: seven pairs, each of one number in two suits",
     "knitting", "465-468", 6, {}),
    ("triple_knitting", "Triple Knitting: four groups of one number in three suits and a pair",
     "triple_knitting", "472-480", 6, {}),
    ("nine_gates", "9 Gates (Gates of Heaven)", "gates_of_heaven", "484-497", 10, {}),
    ("thirteen_orphans", "13 Orphans", "thirteen_orphans", "501-507", 10, {}),
    ("hidden_treasure", "Hidden Treasure: four concealed pongs and a pair, self-drawn",
     "hidden_treasure", "511-514", 10, {}),
    ("little_snake", "Little Snake: 1 to 9 of one suit and five different honours", "snake",
     "518", 10, {"honours": "five_different"}),
    ("great_snake", "Great Snake: 1 to 9 of one suit, a pong/kong and a pair of honours",
     "snake", "522-524", 10, {"honours": "pung_and_pair"}),
), extra_replaced=HONOUR_AND_CONCEALED_EXTRAS, earlier=tuple(item.code for item in SPECIAL))

BALSALL_COMMON = HouseRule(
    slug="balsall-common",
    name="Balsall Common U3A (Hong Kong style, points)",
    description=DESCRIPTION,
    source=f"{SOURCE} (Points to Mahjong, Basic, Special and Special Concealed Mahjong Hands, "
           "Goulash/Chop Suey Hand, Kongs)",
    version=1,
    scoring=ScoringParams(
        limit=None,
        cap_ordinary_hands=False,
        only_winner_scores=True,
        use_doubles=False,
        max_chows=None,
        goulash_max_chows=None,
        go_out_minimum=(("points", 3),),
        goulash_go_out_minimum=(("points", 5),),
        limit_hand_adds_bonus_tiles=False,
        fishing_part_scores=False,
        wild_tiles=None,
    ),
    items=(*EXTRAS, *BASIC, *SPECIAL, *SPECIAL_CONCEALED),
    payment=PaymentParams(
        scheme="discarder_pays",
        east_multiplier=1,
        discarder_multiplier=1,
        losers_settle_differences=False,
        points_to_payment=POINTS_TO_PAYMENT,
        kong_chips_concealed=3,
        kong_chips_claimed=2,
        kong_chips_added=1,
        goulash_pot_per_player=5,
        goulash_pays_pot_only=True,
    ),
    rotation=RotationParams(
        scheme="dealer_repeats",
        dealer_repeats_on_win=True,
        dealer_repeats_on_draw=True,
        max_consecutive_dealer=None,
        goulash_passes_dealer=True,
        goulash_after_draw=True,
    ),
)


# Line 313: "A three person game can be increased to five points minimum, if agreed by all."
THREE_PLAYER_FIVE_POINTS = {"scoring": {"players": 3, "go_out_minimum": [["points", 5]]}}


def three_player_five_point_minimum(rule: HouseRule, slug: str | None = None) -> HouseRule:
    """``rule`` for three players who agreed on a 5-point minimum (line 313)."""
    return rule.derive(slug or f"{rule.slug}-3-players-5-points", THREE_PLAYER_FIVE_POINTS)


def house_rules() -> tuple[HouseRule, ...]:
    return (BALSALL_COMMON,)
