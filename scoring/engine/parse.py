"""The contract's hand JSON (``shared/contract/README.md``, "A hand") to a ``Hand``.

Only the shape of the input is checked here: types, tile codes, winds, meld kinds and win
sources. Whether the tiles make a possible hand under a house rule is ``validate.py``'s job.
Whatever is given, the only exception that leaves ``parse_hand`` is ``HandError``, listing
every problem found.
"""

from __future__ import annotations

from typing import Any

from . import tiles as T
from .errors import HandError, ProblemList
from .hand import MELD_KINDS, WIN_SOURCES, Hand, Meld, Win

# More than any real hand can hold; beyond this the input is rejected without reading each
# element, so a pasted list of thousands of entries costs nothing.
MAX_TILES = 40
MAX_MELDS = 8

TILE_HELP = (
    "use b1-b9, c1-c9, d1-d9, we ws ww wn, dr dg dw, f1-f4, s1-s4, or a joker such as jb5 or j"
)
WIN_FLAGS = (
    "last_wall_tile",
    "last_discard",
    "robbed_kong",
    "kong_replacement",
    "original_call",
    "heavenly",
    "earthly",
    "second_kong_replacement",
)


def parse_hand(data: Any) -> Hand:
    """Build a ``Hand`` from the contract's JSON; raise ``HandError`` listing every problem."""
    problems = ProblemList()
    try:
        hand = _parse(data, problems)
    except HandError:
        raise
    except Exception as exc:  # a last guard: malformed input must never escape as a 500
        problems.add("", "invalid", f"The hand could not be read ({type(exc).__name__}); "
                     "send an object as in the contract's 'A hand'.")
        hand = None
    problems.raise_if_any()
    assert hand is not None
    return hand


def _parse(data: Any, problems: ProblemList) -> Hand | None:
    if not isinstance(data, dict):
        problems.add("", "wrong_type", f"A hand is a JSON object, not {_kind(data)}; send "
                     '{"seat_wind": "S", "prevailing_wind": "E", "mahjong": ..., ...}.')
        return None

    rules = data.get("rules")
    if rules is not None and not isinstance(rules, str):
        problems.add("rules", "wrong_type", "Give the house rule's slug as a string, e.g. \"bmja\".")
        rules = None

    seat = _wind(data, "seat_wind", problems)
    prevailing = _wind(data, "prevailing_wind", problems)
    mahjong = _flag(data, "mahjong", problems)
    goulash = _flag(data, "goulash", problems)
    fishing = _flag(data, "fishing", problems)

    melds = _melds(data.get("melds"), problems)
    concealed = _tile_list(data.get("concealed"), "concealed", problems)
    bonus = _tile_list(data.get("bonus"), "bonus", problems)

    players = data.get("players")
    if players is not None and (type(players) is not int or not 2 <= players <= 5):
        problems.add("players", "wrong_type", "Give the number of players at the table, 2 to 5.")
        players = None

    win = None
    raw_win = data.get("win")
    if mahjong:
        if raw_win is None:
            problems.add("win", "missing_field", "A Mah Jong hand needs 'win': the winning tile "
                         "and where it came from, e.g. {\"tile\": \"we\", \"from\": \"discard\"}.")
        else:
            win = _win(raw_win, problems)
    elif raw_win is not None:
        problems.add("win", "win_without_mahjong", "Only the Mah Jong hand has a winning tile: "
                     "remove 'win' or set \"mahjong\": true.")

    if problems:
        return None
    return Hand(
        seat_wind=seat,
        prevailing_wind=prevailing,
        mahjong=mahjong,
        melds=melds,
        concealed=concealed,
        bonus=bonus,
        win=win,
        goulash=goulash,
        fishing=fishing,
        rules=rules,
        players=players,
    )


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _wind(data: dict, field: str, problems: ProblemList) -> str:
    value = data.get(field)
    if value.__class__ is str and value in T.SEATS:  # the common, well-formed case
        return value
    if value is None:
        problems.add(field, "missing_field", f"Give '{field}': one of E, S, W, N.")
        return ""
    if isinstance(value, str) and value.strip().upper() in T.SEATS:
        return value.strip().upper()
    shown = repr(value) if isinstance(value, str) else _kind(value)
    problems.add(field, "bad_wind", f"{shown} is not a wind: use E, S, W or N.")
    return ""


def _flag(data: dict, field: str, problems: ProblemList, path: str | None = None) -> bool:
    value = data.get(field, False)
    if value is None:
        return False
    if type(value) is not bool:
        problems.add(path or field, "wrong_type", f"'{field}' is true or false, not {_kind(value)}.")
        return False
    return value


# Every code as commonly typed (b5, B5; we, WE, We; jb5, JB5, Jb5) to its contract form, so
# that well-formed input is read with one dictionary look-up per tile.
_ALL_CODES = (*T.PLAYING, *T.BONUS, T.JOKER, *(T.JOKER + c for c in T.PLAYING))
_SPELLINGS = {v: c for c in _ALL_CODES for v in (c, c.upper(), c.capitalize())}


