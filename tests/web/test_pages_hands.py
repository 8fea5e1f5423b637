"""Table, record-a-hand and correct-a-hand pages: roles, preview then one atomic save, field
errors, conflicts, and corrections that recompute the totals with an audit trail.

Hand figures are 004 Sheet 19 hand 1 (bmja-scoring-practice.json) and the settle contract's
example (contract README, "POST /api/v1/settle": E 12, S 864, W 36, N 0 on W's discard).
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.urls import reverse

from clubs.hand_text import melds_to_text
from clubs.models import AuditEntry, Hand, HandEntry, SessionStatus
from clubs.recording import record_hand
from tests.conftest import load_example

pytestmark = pytest.mark.django_db

READ_EXPECTED = {"admin": 200, "scorer": 200, "member": 200, "outsider": 404, "anonymous": 404}
RECORD_EXPECTED = {"admin": 200, "scorer": 200, "member": 403, "outsider": 404, "anonymous": 404}


def sheet19_hand1() -> dict:
    return load_example("bmja-scoring-practice.json")["hands"][0]


def seat_ids(table) -> dict[str, int]:
    """Starting wind -> seat id (the first hand is played with the starting winds)."""
    return {seat.starting_wind: seat.pk for seat in table.seats.all()}


def quick_fields(seat_id: int, score: int) -> dict:
    return {f"seat{seat_id}-mode": "quick", f"seat{seat_id}-score": str(score)}


def full_fields(seat_id: int, melds: str = "", concealed: str = "", bonus: str = "") -> dict:
    return {
        f"seat{seat_id}-mode": "full",
        f"seat{seat_id}-melds": melds,
        f"seat{seat_id}-concealed": concealed,
        f"seat{seat_id}-bonus": bonus,
    }


def contract_example_post(table, action: str = "preview", number: int = 1) -> dict:
    """Sheet 19 hand 1 as South's typed full hand, the others' agreed scores 12, 36, 0."""
    ids = seat_ids(table)
    example = sheet19_hand1()
    data = {
        "action": action,
        "expected_number": str(number),
        "winner": str(ids["S"]),
        "win_source": example["win_from"],
        "discarder": str(ids["W"]),
    }
    data.update(quick_fields(ids["E"], 12))
    data.update(full_fields(ids["S"], melds_to_text(example["melds"]), "", " ".join(example["bonus"])))
    data.update(quick_fields(ids["W"], 36))
    data.update(quick_fields(ids["N"], 0))
    return data


def record_url(table) -> str:
    s = table.session
    return reverse("record-hand", args=[s.club.slug, s.pk, table.pk])


def table_url(table) -> str:
    s = table.session
    return reverse("table", args=[s.club.slug, s.pk, table.pk])


def correct_url(hand) -> str:
    t = hand.table
    return reverse("correct-hand", args=[t.session.club.slug, t.session_id, t.pk, hand.pk])


def quick_entry(winner="E", scores=(100, 10, 20, 30)) -> dict:
    return {
        "winner": winner,
        "discarder": None,
        "win_from": "wall",
        "seats": {w: {"score": s} for w, s in zip("ESWN", scores, strict=True)},
    }


# -- who may open which page ------------------------------------------------------------------


@pytest.mark.parametrize("role", READ_EXPECTED)
def test_table_page_by_role(client_as, table, users, role):
    record_hand(table, quick_entry(), users["scorer"])
    response = client_as(role).get(table_url(table))
    assert response.status_code == READ_EXPECTED[role]
    if response.status_code == 200:
        page = response.content.decode()
        assert "Hand 2 next" in page and 'id="hand-1"' in page
        assert ("Record hand 2" in page) == (role in ("admin", "scorer"))


@pytest.mark.parametrize("role", RECORD_EXPECTED)
def test_record_page_by_role(client_as, table, role):
    response = client_as(role).get(record_url(table))
    assert response.status_code == RECORD_EXPECTED[role]
    if role == "anonymous":
        # The private club reads as none; the 404 offers to log in and come back here.
        login = f'{reverse("login")}?next={quote(record_url(table))}'
        assert login in response.content.decode().replace("&amp;", "&")


@pytest.mark.parametrize("role", RECORD_EXPECTED)
def test_saving_a_hand_by_role(client_as, table, role):
    response = client_as(role).post(record_url(table), contract_example_post(table, "save"))
    allowed = role in ("admin", "scorer")
    assert response.status_code == (302 if allowed else RECORD_EXPECTED[role])
    assert Hand.objects.filter(table=table).exists() == allowed


@pytest.mark.parametrize("role", RECORD_EXPECTED)
def test_correct_page_by_role(client_as, table, users, role):
    hand = record_hand(table, quick_entry(), users["scorer"])
    response = client_as(role).get(correct_url(hand))
    assert response.status_code == RECORD_EXPECTED[role]
    response = client_as(role).post(correct_url(hand), {"action": "void", "reason": "twice"})
    hand.refresh_from_db()
    assert hand.voided == (role in ("admin", "scorer"))


def test_a_published_club_shows_its_tables_to_anyone_but_records_nothing(client, table):
    club = table.session.club
    club.published = True
    club.save()
    assert client.get(table_url(table)).status_code == 200
    assert client.post(record_url(table), contract_example_post(table, "save")).status_code == 302
    assert not Hand.objects.exists()


def test_a_table_of_another_session_is_not_found(client_as, table, club, bmja_version):
    from clubs.models import ClubSession

    other = ClubSession.objects.create(club=club, date="2026-11-27", house_rule_version=bmja_version)
    url = reverse("table", args=[club.slug, other.pk, table.pk])
    assert client_as("admin").get(url).status_code == 404


# -- recording -----------------------------------------------------------------------------


def test_record_page_shows_who_plays_which_wind(client_as, table):
    page = client_as("scorer").get(record_url(table)).content.decode()
    assert "East · Alice" in page and "North · David" in page
    assert "Record hand 1" in page


def test_preview_shows_scores_explanations_and_payments_and_saves_nothing(client_as, table):
    """004 Sheet 19 hand 1: 54 points, 4 doubles, 864; E pays 1728, W and N 864 each."""
    example = sheet19_hand1()["expected"]
    response = client_as("scorer").post(record_url(table), contract_example_post(table))
    assert response.status_code == 200
    preview = response.context["preview"]
    bob = next(row for row in preview["rows"] if row["name"] == "Bob")
    assert bob["score"] == example["score"]
    assert bob["lines"][-1].startswith(f"= {example['points']} points, {example['doubles']} doubles")
    paid = {p["payer"]: p["amount"] for p in preview["payments"] if p["payee"] == "Bob"}
    assert paid == {"Alice": example["paid_to_winner"]["E"], "Carol": example["paid_to_winner"]["W"],
                    "David": example["paid_to_winner"]["N"]}
    page = response.content.decode()
    assert "Save hand 1" in page
    assert not Hand.objects.exists()


def test_saving_records_the_hand_and_the_table_shows_the_contract_totals(client_as, table):
    """Contract README, /api/v1/settle answer: net E -1752, S 3456, W -780, N -924."""
    client = client_as("scorer")
    response = client.post(record_url(table), contract_example_post(table, "save"))
    # The top of the table page (issue 14): the new totals and who deals next in view.
    assert response.status_code == 302 and response["Location"].endswith(f"/tables/{table.pk}/")
    hand = Hand.objects.get(table=table)
    kinds = dict(HandEntry.objects.filter(hand=hand).values_list("seat_wind", "kind"))
    assert kinds == {"E": "quick", "S": "full", "W": "quick", "N": "quick"}
    state = client.get(table_url(table)).context["state"]
    assert {s["name"]: s["total"] for s in state["seats"]} == {
        "Alice": -1752, "Bob": 3456, "Carol": -780, "David": -924
    }
    # South went Mah Jong, East did not: the deal passes to South (004 Sheet 16).
    assert next(s["name"] for s in state["seats"] if s["is_east"]) == "Bob"


def test_a_quick_entry_wall_game_is_recorded(client_as, table):
    ids = seat_ids(table)
    data = {"action": "save", "expected_number": "1", "winner": "draw", "discarder": ""}
    for wind in "ESWN":
        data.update(quick_fields(ids[wind], 0))
    response = client_as("scorer").post(record_url(table), data)
    assert response.status_code == 302
    assert Hand.objects.get(table=table).draw


@pytest.mark.parametrize(
    ("change", "form_index", "field", "fragment"),
    [
        ({"S-concealed": "b6 b6 x9"}, 1, "concealed", "'x9' is not a tile"),
        ({"S-melds": "pong b1"}, 1, "melds", "'pong' in 'pong b1' is not a set"),
        # The winner's empty box (a loser's, under bmja, is a 0: test_pages_at_the_table).
        ({"S-mode": "quick", "S-score": ""}, 1, "score", "Give the score the players agreed"),
        ({"E-score": "-5"}, 0, "score", "greater than or equal to 0"),
    ],
)
def test_bad_typing_gets_a_message_on_its_field_and_saves_nothing(
    client_as, table, change, form_index, field, fragment
):
    ids = seat_ids(table)
    data = contract_example_post(table, "save")
    for key, value in change.items():
        wind, name = key.split("-")
        data[f"seat{ids[wind]}-{name}"] = value
    response = client_as("scorer").post(record_url(table), data)
    assert response.status_code == 400
    errors = response.context["seat_forms"][form_index].errors
    assert fragment in " ".join(errors[field])
    assert not Hand.objects.exists()


def test_a_hand_the_engine_refuses_is_shown_on_the_seat_and_not_saved(client_as, table):
    """Contract README: a fifth copy of a tile is an error, not a score."""
    ids = seat_ids(table)
    data = contract_example_post(table, "save")
    data[f"seat{ids['S']}-melds"] = "pung b6, kong b6"
    response = client_as("scorer").post(record_url(table), data)
    assert response.status_code == 400
    south = response.context["seat_forms"][1]
    assert south.errors, "the engine's objection should be on South's entry"
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"winner": ""}, "winner"),
        ({"win_source": "discard", "discarder": ""}, "discarder"),
        ({"win_source": "wall"}, "discarder"),
    ],
)
def test_an_impossible_outcome_names_the_field_to_mend(client_as, table, change, field):
    data = {**contract_example_post(table, "save"), **change}
    response = client_as("scorer").post(record_url(table), data)
    assert response.status_code == 400
    assert field in response.context["outcome"].errors
    assert not Hand.objects.exists()


def test_two_scorers_saving_the_same_hand_number_the_second_gets_a_conflict(
    client_as, table, users
):
    """Issue 6: nothing lost or duplicated; the second scorer is told to check and retry."""
    record_hand(table, quick_entry(), users["admin"])  # someone else saved hand 1 first
    response = client_as("scorer").post(record_url(table), contract_example_post(table, "save", 1))
    assert response.status_code == 409
    [error] = response.context["form_errors"]
    assert "recorded at this table by someone else" in error
    # Both hands, side by side: the one saved, and the one that found its number taken.
    assert "Saved as hand 1: Alice went Mah Jong from the wall." in error
    assert "Yours: Bob went Mah Jong on Carol's discard; agreed scores Alice 12" in error
    assert Hand.objects.filter(table=table).count() == 1


def test_a_closed_session_records_nothing(client_as, table):
    session = table.session
    session.status = SessionStatus.CLOSED
    session.save()
    response = client_as("scorer").post(record_url(table), contract_example_post(table, "save"))
    assert response.status_code == 302
    assert not Hand.objects.exists()


# -- corrections ---------------------------------------------------------------------------


def test_the_correct_page_is_filled_with_what_was_entered(client_as, table):
    client = client_as("scorer")
    client.post(record_url(table), contract_example_post(table, "save"))
    hand = Hand.objects.get()
    response = client.get(correct_url(hand))
    south = response.context["seat_forms"][1]
    assert south.initial["mode"] == "full"
    assert "kong b9" in south.initial["melds"]
    assert response.context["outcome"].initial["winner"] == str(hand.winner_id)


def test_editing_a_score_recomputes_the_totals_and_is_audited(client_as, table, users):
    first = record_hand(table, quick_entry("E", (100, 10, 20, 30)), users["scorer"])
    record_hand(table, quick_entry("E", (50, 0, 0, 0)), users["scorer"])
    ids = seat_ids(table)
    data = {"action": "edit", "winner": str(ids["E"]), "win_source": "wall", "discarder": ""}
    for wind, score in zip("ESWN", (200, 10, 20, 30), strict=True):
        data.update(quick_fields(ids[wind], score))
    client = client_as("scorer")
    before = client.get(table_url(table)).context["state"]["seats"][0]["total"]
    response = client.post(correct_url(first), data)
    assert response.status_code == 302
    after = client.get(table_url(table)).context["state"]["seats"][0]["total"]
    assert after > before
    audit = AuditEntry.objects.get(object_type="hand", object_id=str(first.pk), action="update")
    assert audit.user == users["scorer"]
    assert audit.before["seats"]["E"] == {"score": 100}
    assert audit.after["seats"]["E"] == {"score": 200}
    page = client.get(correct_url(first)).content.decode()
    assert "Audit trail" in page and "scorer-user" in page


def test_a_bad_correction_keeps_the_hand_as_it_was(client_as, table, users):
    hand = record_hand(table, quick_entry(), users["scorer"])
    ids = seat_ids(table)
    data = {"action": "edit", "winner": str(ids["E"]), "win_source": "wall", "discarder": ""}
    data.update(full_fields(ids["E"], concealed="b6 b6 b6 b6 b6"))
    for wind in "SWN":
        data.update(quick_fields(ids[wind], 0))
    response = client_as("scorer").post(correct_url(hand), data)
    assert response.status_code == 400
    assert HandEntry.objects.get(hand=hand, seat_wind="E").data == {"score": 100}


def test_voiding_and_restoring_a_hand_moves_the_totals(client_as, table, users):
    hand = record_hand(table, quick_entry(), users["scorer"])
    client = client_as("scorer")
    with_hand = client.get(table_url(table)).context["state"]["seats"][0]["total"]
    assert client.post(correct_url(hand), {"action": "void"}).status_code == 400  # no reason
    client.post(correct_url(hand), {"action": "void", "reason": "entered twice"})
    assert client.get(table_url(table)).context["state"]["seats"][0]["total"] == 0
    client.post(correct_url(hand), {"action": "restore"})
    assert client.get(table_url(table)).context["state"]["seats"][0]["total"] == with_hand
    actions = set(AuditEntry.objects.filter(object_type="hand").values_list("action", flat=True))
    assert actions == {"void", "restore"}


def test_swapping_two_players_from_a_hand_on_swaps_their_totals(client_as, table, users):
    record_hand(table, quick_entry("E", (100, 10, 20, 30)), users["scorer"])
    ids = seat_ids(table)
    client = client_as("scorer")
    before = {s["name"]: s["total"] for s in client.get(table_url(table)).context["state"]["seats"]}
    hand = Hand.objects.get(number=1)
    response = client.post(
        correct_url(hand),
        {"action": "swap", "first": ids["W"], "second": ids["N"], "reason": "names mixed up"},
    )
    assert response.status_code == 302
    after = {s["name"]: s["total"] for s in client.get(table_url(table)).context["state"]["seats"]}
    assert (after["Carol"], after["David"]) == (before["David"], before["Carol"])


def test_swapping_a_player_with_themselves_is_refused(client_as, table, users):
    hand = record_hand(table, quick_entry(), users["scorer"])
    ids = seat_ids(table)
    response = client_as("scorer").post(
        correct_url(hand), {"action": "swap", "first": ids["W"], "second": ids["W"]}
    )
    assert response.status_code == 400
    assert "second" in response.context["swap_form"].errors


def test_swap_tapped_with_no_player_chosen_says_whom_to_choose(client_as, table, users):
    """QA phone pass (26 Nov 2026): "Swap them" tapped before choosing answered "This field is
    required." under each list of players: which field, and what to do, the page left to guess."""
    hand = record_hand(table, quick_entry(), users["scorer"])
    response = client_as("scorer").post(correct_url(hand), {"action": "swap"})
    assert response.status_code == 400
    errors = response.context["swap_form"].errors
    assert errors["first"] == ["Choose the player whose hands were recorded under the other's "
                               "name."]
    assert errors["second"] == ["Choose the player to swap them with."]
    assert "This field is required" not in response.content.decode()


