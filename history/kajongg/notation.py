"""KDE Kajongg's hand strings read into the calculator contract's hand JSON (plain Python).

A Kajongg string is groups separated by spaces: exposed sets in lower case (``c1c1c1`` a
pung, ``s1s2s3`` a chow, ``b3b3b3b3`` a kong; ``b3B3B3b3`` a concealed kong, ``c3c3c3C3`` a
kong made from an exposed pung), concealed sets declared in upper case (``DgDgDg``), the rest
of the concealed tiles after ``R``, flowers and seasons (``fe``, ``ys``), a Mah Jong group
after ``m`` (how the last tile came and what was announced), and ``L`` with the last tile and
the set it completed. Tiles are a suit letter and a value: ``s`` stones (the contract's
``d``ots), ``b`` bamboos, ``c`` characters, ``w`` winds (``e s w n``), ``d`` dragons (``b``
white, ``r`` red, ``g`` green); ``f``/``y`` flowers and seasons by wind (East 1 ... North 4).

What the contract cannot state is refused with a reason (``Untranslatable``): a knitted
triple, an exposed set of a shape the contract lacks. The importer then keeps the score
Kajongg gave as an agreed score. The translation is held to Kajongg's own test hands in
``../shared/reference/kajongg-bmja-cases.json`` (``tests/history/test_kajongg.py``).
"""

from __future__ import annotations

WIND_NUMBER = {"e": "1", "s": "2", "w": "3", "n": "4"}
DRAGONS = {"b": "dw", "r": "dr", "g": "dg"}
SUITS = {"s": "d", "b": "b", "c": "c"}
WIN_FLAGS = {
    "z": {"last_wall_tile": True},
    "Z": {"last_discard": True},
    "e": {"kong_replacement": True},
    "t": {"kong_replacement": True, "second_kong_replacement": True},
    "k": {"robbed_kong": True},
}


class Untranslatable(ValueError):
    """The string cannot be put in the contract's terms; the message says why."""


def tile(code: str) -> str:
    """One Kajongg tile (two letters, either case) as the contract's code."""
    suit, value = code[0].lower(), code[1].lower()
    if suit in SUITS and value in "123456789":
        return SUITS[suit] + value
    if suit == "w" and value in WIND_NUMBER:
        return "w" + value
    if suit == "d" and value in DRAGONS:
        return DRAGONS[value]
    if suit == "f" and value in WIND_NUMBER:
        return "f" + WIND_NUMBER[value]
    if suit == "y" and value in WIND_NUMBER:
        return "s" + WIND_NUMBER[value]
    raise Untranslatable(f"{code!r} is not a Kajongg tile")


def _pairs(group: str) -> list[str]:
    if len(group) % 2:
        raise Untranslatable(f"{group!r} is not a whole number of tiles")
    return [group[i:i + 2] for i in range(0, len(group), 2)]


def _meld(codes: list[str]):
    """(kind, first tile, concealed) of a declared set, or None for loose tiles."""
    tiles = [tile(c) for c in codes]
    upper = [c[0].isupper() for c in codes]
    same = len(set(tiles)) == 1
    if len(codes) == 4 and same:
        return "kong", tiles[0], upper[1] and upper[2] and not upper[0] and not upper[3]
    if len(codes) == 3 and same:
        return "pung", tiles[0], all(upper)
    if len(codes) == 3 and tiles[0][0] in "bcd" and tiles[0][0] == tiles[1][0] == tiles[2][0]:
        values = sorted(int(t[1]) for t in tiles)
        if values == list(range(values[0], values[0] + 3)):
            return "chow", f"{tiles[0][0]}{values[0]}", all(upper)
    return None


