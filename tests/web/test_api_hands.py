"""Recording, previewing and correcting hands through the API: the answers carry the computed
scores, lines, payments and running totals; bad input gets field paths, never a 500."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import AuditEntry, Hand, HandEntry, HandResult, Member
from config.middleware import MESSAGE as NUL_MESSAGE
from tests.web.test_recording import sheet19_hand

pytestmark = pytest.mark.django_db


def contract_body(table_id: int, **over) -> dict:
    body = {
        "table": table_id,
        "winner": "S",
        "discarder": "W",
        "win_from": "discard",
        "seats": {"E": {"score": 12}, "S": sheet19_hand(0), "W": {"score": 36}, "N": {"score": 0}},
    }
    return {**body, **over}


def test_record_answers_with_scores_lines_payments_and_totals(scorer_api, table):
    """004 Sheet 19 hand 1 scored in full (54 points, 4 doubles, 864) and settled as the
    contract's settle example (S wins on W's discard; E 12, W 36, N 0)."""
    answer = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    assert answer.status_code == 201, answer.json()
    hand = answer.json()
    seats = {s["wind"]: s for s in hand["seats"]}
    assert (seats["S"]["points"], seats["S"]["doubles"], seats["S"]["score"]) == (54, 4, 864)
    assert seats["S"]["kind"] == "full" and seats["E"]["kind"] == "quick"
    assert any(line["points"] == 20 for line in seats["S"]["lines"])  # Mah Jong
    assert {w: s["net"] for w, s in seats.items()} == {"E": -1752, "S": 3456, "W": -780,
                                                        "N": -924}
    assert {w: s["running_total"] for w, s in seats.items()} == {
        "E": -1752, "S": 3456, "W": -780, "N": -924}
    by_seat = {s["seat"]: w for w, s in seats.items()}
    paid = {(by_seat[p["from"]], by_seat[p["to"]]): p["amount"] for p in hand["payments"]}
    assert paid[("E", "S")] == 1728 and paid[("W", "S")] == 864 and paid[("N", "S")] == 864
    assert hand["entry"]["seats"]["E"] == {"score": 12}


def test_table_state_shows_next_east_and_winds(scorer_api, table):
    """004 Sheet 16: South went Mah Jong, so the winds move on; South's player is East next."""
    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    bob = next(s for s in state["seats"] if s["name"] == "Bob")
    assert state["next"]["number"] == 2
    assert state["next"]["dealer"] == bob["id"]
    assert state["next"]["winds"][str(bob["id"])] == "E"
    assert state["next"]["prevailing_wind"] == "E"
    assert state["pot"] == 0


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"winner": "X"}, ["winner"]),
        ({"draw": True}, ["draw"]),
        ({"discarder": "S"}, ["discarder"]),
        ({"win_from": "wall"}, ["discarder"]),
        ({"seats": {"E": {"score": 12}}}, ["seats", "S"]),
        ({"seats": {"E": {"score": -5}, "S": {"score": 1}, "W": {"score": 0},
                    "N": {"score": 0}}}, ["seats", "E", "score"]),
        ({"table": 999999}, ["table"]),
        ({"table": 10**30}, ["table"]),
        ({"table": "1; drop table"}, ["table"]),
    ],
)
def test_bad_input_gets_field_paths_and_saves_nothing(scorer_api, table, change, path):
    answer = scorer_api.post("/api/v1/hands/", contract_body(table.pk, **change), format="json")
    assert answer.status_code == 400
    node = answer.json()
    for key in path:
        node = node[key]
    assert node, answer.json()
    assert not Hand.objects.exists()


def test_bad_tiles_nested_under_the_seat_wind(scorer_api, table):
    body = contract_body(table.pk)
    body["seats"]["S"] = {**body["seats"]["S"], "bonus": ["f2", "q7"]}
    answer = scorer_api.post("/api/v1/hands/", body, format="json")
    assert answer.status_code == 400
    assert "bonus" in answer.json()["seats"]["S"]