def test_the_same_scorer_sending_save_twice_gets_one_hand_and_no_error(client_as, table):
    """A double tap or a retry on a slow line must not duplicate the hand (issue 6)."""
    client = client_as("scorer")
    form = client.get(record_url(table)).context["client_id"]  # the id the page gave the entry
    data = {**contract_example_post(table, "save"), "client_id": str(form)}
    first = client.post(record_url(table), data)
    second = client.post(record_url(table), data)
    assert first.status_code == second.status_code == 302
    assert Hand.objects.filter(table=table).count() == 1
    assert str(Hand.objects.get().client_id) == str(form)


def test_a_different_hand_sent_with_a_taken_number_by_the_same_scorer_is_a_conflict(
    client_as, table
):
    client = client_as("scorer")
    client.post(record_url(table), contract_example_post(table, "save"))
    data = contract_example_post(table, "save")
    data[f"seat{seat_ids(table)['W']}-score"] = "40"
    response = client.post(record_url(table), data)
    assert response.status_code == 409
    assert Hand.objects.filter(table=table).count() == 1


def test_session_page_totals_follow_the_recorded_hands_and_leave_out_void_ones(
    client_as, table, users
):
    """Contract README settle example: S +3456 after the hand; a void hand counts for no one."""
    client = client_as("member")
    client_as("scorer").post(record_url(table), contract_example_post(table, "save"))
    session = table.session
    url = reverse("session", args=[session.club.slug, session.pk])
    totals = {row["name"]: row["total"] for row in client.get(url).context["totals"]}
    assert totals == {"Alice": -1752, "Bob": 3456, "Carol": -780, "David": -924}
    hand = Hand.objects.get()
    client_as("scorer").post(correct_url(hand), {"action": "void", "reason": "wrong table"})
    assert client.get(url).context["totals"] == []


