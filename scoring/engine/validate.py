"""Whether a parsed hand can be what it claims under a house rule.

Checks what a table would check before scoring: no fifth copy of a tile, the right number of
tiles, chows only where the rule allows them, wild tiles only in a goulash that has them and
never more in a set than the rule allows. Every problem is listed (``HandError``), each with
the path of the field at fault and a sentence saying how to mend it.
"""

from __future__ import annotations

from . import tiles as T
from .errors import HandError, Problem, ProblemList
from .hand import MELD_KINDS, WIN_SOURCES, Hand, Meld
from .rules.model import HouseRule

MAHJONG_TILES = 14
LOSING_TILES = 13
SET_SIZE = {"pung": 3, "kong": 4, "chow": 3, "pair": 2}
# A kong holds four tiles but counts as three towards the fourteen of a Mah Jong hand.
COUNTED_SIZE = {"pung": 3, "kong": 3, "chow": 3, "pair": 2}


def wild_mode(hand: Hand, rule: HouseRule) -> str | None:
    """Which wild tiles this hand may use: "b2", "joker" or None (only ever in a goulash)."""
    return rule.scoring.wild_tiles if hand.goulash else None


def is_wild_in(code: str, natural: str | None, mode: str | None) -> bool:
    """Whether ``code`` stands in as a wild tile where ``natural`` is the tile the set needs.

    A 2 bamboo in a set of 2 bamboo is itself (004 Sheet 11 item 10), not a wild tile.
    """
    if mode == "joker":
        return T.is_joker(code)
    if mode == "b2":
        return code == "b2" and natural != "b2"
    return False


def meld_naturals(meld: Meld) -> tuple[str, ...]:
    """The tiles a meld stands for, without wild tiles: b5 b5 b5, or a chow's run."""
    if meld.kind == "chow":
        return T.chow_tiles(meld.tile)
    return (meld.tile,) * SET_SIZE[meld.kind]


def meld_wild_count(meld: Meld, mode: str | None) -> int:
    """How many wild tiles stand in a declared meld (0 when its tiles are not given)."""
    if not meld.tiles or mode is None:
        return 0
    wild = 0
    needed = list(meld_naturals(meld))
    for code in meld.tiles:
        if code in needed:
            needed.remove(code)
        elif is_wild_in(code, meld.tile, mode):
            wild += 1
    return wild


def wild_limit(kind: str, rule: HouseRule) -> int:
    s = rule.scoring
    return {"pair": s.wild_max_in_pair, "kong": s.wild_max_in_kong}.get(kind, s.wild_max_in_pung)


def validate_hand(hand: Hand, rule: HouseRule, *, allow_short_losing: bool | None = None
                  ) -> None:
    """Raise ``HandError`` listing every reason ``hand`` is impossible under ``rule``.

    ``allow_short_losing`` accepts a losing hand with fewer than 13 tiles (004 Sheet 30: a
    player with too few tiles may still count the score); by default the house rule's
    switch ``scoring.count_short_losing_hands`` decides.
    """
    if allow_short_losing is None:
        allow_short_losing = rule.scoring.count_short_losing_hands
    problems, sizes = _problems(hand, *_rule_args(rule.scoring, hand.goulash),
                                allow_short_losing)
    problems = (*problems, *win_fact_problems(hand, rule))
    if problems:
        raise HandError(list(problems), sizes)


def _rule_args(s, goulash: bool) -> tuple[str | None, int | None, dict[str, int]]:
    """What the checks read of a house rule's parameters, for a goulash or not: its wild
    tiles, the chows allowed, the wild tiles allowed in each kind of set."""
    limits = {"pair": s.wild_max_in_pair, "pung": s.wild_max_in_pung,
              "chow": s.wild_max_in_pung, "kong": s.wild_max_in_kong}
    return (s.wild_tiles if goulash else None, s.goulash_max_chows if goulash else s.max_chows,
            limits)


def _problems(hand: Hand, mode: str | None, max_chows: int | None, limits: dict[str, int],
              allow_short: bool) -> tuple[tuple[Problem, ...], dict[str, int]]:
    """Every problem of ``hand``, with the sizes of its list fields."""
    problems = ProblemList()
    problems.list_sizes["melds"] = len(hand.melds)
    _check_winds(hand, problems)
    physical = [0] * T.N_PLAYING
    counted = _check_melds(hand, max_chows, limits, mode, physical, problems)
    counted += _check_concealed(hand, mode, physical, problems)
    _check_bonus(hand, problems)
    _check_copies(hand, physical, problems)
    _check_count(hand, counted, allow_short, problems)
    _check_win(hand, mode, problems)
    return tuple(problems.problems), problems.list_sizes