def test_garbage_body_is_a_400_not_a_500(scorer_api, table):
    for body in ([], "text", {"table": table.pk, "seats": "E"}, {"table": table.pk, "seats": []}):
        answer = scorer_api.post("/api/v1/hands/", body, format="json")
        assert answer.status_code == 400, (body, answer.content)


def test_expected_number_already_taken_is_409(scorer_api, table):
    first = scorer_api.post("/api/v1/hands/", contract_body(table.pk, number=1), format="json")
    assert first.status_code == 201
    # The same figures again (a second phone, a resend): the hand saved first, saved once.
    same = scorer_api.post("/api/v1/hands/", contract_body(table.pk, number=1), format="json")
    assert same.status_code == 201 and same.json()["id"] == first.json()["id"]
    assert Hand.objects.count() == 1
    # Other figures for a number already taken: a clash that names the next hand.
    other = contract_body(table.pk, number=1)
    other["seats"] = {**other["seats"], "E": {"score": 14}}
    again = scorer_api.post("/api/v1/hands/", other, format="json")
    assert again.status_code == 409
    assert "hand 2" in again.json()["detail"]


def test_preview_saves_nothing(scorer_api, table):
    answer = scorer_api.post("/api/v1/hands/preview/", contract_body(table.pk), format="json")
    assert answer.status_code == 200 and answer.json()["id"] is None
    assert answer.json()["number"] == 1
    assert not Hand.objects.exists()


def test_correction_recomputes_the_totals_and_is_audited(scorer_api, admin_api, table, users):
    first = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    body = contract_body(table.pk)
    body["seats"] = {w: {"score": s} for w, s in zip("ESWN", (40, 0, 0, 0), strict=True)}
    body["winner"], body["discarder"], body["win_from"] = "E", None, "wall"
    second = scorer_api.post("/api/v1/hands/", body, format="json").json()
    bob = next(s for s in second["seats"] if s["name"] == "Bob")
    assert bob["wind"] == "E" and bob["running_total"] == 3456 + 40 * 6

    fixed = scorer_api.patch(
        f"/api/v1/hands/{first['id']}/",
        {"seats": {"W": {"score": 4}}, "note": "W had 4, not 36"},
        format="json",
    )
    assert fixed.status_code == 200, fixed.json()
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    carol = next(s for s in state["seats"] if s["name"] == "Carol")
    # Hand 1 again with W 4: W pays S 864, pays E (12) the difference 8 doubled for East,
    # and is paid 4 by N (0).
    nets = {s["name"]: s["net"] for s in state["hands"][0]["seats"]}
    assert nets["Carol"] == -864 - 16 + 4
    assert state["totals"][str(carol["id"])] == nets["Carol"] - 80  # East won 40: 80 each
    trail = admin_api.get("/api/v1/audit-entries/").json()["results"]
    assert trail[0]["action"] == "update" and trail[0]["user"] == "scorer-user"
    assert trail[0]["before"]["seats"]["W"] == {"score": 36}
    assert trail[0]["after"]["seats"]["W"] == {"score": 4}
    assert trail[0]["note"] == "W had 4, not 36"


def test_correction_with_bad_input_changes_nothing(scorer_api, table):
    first = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    answer = scorer_api.patch(f"/api/v1/hands/{first['id']}/", {"winner": "E", "draw": True},
                              format="json")
    assert answer.status_code == 400 and "draw" in answer.json()
    assert not AuditEntry.objects.exists()
    assert Hand.objects.get(pk=first["id"]).winner.name == "Bob"


