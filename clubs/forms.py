"""Forms behind the club pages: each checks what a scorer typed and says how to mend it.

They turn what was typed into the plain values the recording service takes; they never
score, settle or write hands themselves.
"""

from __future__ import annotations

import datetime
from functools import lru_cache

from django import forms
from django.core.validators import MaxLengthValidator
from django.db.models import Q
from django.utils import timezone

from clubs.hand_text import HandTextError, parse_hand_text
from clubs.models import (
    ClubSession,
    HouseRuleVersion,
    Member,
    Seat,
    Table,
    Wind,
    WinSource,
)
from clubs.seating import SeatChoice, seat_problems, seat_table
from clubs.text_limits import NOTES_MAX
from play import AS_RECORDED, RESEAT, UNKNOWN
from scoring.engine import HandError, parse_hand, score_hand
from settlements.engine.rotation import SEATS_FOR

WIND_NAMES = dict(Wind.choices)


def house_rule_versions_for(club) -> forms.models.QuerySet:
    """The versions a club may play under: built-in house rules and the club's own."""
    return (
        HouseRuleVersion.objects.filter(Q(record__club__isnull=True) | Q(record__club=club))
        .select_related("record")
        .order_by("record__slug", "-number")
    )


class HouseRuleVersionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: HouseRuleVersion) -> str:
        return f"{obj.record.name} (v{obj.number})"


def current_season(club, day: datetime.date):
    """The club's season that ``day`` falls in (the latest begun, where two overlap)."""
    return (
        club.seasons.filter(start__lte=day)
        .filter(Q(end__isnull=True) | Q(end__gte=day))
        .order_by("-start")
        .first()
    )


class StartSessionForm(forms.ModelForm):
    """Club home: start a club night under an exact house rule version."""

    house_rule_version = HouseRuleVersionChoiceField(
        queryset=HouseRuleVersion.objects.none(), label="House rule"
    )
    goulash_rule_version = HouseRuleVersionChoiceField(
        queryset=HouseRuleVersion.objects.none(),
        required=False,
        label="Goulash rule",
        empty_label="As the house rule says",
        help_text="The rule that scores goulash hands (a wall game is followed by one).",
    )

    class Meta:
        model = ClubSession
        fields = ["date", "season", "house_rule_version", "goulash_rule_version", "notes"]
        widgets = {
            # A date box shows only an ISO date: in the locale's format it would show empty.
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "notes": forms.Textarea(attrs={"rows": 2, "maxlength": NOTES_MAX}),
        }

    def __init__(self, *args, club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)
        # Before validation: the model's clean() freezes the goulash rule among this club's.
        self.instance.club = club
        self.fields["notes"].max_length = NOTES_MAX
        self.fields["notes"].validators.append(MaxLengthValidator(NOTES_MAX))
        versions = house_rule_versions_for(club)
        self.fields["house_rule_version"].queryset = versions
        self.fields["goulash_rule_version"].queryset = versions
        self.fields["season"].queryset = club.seasons.all()
        self.fields["season"].required = False
        self.fields["season"].empty_label = "No season"
        # The club's own seasons, by name: "Jade Dragon Club: 2026" said the club twice.
        self.fields["season"].label_from_instance = lambda season: season.name
        if not self.is_bound:
            # Today where the club plays (the service's TIME_ZONE), not the server's UTC date.
            today = timezone.localdate()
            self.initial.setdefault("date", today)
            season = current_season(club, today)
            if season is not None:
                self.initial.setdefault("season", season.pk)
            default = club.default_house_rule.latest_version() if club.default_house_rule else None
            if default is not None:
                self.initial.setdefault("house_rule_version", default.pk)



class MemberChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Member) -> str:
        return obj.display_name


OUT = "out"  # the row of a fifth player, who sits out the first hand


def seating_rows(players: int) -> list[tuple[str, str]]:
    """(row key, row name) for a table of ``players``: the winds the settlement engine seats
    them in (two players sit East and West), and a fifth who starts sitting out."""
    rows = [(wind, WIND_NAMES[wind]) for wind in SEATS_FOR[players]]
    if players == 5:
        rows.append((OUT, "Sits out the first hand"))
    return rows