def _tile(value: Any, path: str, problems: ProblemList, where: str = "") -> str | None:
    """A normalised tile code, or None after recording why it is not one."""
    if type(value) is str and value in _SPELLINGS:
        return _SPELLINGS[value]
    if not isinstance(value, str):
        problems.add(path, "wrong_type", f"A tile{where} is a code such as \"b5\", not "
                     f"{_kind(value)}; {TILE_HELP}.")
        return None
    code = T.normalise(value)
    if not T.is_known(code):
        problems.add(path, "unknown_tile", f"{value[:20]!r}{where} is not a tile: {TILE_HELP}.")
        return None
    return code


def _tile_list(value: Any, field: str, problems: ProblemList) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        problems.add(field, "wrong_type", f"'{field}' is a list of tile codes such as "
                     f"[\"b5\", \"we\"], not {_kind(value)}.")
        return ()
    if len(value) > MAX_TILES:
        problems.add(field, "wrong_tile_count", f"'{field}' holds {len(value)} tiles; a hand "
                     "holds at most 18. Send only the tiles of this player's hand.")
        return ()
    try:  # the common case: every entry a known code
        fast = [_SPELLINGS[item] for item in value]
    except (KeyError, TypeError):
        pass
    else:
        return tuple(fast)
    result = []
    for position, item in enumerate(value, start=1):
        code = _tile(item, field, problems, f" (tile {position})")
        if code is not None:
            result.append(code)
    return tuple(result)


def _melds(value: Any, problems: ProblemList) -> tuple[Meld, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        problems.add("melds", "wrong_type", "'melds' is a list of sets such as "
                     "[{\"kind\": \"pung\", \"tile\": \"b1\"}], not " + _kind(value) + ".")
        return ()
    if len(value) > MAX_MELDS:
        problems.add("melds", "too_many_melds", f"{len(value)} melds: a hand has at most five "
                     "sets (four and a pair). Send each declared set once.")
        return ()
    problems.list_sizes["melds"] = len(value)
    melds = []
    for i, raw in enumerate(value):
        meld = _meld(raw, f"melds.{i}", problems)
        if meld is not None:
            melds.append(meld)
    return tuple(melds)


def _meld(raw: Any, path: str, problems: ProblemList) -> Meld | None:
    if not isinstance(raw, dict):
        problems.add(path, "wrong_type", f"A meld is an object such as {{\"kind\": \"pung\", "
                     f"\"tile\": \"b1\", \"concealed\": false}}, not {_kind(raw)}.")
        return None
    before = len(problems.problems)
    kind = raw.get("kind")
    if kind is None:
        problems.add(f"{path}.kind", "missing_field", "Give the meld's 'kind': pung, kong, chow "
                     "or pair.")
    elif not isinstance(kind, str) or kind.strip().lower() not in MELD_KINDS:
        shown = repr(kind[:20]) if isinstance(kind, str) else _kind(kind)
        problems.add(f"{path}.kind", "bad_meld_kind", f"{shown} is not a kind of meld: use pung, "
                     "kong, chow or pair.")
    else:
        kind = kind.strip().lower()
    tile = raw.get("tile")
    if tile is None:
        problems.add(f"{path}.tile", "missing_field", "Give the meld's 'tile' (a chow's lowest "
                     "tile), e.g. \"b1\".")
    else:
        tile = _tile(tile, f"{path}.tile", problems)
    concealed = _flag(raw, "concealed", problems, f"{path}.concealed")
    added = _flag(raw, "added", problems, f"{path}.added")
    actual: tuple[str, ...] = ()
    if raw.get("tiles") is not None:
        actual = _tile_list(raw.get("tiles"), f"{path}.tiles", problems)
    if len(problems.problems) > before or kind is None or tile is None:
        return None
    return Meld(kind=kind, tile=tile, concealed=concealed, added=added, tiles=actual)



def _win(raw: Any, problems: ProblemList) -> Win | None:
    if not isinstance(raw, dict):
        problems.add("win", "wrong_type", "'win' is an object such as {\"tile\": \"we\", "
                     f"\"from\": \"discard\"}}, not {_kind(raw)}.")
        return None
    before = len(problems.problems)
    tile = raw.get("tile")
    if tile is not None:
        tile = _tile(tile, "win.tile", problems)
    source = raw.get("from", raw.get("source", "discard"))
    if not isinstance(source, str) or source.strip().lower() not in WIN_SOURCES:
        shown = repr(source[:20]) if isinstance(source, str) else _kind(source)
        problems.add("win.from", "bad_win_source", f"{shown} is not where a winning tile comes "
                     f"from: use {', '.join(WIN_SOURCES)}.")
    else:
        source = source.strip().lower()
    flags = {name: _flag(raw, name, problems, f"win.{name}") for name in WIN_FLAGS}
    if len(problems.problems) > before or source is None:
        return None
    return Win(tile=tile, source=source, **flags)