def _check_winds(hand: Hand, problems: ProblemList) -> None:
    for field in ("seat_wind", "prevailing_wind"):
        value = getattr(hand, field)
        if value not in T.SEATS:
            problems.add(field, "bad_wind", f"{value!r} is not a wind: use E, S, W or N.")


def _check_melds(hand: Hand, max_chows: int | None, limits: dict[str, int], mode: str | None,
                 physical: list[int], problems: ProblemList) -> int:
    counted = chows = pairs = 0
    for i, meld in enumerate(hand.melds):
        path = f"melds.{i}"
        if meld.kind not in MELD_KINDS:
            problems.add(f"{path}.kind", "bad_meld_kind",
                         f"{meld.kind!r} is not a kind of meld: use pung, kong, chow or pair.")
            continue
        counted += COUNTED_SIZE[meld.kind]
        if T.is_bonus(meld.tile):
            problems.add(f"{path}.tile", "bonus_not_playable", f"{meld.tile} is a flower or "
                         "season: put it in 'bonus', never in a set.")
            continue
        if not T.is_playing(meld.tile):
            problems.add(f"{path}.tile", "unknown_tile", f"{meld.tile!r} is not a playing tile: "
                         "give the set's own tile, e.g. \"b5\" (a joker goes in 'tiles').")
            continue
        if meld.added and meld.kind != "kong":
            problems.add(f"{path}.added", "bad_added", "Only a kong is made by adding a tile: "
                         "remove 'added' or make the meld a kong.")
        if meld.added and meld.concealed:
            problems.add(f"{path}.added", "bad_added", "A kong is either concealed (drawn to a "
                         "concealed pung) or added to an exposed pung, not both.")
        if meld.kind == "chow":
            chows += 1
            if not T.is_suit(meld.tile):
                problems.add(f"{path}.tile", "chow_on_honours", f"A chow of {meld.tile}: winds "
                             "and dragons cannot form chows (004 Sheet 10). Make it a pung.")
                continue
            if not T.can_start_chow(meld.tile):
                problems.add(f"{path}.tile", "chow_out_of_sequence", f"A chow starting at "
                             f"{meld.tile} runs past 9: give the run's lowest tile, 1 to 7.")
                continue
        if meld.kind == "pair":
            pairs += 1
        naturals = meld_naturals(meld)
        if meld.tiles:
            _check_meld_tiles(meld, path, limits[meld.kind], mode, naturals, physical,
                                  problems)
        else:
            for code in naturals:
                physical[T.INDEX[code]] += 1
    if chows and max_chows is not None and chows > max_chows:
        if hand.goulash and max_chows == 0:
            problems.add("melds", "chow_in_goulash", "Chows are not allowed in a goulash "
                         "(004 Sheet 11 item 11): make the sets pungs or kongs.")
        elif max_chows == 0:
            problems.add("melds", "too_many_chows", "This house rule allows no chows (e.g. a "
                         "game for two or three players): make the sets pungs or kongs.")
        else:
            problems.add("melds", "too_many_chows", f"{chows} chows: this house rule allows "
                         f"{max_chows} in a hand. Make the others pungs or kongs.")
    if pairs > 1:
        problems.add("melds", "too_many_pairs", f"{pairs} pairs among the melds: a hand has one "
                     "pair. Leave other pairs among the concealed tiles.")
    return counted


def _check_meld_tiles(meld: Meld, path: str, limit: int, mode: str | None,
                      naturals: tuple[str, ...], physical: list[int],
                      problems: ProblemList) -> None:
    size = SET_SIZE[meld.kind]
    if len(meld.tiles) != size:
        problems.add(f"{path}.tiles", "wrong_tile_count", f"A {meld.kind} has {size} tiles, "
                     f"not {len(meld.tiles)}: list each tile of the set once.")
        return
    needed = list(naturals)
    wild = 0
    for code in meld.tiles:
        if code in needed:
            needed.remove(code)
            physical[T.INDEX[code]] += 1
        elif T.is_joker(code) and mode != "joker":
            problems.add(f"{path}.tiles", "joker_not_allowed", _joker_message(mode))
            return
        elif is_wild_in(code, meld.tile, mode) and (T.joker_stands_for(code) in (None, *needed)):
            wild += 1
            if code == "b2":
                physical[T.INDEX["b2"]] += 1
            stands_for = T.joker_stands_for(code)
            if stands_for is not None:
                physical[T.INDEX[stands_for]] += 1
                needed.remove(stands_for)
        else:
            problems.add(f"{path}.tiles", "meld_tiles_mismatch", f"{code} does not belong in a "
                         f"{meld.kind} of {meld.tile}: list the set's own tiles"
                         + (" and wild tiles." if mode else "."))
            return
    if wild and wild >= size:
        problems.add(f"{path}.tiles", "wild_only_set", f"A {meld.kind} of wild tiles only is "
                     "not allowed (001, 'How wild tiles can be used'): it needs a real tile.")
    elif wild > limit:
        problems.add(f"{path}.tiles", "too_many_jokers", f"{wild} wild tiles in a {meld.kind}: "
                     f"this house rule allows {limit}. Use real tiles for the rest.")