def translate(data: str, seat_wind: str, prevailing_wind: str, won: bool | None = None) -> dict:
    """The contract's hand for a Kajongg string; ``won``: whether Kajongg scored it as the
    winner's (None: read from the string)."""
    melds, concealed, bonus, claimed_pair = [], [], [], False
    last_tile, last_meld, source = None, None, None
    flags, announced = {}, False
    for group in data.split():
        head = group[0]
        if head == "R":
            concealed += [tile(c) for c in _pairs(group[1:])]
        elif head == "L":
            codes = _pairs(group[1:])
            if codes:
                last_tile, last_meld = codes[0], codes[1:]
        elif head in "mM":
            source = group[1:2]
            announced = "a" in group[2:]
            for char in group[1:]:
                flags.update(WIN_FLAGS.get(char, {}))
        elif head in "fy":
            bonus.append(tile(group))
        else:
            codes = _pairs(group)
            if len(codes) == 2 and codes[0] == codes[1] and codes[0][0].isupper():
                melds.append({"kind": "pair", "tile": tile(codes[0]), "concealed": True,
                              "_codes": codes})
                continue
            meld = _meld(codes)
            if meld is None:
                if all(c[0].isupper() for c in codes) or len(codes) <= 2:
                    # An exposed pair or single tile (claimed for Mah Jong: the contract
                    # states no exposed pair), or loose concealed tiles.
                    concealed += [tile(c) for c in codes]
                    claimed_pair = claimed_pair or codes[0][0].islower()
                    continue
                raise Untranslatable(f"the exposed group {group!r} is no pung, kong or chow")
            kind, first, hidden = meld
            melds.append({"kind": kind, "tile": first, "concealed": hidden, "_codes": codes})
    mahjong = won if won is not None else (source is not None or bool(last_meld))
    hand = {"seat_wind": seat_wind, "prevailing_wind": prevailing_wind, "mahjong": mahjong,
            "melds": melds, "concealed": concealed, "bonus": bonus, "goulash": False,
            # A losing hand with a last tile named is one Kajongg scored as fishing.
            "fishing": not mahjong and last_tile is not None}
    if mahjong:
        win = {"tile": tile(last_tile) if last_tile else None}
        from_discard = last_tile is not None and last_tile[0].islower()
        if last_meld and from_discard:
            # The set the claimed tile completed: the contract gives it as concealed tiles
            # and the win's source, and the engine reads it as exposed.
            key = [c.lower() for c in last_meld]
            for m in melds:
                if [c.lower() for c in m["_codes"]] == key:
                    melds.remove(m)
                    concealed += [tile(c) for c in m["_codes"]]
                    break
        if source == "1" and last_tile is None:
            win["from"] = "wall"
            win["heavenly" if seat_wind == "E" else "earthly"] = True
        elif source == "1":
            win["from"] = "discard"
            win["earthly"] = True
        elif from_discard and "robbed_kong" not in flags:
            flags = {k: v for k, v in flags.items() if "kong_replacement" not in k}
            win["from"] = "discard"
        elif flags.get("kong_replacement"):
            win["from"] = "kong_box"
        elif source == "k":
            win["from"] = "robbed_kong"
        elif last_tile is None:
            # No last tile named: a pair exposed for Mah Jong was claimed from a discard.
            win["from"] = "discard" if claimed_pair else "wall"
        else:
            win["from"] = "wall"
        win.update(flags)
        if announced:
            win["original_call"] = True
        hand["win"] = win
    for m in melds:
        del m["_codes"]
    return hand


def win_source_of(data: str) -> str:
    """How a Mah Jong hand's last tile came, read from the string alone (for a string the
    contract cannot state), as ``translate`` reads it: a robbed kong from its ``m`` group; a
    discard when the last tile (after ``L``) is written exposed (lower case); a kong's
    replacement from the ``m`` group; else the wall."""
    groups = data.split()
    flags = set(next((g for g in groups if g[0] in "mM"), "")[1:])
    last = next((g for g in groups if g[0] == "L" and len(g) >= 3), "")
    if "k" in flags:
        return "robbed_kong"
    if last[1:2].islower():
        return "discard"
    if flags & {"e", "t"}:
        return "kong_box"
    if not last and any(len(g) == 4 and g[:2] == g[2:] and g[0] in "bcdsw" for g in groups):
        return "discard"  # a pair exposed for Mah Jong was claimed (as ``translate`` reads it)
    return "wall"
