"""The ``west-wind-goulash`` house rule: a club's West Wind Round (rule document ``000``).

Every hand of the West round, and any hand after a wall game, is a goulash: pungs and kongs
only, ending in a pair, at least 3 doubles. Line 31 is the points table, line 32 the doubles
table; each item names its row. A session uses it as its goulash rule (``goulash_rule``).
"""

from __future__ import annotations

from typing import Any

from .model import HouseRule, Item, PaymentParams, RotationParams, ScoringParams

SOURCE = "000_af6e52a887d8d887.txt"
PUNG_OR_KONG = ("pung", "kong")

DESCRIPTION = (
    "The West Wind Round (000_af6e52a887d8d887.txt): the goulash of the club's game, played "
    "for every hand of the "
    "West round and after any wall game. Pungs and kongs only, ending in a pair: no chows, "
    "crochet, knitting, jokers or buying (lines 7, 30). A hand needs at least 3 doubles to go "
    "out. Points (line 31): majors (winds, dragons, 1s, 9s) exposed pung 4, concealed 8, "
    "exposed kong 16, concealed 32, any major pair 2; minors half that; each flower or season "
    "4; Mahjong 20. Doubles (line 32) add up. Payments: all pay the winner, East double; the "
    "kitty of 500 each when the goulash follows a draw, 1,000 more each after another draw, "
    "claimed by the outright winner (line 19); a real bouquet is paid 1,000 and a double "
    "bouquet 5,000 by every player except the one who went Mahjong (line 33); a losing clean "
    "hand covering 3 doubles is paid its count by the other losers (line 34). "
    "Readings chosen where the document is unclear: 'a further 1000 is added' (line 19) is "
    "read as 1,000 more from each player (payment.kitty_after_another_draw, per player like "
    "the 500); 'One suit with Honours' is 1 double, as "
    "the examples say ('1 double + 2 more doubles needed', line 15), though the table lists it "
    "among the 3-double hands - a club that reads the table sets items.one_suit_with_honours."
    "doubles to 3; 'All Honours (3+)' and 'One Suit (3+)' are three or more pungs/kongs of "
    "honours, or of one suit; the complete hands (all honours, pure suit, one suit with "
    "honours) replace those partial doubles; 'Pungs/Kongs of 1s and 9s' is one double per "
    "set; the three- and four-set rows (kongs, hidden pungs, hidden kongs, winds) add up, so "
    "four kongs have 3 + 2 doubles; hidden pungs do not count concealed kongs; 'East collects "
    "it' means East holds the kitty until an outright winner claims it; the clean hand's count "
    "is its own score (payment.clean_hand_pays_score; set it false and clean_hand_count to pay "
    "a fixed count). 000 names no limit: ordinary hands are not capped, and the limit of 1,000 "
    "is kept for any special hand a club adds. 'May not end an Honour hand with a Terminal "
    "pair' is left to the table."
)


def _points(code: str, wording: str, rule: str, points: int, **args: Any) -> Item:
    return Item.with_args(code, wording, rule, args,
                          points=points, source="000 line 31")


def _double(code: str, wording: str, rule: str, doubles: int = 1, *,
            replaces: tuple[str, ...] = (), **args: Any) -> Item:
    return Item.with_args(code, wording, rule, args,
                          doubles=doubles, replaces=replaces, source="000 line 32")


def _set_points() -> tuple[Item, ...]:
    items = []
    for tiles, words, exposed_pung in (("major", "Majors", 4), ("minor", "Minors", 2)):
        for kind, exposed in (("pung", exposed_pung), ("kong", exposed_pung * 4)):
            for concealed, points in ((False, exposed), (True, exposed * 2)):
                how = "concealed" if concealed else "exposed"
                items.append(_points(f"{tiles}_{kind}_{how}", f"{words}: {how} {kind}",
                                     "sets", points, kind=kind, tiles=tiles,
                                     concealed=concealed))
    return tuple(items)