class SeatingForm(forms.Form):
    """Session page: a new table and who sits where, each with the wind they drew.

    One row per wind the house rule's table has; each row is a member picked from the club or
    a guest typed by name.
    """

    def __init__(self, *args, club, players: int = 4, session: ClubSession | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.session = session
        self.row_names = seating_rows(players)
        members = Member.objects.filter(club=club, active=True).order_by("display_name")
        for key, _name in self.row_names:
            self.fields[f"{key}_member"] = MemberChoiceField(
                queryset=members,
                required=False,
                label="Member",
                empty_label="— a guest, or nobody —",
            )
            self.fields[f"{key}_guest"] = forms.CharField(
                required=False, max_length=80, label="…or a guest's name"
            )

    def rows(self):
        """(row key, row name, member field, guest field) for the template."""
        return [
            (key, name, self[f"{key}_member"], self[f"{key}_guest"]) for key, name in self.row_names
        ]

    def clean(self):
        data = super().clean()
        rows, seated = [], []
        for key, _name in self.row_names:
            member = data.get(f"{key}_member")
            guest = (data.get(f"{key}_guest") or "").strip()
            if member or guest:  # an empty row seats nobody
                rows.append(key)
                seated.append(SeatChoice(member, guest, "" if key == OUT else key))
        problems, table = seat_problems(self.session, seated)
        fields = {"member": "member", "guest_name": "guest", "starting_wind": "member"}
        for key, problem in zip(rows, problems, strict=True):
            for field, messages in problem.items():
                for message in messages:
                    self.add_error(f"{key}_{fields[field]}", message)
        if table and not self.errors:
            raise forms.ValidationError(table)
        data["seated"] = seated
        return data

    def save(self, session: ClubSession) -> Table:
        return seat_table(session, self.cleaned_data["seated"])


# -- recording a hand ---------------------------------------------------------------------

DRAW = "draw"


class HandOutcomeForm(forms.Form):
    """Step 1: who went Mah Jong (or a wall game), how, and who discarded the winning tile."""

    winner = forms.ChoiceField(
        label="Who went Mah Jong?",
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who went Mah Jong, or Wall game if no one did."},
    )
    # No answer chosen until the scorer picks one: a discarder picked means "on a discard",
    # none means "from the wall" (clean), so the two questions never disagree.
    win_source = forms.ChoiceField(
        label="How was it won?",
        choices=WinSource.choices,
        required=False,
        widget=forms.RadioSelect,
    )
    discarder = forms.ChoiceField(
        label="Who discarded the winning tile?", required=False, widget=forms.RadioSelect
    )
    goulash = forms.BooleanField(label="Goulash hand", required=False)
    last_wall_tile = forms.BooleanField(label="Last tile of the wall", required=False)
    last_discard = forms.BooleanField(label="Last discard", required=False)
    original_call = forms.BooleanField(label="Original call", required=False)

    def __init__(self, *args, seats: list[tuple[Seat, str]], **kwargs):
        """``seats``: each seat with the wind it plays this hand."""
        super().__init__(*args, **kwargs)
        self.seat_winds = {str(seat.pk): wind for seat, wind in seats}
        people = [(str(seat.pk), f"{WIND_NAMES[wind]} · {seat.name}") for seat, wind in seats]
        self.fields["winner"].choices = [*people, (DRAW, "Wall game (no winner)")]
        # "Someone, but who is forgotten": won on a discard whose discarder nobody remembers
        # (play.UNKNOWN; settled as settlements.engine documents for discarder_unknown).
        self.fields["discarder"].choices = [("", "Nobody (won from the wall)"), *people,
                                            (UNKNOWN, "Someone, nobody remembers who")]

    def clean(self):
        data = super().clean()
        winner = data.get("winner")
        discarder = data.get("discarder") or None
        source = data.get("win_source") or ""
        if winner == DRAW:
            data.update(winner=None, discarder=None, win_source="")
            if discarder:
                self.add_error("discarder", "A wall game has no discarder: choose Nobody.")
            return data
        if winner is None:
            return data
        if not source:
            source = WinSource.DISCARD if discarder else WinSource.WALL
            data["win_source"] = source
        if source in (WinSource.DISCARD, WinSource.ROBBED_KONG) and not discarder:
            self.add_error("discarder", "Won on another player's tile: say who gave it, or "
                           "'Someone, nobody remembers who'.")
        if source in (WinSource.WALL, WinSource.KONG_BOX) and discarder:
            self.add_error(
                "discarder",
                "A tile from the wall or the kong box has no discarder: choose Nobody, or "
                "change how it was won.",
            )
        if discarder and discarder != UNKNOWN and discarder == winner:
            self.add_error("discarder", "The winner cannot have discarded their own winning tile.")
        data["discarder"] = discarder
        return data

    @property
    def winner_seat_id(self) -> int | None:
        winner = self.cleaned_data.get("winner")
        return int(winner) if winner else None

    @property
    def discarder_seat_id(self) -> int | None:
        discarder = self.cleaned_data.get("discarder")
        return int(discarder) if discarder and discarder != UNKNOWN else None

    @property
    def discarder_unknown(self) -> bool:
        return self.cleaned_data.get("discarder") == UNKNOWN


def losers_scores_count(rule) -> bool:
    """Whether the losers' scores change any payment under ``rule`` (a ``HouseRule``): they
    settle differences among themselves (004), or a lower-scoring winner pays theirs (001).
    Under a rule where only the winner is paid (002, 003, 000) they do not."""
    payment = rule.payment
    return bool(payment.losers_settle_differences or payment.winner_pays_difference_if_lower)


# A losing hand with nothing in it: plain runs, no honours, no pairs, no flowers.
_NOTHING = {"seat_wind": "S", "prevailing_wind": "E", "mahjong": False, "melds": [], "bonus": [],
            "concealed": "b2 b3 b4 c2 c3 c4 d2 d3 d4 b6 b7 c6 c7".split()}


@lru_cache(maxsize=64)
def loser_may_score_nothing(rule) -> bool:
    """Whether a loser's hand can be worth 0 under ``rule``: then an empty agreed score for a
    loser means 0 (004: "a hand with nothing scores nothing"), and the scorer types only the
    losers who scored. Asked of the rule itself (a rule giving every hand a base score answers
    False, and each box must be filled). A pure function of a frozen rule: cached."""
    try:
        return score_hand(parse_hand(_NOTHING), rule).score == 0
    except HandError:
        return False


QUICK = "quick"
FULL = "full"


class SeatEntryForm(forms.Form):
    """Step 2, one per seat: the score the players agreed, or the full hand as typed tiles."""

    mode = forms.ChoiceField(
        label="Enter",
        choices=[(QUICK, "Agreed score"), (FULL, "Full hand")],
        initial=QUICK,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose the agreed score or the full hand."},
    )
    score = forms.IntegerField(
        label="Score",
        required=False,
        min_value=0,
        max_value=10_000_000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    melds = forms.CharField(
        label="Sets on the table",
        required=False,
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2, "autocapitalize": "none", "spellcheck": "false"}),
        help_text="e.g. pung b1, kong b9, kong dr concealed, chow c2",
    )
    concealed = forms.CharField(
        label="Tiles in the hand",
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}),
        help_text="e.g. b6 b6 b6 we we (the winner includes the winning tile)",
    )
    bonus = forms.CharField(
        label="Flowers and seasons",
        required=False,
        max_length=100,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}),
        help_text="e.g. f2 s2",
    )
    win_tile = forms.CharField(
        label="Winning tile",
        required=False,
        max_length=4,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}),
        help_text="Only for the player who went Mah Jong, e.g. we",
    )
    fishing = forms.BooleanField(label="Was fishing (called for a special hand)", required=False)

    def __init__(self, *args, seat: Seat, wind: str, **kwargs):
        kwargs.setdefault("prefix", f"seat{seat.pk}")
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.wind = wind
        # False where this seat's score changes no payment (a wall game; a loser under a rule
        # where only the winner scores): an empty agreed score is then 0, nothing to type.
        self.score_counts = True
        # True for a loser whose hand may be worth nothing under the rule: empty means 0.
        self.empty_means_zero = False

    def clean(self):
        data = super().clean()
        if data.get("mode") == QUICK:
            if data.get("score") is None and "score" not in self.errors:
                if self.score_counts and not self.empty_means_zero:
                    self.add_error("score", "Give the score the players agreed (0 if none).")
                else:
                    data["score"] = 0
            return data
        if data.get("mode") != FULL:
            return data
        try:
            data["hand"] = parse_hand_text(
                data.get("melds", ""), data.get("concealed", ""), data.get("bonus", "")
            )
        except HandTextError as err:
            for name, messages in err.errors.items():
                for message in messages:
                    self.add_error(name, message)
            return data
        if not data["hand"]["melds"] and not data["hand"]["concealed"]:
            self.add_error("concealed", "Type the tiles of the hand, or switch to the agreed score.")
        win_tile = (data.get("win_tile") or "").strip().lower()
        if win_tile:
            try:
                [data["win_tile"]] = parse_hand_text(concealed=win_tile)["concealed"]
            except (HandTextError, ValueError):
                self.add_error("win_tile", f"'{win_tile}' is not one tile code, e.g. we or b5.")
        return data

    def entry(self, *, prevailing_wind: str, mahjong: bool, outcome: dict, goulash: bool) -> dict:
        """What was entered for this seat, as the contract's hand JSON or {"score": N}."""
        data = self.cleaned_data
        if data["mode"] == QUICK:
            return {"score": data["score"]}
        hand = {
            "seat_wind": self.wind,
            "prevailing_wind": prevailing_wind,
            "mahjong": mahjong,
            **data["hand"],
            "goulash": goulash,
            "fishing": bool(data.get("fishing")) and not mahjong,
        }
        if mahjong:
            hand["win"] = {
                "tile": data.get("win_tile") or None,
                "from": outcome.get("win_source") or "discard",
                "last_wall_tile": bool(outcome.get("last_wall_tile")),
                "last_discard": bool(outcome.get("last_discard")),
                "robbed_kong": outcome.get("win_source") == WinSource.ROBBED_KONG,
                "kong_replacement": outcome.get("win_source") == WinSource.KONG_BOX,
                "original_call": bool(outcome.get("original_call")),
            }
        return hand