def test_a_correction_the_engine_refuses_changes_nothing(scorer_api, table):
    """The corrected hand is checked by the same replay that recomputes the night: a hand the
    scoring engine refuses answers 400 with the seat's field path and undoes every write."""
    first = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    state_before = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    results_before = sorted(HandResult.objects.values_list("hand_id", "seat_id", "net",
                                                           "running_total"))
    bad = {**sheet19_hand(0), "concealed": ["b6"] * 5}
    answer = scorer_api.patch(f"/api/v1/hands/{first['id']}/", {"seats": {"S": bad}},
                              format="json")
    assert answer.status_code == 400
    assert "S" in answer.json()["seats"], answer.json()
    assert scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json() == state_before
    assert sorted(HandResult.objects.values_list("hand_id", "seat_id", "net",
                                                 "running_total")) == results_before
    assert HandEntry.objects.get(hand_id=first["id"], seat_wind="S").data == sheet19_hand(0)
    assert not AuditEntry.objects.exists()


def test_void_and_restore(scorer_api, table):
    first = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    voided = scorer_api.post(f"/api/v1/hands/{first['id']}/void/", {"reason": "twice"},
                             format="json")
    assert voided.json()["voided"] is True
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    assert set(state["totals"].values()) == {0}
    assert state["next"]["number"] == 2  # numbers are never reused
    scorer_api.post(f"/api/v1/hands/{first['id']}/void/", {"reason": "it was real",
                                                            "voided": False}, format="json")
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    assert sorted(state["totals"].values()) == [-1752, -924, -780, 3456]


def test_correction_and_void_answer_the_hand_as_it_now_stands(scorer_api, table):
    """Each answer is built from the state the change recomputed: it must equal a fresh read."""
    first = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    url = f"/api/v1/hands/{first['id']}/"
    fixed = scorer_api.patch(url, {"seats": {"W": {"score": 4}}}, format="json")
    assert fixed.status_code == 200
    assert fixed.json() == scorer_api.get(url).json()
    assert next(s for s in fixed.json()["seats"] if s["name"] == "Carol")["score"] == 4
    for voided in (True, True, False):  # the second void changes nothing and says so alike
        answer = scorer_api.post(f"{url}void/", {"reason": "check", "voided": voided},
                                 format="json")
        assert answer.status_code == 200
        assert answer.json() == scorer_api.get(url).json()
        assert answer.json()["voided"] is voided


def test_recording_cost_does_not_grow_with_the_night(scorer_api, table):
    """An append reads the table's cached state, not every earlier hand: the same number of
    queries for the 2nd hand as for the 12th."""
    counts = []
    for number in range(1, 13):
        with CaptureQueriesContext(connection) as ctx:
            answer = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
        assert answer.status_code == 201 and answer.json()["number"] == number
        counts.append(len(ctx.captured_queries))
    assert counts[1] == counts[-1], counts
    # The table (the scorer's roles are read once per user, here before the first hand), the
    # savepoint pair the test's own transaction adds (BEGIN and COMMIT in production), the
    # lock with the state and the seats' names as they are now (a rename writes no table:
    # clubs.table_state.lock_table), three inserts, the state update, and the league summary:
    # the table's rows read before the hand, its results added to the night and its places
    # worked out again (league.summary.add_hand), and the players' season and all-time sums
    # incremented (league.standings_store), one statement each however long the night and the
    # club's history. 11 (12 before the names came with the lock); over a token and with the
    # roles, 13 a hand on PostgreSQL and SQLite (bench/README.md).
    assert counts[-1] <= 11, counts


def test_recording_answers_with_the_names_as_they_are_now(scorer_api, table):
    """The seats' names are read with the table's lock (clubs.table_state.lock_table), not
    taken from the stored state: a rename since the table's last hand is in the next answer,
    and the state API's seats say the same."""
    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    seat = table.seats.get(starting_wind="W")
    Member.objects.filter(pk=seat.member_id).update(display_name="Carol Renamed")
    answer = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    assert answer.status_code == 201, answer.json()
    names = {s["seat"]: s["name"] for s in answer.json()["seats"]}
    assert names[seat.pk] == "Carol Renamed"
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    assert {s["id"]: s["name"] for s in state["seats"]} == names