ITEMS: tuple[Item, ...] = (
    # -- basic points, line 31 ----------------------------------------------------------------
    *_set_points(),
    _points("major_pair", "Majors: pair", "pairs", 2, tiles="major"),
    _points("bonus_tile", "Each flower", "bonus_tiles", 4),
    Item("mahjong", "Mahjong", "mahjong", points=20, who="mahjong", source="000 line 31"),
    # -- doubles, line 32, in its order -------------------------------------------------------
    _double("all_honours", "All pungs/kongs of honours", "all_winds_and_dragons", 3,
            replaces=("three_honour_sets",)),
    _double("pure_suit", "Pure suit (one suit, no honours)", "one_suit", 3,
            replaces=("three_sets_one_suit",), honours=False),
    _double("one_suit_with_honours", "One suit with honours", "one_suit", 1,
            replaces=("three_sets_one_suit",), honours=True),
    _double("four_kongs", "Four kongs", "set_count", 2, kind="kong", count=4),
    _double("four_hidden_pungs", "Four hidden pungs", "set_count", 2, kind="pung",
            concealed=True, count=4),
    _double("three_honour_sets", "All honours (3+): three pungs/kongs of honours",
            "set_count", tiles="honour", count=(3, 4)),
    _double("three_sets_one_suit", "One suit (3+): three pungs/kongs of one suit",
            "suit_sets", count=(3, 4)),
    _double("all_majors", "All majors", "all_majors"),
    _double("terminal_set", "Pung/kong of 1s or 9s", "sets", kind=PUNG_OR_KONG,
            tiles="terminal"),
    _double("own_wind_set", "Pung of own wind", "sets", kind=PUNG_OR_KONG, tiles="own_wind"),
    _double("round_wind_set", "Pung of round wind", "sets", kind=PUNG_OR_KONG,
            tiles="round_wind"),
    _double("dragon_set", "Pung of dragon", "sets", kind=PUNG_OR_KONG, tiles="dragon"),
    _double("three_dragon_sets", "Three pungs/kongs of dragons", "set_count", tiles="dragon",
            count=3),
    _double("three_wind_sets", "Three pungs/kongs of winds", "set_count", tiles="wind",
            count=(3, 4)),
    _double("three_hidden_pungs", "Three hidden pungs", "set_count", kind="pung",
            concealed=True, count=(3, 4)),
    _double("own_bonus", "Own flower/season", "wind_bonus", wind="own"),
    _double("round_bonus", "Round flower/season", "wind_bonus", wind="round"),
    _double("bouquet", "Bouquet", "bouquet", 3, kind=None),
    _double("four_hidden_kongs", "Four hidden kongs", "set_count", 4, kind="kong",
            concealed=True, count=4),
    _double("three_kongs", "Three kongs", "set_count", 3, kind="kong", count=(3, 4)),
    _double("three_hidden_kongs", "Three hidden kongs", "set_count", 2, kind="kong",
            concealed=True, count=(3, 4)),
    _double("four_wind_sets", "Four pungs/kongs of winds", "set_count", 2, tiles="wind",
            count=4),
    _double("heads_and_tails", "Heads and tails (1s and 9s only)", "heads_and_tails", 3),
)

WEST_WIND_GOULASH = HouseRule(
    slug="west-wind-goulash",
    name="West Wind Round goulash (pungs and kongs, 3 doubles, kitty)",
    description=DESCRIPTION,
    source=f"{SOURCE} (whole document)",
    version=1,
    scoring=ScoringParams(
        limit=1000,
        cap_ordinary_hands=False,
        only_winner_scores=False,
        use_doubles=True,
        max_chows=0,
        goulash_max_chows=0,
        go_out_minimum=(("doubles", 3),),
        goulash_go_out_minimum=(("doubles", 3),),
        limit_hand_adds_bonus_tiles=True,
        fishing_part_scores=False,
        wild_tiles=None,
    ),
    items=ITEMS,
    payment=PaymentParams(
        scheme="goulash_kitty",
        east_multiplier=2,
        losers_settle_differences=False,
        kitty_per_player=500,
        kitty_after_another_draw=1000,
        bouquet_payment=1000,
        double_bouquet_payment=5000,
        clean_hand_pays_score=True,
    ),
    rotation=RotationParams(scheme="bmja", goulash_winds=("W",)),
)


def house_rules() -> tuple[HouseRule, ...]:
    return (WEST_WIND_GOULASH,)