def _joker_message(mode: str | None) -> str:
    if mode == "b2":
        return ("Jokers are not played under this house rule: in a goulash the 2 bamboo are "
                "the wild tiles. Replace the joker with the tile it stands for.")
    return ("Jokers are only played in a goulash whose house rule uses them: replace the joker "
            "with the tile it stands for, or mark the hand as a goulash.")


def _check_concealed(hand: Hand, mode: str | None, physical: list[int],
                     problems: ProblemList) -> int:
    jokers_reported = False
    for code in hand.concealed:
        i = T.INDEX.get(code)
        if i is not None:
            physical[i] += 1
        elif T.is_bonus(code):
            problems.add("concealed", "bonus_not_playable", f"{code} is a flower or season: it "
                         "is not held in the hand. Move it to 'bonus'.")
        elif T.is_joker(code):
            if mode != "joker":
                if not jokers_reported:
                    problems.add("concealed", "joker_not_allowed", _joker_message(mode))
                    jokers_reported = True
            elif (stands_for := T.joker_stands_for(code)) is not None:
                physical[T.INDEX[stands_for]] += 1
        else:
            problems.add("concealed", "unknown_tile", f"{code!r} is not a tile: use b1-b9, c1-c9,"
                         " d1-d9, we ws ww wn, dr dg dw, or a joker such as jb5.")
    return len(hand.concealed)


def _check_bonus(hand: Hand, problems: ProblemList) -> None:
    seen: set[str] = set()
    for code in hand.bonus:
        if not T.is_bonus(code):
            problems.add("bonus", "not_bonus", f"{code} is not a flower or season: only f1-f4 "
                         "and s1-s4 go in 'bonus'; put playing tiles in 'concealed' or a meld.")
        elif code in seen:
            problems.add("bonus", "fifth_copy", f"{code} twice: there is only one of each "
                         "flower and season.")
        seen.add(code)


def _check_copies(hand: Hand, physical: list[int], problems: ProblemList) -> None:
    if max(physical) <= 4:
        return
    in_concealed = set(hand.concealed)
    for i, n in enumerate(physical):
        if n > 4:
            code = T.PLAYING[i]
            path = "concealed" if code in in_concealed or "j" + code in in_concealed else "melds"
            problems.add(path, "fifth_copy", f"{_nth_copy(n)} {code}: a set has only four of "
                         "each tile. Check the melds and the concealed tiles for a mistyped tile.")


