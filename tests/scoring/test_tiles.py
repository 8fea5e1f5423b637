"""Tile codes of the contract (shared/contract/README.md, "Tile codes") and their classes."""

from scoring.engine import tiles as T


def test_thirty_four_playing_tiles_in_index_order():
    assert len(T.PLAYING) == 34
    assert T.PLAYING[0] == "b1" and T.PLAYING[26] == "d9" and T.PLAYING[33] == "dw"
    assert all(T.index_of(code) == i for i, code in enumerate(T.PLAYING))


def test_normalise_any_case():
    assert T.normalise(" B5 ") == "b5"
    assert T.normalise("WE") == "we"
    assert T.normalise("JB5") == "jb5"


def test_classes_of_tiles():
    assert T.is_suit("c7") and not T.is_suit("we")
    assert T.is_honour("dr") and T.is_honour("wn") and not T.is_honour("b1")
    assert T.is_wind("ws") and not T.is_wind("dw")
    assert T.is_dragon("dg") and not T.is_dragon("wn")
    assert T.is_terminal("d9") and T.is_terminal("b1") and not T.is_terminal("b2")
    assert not T.is_terminal("we")
    assert T.is_bonus("f3") and T.is_bonus("s4") and not T.is_bonus("b3")
    assert T.is_minor("c5") and not T.is_minor("c9")


def test_majors_are_ones_nines_winds_dragons():
    """004 Sheet 22: major tiles are ones, nines, winds and dragons (13 kinds)."""
    majors = [code for code in T.PLAYING if T.is_major(code)]
    assert majors == ["b1", "b9", "c1", "c9", "d1", "d9", "we", "ws", "ww", "wn", "dr", "dg", "dw"]
    assert tuple(T.index_of(c) for c in majors) == T.MAJOR_INDICES


def test_green_tiles_sheet_26():
    """004 Sheet 26: green dragon and 2, 3, 4, 6, 8 bamboo."""
    assert sorted(c for c in T.PLAYING if T.is_green(c)) == ["b2", "b3", "b4", "b6", "b8", "dg"]


def test_suit_and_number():
    assert T.suit_of("d4") == "d" and T.number_of("d4") == 4
    assert T.suit_of("we") is None and T.number_of("dr") is None
    assert T.number_of("s3") == 3


def test_jokers():
    assert T.is_joker("j") and T.is_joker("jb5") and T.is_joker("jdw")
    assert not T.is_joker("jf1") and not T.is_joker("jj") and not T.is_joker("b5")
    assert T.joker_stands_for("jb5") == "b5" and T.joker_stands_for("j") is None
    assert T.is_known("jwe") and not T.is_known("x1") and not T.is_known("b0")


def test_seat_winds_and_own_bonus_sheet_20():
    """004 Sheet 20 item 2: flower/season 1 = East, 2 = South, 3 = West, 4 = North."""
    assert T.wind_of_seat("E") == "we" and T.seat_of_wind("wn") == "N"
    assert [T.own_bonus_number(s) for s in "ESWN"] == [1, 2, 3, 4]
    assert T.is_own_bonus("f2", "S") and T.is_own_bonus("s2", "S")
    assert not T.is_own_bonus("f1", "S") and not T.is_own_bonus("b2", "S")


def test_counts_and_chows():
    c = T.counts(["b1", "b1", "dw", "f1", "j"])
    assert c[0] == 2 and c[33] == 1 and sum(c) == 3
    assert T.chow_tiles("c7") == ("c7", "c8", "c9")
    assert T.can_start_chow("b7") and not T.can_start_chow("b8") and not T.can_start_chow("we")
    assert T.sorted_tiles(["f1", "dw", "b2", "jb1"]) == ("b2", "dw", "f1", "jb1")
