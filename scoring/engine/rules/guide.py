"""The ``guide`` house rule: the general guide to Mahjong (rule document ``002``).

Only the winner scores. Every table row of the guide is one item carrying both its points and
its doublings (a concealed minor pong: 4 points and 1 doubling); "automatically score maximum
points" is the limit. Each item names the line of the document it comes from.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .model import HouseRule, Item, PaymentParams, RotationParams, ScoringParams

SOURCE = "002_1b03d2f4abf31b8e.txt"
MAXIMUM = Fraction(1)
PUNG_OR_KONG = ("pung", "kong")

DESCRIPTION = (
    "The general guide to Mahjong (002_1b03d2f4abf31b8e.txt). Only the player who goes "
    "Mahjong scores (lines 205, 460): 20 for Mahjong, 22 when the winning tile is drawn from "
    "the wall, 10 more for a concealed hand, then the basic-score tables' points for pongs, "
    "kongs, lucky pairs and flowers and seasons (2 each), each set also bringing the "
    "doublings its row gives. "
    "The score is the points doubled once per doubling, capped at the limit of 2,000 (lines "
    "477-478, 'often set at 2,000'; set scoring.limit to change it). 'Automatically score "
    "maximum points' is read as the limit. Payments follow the guide's table: the dealer pays "
    "and receives double, a discarder pays double and alone (lines 512-545); each player "
    "starts with 2,000 (lines 281-283). Any number of chows; no minimum to go out. "
    "Readings chosen where the guide is unclear: the flower that brings a doubling is the "
    "player's own (East 1 ... North 4), although line 920 names the prevailing wind - a club "
    "that reads it so sets the own_flower item's argument wind to 'round'; 'Four Seasons' and "
    "'Four Flowers (Bouquet)' give one doubling per tile, four in all, which includes the own "
    "season's or flower's doubling; 'One Suit Only' gives the 8 doublings its row says "
    "(reaching the limit); 'Three Consecutive Chows' are chows each one higher than the last "
    "(argument step); 'No Points' is four chows and a pair that scores nothing; a special hand "
    "that scores the maximum scores exactly the limit, flowers included. The winner deals "
    "next and the seat winds stay; the wind of the round stays the same until the first four "
    "games are over and moves on when the dealer loses the 5th game or any later one (lines "
    "442-443; rotation.wind_moves_on 'after_games_per_wind'; a club whose wind moves on when "
    "the dealer loses the 4th game sets it to 'at_games_per_wind'). The guide has no "
    "goulash and no fishing part-scores."
)


def _item(code: str, wording: str, rule: str, line: str, *, points: int = 0, doubles: int = 0,
          who: str = "mahjong", limit: Fraction | None = None, replaces: tuple[str, ...] = (),
          **args: Any) -> Item:
    return Item.with_args(code, wording, rule, args,
                          points=points, doubles=doubles, limit=limit, who=who, replaces=replaces,
                          source=f"002 line {line}")


def _set_rows() -> tuple[Item, ...]:
    """The basic-score tables (lines 641-894): melded and concealed points and doublings."""
    rows = (
        # code, wording, rule, line, args, (melded points, doublings), (concealed ...)
        ("minor_pung", "Pong of minor tiles (2-8)", "sets", "675",
         {"kind": "pung", "tiles": "minor"}, (2, 0), (4, 1)),
        ("minor_kong", "Kong of minor tiles (2-8)", "sets", "683",
         {"kind": "kong", "tiles": "minor"}, (8, 1), (16, 1)),
        ("terminal_pung", "Pong of terminals (1s and 9s)", "sets", "715",
         {"kind": "pung", "tiles": "terminal"}, (4, 0), (8, 1)),
        ("terminal_kong", "Kong of terminals (1s and 9s)", "sets", "724",
         {"kind": "kong", "tiles": "terminal"}, (16, 1), (32, 1)),
        ("wind_pung", "Pong of winds (neither your own nor the prevailing wind)", "wind_sets",
         "782", {"kind": "pung", "lucky": 0}, (4, 0), (8, 1)),
        ("lucky_wind_pung", "Lucky pong: your own or the prevailing wind", "wind_sets",
         "792, 802", {"kind": "pung", "lucky": 1}, (4, 1), (8, 1)),
        ("double_wind_pung", "Double wind pong: your own and the prevailing wind",
         "wind_sets", "815", {"kind": "pung", "lucky": 2}, (8, 2), (16, 2)),
        ("wind_kong", "Kong of winds (neither your own nor the prevailing wind)", "wind_sets",
         "823", {"kind": "kong", "lucky": 0}, (16, 1), (32, 1)),
        ("lucky_wind_kong", "Lucky kong: your own or the prevailing wind", "wind_sets",
         "825-842", {"kind": "kong", "lucky": 1}, (16, 2), (32, 2)),
        ("double_wind_kong", "Double wind kong: your own and the prevailing wind",
         "wind_sets", "855", {"kind": "kong", "lucky": 2}, (32, 4), (64, 4)),
        ("dragon_pung", "Lucky pong of dragons", "sets", "886",
         {"kind": "pung", "tiles": "dragon"}, (4, 2), (8, 2)),
        ("dragon_kong", "Lucky kong of dragons", "sets", "894",
         {"kind": "kong", "tiles": "dragon"}, (16, 2), (32, 2)),
    )
    items = []
    for code, wording, rule, line, args, melded, concealed in rows:
        for hidden, (points, doubles) in ((False, melded), (True, concealed)):
            suffix = "concealed" if hidden else "melded"
            items.append(_item(f"{code}_{suffix}", f"{wording}, {suffix}", rule, line,
                               points=points, doubles=doubles, concealed=hidden, **args))
    return tuple(items)


ITEMS: tuple[Item, ...] = (
    # -- Mahjong bonus table, lines 548-638 ---------------------------------------------------
    _item("mahjong", "Mahjong", "mahjong", "462, 573", points=20),
    _item("wall_draw", "Mahjong - winning tile drawn from the wall (22 in all)", "win", "578",
          points=2, source="wall"),
    _item("concealed", "Mahjong - concealed hand (20 + 10)", "all_concealed", "583-586",
          points=10),
    _item("last_wall_tile", "Last wall tile", "win", "588-595", doubles=1,
          fact="last_wall_tile"),
    _item("last_discard", "Last discarded tile", "win", "597-607", doubles=1,
          fact="last_discard"),
    _item("robbing_a_kong", "Robbing a kong", "win", "609-619", doubles=1, fact="robbed_kong"),
    _item("heavenly_hand", "Heavenly hand: the dealer is dealt Mahjong", "win", "621-628",
          limit=MAXIMUM, fact="heavenly", seat="E"),
    _item("earthly_hand", "Earthly hand: Mahjong on the first turn", "win", "630-638",
          limit=MAXIMUM, fact="earthly", seat=("S", "W", "N")),
    # -- basic scoring, lines 641-894 ---------------------------------------------------------
    *_set_rows(),
    _item("lucky_wind_pair", "Lucky pair: your own or the prevailing wind", "wind_sets",
          "749-761", points=2, kind="pair", lucky=1),
    _item("double_wind_pair", "Double wind pair: your own and the prevailing wind",
          "wind_sets", "763-774", points=4, kind="pair", lucky=2),
    _item("dragon_pair", "Lucky pair of dragons", "pairs", "871-878", points=2,
          tiles="dragon"),
    # -- flowers and seasons, lines 897-945 ---------------------------------------------------
    _item("bonus_tile", "Each season or flower", "bonus_tiles", "903-905", points=2),
    _item("own_season", "Corresponding season (your own wind)", "wind_bonus", "907-914",
          doubles=1, kind="season", wind="own"),
    _item("own_flower", "Corresponding flower (your own wind; line 920 says the prevailing)",
          "wind_bonus", "916-923", doubles=1, kind="flower", wind="own"),
    _item("four_seasons", "Four seasons: 1 doubling per tile", "bouquet", "943", doubles=4,
          replaces=("own_season",), kind="season"),
    _item("four_flowers", "Four flowers (bouquet): 1 doubling per tile", "bouquet", "945",
          doubles=4, replaces=("own_flower",), kind="flower"),
    # -- special hands by doublings, lines 948-1067 -------------------------------------------
    _item("no_points", "No points: only the 20 for Mahjong, no scoring sets", "no_points_hand",
          "961-965", doubles=1),
    _item("all_simples", "All simples: minor tiles 2-8 only", "only_tiles", "967", doubles=1,
          tiles="minor"),
    _item("three_consecutive_chows", "Three consecutive chows in the same suit",
          "shifted_chows", "969-972", doubles=1, count=3, step=1),
    _item("four_triplets_1", "Four triplets, fewer than 3 concealed", "set_mix", "974-978",
          doubles=1, pungs=4, concealed_pungs=(0, 2)),
    _item("three_and_one", "Three and one: three concealed pongs and a chow", "set_mix",
          "980", doubles=1, concealed_pungs=3, chows=1),
    _item("four_triplets_2", "Four triplets, 3 concealed", "set_mix", "982-986", doubles=2,
          pungs=4, concealed_pungs=3),
    _item("one_suit_only", "One suit only", "one_suit", "988-992", doubles=8,
          honours=False),
    _item("all_honours_terminals", "All honours/terminals", "only_tiles", "1036-1042",
          doubles=1, tiles="major"),
    _item("honour_terminal_each_set", "Honour/terminal in each set", "each_set_has",
          "1044-1051", doubles=1, tiles="major"),
    _item("one_suit_with_honours", "One suit with honours", "one_suit", "1053-1059",
          doubles=1, honours=True),
    _item("little_three_dragons", "Little three dragons: two pongs and a pair of dragons",
          "family_sets", "1061-1067", doubles=1, family="dragon", count=2, pair=True),
    # -- special hands at the maximum, lines 994-1121 -----------------------------------------
    _item("four_triplets_3", "Four triplets, all concealed", "set_mix", "994-1000",
          limit=MAXIMUM, pungs=4, concealed_pungs=4),
    _item("four_concealed_triplets", "Four concealed triplets (no kongs)", "set_mix",
          "1002-1011", limit=MAXIMUM, pungs=4, concealed_pungs=4, kongs=0),
    _item("nine_gates", "Nine gates", "gates_of_heaven", "1013-1023", limit=MAXIMUM),
    _item("big_three_dragons", "Big three dragons", "family_sets", "1069-1074",
          limit=MAXIMUM, family="dragon", count=3),
    _item("little_four_winds", "Little four winds", "family_sets", "1076-1084",
          limit=MAXIMUM, family="wind", count=3, pair=True),
    _item("big_four_winds", "Big four winds", "family_sets", "1086-1091", limit=MAXIMUM,
          family="wind", count=4),
    _item("all_honours", "All honours", "all_winds_and_dragons", "1093-1098", limit=MAXIMUM),
    _item("all_terminals", "All terminals", "heads_and_tails", "1100-1105", limit=MAXIMUM),
    _item("thirteen_orphans", "Thirteen orphans", "thirteen_orphans", "1107-1120",
          limit=MAXIMUM),
)

GUIDE = HouseRule(
    slug="guide",
    name="General guide (only the winner scores)",
    description=DESCRIPTION,
    source=f"{SOURCE} (Calculating Scores, Mahjong Bonus, Basic Scoring, Special Hands)",
    version=1,
    scoring=ScoringParams(
        limit=2000,
        cap_ordinary_hands=True,
        only_winner_scores=True,
        use_doubles=True,
        max_chows=None,
        goulash_max_chows=None,
        go_out_minimum=(),
        limit_hand_adds_bonus_tiles=False,
        fishing_part_scores=False,
        wild_tiles=None,
    ),
    items=ITEMS,
    payment=PaymentParams(
        scheme="winner_table",
        east_multiplier=2,
        discarder_multiplier=2,
        losers_settle_differences=False,
        starting_tally=2000,
    ),
    rotation=RotationParams(
        scheme="winner_deals",
        max_consecutive_dealer=None,
        goulash_after_draw=False,
        games_per_wind=4,
        wind_moves_on="after_games_per_wind",
    ),
    # 002's "Score Sheet": each player's running tally, everyone from 2,000.
    score_sheet="tally",
)


def house_rules() -> tuple[HouseRule, ...]:
    return (GUIDE,)
