"""Tile codes of the contract, their classes, and the small-int form the search works on.

Playing tiles are numbered 0-33 (bamboo 0-8, characters 9-17, circles 18-26, winds 27-30 in
the order E S W N, dragons 31-33 red green white) so that a hand becomes a count array of 34
entries; within a suit, ``index % 9`` is the number minus one. Flowers and seasons are not
playing tiles and never enter a count array.
"""

from __future__ import annotations

SUITS = ("b", "c", "d")
WIND_CODES = ("we", "ws", "ww", "wn")
DRAGON_CODES = ("dr", "dg", "dw")
HONOUR_CODES = WIND_CODES + DRAGON_CODES
SUIT_CODES = tuple(f"{s}{n}" for s in SUITS for n in range(1, 10))
PLAYING = SUIT_CODES + HONOUR_CODES  # index -> code
FLOWERS = ("f1", "f2", "f3", "f4")
SEASONS = ("s1", "s2", "s3", "s4")
BONUS = FLOWERS + SEASONS
JOKER = "j"  # an unassigned joker; "jb5" is a joker standing for b5

N_PLAYING = len(PLAYING)  # 34
INDEX = {code: i for i, code in enumerate(PLAYING)}
FIRST_HONOUR = 27

SEATS = ("E", "S", "W", "N")
SEAT_TO_WIND = dict(zip(SEATS, WIND_CODES, strict=True))
WIND_TO_SEAT = {wind: seat for seat, wind in SEAT_TO_WIND.items()}
# 004 Sheet 20 item 2: flowers and seasons 1-4 belong to East, South, West, North.
SEAT_NUMBER = {seat: n for n, seat in enumerate(SEATS, start=1)}
# The same as the digit of the seat's own flower and season code (f1, s1: East).
SEAT_DIGIT = {seat: str(n) for seat, n in SEAT_NUMBER.items()}
# The first letter of flower and season codes, by the kind a house rule names (None: both).
BONUS_PREFIXES = {"flower": ("f",), "season": ("s",), None: ("f", "s")}

# The tile classes as sets of codes (004 Sheet 1): majors are the ones, nines and honours.
SUIT_TILES = frozenset(SUIT_CODES)
HONOURS = frozenset(HONOUR_CODES)
WINDS = frozenset(WIND_CODES)
DRAGONS = frozenset(DRAGON_CODES)
TERMINALS = frozenset(f"{s}{n}" for s in SUITS for n in (1, 9))
MINORS = SUIT_TILES - TERMINALS
MAJORS = TERMINALS | HONOURS
BONUS_TILES = frozenset(BONUS)
GREENS = frozenset(("b2", "b3", "b4", "b6", "b8", "dg"))  # 004 Sheet 26, Imperial Jade
_PLAYING_SET = frozenset(PLAYING)
_ASSIGNED_JOKERS = frozenset(JOKER + code for code in PLAYING)

# Indices of the thirteen major tiles, in index order (004 Sheet 22, Thirteen Unique Wonders).
MAJOR_INDICES = tuple(i for i, code in enumerate(PLAYING) if code in MAJORS)
GREEN_INDICES = tuple(INDEX[c] for c in sorted(GREENS, key=INDEX.__getitem__))


def normalise(code: str) -> str:
    """The contract's lower-case form of a tile code given in any case."""
    return code.strip().lower()


def is_playing(code: str) -> bool:
    return code in _PLAYING_SET


def is_suit(code: str) -> bool:
    return code in SUIT_TILES


def is_honour(code: str) -> bool:
    return code in HONOURS


def is_wind(code: str) -> bool:
    return code in WINDS


def is_dragon(code: str) -> bool:
    return code in DRAGONS


def is_terminal(code: str) -> bool:
    """A 1 or a 9 of a suit."""
    return code in TERMINALS


def is_major(code: str) -> bool:
    """1s, 9s, winds and dragons."""
    return code in MAJORS


def is_minor(code: str) -> bool:
    """2 to 8 of a suit."""
    return code in SUIT_TILES and code not in TERMINALS


def is_bonus(code: str) -> bool:
    """A flower or a season."""
    return code in BONUS_TILES


def is_green(code: str) -> bool:
    """004 Sheet 26: the green tiles are the green dragon and 2, 3, 4, 6, 8 bamboo."""
    return code in GREENS


def is_joker(code: str) -> bool:
    """A bare joker ``j`` or one standing for a playing tile (``jb5``)."""
    return code == JOKER or code in _ASSIGNED_JOKERS


def joker_stands_for(code: str) -> str | None:
    """The tile an assigned joker stands for; None for a bare joker or any other code."""
    return code[1:] if code in _ASSIGNED_JOKERS else None


def is_known(code: str) -> bool:
    """Any code of the contract: a playing tile, a flower or season, or a joker."""
    return code in _PLAYING_SET or code in BONUS_TILES or is_joker(code)


def suit_of(code: str) -> str | None:
    """``b``, ``c`` or ``d`` for a suit tile, None for anything else."""
    return code[0] if code in SUIT_TILES else None


def number_of(code: str) -> int | None:
    """1-9 for a suit tile; the flower/season number 1-4 for a bonus tile; None otherwise."""
    if code in SUIT_TILES or code in BONUS_TILES:
        return int(code[1])
    return None


def wind_of_seat(seat: str) -> str:
    """The wind tile of a seat or round wind: ``E`` -> ``we``."""
    return SEAT_TO_WIND[seat]


def seat_of_wind(code: str) -> str:
    """The seat wind of a wind tile: ``we`` -> ``E``."""
    return WIND_TO_SEAT[code]


def own_bonus_number(seat: str) -> int:
    """The flower/season number that belongs to a seat (004 Sheet 20): E=1, S=2, W=3, N=4."""
    return SEAT_NUMBER[seat]


def is_own_bonus(code: str, seat: str) -> bool:
    return code in BONUS_TILES and int(code[1]) == SEAT_NUMBER[seat]


def index_of(code: str) -> int:
    """The 0-33 index of a playing tile (KeyError for anything else)."""
    return INDEX[code]


def code_of(index: int) -> str:
    return PLAYING[index]


def chow_tiles(code: str) -> tuple[str, str, str]:
    """The three tiles of the chow whose lowest tile is ``code`` (a suit tile 1-7)."""
    i = INDEX[code]
    return PLAYING[i], PLAYING[i + 1], PLAYING[i + 2]


def can_start_chow(code: str) -> bool:
    return code in SUIT_TILES and int(code[1]) <= 7


def counts(tiles) -> list[int]:
    """A 34-entry count array of playing tiles (other codes are ignored)."""
    result = [0] * N_PLAYING
    for code in tiles:
        i = INDEX.get(code)
        if i is not None:
            result[i] += 1
    return result


def sort_key(code: str) -> tuple[int, str]:
    """Order tiles as a player racks them: suits, winds, dragons, then bonus and jokers."""
    i = INDEX.get(code)
    if i is not None:
        return (i, code)
    if code in BONUS_TILES:
        return (N_PLAYING + BONUS.index(code), code)
    return (N_PLAYING + len(BONUS), code)


def sorted_tiles(tiles) -> tuple[str, ...]:
    return tuple(sorted(tiles, key=sort_key))