def test_an_empty_record_form_asks_every_question_in_words(client_as, table):
    response = client_as("scorer").post(record_url(table), {"action": "preview"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose who went Mah Jong, or Wall game if no one did." in page
    assert page.count("Choose the agreed score or the full hand.") == 4
    assert "5 answers to mend" in page


def test_after_a_wall_game_the_next_hand_is_offered_as_a_goulash(client_as, table, users):
    """004: a wall game is followed by a goulash hand (RotationParams.goulash_after_draw)."""
    record_hand(
        table,
        {"draw": True, "seats": {w: {"score": 0} for w in "ESWN"}},
        users["scorer"],
    )
    client = client_as("scorer")
    assert client.get(table_url(table)).context["state"]["next"]["goulash"] is True
    assert "goulash hand" in client.get(table_url(table)).content.decode()
    outcome = client.get(record_url(table)).context["outcome"]
    assert outcome.initial["goulash"] is True


def test_logging_out_is_a_post_and_ends_the_session(client_as, table):
    client = client_as("member")
    assert client.get(table_url(table)).status_code == 200
    client.post(reverse("logout"))
    assert client.get(table_url(table)).status_code == 404  # a private club reads as none


@pytest.mark.parametrize(
    "change",
    [
        {"winner": "999999"},
        {"winner": "not-a-seat"},
        {"discarder": "999999"},
        {"win_source": "teleport"},
        {"expected_number": "many"},
        {"expected_number": "-3"},
        {"goulash": "maybe"},
        {"action": "explode"},
    ],
)
def test_odd_posts_to_the_record_page_are_answered_without_a_500(client_as, table, change):
    data = {**contract_example_post(table, "save"), **change}
    response = client_as("scorer").post(record_url(table), data)
    assert response.status_code in (200, 302, 400)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "swap", "first": "999999", "second": "1"},
        {"action": "swap", "first": "x", "second": "y"},
        {"action": "edit"},
        {"action": "void", "reason": "x" * 500},
        {"action": "nonsense"},
        {},
    ],
)
def test_odd_posts_to_the_correct_page_change_nothing(client_as, table, users, data):
    hand = record_hand(table, quick_entry(), users["scorer"])
    response = client_as("scorer").post(correct_url(hand), data)
    assert response.status_code in (200, 400)
    hand.refresh_from_db()
    assert not hand.voided
    assert HandEntry.objects.get(hand=hand, seat_wind="E").data == {"score": 100}