# -- corrections ----------------------------------------------------------------------------


LATER_HANDS_CHOICES = [
    (RESEAT, "Seat them again"),
    (AS_RECORDED, "The table played on as recorded"),
]
LATER_HANDS_HELP = (
    "If this changes who deals, the later hands are seated again from it (who is East, the "
    "seat winds, the wind of the round) and hands entered as tiles are scored again under "
    "their new winds. Choose 'played on as recorded' if the table really went on as the "
    "sheet shows: their seating stays and the deal goes on from it."
)


def later_hands_field() -> forms.ChoiceField:
    # Not required: a form posted without it (an older page still open) re-seats, the default.
    return forms.ChoiceField(label="The hands after this one", choices=LATER_HANDS_CHOICES,
                             initial=RESEAT, required=False, widget=forms.RadioSelect,
                             help_text=LATER_HANDS_HELP)


class LaterHandsMixin:
    def clean_later_hands(self):
        return self.cleaned_data.get("later_hands") or RESEAT


class CorrectionForm(LaterHandsMixin, forms.Form):
    """Why a hand is corrected, and what its later hands do (beside the hand's own fields)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_edit_%s")
        super().__init__(*args, **kwargs)

    reason = forms.CharField(
        label="Why is it corrected?",
        max_length=200,
        required=False,
        help_text="Kept in the audit trail and shown with the hand, e.g. 'P2 went out, not P1'.",
    )
    later_hands = later_hands_field()


class VoidHandForm(LaterHandsMixin, forms.Form):
    """Shown beside the swap form on one page: its own ids, so two 'reason' boxes differ."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_void_%s")
        super().__init__(*args, **kwargs)

    reason = forms.CharField(
        label="Why is this hand void?",
        max_length=200,
        help_text="Kept in the audit trail and shown with the hand, e.g. 'entered twice'.",
    )
    later_hands = later_hands_field()