def _nth_copy(n: int) -> str:
    """'A fifth', 'An eighth', 'An 11th', 'A 21st': the article and ordinal of the n-th copy."""
    words = {5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth"}
    if n in words:
        ordinal = words[n]
    else:
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        ordinal = f"{n}{suffix}"
    # "An" where the number is said with a vowel first: eight..., eleven..., eighteen...
    digits = str(n)
    vowel = digits[0] == "8" or (len(digits) % 3 == 2 and digits[:2] in ("11", "18"))
    return f"{'An' if vowel else 'A'} {ordinal}"


def _check_count(hand: Hand, counted: int, allow_short: bool, problems: ProblemList) -> None:
    path = "concealed"
    if hand.mahjong and counted != MAHJONG_TILES:
        problems.add(path, "wrong_tile_count", f"A Mah Jong hand has 14 playing tiles (a kong "
                     f"counts as 3); this one has {counted}. Check the melds and concealed tiles"
                     " (the winning tile belongs among them).")
    elif not hand.mahjong:
        if counted > LOSING_TILES or (counted < LOSING_TILES and not allow_short):
            short = (" This house rule does not count a losing hand with too few tiles (its "
                     "switch count_short_losing_hands, 004 Sheet 30 item 1)."
                     if counted < LOSING_TILES else "")
            problems.add(path, "wrong_tile_count", f"A hand that did not go Mah Jong has 13 "
                         f"playing tiles (a kong counts as 3); this one has {counted}. Check the "
                         f"melds and concealed tiles; flowers and seasons go in 'bonus'.{short}")


def _check_win(hand: Hand, mode: str | None, problems: ProblemList) -> None:
    win = hand.win
    if not hand.mahjong:
        if win is not None:
            problems.add("win", "win_without_mahjong", "Only the Mah Jong hand has a winning "
                         "tile: remove 'win' or set mahjong.")
        return
    if win is None:
        problems.add("win", "missing_field", "A Mah Jong hand needs 'win': the winning tile and "
                     "where it came from.")
        return
    if win.source not in WIN_SOURCES:
        problems.add("win.from", "bad_win_source", f"{win.source!r} is not where a winning tile"
                     f" comes from: use {', '.join(WIN_SOURCES)}.")
    tile = win.tile
    if tile is None:
        return
    if T.is_bonus(tile):
        problems.add("win.tile", "bonus_not_playable", f"{tile} is a flower or season: it cannot"
                     " complete a hand. Give the playing tile that made Mah Jong.")
        return
    if tile in hand.concealed:
        return
    for meld in hand.melds:
        if meld.kind in SET_SIZE and T.is_playing(meld.tile) and (
                tile in (meld.tiles or ()) or (not meld.tiles and tile in _safe_naturals(meld))):
            return
    problems.add("win.tile", "win_tile_missing", f"The winning tile {tile} is not in the hand: "
                 "it must be among the concealed tiles or in the set it completed.")


def _safe_naturals(meld: Meld) -> tuple[str, ...]:
    if meld.kind == "chow" and not T.can_start_chow(meld.tile):
        return ()
    return meld_naturals(meld)


# -- facts that contradict the hand (004 Sheet 29) --------------------------------------------

_SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
_WON = {"wall": "won with a tile drawn from the wall", "discard": "won on a discard",
        "kong_box": "won with a tile from the kong box", "robbed_kong": "won by robbing a kong"}
# What each fact claims, in the words of 004 Sheet 29 (002's heavenly and earthly hands say
# the same of the deal), and the name used where the house rule has no item for it.
_FACT_CLAIMS = {"heavenly": ("Mah Jong with the 14 tiles dealt to East", "A heavenly hand"),
                "earthly": ("Mah Jong by South, West or North on their first turn",
                            "An earthly hand")}


def win_fact_problems(hand: Hand, rule: HouseRule) -> list[Problem]:
    """A Mah Jong whose claimed ``heavenly`` or ``earthly`` fact its own tiles or win deny.

    Heaven's Blessing is East's dealt fourteen tiles, so it is East's, from the wall, with no
    exposed set and no kong (a kong's replacement was not dealt); Earth's Blessing is claimed
    by South, West or North, from the source the house rule's item names (004: East's first
    discard, so a discard). A contradiction is an error with the reason, never a silent
    ordinary score (the calculator contract: a hand that cannot be what it claims)."""
    win = hand.win
    if not hand.mahjong or win is None or not (win.heavenly or win.earthly):
        return []
    problems = []
    for fact in ("heavenly", "earthly"):
        if not getattr(win, fact):
            continue
        items = [item for item in rule.items if item.rule == "win"
                 and fact in _as_tuple(item.kwargs.get("fact"))]
        claim, name = _FACT_CLAIMS[fact]
        if items:
            name = items[0].wording.split(":")[0].strip()
        why = []
        seat = hand.seat_wind
        if fact == "heavenly" and seat != "E":
            why.append(f"this is {_SEAT_NAMES.get(seat, seat)}'s hand")
        if fact == "earthly" and seat == "E":
            why.append("this is East's hand, and East makes that discard")
        sources = ("wall",) if fact == "heavenly" else _item_sources(items)
        if fact == "earthly" and sources == ("discard",):
            claim = "Mah Jong with the first discard made by East"
        if sources is not None and win.source not in sources:
            why.append(f"it was {_WON.get(win.source, win.source)}")
        if fact == "heavenly":
            if any(not m.concealed for m in hand.melds):
                why.append("it has an exposed set")
            if any(m.kind == "kong" for m in hand.melds):
                why.append("it has a kong, whose replacement tile was not dealt")
        if why:
            problems.append(Problem(
                f"win.{fact}", f"contradicts_{fact}",
                f"{name} is {claim} ({_fact_source(items)}), but {' and '.join(why)}. Remove "
                f"'{fact}', or correct the hand."))
    return problems


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _item_sources(items) -> tuple[str, ...] | None:
    """The winning tile's sources the house rule's items for a fact accept (None: any)."""
    sources: set[str] = set()
    for item in items:
        wanted = item.kwargs.get("source")
        if wanted is None:
            return None
        sources.update(_as_tuple(wanted))
    return tuple(sources) if sources else None


def _fact_source(items) -> str:
    return items[0].source if items and items[0].source else "004 Sheet 29"
