"""Typed hand text to the contract's hand JSON, for scorers entering a hand on a phone.

A scorer types three short fields instead of building JSON:

- melds: ``pung b1, kong b9 exposed, kong dr concealed, chow c2`` — sets declared on the table,
  separated by commas or new lines; a set is exposed unless it says ``concealed``; a kong may say
  ``added`` (the fourth tile drawn and added to an exposed pung);
- concealed: ``b6 b6 b6 we we`` — the tiles still held (commas or spaces between them);
- bonus: ``f2 s2`` — flowers and seasons.

Plain Python (no Django) so it can be tested on its own and reused by the tap palette's
fallback. Errors name the word that is wrong and say how to mend it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

SUITS = "bcd"
HONOURS = ("we", "ws", "ww", "wn", "dr", "dg", "dw")
BONUS_TILES = tuple(f"f{n}" for n in range(1, 5)) + tuple(f"s{n}" for n in range(1, 5))
PLAYING_TILES = tuple(f"{s}{n}" for s in SUITS for n in range(1, 10)) + HONOURS
MELD_KINDS = ("pung", "kong", "chow", "pair")
# Words a scorer may add after a meld's tile, and what each sets.
MELD_FLAGS = {
    "exposed": {"concealed": False},
    "open": {"concealed": False},
    "claimed": {"concealed": False},
    "concealed": {"concealed": True},
    "hidden": {"concealed": True},
    "added": {"concealed": False, "added": True},
}

_SEPARATORS = re.compile(r"[\s,;]+")


class HandTextError(ValueError):
    """What is wrong with the typed text: ``errors`` maps a field name to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


@dataclass
class _Errors:
    by_field: dict[str, list[str]] = field(default_factory=dict)
    legend_given: bool = False

    def add(self, name: str, message: str) -> None:
        self.by_field.setdefault(name, []).append(message)

    def not_a_tile(self, word: str) -> str:
        """'x9' is not a tile, with the list of tile codes the first time only: a hand with
        three typos gets the legend once, not three times on a phone's screen."""
        if self.legend_given:
            return f"'{word}' is not a tile either."
        self.legend_given = True
        return _tile_hint(word)


def is_tile(code: str) -> bool:
    """A playing tile, a flower or season, or a joker (``j`` or ``j`` + the tile it stands for)."""
    if code in PLAYING_TILES or code in BONUS_TILES:
        return True
    return code == "j" or (code.startswith("j") and code[1:] in PLAYING_TILES)


# Other names players use for sets (Cantonese/Japanese, and a common misspelling).
KIND_SYNONYMS = {"pong": "pung", "kan": "kong", "chi": "chow", "chee": "chow", "eyes": "pair"}


def _did_you_mean(word: str, choices) -> str:
    """' (did you mean pung?)' for a near miss, else ''."""
    word = word.lower()
    guess = KIND_SYNONYMS.get(word) or next(
        iter(difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)), None
    )
    return f" Did you mean '{guess}'?" if guess else ""


def _tile_hint(word: str) -> str:
    return (
        f"'{word}' is not a tile: use b1-b9, c1-c9, d1-d9, winds we ws ww wn, "
        "dragons dr dg dw, flowers f1-f4, seasons s1-s4, or a joker j / jb5."
    )


def _words(text: str):
    return (word for word in _SEPARATORS.split((text or "").strip()) if word)


def _collected(parse, text: str, name: str, errors: _Errors | None):
    """``parse`` run into ``errors``; called on its own (no ``errors``), it raises what it
    found, so one field can be checked alone and three together (``parse_hand_text``)."""
    collected = _Errors() if errors is None else errors
    result = parse(text, name, collected)
    if errors is None and collected.by_field:
        raise HandTextError(collected.by_field)
    return result


def parse_tiles(text: str, name: str = "concealed", errors: _Errors | None = None) -> list[str]:
    """``"b6 b6, WE"`` -> ``["b6", "b6", "we"]``; flowers and seasons are not held tiles."""
    return _collected(_held_tiles, text, name, errors)


def parse_bonus(text: str, name: str = "bonus", errors: _Errors | None = None) -> list[str]:
    """``"f2 s2"`` -> ``["f2", "s2"]``; only flowers and seasons belong here."""
    return _collected(_bonus_tiles, text, name, errors)