def test_hand_answers_are_what_the_serializer_documents(scorer_api, table, monkeypatch):
    """Every hand answer (recorded, previewed, read, corrected, voided) is HandOutSerializer's,
    the schema's word for it, rendered field by field (PlainSerializer): byte for byte what
    DRF's own generic walk (Serializer.to_representation) renders, over a night of distinct
    hands (wall games, goulashes, kongs, chows, flowers, limits: bench/distinct_hands.py), a
    voided hand, a preview and a client id; and what the API answered for them."""
    from rest_framework import serializers
    from rest_framework.renderers import JSONRenderer

    from bench.distinct_hands import distinct_entries
    from clubs.api import hand_answer
    from clubs.recording import preview_hand
    from clubs.table_state import stored_table_state
    from config.plain_serializer import PlainSerializer

    entries = distinct_entries(41, seed=3)
    for entry in entries[:40]:
        answer = scorer_api.post("/api/v1/hands/", {"table": table.pk, **entry}, format="json")
        assert answer.status_code == 201, answer.json()
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    first = hands[0]
    voided = scorer_api.post(f"/api/v1/hands/{first.pk}/void/", {"reason": "check"},
                             format="json")
    assert voided.status_code == 200
    table.refresh_from_db()
    state = stored_table_state(table)
    rows = [*state.hands, preview_hand(table, entries[40]).row()]
    render = JSONRenderer().render

    def rendered():
        return [render(hand_answer(row, state.seats, table.pk, client_id))
                for client_id in (None, "5f0c3f54-8a59-4c1e-9d0e-2b7f7f0e9a11") for row in rows]

    walked = []
    generic_walk = serializers.Serializer.to_representation
    with monkeypatch.context() as patch:  # the plain path, never DRF's walk
        patch.setattr(serializers.Serializer, "to_representation",
                      lambda self, instance: walked.append(self) or generic_walk(self, instance))
        plain = rendered()
    assert not walked, walked[:1]
    monkeypatch.setattr(PlainSerializer, "to_representation", generic_walk)
    generic = rendered()
    assert len(plain) == 2 * len(rows) == 82
    for n, (ours, drf) in enumerate(zip(plain, generic, strict=True)):
        assert ours == drf, n
    # The answers sent: the void's, and each hand read since.
    assert voided.content == plain[0]
    assert [scorer_api.get(f"/api/v1/hands/{hand.pk}/").content for hand in hands] == plain[:40]
    # What the night held, so the comparison covered it.
    assert any(row.payments for row in rows)
    assert any(row.draw for row in rows) and any(row.voided for row in rows)
    assert any(r is not None and r.lines for row in rows for r in row.results.values())
    assert any(r is not None and r.limit for row in rows for r in row.results.values())


def test_session_totals_sum_every_table(scorer_api, table, club_session):
    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    totals = scorer_api.get(f"/api/v1/sessions/{club_session.pk}/totals/").json()
    assert [(p["name"], p["total"]) for p in totals["players"]] == [
        ("Bob", 3456), ("Carol", -780), ("David", -924), ("Alice", -1752)]