def test_a_hand_of_another_table_is_not_found_under_this_table(client_as, table, users, players):
    from clubs.models import Seat, Table

    other = Table.objects.create(session=table.session, number=2)
    for position, (member, wind) in enumerate(zip(players, "ESWN", strict=True)):
        Seat.objects.create(table=other, member=member, position=position, starting_wind=wind)
    hand = record_hand(other, quick_entry(), users["scorer"])
    s = table.session
    url = reverse("correct-hand", args=[s.club.slug, s.pk, table.pk, hand.pk])
    assert client_as("admin").get(url).status_code == 404


def test_the_goulash_pot_is_shown_on_the_table_page(client_as, club, players, house_rule_versions, users):
    """003 (balsall-common): a goulash follows a wall game, each player puts 5 into the pot."""
    import datetime as dt

    from clubs.models import ClubSession, Seat, Table

    session = ClubSession.objects.create(
        club=club, date=dt.date(2026, 11, 20), house_rule_version=house_rule_versions["balsall-common"]
    )
    table = Table.objects.create(session=session, number=1)
    for position, (member, wind) in enumerate(zip(players, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    wall_game = {"draw": True, "seats": {w: {"score": 0} for w in "ESWN"}}
    record_hand(table, wall_game, users["scorer"])
    record_hand(table, wall_game, users["scorer"])
    response = client_as("member").get(table_url(table))
    state = response.context["state"]
    assert state["pot"] == 20
    assert [(h["pot_before"], h["pot_after"]) for h in state["hands"]] == [(0, 0), (0, 20)]
    page = response.content.decode()
    assert "pot/kitty: <strong>20</strong>" in page and "Pot/kitty 0 → 20." in page


def test_a_table_that_cannot_start_shows_why_instead_of_failing(client_as, club_session):
    """001/004: a four-player house rule needs four players in their starting order; a table
    added in the admin without them shows that (409), on its page and its record page."""
    from clubs.models import Table

    table = Table.objects.create(session=club_session, number=9)
    client = client_as("scorer")
    args = [club_session.club.slug, club_session.pk, table.pk]
    for name in ("table", "record-hand"):
        response = client.get(reverse(name, args=args))
        assert response.status_code == 409
        page = response.content.decode()
        assert "cannot be played as it is seated" in page and "4 players" in page


def test_the_record_page_reads_the_next_hand_as_the_table_page_does(table, users):
    """The record page reads the table's saved state, the table page replays the night: both
    give the same next hand, East, round wind, goulash (after a wall game: 000) and pot."""
    from clubs.recording import record_hand
    from clubs.views import table_view as tv
    from tests.web.test_recording import quick

    entries = [quick(winner="S", scores=(0, 40, 0, 0)), {**quick(), "winner": None,
                                                        "draw": True}, quick(winner="W")]
    for entry in [None, *entries]:
        if entry is not None:
            record_hand(table, entry, users["scorer"])
        table.refresh_from_db()
        full, light = tv.table_view(table), tv.next_hand_view(table)
        assert light["next"] == full["next"] and light["pot"] == full["pot"]
        assert {s["id"]: s["name"] for s in light["seats"]} == {
            s["id"]: s["name"] for s in full["seats"]}