class RestoreHandForm(LaterHandsMixin, forms.Form):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_restore_%s")
        super().__init__(*args, **kwargs)

    later_hands = later_hands_field()


class SwapSeatsForm(forms.Form):
    """Two seats' players were recorded the wrong way round from this hand on."""

    first = forms.TypedChoiceField(
        label="Swap this player", coerce=int, widget=forms.RadioSelect,
        error_messages={"required": "Choose the player whose hands were recorded under the "
                                    "other's name."})
    second = forms.TypedChoiceField(
        label="with this player", coerce=int, widget=forms.RadioSelect,
        error_messages={"required": "Choose the player to swap them with."})
    reason = forms.CharField(label="Why?", max_length=200, required=False)

    def __init__(self, *args, seats: list[Seat], **kwargs):
        kwargs.setdefault("auto_id", "id_swap_%s")
        super().__init__(*args, **kwargs)
        choices = [(seat.pk, seat.name) for seat in seats]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", "Pick two different players.")
        return data


def hand_forms(data, seats_winds, initial_outcome=None, initial_entries=None):
    """The record form of a hand: the outcome, and a form for each (seat, wind) at the table."""
    outcome = HandOutcomeForm(data, seats=seats_winds, initial=initial_outcome or {})
    seat_forms = []
    for seat, wind in seats_winds:
        form = SeatEntryForm(
            data, seat=seat, wind=wind, initial=(initial_entries or {}).get(seat.pk, {})
        )
        form.wind_name = WIND_NAMES[wind]
        seat_forms.append(form)
    return outcome, seat_forms


def entered_hand(outcome, seat_forms, prevailing_wind: str) -> dict:
    """What the scorer entered, in the recording service's entry shape (keyed by wind)."""
    data = outcome.cleaned_data
    wind_of = {form.seat.pk: form.wind for form in seat_forms}
    winner = wind_of.get(outcome.winner_seat_id)
    goulash = bool(data.get("goulash"))
    return {
        "winner": winner,
        "discarder": UNKNOWN if outcome.discarder_unknown else wind_of.get(outcome.discarder_seat_id),
        "draw": winner is None,
        "win_from": (data.get("win_source") or None) if winner else None,
        "goulash": goulash,
        "seats": {
            form.wind: form.entry(
                prevailing_wind=prevailing_wind,
                mahjong=form.wind == winner,
                outcome=data,
                goulash=goulash,
            )
            for form in seat_forms
        },
    }
