"""The ``bmja`` house rule: the U3A course "Mah Jong - game of the Four Winds" (rule document
``004``), based on the British Mah Jong Association's rules.

Every item names the sheet it comes from. Where the course is silent or clubs differ, the
reading chosen is an argument or a switch a club can change, listed in ``DESCRIPTION``.
"""

from __future__ import annotations

from fractions import Fraction

from .model import HouseRule, Item, PaymentParams, RotationParams, ScoringParams

LIMIT = Fraction(1)
HALF = Fraction(1, 2)
ONE_FIFTH = Fraction(1, 5)
TWO_FIFTHS = Fraction(2, 5)
PUNG_OR_KONG = ("pung", "kong")

DESCRIPTION = (
    "British Mah Jong Association rules as taught in the U3A course 'Mah Jong - game of the "
    "Four Winds' (004). Every hand is scored; the winner is paid by all, East pays and receives "
    "double, and the other players settle their differences. Limit 1000 for special hands; "
    "ordinary hands are not capped (Sheet 31 item 11). One chow per hand, none in a goulash "
    "(Sheet 10), and then no 'no chows' double (Sheet 19 hand 3). Flowers and seasons 4 points "
    "each; with a limit hand they are added on top, their own doubles applying to the flower "
    "total only (Sheet 21 item 6), and likewise on top of a fishing part-score. "
    "A losing hand with too few tiles (a kong or flower not replaced) is counted as it is, as "
    "Sheet 30 item 1 allows; one with too many is refused (switch count_short_losing_hands). "
    "A hand that is not four sets and a pair is a Mah Jong only as one of the special hands "
    "below (seven pairs must be All Pair Honours, Sheet 22). "
    "A special hand that is also four sets and a pair scores its ordinary value instead when "
    "that is greater, as ordinary hands may pass the limit (switch "
    "special_or_ordinary_if_greater; four concealed wind kongs score 4,864, not 1,000). "
    "Readings chosen where the course is silent or clubs differ: "
    "the 2 points for a winning tile 'drawn from the wall (ie not from a discard)' include a "
    "tile from the kong box (item wall_tile); "
    "a bouquet's two doubles include the own flower's or season's double (items "
    "bouquet_flowers/bouquet_seasons replace own_flower/own_season); "
    "'If you are East: one double' (Sheet 17) is kept as item east with no double, because "
    "East's advantage is the double payment (Sheet 21 item 7) - give it doubles 1 to count both; "
    "Purity's three doubles replace the clean-hand double; "
    "a hand that claims Heaven's Blessing ('the 14 tiles dealt to East': East, from the wall, "
    "no exposed set and no kong) or Earth's Blessing ('with the first discard made by East': "
    "South, West or North, on a discard) against its own facts is refused with the reason, "
    "never scored as an ordinary hand; "
    "Purity is a special hand (Sheet 23), so 'We use 1000 in special hands' caps it at the "
    "limit, flowers and seasons added on top as for the other limit hands, and fishing for "
    "Purity likewise (item field capped_at_limit; false lets Purity pass the limit through "
    "its doubles as an ordinary hand may); "
    "Wriggling Snake's pair must be the ones (argument pair='any' allows any tile of the suit, "
    "Sheet 31 item 8); Imperial Jade needs no pung of green dragons (argument "
    "dragon_pung_required, Sheet 31 item 9); Three Great Scholars' other pung and pair are of "
    "one suit (argument rest_one_suit); a part-score other than Sheet 28's replaces the hand's "
    "actual value (switch fishing_actual_if_greater)."
)


def _points(code: str, wording: str, rule: str, points: int, **args) -> Item:
    return Item.with_args(code, wording, rule, args,
                          points=points, source="004 Sheet 14")


def _set_points() -> tuple[Item, ...]:
    """Sheet 14's table: exposed and concealed pungs and kongs of minor and major tiles."""
    items = [_points("chow", "Chow", "sets", 0, kind="chow")]
    table = (("pung", "minor", 2), ("pung", "major", 4), ("kong", "minor", 8),
             ("kong", "major", 16))
    tile_words = {"minor": "minor tiles (2-8)", "major": "major tiles (1s, 9s, winds & dragons)"}
    for kind, tiles, exposed in table:
        for concealed, points in ((False, exposed), (True, exposed * 2)):
            how = "concealed" if concealed else "exposed"
            items.append(_points(f"{kind}_{tiles}_{how}",
                                 f"{how.capitalize()} {kind} of {tile_words[tiles]}", "sets",
                                 points, kind=kind, tiles=tiles, concealed=concealed))
    return tuple(items)