def parse_melds(text: str, name: str = "melds", errors: _Errors | None = None) -> list[dict]:
    """``"pung b1, kong b9 concealed"`` -> the contract's meld objects, in the order typed."""
    return _collected(_melds, text, name, errors)


def _held_tiles(text: str, name: str, errors: _Errors) -> list[str]:
    tiles: list[str] = []
    for word in _words(text):
        code = word.lower()
        if not is_tile(code):
            errors.add(name, errors.not_a_tile(word))
        elif code in BONUS_TILES:
            errors.add(name, f"'{word}' is a flower or season: put it under bonus tiles instead.")
        else:
            tiles.append(code)
    return tiles


def _bonus_tiles(text: str, name: str, errors: _Errors) -> list[str]:
    tiles: list[str] = []
    for word in _words(text):
        code = word.lower()
        if code in BONUS_TILES:
            tiles.append(code)
        elif is_tile(code):
            errors.add(name, f"'{word}' is not a flower or season: bonus tiles are f1-f4 and s1-s4.")
        else:
            errors.add(name, errors.not_a_tile(word))
    return tiles


def _melds(text: str, name: str, errors: _Errors) -> list[dict]:
    melds: list[dict] = []
    for part in re.split(r"[,;\n]+", text or ""):
        words = part.split()
        if not words:
            continue
        meld = _parse_meld(words, name, errors)
        if meld is not None:
            melds.append(meld)
    return melds


def _parse_meld(words: list[str], name: str, errors: _Errors) -> dict | None:
    typed = " ".join(words)
    kind = words[0].lower()
    if kind not in MELD_KINDS:
        errors.add(
            name,
            f"'{words[0]}' in '{typed}' is not a set: start each set with pung, kong, chow or pair, "
            "e.g. 'pung b1'." + _did_you_mean(kind, MELD_KINDS),
        )
        return None
    if len(words) < 2:
        errors.add(name, f"'{typed}' needs its tile, e.g. '{kind} b1'.")
        return None
    tile = words[1].lower()
    if not is_tile(tile) or tile in BONUS_TILES:
        errors.add(name, f"In '{typed}': " + errors.not_a_tile(words[1]))
        return None
    if kind == "chow" and tile[:1] not in SUITS:
        errors.add(name, f"In '{typed}': a chow is a run in one suit; give its lowest tile, e.g. 'chow c2'.")
        return None
    if kind == "chow" and tile[1:].isdigit() and int(tile[1:]) > 7:
        errors.add(name, f"In '{typed}': a chow is given by its lowest tile, 1 to 7 (e.g. 'chow c7' is c7 c8 c9).")
        return None
    meld: dict = {"kind": kind, "tile": tile, "concealed": False}
    for word in words[2:]:
        flag = word.lower()
        if flag not in MELD_FLAGS:
            errors.add(
                name,
                f"'{word}' in '{typed}' is not understood: after the tile you may write exposed, "
                "concealed or (for a kong) added." + _did_you_mean(flag, MELD_FLAGS),
            )
            return None
        if flag == "added" and kind != "kong":
            errors.add(name, f"In '{typed}': only a kong can be 'added' to an exposed pung.")
            return None
        meld.update(MELD_FLAGS[flag])
    return meld


def parse_hand_text(melds: str = "", concealed: str = "", bonus: str = "") -> dict:
    """The three typed fields as the contract's ``melds``, ``concealed`` and ``bonus``.

    Raises ``HandTextError`` with every problem found, keyed by the field it is in.
    """
    errors = _Errors()
    result = {
        "melds": parse_melds(melds, "melds", errors),
        "concealed": parse_tiles(concealed, "concealed", errors),
        "bonus": parse_bonus(bonus, "bonus", errors),
    }
    if errors.by_field:
        raise HandTextError(errors.by_field)
    return result


def melds_to_text(melds: list[dict]) -> str:
    """The inverse of ``parse_melds``, to show a saved hand in the same words it was typed."""
    words = []
    for meld in melds:
        text = f"{meld['kind']} {meld['tile']}"
        if meld.get("concealed"):
            text += " concealed"
        elif meld.get("added"):
            text += " added"
        words.append(text)
    return ", ".join(words)
