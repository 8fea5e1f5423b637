"""Issue 14, at the table: the session form's defaults, the dealer every page names under every
built-in house rule's rotation, no typing for scores that change no payment, "how was it won"
and "who discarded" agreeing, one id per element, the tile legend said once, a NUL in a form
answered by the form, the QR code that opens the table on another phone, and the table page's
"who went Mah Jong" links into the record page."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.hand_text import HandTextError, parse_hand_text
from clubs.models import ClubSession, Hand, Season, Seat, Table
from clubs.recording import next_hand_of, record_hand
from scoring.engine import builtin_house_rules
from settlements.engine.rotation import SEATS_FOR

pytestmark = pytest.mark.django_db

NAMES = ("Alice", "Bob", "Carol", "David", "Eve")


def table_url(table, name="table", *extra) -> str:
    session = table.session
    return reverse(name, args=[session.club.slug, session.pk, table.pk, *extra])


def seated_table(club, version, players) -> Table:
    """A table seated for ``version``'s number of players: East, South... by the winds the
    settlement engine seats them in, a fifth sitting out."""
    count = int(version.data["scoring"].get("players") or 4)
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 20),
                                         house_rule_version=version)
    table = Table.objects.create(session=session, number=1)
    winds = (*SEATS_FOR[count], "")[:count]
    for position, wind in enumerate(winds):
        Seat.objects.create(table=table, member=players[position], position=position,
                            starting_wind=wind)
    return table


def quick_hand(seating, winner_wind: str) -> dict:
    """A hand won from the wall by whoever plays ``winner_wind``, agreed scores 40 and 8, 4, 0."""
    losers = iter((8, 4, 0, 0))
    return {"winner": winner_wind, "win_from": "wall", "seats": {
        w: {"score": 40 if w == winner_wind else next(losers)} for w in seating.winds_in_play}}


@pytest.fixture
def five_players(club, players):
    from clubs.models import Member

    return [*players, Member.objects.create(club=club, display_name="Eve")]


# -- starting a session --------------------------------------------------------------------


def test_the_start_form_shows_today_in_the_clubs_time_zone_and_the_current_season(
        client_as, club, settings):
    """The date box was empty (the locale's date format in a type=date box) and the season
    'No season', so the first 'Start the session' failed."""
    settings.TIME_ZONE = "Pacific/Kiritimati"  # UTC+14: its today is often not UTC's
    today = timezone.localdate()
    Season.objects.create(club=club, name="2025", start=dt.date(2025, 1, 1),
                          end=dt.date(2025, 12, 31))
    current = Season.objects.create(club=club, name="League", start=today - dt.timedelta(days=30))
    page = client_as("scorer").get(reverse("club", args=[club.slug])).content.decode()
    assert f'value="{today.isoformat()}"' in page
    assert re.search(rf'<option value="{current.pk}" selected>[^<]*League</option>', page)


def test_the_start_form_as_shown_starts_a_session_the_first_time(client_as, club, users):
    client = client_as("scorer")
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    form = FormValues.of(page, "/sessions/new/")
    answer = client.post(reverse("start-session", args=[club.slug]), form)
    assert answer.status_code == 302, re.findall(r'errorlist[^>]*>(.*?)</ul>', answer.content.decode())
    session = ClubSession.objects.get(club=club)
    assert session.date == timezone.localdate()


class FormValues(HTMLParser):
    """What a browser would send for one form as the page shows it (no typing)."""

    def __init__(self, action_part: str):
        super().__init__()
        self.action_part, self.inside, self.values, self.select = action_part, False, {}, None

    @classmethod
    def of(cls, html: str, action_part: str) -> dict:
        parser = cls(action_part)
        parser.feed(html)
        return parser.values

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = self.action_part in (a.get("action") or "")
        if not self.inside:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("radio", "checkbox"):
            self.values[a["name"]] = a.get("value", "")
        if tag == "input" and a.get("type") in ("radio", "checkbox") and "checked" in a:
            self.values[a["name"]] = a.get("value", "on")
        if tag == "textarea":
            self.values[a["name"]] = ""
        if tag == "select":
            self.select = a["name"]
            self.values.setdefault(self.select, "")
        if tag == "option" and self.select and "selected" in a:
            self.values[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        if tag == "select":
            self.select = None


# -- the dealer, as the settlement has them --------------------------------------------------


@pytest.mark.parametrize("slug", sorted(builtin_house_rules()))
def test_every_page_names_the_dealer_the_settlement_uses(client_as, club, users, five_players,
                                                         house_rule_versions, slug):
    """For every built-in house rule's rotation: after a hand won by a player who is not the
    dealer, the table page's badge, the record page and the next hand's correction page name
    the dealer of Table.state["next"] and of the hand as stored (under 002 the winner deals,
    with the winds unchanged)."""
    table = seated_table(club, house_rule_versions[slug], five_players)
    names = {seat.pk: seat.name for seat in table.seats.all()}
    _, seating, _, _ = next_hand_of(table)
    winner_wind = "W" if len(seating.winds) == 2 else "S"
    record_hand(table, quick_hand(seating, winner_wind), users["scorer"])
    _, after, _, _ = next_hand_of(table)
    dealer = after.dealer_seat
    wind_name = {"E": "East", "S": "South", "W": "West", "N": "North"}[after.winds[dealer]]
    label = "East" if wind_name == "East" else "Dealer"
    client = client_as("scorer")

    table_page = client.get(table_url(table)).content.decode()
    assert re.findall(r'class="seat east" data-seat="(\d+)"', table_page) == [str(dealer)]
    record_page = client.get(table_url(table, "record-hand")).content.decode()
    assert f"{label}: <strong>{names[dealer]}</strong>" in record_page

    record_hand(table, quick_hand(after, "E"), users["scorer"])
    hand = Hand.objects.get(table=table, number=2)
    assert hand.dealer_id == dealer
    correct_page = client.get(table_url(table, "correct-hand", hand.pk)).content.decode()
    assert f"{label}: <strong>{names[dealer]}</strong>" in correct_page
    if slug.startswith("guide"):
        # 002: the winner (at South, or West at two) deals next, and the winds stay.
        assert names[dealer] == names[seating.seat_of(winner_wind)]
        if len(seating.winds) == len(names):  # at five an East who did not win retires
            assert after.winds == seating.winds
            assert f"Dealer: <strong>{names[dealer]}</strong> ({wind_name})" in record_page
            assert "Deals next" in table_page


# -- what needs typing -----------------------------------------------------------------------


def outcome_post(table, winner, discarder="", win_source=None, scores=None, action="save"):
    ids = {s.starting_wind: s.pk for s in table.seats.all()}
    data = {"action": action, "expected_number": "1", "winner": winner if winner == "draw"
            else str(ids[winner]), "discarder": str(ids[discarder]) if discarder else ""}
    if win_source is not None:
        data["win_source"] = win_source
    for wind, seat_id in ids.items():
        data[f"seat{seat_id}-mode"] = "quick"
        data[f"seat{seat_id}-score"] = str((scores or {}).get(wind, ""))
    return data


def test_a_wall_game_needs_no_scores_typed(client_as, table):
    answer = client_as("scorer").post(table_url(table, "record-hand"), outcome_post(table, "draw"))
    assert answer.status_code == 302
    hand = Hand.objects.get(table=table)
    assert hand.draw and {e.data["score"] for e in hand.entries.all()} == {0}


def test_under_a_winner_only_rule_the_losers_need_no_score(client_as, club, players, users,
                                                           house_rule_versions):
    """002: only the winner is paid; the others' empty boxes count as 0."""
    table = seated_table(club, house_rule_versions["guide"], players)
    post = outcome_post(table, "S", discarder="W", scores={"S": 60})
    answer = client_as("scorer").post(table_url(table, "record-hand"), post)
    assert answer.status_code == 302
    hand = Hand.objects.get(table=table)
    assert hand.win_source == "discard"
    assert sorted(e.data["score"] for e in hand.entries.all()) == [0, 0, 0, 60]


def test_under_bmja_a_losers_empty_score_counts_as_0(client_as, table):
    """Issue #25: under 004 a loser's hand may score nothing, so an empty box is that 0 (the
    record page shows "0" in it); only the losers who scored are typed."""
    post = outcome_post(table, "S", discarder="W", scores={"S": 60, "E": 8, "W": 4})
    answer = client_as("scorer").post(table_url(table, "record-hand"), post)
    assert answer.status_code == 302
    hand = Hand.objects.get(table=table)
    scores = {e.seat.starting_wind: e.data["score"] for e in hand.entries.select_related("seat")}
    assert scores == {"E": 8, "S": 60, "W": 4, "N": 0}


def test_under_bmja_the_winners_empty_score_is_still_asked_for(client_as, table):
    """A Mah Jong always scores: the winner's empty box is a question, not a 0."""
    post = outcome_post(table, "S", discarder="W", scores={"E": 8, "W": 4, "N": 0})
    answer = client_as("scorer").post(table_url(table, "record-hand"), post)
    assert answer.status_code == 400
    assert "Give the score the players agreed (0 if none)." in answer.content.decode()
    assert not Hand.objects.exists()


def test_a_rule_where_every_losing_hand_scores_asks_for_each_box():
    """"Where the rule allows it": a rule paying every losing hand for its runs never reads an
    empty box as 0; the built-in rules all let a losing hand score nothing."""
    from clubs.forms import loser_may_score_nothing

    rules = builtin_house_rules()
    assert all(loser_may_score_nothing(rule) for rule in rules.values())
    runs = rules["bmja"].derive("runs-pay", {"add_items": [{
        "code": "every_run", "wording": "Each run, in any hand", "rule": "chows",
        "points": 2, "who": "losers"}]})
    assert not loser_may_score_nothing(runs)


def test_the_record_page_says_which_empty_boxes_are_0(client_as, table):
    page = client_as("scorer").get(table_url(table, "record-hand")).content.decode()
    assert 'data-losers-zero="1"' in page and 'data-goulash-losers-zero="1"' in page
    assert "for a loser whose hand may score nothing under the house rule" in page


@pytest.mark.parametrize(("discarder", "source"), [("", "wall"), ("W", "discard")])
def test_the_winner_alone_is_self_drawn_and_a_discarder_means_a_discard(client_as, table,
                                                                       discarder, source):
    """'How was it won?' no longer defaults to 'On a discard' while 'Who discarded' says
    'Nobody': picking the winner alone records a win from the wall."""
    page = client_as("scorer").get(table_url(table, "record-hand")).content.decode()
    assert not re.search(r'name="win_source" value="\w+"[^>]*checked', page)
    post = outcome_post(table, "S", discarder=discarder,
                        scores={"S": 60, "E": 8, "W": 4, "N": 0})
    answer = client_as("scorer").post(table_url(table, "record-hand"), post)
    assert answer.status_code == 302
    assert Hand.objects.get(table=table).win_source == source


def test_a_discard_win_told_from_the_wall_still_says_what_to_mend(client_as, table):
    post = outcome_post(table, "S", discarder="W", win_source="wall",
                        scores={"S": 60, "E": 8, "W": 4, "N": 0})
    answer = client_as("scorer").post(table_url(table, "record-hand"), post)
    assert answer.status_code == 400
    assert "has no discarder" in answer.content.decode()


def test_the_table_pages_winner_links_open_the_record_page_with_the_winner_chosen(
        client_as, table):
    client = client_as("scorer")
    page = client.get(table_url(table)).content.decode()
    bob = table.seats.get(member__display_name="Bob").pk
    assert f"record/?winner={bob}" in page and "record/?winner=draw" in page
    record = client.get(table_url(table, "record-hand"), {"winner": bob}).content.decode()
    assert re.search(rf'name="winner" value="{bob}"[^>]*checked', record)
    wall = client.get(table_url(table, "record-hand"), {"winner": "draw"}).content.decode()
    assert re.search(r'name="winner" value="draw"[^>]*checked', wall)
    # Anything else opens the page with nothing chosen.
    odd = client.get(table_url(table, "record-hand"), {"winner": "x"}).content.decode()
    assert not re.search(r'name="winner" value="[^"]*"[^>]*checked', odd)


def test_after_saving_the_table_page_opens_at_its_top(client_as, table):
    post = outcome_post(table, "draw")
    answer = client_as("scorer").post(table_url(table, "record-hand"), post)
    assert answer["Location"] == table_url(table)


# -- one id per element ----------------------------------------------------------------------


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids += [v for k, v in attrs if k == "id"]


def duplicate_ids(html: str) -> set[str]:
    parser = Ids()
    parser.feed(html)
    return {i for i in parser.ids if parser.ids.count(i) > 1}


def test_no_page_a_player_uses_repeats_an_id(client_as, table, users):
    hand = record_hand(table, {"winner": "E", "win_from": "wall", "seats": {
        w: {"score": s} for w, s in zip("ESWN", (40, 8, 4, 0), strict=True)}}, users["scorer"])
    client = client_as("scorer")
    session = table.session
    for url in (reverse("club", args=[session.club.slug]),
                reverse("session", args=[session.club.slug, session.pk]),
                table_url(table), table_url(table, "record-hand"),
                table_url(table, "correct-hand", hand.pk), table_url(table, "hand", hand.pk)):
        answer = client.get(url)
        assert answer.status_code == 200 and duplicate_ids(answer.content.decode()) == set(), url


# -- messages --------------------------------------------------------------------------------


def test_the_tile_legend_is_given_once_however_many_tiles_are_wrong():
    with pytest.raises(HandTextError) as err:
        parse_hand_text("pung x1, kong q9", "b6 zz b7 yy", "")
    messages = [m for msgs in err.value.errors.values() for m in msgs]
    assert len(messages) == 4
    assert sum("b1-b9" in m for m in messages) == 1
    assert "'q9' is not a tile either." in " ".join(messages)


def form_post(client, url, body: str):
    return client.post(url, body, content_type="application/x-www-form-urlencoded")


def test_a_nul_in_each_page_form_gives_the_form_back_with_its_error(client_as, table, users):
    """A browser posts forms url-encoded: a NUL typed (or pasted) into one gets the form
    again with the error on that field, never a bare text page."""
    hand = record_hand(table, {"winner": "E", "win_from": "wall", "seats": {
        w: {"score": s} for w, s in zip("ESWN", (40, 8, 4, 0), strict=True)}}, users["scorer"])
    client = client_as("scorer")
    session = table.session
    slug = session.club.slug
    east = table.seats.get(starting_wind="E").pk
    cases = [
        (reverse("start-session", args=[slug]), "date=2026-11-20&notes=a%00b", "Null characters"),
        (reverse("add-table", args=[slug, session.pk]), "E_guest=a%00b", "Null characters"),
        (table_url(table, "record-hand"),
         f"action=preview&winner={east}&seat{east}-mode=full&seat{east}-concealed=b1%00",
         "Null characters"),
        (table_url(table, "correct-hand", hand.pk), "action=void&reason=a%00b", "Null characters"),
        (reverse("session-status", args=[slug, session.pk]), "action=close%00", "action=close"),
    ]
    for url, body, message in cases:
        answer = form_post(client, url, body)
        text = answer.content.decode()
        assert answer.status_code == 400, url
        assert answer["Content-Type"].startswith("text/html") and "<form" in text, url
        assert message in text, url


# -- following the table on another phone ----------------------------------------------------


def test_the_table_page_has_a_qr_code_that_opens_the_table(client_as, table):
    answer = client_as("member").get(table_url(table))
    text = answer.content.decode()
    url = f"http://testserver{table_url(table)}"
    assert '<svg viewBox="0 0' in text and f'aria-label="QR code of this table\'s page: {url}"' in text
    assert f'<a href="{url}">' in text
    # A member who may not record follows: no record button, no winner links.
    assert "Record hand" not in text and "?winner=" not in text


def test_the_qr_code_encodes_the_table_pages_address(client_as, table):
    from clubs.views.table_qr import qr_svg

    url = f"http://testserver{table_url(table)}"
    text = client_as("member").get(table_url(table)).content.decode()
    assert str(qr_svg(url)) in text


def test_the_qr_code_is_drawn_once_and_kept_in_files_not_memory(client_as, table, settings,
                                                                tmp_path, monkeypatch):
    """Every view of a table drew the same code again (15 % of the page's time): it is drawn
    on the first view and kept under the hash of its address in the file cache every worker
    of the machine reads."""
    from clubs.views import table_qr

    settings.ALLOWED_HOSTS = ["testserver", "club.example"]
    settings.CACHES = {**settings.CACHES, "qr": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(tmp_path / "qr")}}
    drawn = []
    real = table_qr.draw
    monkeypatch.setattr(table_qr, "draw", lambda url: drawn.append(url) or real(url))
    client = client_as("member")
    first = client.get(table_url(table)).content.decode()
    second = client.get(table_url(table)).content.decode()
    url = f"http://testserver{table_url(table)}"
    assert drawn == [url]
    svg = real(url)
    assert svg in first and svg in second
    kept = list((tmp_path / "qr").iterdir())
    assert len(kept) == 1  # one file, named by the key's hash
    # Another address (another host name in front of the same server) is another code.
    client.get(table_url(table), HTTP_HOST="club.example")
    assert drawn == [url, f"http://club.example{table_url(table)}"]


def test_correcting_a_wall_game_starts_with_how_it_was_won_unanswered(client_as, table, users):
    """A wall game has no 'how': its correction page chose 'On a discard' with nobody as the
    discarder, so turning it into a win from the wall failed until both were changed."""
    hand = record_hand(table, {"draw": True, "seats": {
        w: {"score": 0} for w in "ESWN"}}, users["scorer"])
    client = client_as("scorer")
    page = client.get(table_url(table, "correct-hand", hand.pk)).content.decode()
    assert not re.search(r'name="win_source" value="\w+"[^>]*checked', page)
    ids = {s.starting_wind: s.pk for s in table.seats.all()}
    post = {"action": "edit", "winner": str(ids["S"]), "discarder": ""}
    for wind, score in zip("ESWN", (8, 60, 4, 0), strict=True):
        post.update({f"seat{ids[wind]}-mode": "quick", f"seat{ids[wind]}-score": str(score)})
    assert client.post(table_url(table, "correct-hand", hand.pk), post).status_code == 302
    hand.refresh_from_db()
    assert (hand.draw, hand.win_source, hand.winner_id) == (False, "wall", ids["S"])
