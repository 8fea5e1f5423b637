"""The figures on both sheets, for a generated night under every built-in house rule (issue #15):
each player's Final totals on 004's per-player sheet equal the session's total for them; each
hand's row nets to zero across the players with the pot or kitty; every Receive on one player's
sheet is the Pay on the opponent's; 002's running tallies are the starting tally plus the nets.
All of it read from the stored settlement, no engine called."""

from __future__ import annotations

from collections import defaultdict

import pytest

from clubs.models import Hand
from scoring.engine import builtin_house_rules, get_house_rule
from sheets.data import POT, session_sheet
from sheets.layout import ROWS_PER_PLAYER_SHEET, document
from tests.sheets.nights import generated_session
from tests.web.test_stored_results import forbid_engines

pytestmark = pytest.mark.django_db
RULES = sorted(builtin_house_rules())


def number(text: str) -> int:
    return int(text.replace(",", "")) if text and text not in ("out",) else 0


@pytest.fixture
def night_of(club, house_rule_versions, users):
    def make(slug, tables=1, hands=14):
        return generated_session(club, house_rule_versions, slug, users["scorer"], tables, hands)

    return make


def per_player_cells(doc):
    """{player: {hand number: {column header: figure}}} and {player: final total}, read off
    the printed per-player pages."""
    cells: dict[str, dict] = defaultdict(dict)
    finals: dict[str, int] = {}
    for page in doc.pages:
        if page.kind != "per_player":
            continue
        me = dict(page.fields)["Name"]
        # 004's "Opponents" band, then each opponent's name (and the pot or kitty) over their
        # Receive and Pay.
        assert page.header[0][2].text == "Opponents"
        opponents = [c.text.removeprefix("Name: ") for c in page.header[1]]
        opponents += [c.text for c in page.header[0][3:-2]]  # Pot/kitty
        for row in page.rows:
            if row.kind in ("hand", "void", "out"):
                figures = [number(x) for x in row.cells[2:]]
                named = {}
                for i, who in enumerate(opponents):
                    named[(who, "receive")] = figures[2 * i]
                    named[(who, "pay")] = figures[2 * i + 1]
                named["win"], named["lose"] = figures[-2], figures[-1]
                cells[me][int(row.cells[1])] = named
            if row.kind == "final":
                win, lose = number(row.cells[-2]), number(row.cells[-1])
                finals[me] = win - lose
    return cells, finals


@pytest.mark.parametrize("slug", RULES)
def test_per_player_sheets_final_totals_rows_and_receive_pay_symmetry(slug, night_of,
                                                                      monkeypatch):
    session = night_of(slug)
    forbid_engines(monkeypatch)
    sheet = session_sheet(session, "per_player")
    doc = document(sheet, whole_session=True)
    cells, finals = per_player_cells(doc)

    # 004: each player's Final totals = the session's total for that player.
    expected = {p["name"]: p["total"] for p in session.player_totals()}
    assert finals == {name: expected.get(name, 0) for name in finals}
    assert len(finals) == get_house_rule(slug).scoring.players

    table = sheet.tables[0]
    hands = {h.number: h for h in table.hands}
    assert len(hands) == 14
    for me, rows in cells.items():
        assert sorted(rows) == list(range(1, 15))  # every hand, over two sheets of twelve
        for n, row in rows.items():
            hand = hands[n]
            # Each row's Win/Lose is what it received less what it paid, pot included.
            received = sum(v for (_, what), v in _pairs(row) if what == "receive")
            paid = sum(v for (_, what), v in _pairs(row) if what == "pay")
            assert row["win"] - row["lose"] == received - paid
            # Every Receive from an opponent is that opponent's Pay to this player.
            for (who, what), value in _pairs(row):
                if who == "Pot/kitty":
                    continue
                other = "pay" if what == "receive" else "receive"
                assert cells[who][n][(me, other)] == value, (slug, n, me, who)
            if not hand.counted:
                assert received == paid == 0
    # Each hand nets to zero across the players and the pot or kitty.
    for hand in table.hands:
        pot = hand.pot_after - hand.pot_before if hand.counted else 0
        assert sum(hand.net.values()) + pot == 0
        for seat_id in hand.winds:
            gained = sum(v for (a, b), v in hand.transfers.items() if b == seat_id)
            lost = sum(v for (a, b), v in hand.transfers.items() if a == seat_id)
            assert gained - lost == hand.net.get(seat_id, 0)


def _pairs(row):
    return [(k, v) for k, v in row.items() if isinstance(k, tuple)]