@pytest.fixture
def balsall_table(club, house_rule_versions, players):
    from clubs.models import ClubSession, Seat, Table

    session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 21),
                                         house_rule_version=house_rule_versions["balsall-common"])
    table = Table.objects.create(session=session, number=1)
    for position, (member, wind) in enumerate(zip(players, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    return table


def test_quick_entry_kongs_earn_chips(scorer_api, balsall_table):
    """003 (Balsall Common): chips for a kong are paid at once, a hidden kong 3 from each
    player; a quick entry can say which kongs a seat declared."""
    body = {
        "table": balsall_table.pk, "winner": "S", "win_from": "wall",
        "seats": {"E": {"score": 0, "kongs": ["concealed"]}, "S": {"score": 3},
                  "W": {"score": 0}, "N": {"score": 0}},
    }
    answer = scorer_api.post("/api/v1/hands/", body, format="json")
    assert answer.status_code == 201, answer.json()
    hand = answer.json()
    east = next(s["seat"] for s in hand["seats"] if s["wind"] == "E")
    chips = [p for p in hand["payments"] if p["to"] == east]
    assert len(chips) == 3 and {p["amount"] for p in chips} == {3}


def test_bad_quick_entry_extras_and_facts_are_named(scorer_api, table):
    body = contract_body(table.pk)
    body["seats"]["E"] = {"score": 12, "kongs": ["sideways"]}
    body["facts"] = {"penalties": [{"kind": "no-such-penalty", "offender": "E"}]}
    answer = scorer_api.post("/api/v1/hands/", body, format="json")
    assert answer.status_code == 400
    assert "kongs" in answer.json()["seats"]["E"]
    assert "penalties" in answer.json()["facts"]



@pytest.mark.parametrize("kind", [[], {"false_mahjong": 1}])
def test_a_penalty_kind_that_is_not_a_string_is_a_400(scorer_api, table, kind):
    """004 Sheet 30 penalties are named by kind: a list or object there (unhashable) is
    refused on facts.penalties, recorded, previewed and corrected alike, never a 500."""
    body = contract_body(table.pk)
    body["facts"] = {"penalties": [{"kind": kind, "offender": "E"}]}
    for url in ("/api/v1/hands/preview/", "/api/v1/hands/"):
        answer = scorer_api.post(url, body, format="json")
        assert answer.status_code == 400, (url, answer.content[:300])
        assert "penalties" in answer.json()["facts"]
    recorded = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    answer = scorer_api.patch(f"/api/v1/hands/{recorded.json()['id']}/",
                              {"facts": body["facts"]}, format="json")
    assert answer.status_code == 400 and "penalties" in answer.json()["facts"]
    assert Hand.objects.count() == 1

@pytest.mark.parametrize("value", ["99999999999999999999", "99999999999999999999999", "abc",
                                   "-1", "0", "²", "1.5"])
@pytest.mark.parametrize("url, name", [("hands", "table"), ("hands", "session"),
                                       ("tables", "session")])
def test_an_id_filter_that_cannot_be_an_id_is_a_400_naming_it(scorer_api, table, url, name,
                                                                value):
    """An id filter's value that no row can have is refused on the parameter's name, as the
    league's filters are: read as no match it answered an empty list, and the hands' session
    (no filter of theirs then) answered every hand, as if unfiltered."""
    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    answer = scorer_api.get(f"/api/v1/{url}/?{name}={value}")
    assert answer.status_code == 400, answer.content[:300]
    assert list(answer.json()) == [name] and answer.json()[name]


def test_the_hands_are_listed_by_session(scorer_api, table, club_session):
    recorded = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    mine = scorer_api.get(f"/api/v1/hands/?session={club_session.pk}").json()["results"]
    assert [hand["id"] for hand in mine] == [recorded["id"]]
    # A night that is none of the caller's, or none at all: no hands.
    for other in (club_session.pk + 1000, 2**63 - 1):
        answer = scorer_api.get(f"/api/v1/hands/?session={other}")
        assert answer.status_code == 200 and answer.json()["results"] == []
    # An empty value names no night: every hand, as the club filter's empty value does.
    assert len(scorer_api.get("/api/v1/hands/?session=").json()["results"]) == 1


@pytest.mark.parametrize("name", ["members", "seasons", "sessions", "tables", "hands",
                                  "audit-entries"])
def test_huge_ids_are_404_not_500(admin_api, name):
    assert admin_api.get(f"/api/v1/{name}/99999999999999999999999/").status_code == 404


@pytest.fixture
def unseated_table(club_session):
    """A table added in the admin without its players: no game can start there."""
    from clubs.models import Table

    return Table.objects.create(session=club_session, number=9)


def test_a_table_that_cannot_start_answers_409_saying_why(scorer_api, unseated_table):
    """001/004: a four-player house rule needs four players in their starting order; a table
    seated otherwise (in the admin) is the table's fault, not the request's: 409, never 500."""
    body = {"table": unseated_table.pk, "winner": "E", "win_from": "wall",
            "seats": {w: {"score": 10} for w in "ESWN"}}
    for answer in (
        scorer_api.get(f"/api/v1/tables/{unseated_table.pk}/state/"),
        scorer_api.post("/api/v1/hands/", body, format="json"),
        scorer_api.post("/api/v1/hands/preview/", body, format="json"),
    ):
        assert answer.status_code == 409
        seats = answer.json()["seats"]
        assert "4 players" in seats[0] and "Seat the players again at a new table" in seats[-1]
    assert not Hand.objects.exists()


@pytest.mark.parametrize("value", ["²", "99999999999999999999999", "-1", "x"])
def test_an_odd_table_or_session_id_in_a_body_is_a_400(scorer_api, value):
    """"²" is a digit Python's int() refuses: it once gave a 500 where an id was expected."""
    answer = scorer_api.post("/api/v1/hands/", {"table": value, "seats": {}}, format="json")
    assert answer.status_code == 400 and "table" in answer.json()
    answer = scorer_api.post("/api/v1/tables/", {"session": value, "seats": []}, format="json")
    assert answer.status_code == 400 and "session" in answer.json()


@pytest.mark.parametrize("kind", ["members", "seasons", "sessions", "audit-entries"])
def test_a_nul_in_the_club_filter_is_a_400_saying_so(admin_api, club_session, kind):
    """PostgreSQL refuses a NUL character in a query: refused at the door with a sentence."""
    answer = admin_api.get(f"/api/v1/{kind}/?club=ja%00de")
    assert answer.status_code == 400 and answer.json() == {"detail": NUL_MESSAGE}


def test_a_nul_in_the_house_rule_club_filter_is_a_400_saying_so(admin_api, club):
    answer = admin_api.get("/api/v1/house-rules/?club=ja%00de")
    assert answer.status_code == 400 and answer.json() == {"detail": NUL_MESSAGE}


def test_a_nul_in_a_bodys_club_is_a_400(admin_api, club):
    answer = admin_api.post("/api/v1/seasons/", {"club": "ja\x00de", "name": "W",
                                                 "start": "2026-01-01"}, format="json")
    assert answer.status_code == 400 and answer.json() == {"detail": NUL_MESSAGE}


def test_a_player_who_moves_tables_is_one_player_on_the_page_and_in_the_api(
    scorer_api, client_as, club, players, table, club_session
):
    """Alice plays at table 1, then sits in for a guest at table 2: her night is one total,
    the same on the session page and in the API."""
    from clubs.models import Member, Seat, Table

    scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json")
    second = Table.objects.create(session=club_session, number=2)
    eve = Member.objects.create(club=club, display_name="Eve")
    for position, (member, wind) in enumerate(zip([eve, players[0]], "ES", strict=True)):
        Seat.objects.create(table=second, member=member, position=position, starting_wind=wind)
    for position, (guest, wind) in enumerate(zip(["Gus", "Hal"], "WN", strict=True), start=2):
        Seat.objects.create(table=second, guest_name=guest, position=position, starting_wind=wind)
    answer = scorer_api.post("/api/v1/hands/", contract_body(second.pk), format="json")
    assert answer.status_code == 201, answer.json()

    api = {p["name"]: (p["tables"], p["total"])
           for p in scorer_api.get(f"/api/v1/sessions/{club_session.pk}/totals/").json()["players"]}
    assert api["Alice"] == ([1, 2], -1752 + 3456)
    page = client_as("scorer").get(reverse("session", args=[club.slug, club_session.pk]))
    rows = [(r["name"], r["tables"], r["total"]) for r in page.context["totals"]]
    assert [name for name, _, _ in rows].count("Alice") == 1
    assert {name: (tables, total) for name, tables, total in rows} == api