def _double(code: str, wording: str, rule: str, *, who: str = "all", doubles: int = 1,
            replaces: tuple[str, ...] = (), **args) -> Item:
    return Item.with_args(code, wording, rule, args,
                          doubles=doubles, who=who, replaces=replaces, source="004 Sheet 17")


def _special(code: str, wording: str, rule: str, limit: Fraction, sheet: str,
             fishing: Fraction | None = None, actual_if_greater: bool = False, **args) -> Item:
    return Item.with_args(code, wording, rule, args,
                          limit=limit, who="mahjong", fishing_limit=fishing,
                          fishing_actual_if_greater=actual_if_greater, source=f"004 {sheet}")


ITEMS: tuple[Item, ...] = (
    # -- Sheet 14: points, for every player --------------------------------------------------
    *_set_points(),
    _points("bonus_tile", "For each flower or season", "bonus_tiles", 4),
    _points("pair_dragons", "For a pair of any dragon", "pairs", 2, tiles="dragon"),
    _points("pair_own_wind", "For a pair of your own wind", "pairs", 2, tiles="own_wind"),
    _points("pair_round_wind", "For a pair of the wind of the round", "pairs", 2,
            tiles="round_wind"),
    Item("mahjong", "Going Mah Jong", "mahjong", points=20, who="mahjong",
         source="004 Sheet 14"),
    Item("wall_tile", "Final tile drawn from the wall (not from a discard)", "win",
         args=(("source", ("wall", "kong_box")),), points=2, who="mahjong",
         source="004 Sheet 14"),
    # -- Sheet 17: doubles for all players ---------------------------------------------------
    _double("dragon_set", "Pung/kong of dragons", "sets", kind=PUNG_OR_KONG, tiles="dragon"),
    _double("own_wind_set", "Pung/kong of your own wind", "sets", kind=PUNG_OR_KONG,
            tiles="own_wind"),
    _double("round_wind_set", "Pung/kong of the wind of the round", "sets", kind=PUNG_OR_KONG,
            tiles="round_wind"),
    _double("own_flower", "Your own flower", "own_bonus", kind="flower"),
    _double("own_season", "Your own season", "own_bonus", kind="season"),
    _double("bouquet_flowers", "Full set of flowers (bouquet), including the own-flower double",
            "bouquet", doubles=2, replaces=("own_flower",), kind="flower"),
    _double("bouquet_seasons", "Full set of seasons, including the own-season double",
            "bouquet", doubles=2, replaces=("own_season",), kind="season"),
    # -- Sheet 17: doubles for the Mah Jong player -------------------------------------------
    _double("clean", "Clean hand: all one suit with winds and dragons", "one_suit",
            who="mahjong"),
    _double("no_chows", "No chows", "no_chows", who="mahjong"),
    _double("all_concealed", "All concealed", "all_concealed", who="mahjong"),
    _double("all_majors", "All majors (ones, nines, winds and dragons)", "all_majors",
            who="mahjong"),
    _double("east", "If you are East (off: East's advantage is the double payment)", "seat",
            who="mahjong", doubles=0, wind="E"),
    _double("last_wall_tile", "Mah Jong with the last tile from the wall", "win",
            who="mahjong", fact="last_wall_tile"),
    _double("last_discard", "Mah Jong with the final discard", "win", who="mahjong",
            fact="last_discard"),
    _double("kong_box", "Mah Jong with a tile from the kong box", "win", who="mahjong",
            fact="kong_box"),
    _double("robbed_kong", "Mah Jong by robbing the kong", "win", who="mahjong",
            fact="robbed_kong"),
    _double("original_call", "Mah Jong on the original call (fishing after your first discard)",
            "win", who="mahjong", fact="original_call"),
    # -- Sheets 22-28: special hands ---------------------------------------------------------
    _special("all_pair_honours", "All Pair Honours: seven pairs of ones, nines, winds or "
             "dragons", "all_pair_honours", HALF, "Sheet 22", ONE_FIFTH),
    _special("thirteen_unique_wonders", "13 Unique Wonders: one of every major tile and any "
             "major as the 14th", "thirteen_orphans", LIMIT, "Sheet 22", TWO_FIFTHS),
    Item("purity", "Purity: four pungs/kongs and a pair all of one suit, doubled three times",
         "purity", doubles=3, who="mahjong", fishing_doubles=3, replaces=("clean",),
         capped_at_limit=True, source="004 Sheet 23"),
    _special("wriggling_snake", "Wriggling Snake: one of each wind, a pair of ones and a run "
             "of 2-9 in one suit", "wriggling_snake", LIMIT, "Sheet 23", TWO_FIFTHS, pair="one"),
    _special("knitting", "Knitting: seven pairs of one number in two suits", "knitting", HALF,
             "Sheet 24", ONE_FIFTH),
    _special("triple_knitting", "Triple Knitting: four sets of one number in the three suits "
             "and a mixed pair", "triple_knitting", HALF, "Sheet 24", ONE_FIFTH),
    _special("buried_treasure", "Buried Treasure: four concealed pungs of one suit with "
             "winds/dragons and a pair, all from the wall", "buried_treasure", LIMIT,
             "Sheet 25", TWO_FIFTHS),
    _special("fourfold_plenty", "Fourfold Plenty: four kongs and a pair", "fourfold_plenty",
             LIMIT, "Sheet 25", TWO_FIFTHS),
    _special("imperial_jade", "Imperial Jade: pungs/kongs and a pair of green tiles",
             "imperial_jade", LIMIT, "Sheet 26", TWO_FIFTHS, dragon_pung_required=False),
    _special("all_winds_and_dragons", "All Winds and Dragons: pungs/kongs and a pair of winds "
             "and dragons", "all_winds_and_dragons", LIMIT, "Sheet 26", TWO_FIFTHS),
    _special("heads_and_tails", "Heads and Tails: pungs/kongs and a pair of ones and nines",
             "heads_and_tails", LIMIT, "Sheet 27", TWO_FIFTHS),
    _special("gates_of_heaven", "Gates of Heaven: concealed pungs of 1s and 9s, a run 2-8 and "
             "one more tile, one suit", "gates_of_heaven", LIMIT, "Sheet 27", TWO_FIFTHS),
    _special("three_great_scholars", "Three Great Scholars: pungs/kongs of all three dragons, "
             "a pung/kong and a pair in one suit", "three_great_scholars", LIMIT, "Sheet 28",
             TWO_FIFTHS, actual_if_greater=True, rest_one_suit=True),
    _special("four_blessings", "Four Blessings Hovering over the Door: pungs/kongs of the four "
             "winds and a pair", "four_blessings", LIMIT, "Sheet 28", TWO_FIFTHS,
             actual_if_greater=True),
    # -- Sheet 29: no part-score for fishing ------------------------------------------------
    _special("heavens_blessing", "Heaven's Blessing: East's dealt fourteen tiles are Mah Jong",
             "win", LIMIT, "Sheet 29", fact="heavenly", seat="E"),
    _special("earths_blessing", "Earth's Blessing: Mah Jong with East's first discard", "win",
             LIMIT, "Sheet 29", fact="earthly", seat=("S", "W", "N"), source="discard"),
    _special("twofold_fortune", "Twofold Fortune: Mah Jong with the replacement for a second "
             "kong", "win", LIMIT, "Sheet 29", fact="second_kong_replacement"),
    _special("plum_blossom", "Gathering the Plum Blossom from the Roof: Mah Jong with the 5 "
             "circles from the kong box", "win", LIMIT, "Sheet 29", fact="kong_box", tile="d5"),
    _special("moon_from_the_sea", "Plucking the Moon from the Bottom of the Sea: Mah Jong with "
             "the 1 circle as the last tile from the wall", "win", LIMIT, "Sheet 29",
             fact="last_wall_tile", tile="d1"),
)

BMJA = HouseRule(
    slug="bmja",
    name="BMJA (British Mah Jong Association, U3A course)",
    description=DESCRIPTION,
    source="004_fe9869fe8404f158.txt (Sheets 10, 14, 17, 19, 21-31)",
    version=1,
    scoring=ScoringParams(
        limit=1000,
        cap_ordinary_hands=False,  # Sheet 31 item 11
        max_chows=1,  # Sheet 10
        goulash_max_chows=0,
        limit_hand_adds_bonus_tiles=True,  # Sheet 21 item 6
        special_or_ordinary_if_greater=True,  # Sheet 31 item 11
        fishing_part_scores=True,  # Sheets 21-29
        count_short_losing_hands=True,  # Sheet 30 item 1
        wild_tiles="b2",  # Sheet 11 item 4
    ),
    items=ITEMS,
    payment=PaymentParams(),
    rotation=RotationParams(),
)


def house_rules() -> tuple[HouseRule, ...]:
    return (BMJA,)