@pytest.mark.parametrize("slug", RULES)
def test_tally_sheet_running_totals_are_the_start_plus_the_nets(slug, night_of, monkeypatch):
    session = night_of(slug)
    forbid_engines(monkeypatch)
    sheet = session_sheet(session, "tally")
    start = get_house_rule(slug).payment.starting_tally
    assert sheet.tables[0].start == start
    page = document(sheet, whole_session=False).pages[0]
    names = [c.text.removeprefix("Player: ") for c in page.header[0][3:]]
    running = {name: start for name in names if name != "Pot/kitty"}
    pot = 0
    for row in page.rows:
        figures = row.cells[3:]
        if row.kind == "final":
            for i, name in enumerate(names):
                if name == "Pot/kitty":
                    assert number(figures[2 * i]) == pot
                else:
                    assert number(figures[2 * i]) == running[name]
                    assert number(figures[2 * i + 1]) == running[name] - start
            continue
        moved = 0
        for i, name in enumerate(names):
            total, payment = number(figures[2 * i]), number(figures[2 * i + 1])
            if name == "Pot/kitty":
                assert total == pot
                pot += payment
            else:
                assert total == running[name], (slug, row.cells[0], name)
                running[name] += payment
            moved += payment
        assert moved == 0, (slug, row.cells[0])  # the row nets to zero, pot included
    totals = {p["name"]: p["total"] for p in session.player_totals()}
    assert {n: t - start for n, t in running.items()} == {n: totals.get(n, 0) for n in running}


def test_the_sheets_read_the_stored_payments(night_of, monkeypatch):
    """Every Receive/Pay is a payment stored with the hand (``Hand.computed``), summed per pair."""
    session = night_of("balsall-common")
    forbid_engines(monkeypatch)
    table = session_sheet(session).tables[0]
    stored = {h.number: h.computed for h in Hand.objects.filter(table_id=table.id)}
    for hand in table.hands:
        pairs = defaultdict(int)
        for p in stored[hand.number]["payments"]:
            pairs[(p["payer"], p["payee"])] += p["amount"]
        assert hand.transfers == dict(pairs)
    assert table.uses_pot  # 003's goulash pot after a wall game
    assert any(POT in pair for h in table.hands for pair in h.transfers)


def test_voided_and_corrected_hands(night_of):
    """A voided hand is struck through with its reason; a corrected one shows its current
    figures."""
    session = night_of("bmja")
    sheet = session_sheet(session)
    table = sheet.tables[0]
    third = next(h for h in table.hands if h.number == 3)
    assert third.voided and third.void_reason == "misdeal: 14 tiles dealt"
    assert not third.transfers and not any(third.net.values())
    page = document(sheet, whole_session=False).pages[0]
    row = next(r for r in page.rows if r.cells[1] == "3")
    assert row.kind == "void" and "misdeal: 14 tiles dealt" in row.note
    second = next(h for h in table.hands if h.number == 2)
    assert second.scores[second.winner] == 500  # the correction, not the first entry


def test_a_long_night_goes_on_to_another_sheet_with_totals_brought_forward(night_of):
    sheet = session_sheet(night_of("bmja", hands=14), "per_player")
    doc = document(sheet, whole_session=False)
    alice = [p for p in doc.pages if dict(p.fields)["Name"] == "Alice 1"]
    assert len(alice) == 2
    first, second = alice
    hand_rows = [r for r in first.rows if r.kind in ("hand", "void", "out")]
    assert len(hand_rows) == ROWS_PER_PLAYER_SHEET
    assert dict(first.fields)["Sheet"] == "1 of 2" and first.footnote
    totals = next(r for r in first.rows if r.kind == "totals")
    brought = second.rows[0]
    assert brought.kind == "brought" and brought.cells[2:] == totals.cells[2:]


def test_five_players_show_who_sits_out(night_of):
    sheet = session_sheet(night_of("bmja-5-players"), "per_player")
    doc = document(sheet, whole_session=False)
    out_rows = [r for p in doc.pages for r in p.rows if r.kind == "out"]
    assert out_rows and all(r.cells[0] == "out" for r in out_rows)
    tally = document(session_sheet(sheet_session := night_of("guide-5-players"), "tally"),
                     whole_session=False).pages[0]
    assert any("out" in r.cells for r in tally.rows)
    assert sheet_session.house_rule_version.data["score_sheet"] == "tally"


def test_the_night_summary_ranks_every_player_over_every_table(night_of):
    session = night_of("bmja", tables=2, hands=6)
    sheet = session_sheet(session)
    expected = session.player_totals()
    assert [(s.name, s.total, s.hands) for s in sheet.standings] == [
        (p["name"], p["total"], p["hands"]) for p in expected]
    assert len(sheet.standings) == 8
    places = [s.place for s in sheet.standings]
    assert places[0].startswith("1")
    summary = document(sheet, whole_session=True).pages[-1]
    assert summary.kind == "summary" and len(summary.rows) == 8


def test_each_house_rule_names_its_sheet_and_a_copy_keeps_it():
    """bmja and its copies: 004's per-player sheet; guide and its copies: 002's tally."""
    for slug, rule in builtin_house_rules().items():
        family = rule.based_on or slug
        expected = "tally" if family == "guide" else "per_player"
        assert rule.score_sheet == expected, slug
    assert get_house_rule("guide").derive("ours").score_sheet == "tally"
    ours = get_house_rule("bmja").derive("ours", {"score_sheet": "tally"})
    assert ours.score_sheet == "tally"


def test_a_house_rule_naming_an_unknown_sheet_is_refused_with_a_message():
    from scoring.engine.rules.model import HouseRuleError

    with pytest.raises(HouseRuleError) as err:
        get_house_rule("bmja").derive("ours", {"score_sheet": "ledger"})
    assert err.value.errors == {"score_sheet": ["Use one of per_player, tally."]}
