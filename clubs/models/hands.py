"""Hands as they were entered at the table, and the derived results standings read."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from clubs.models.choices import EntryKind, Wind, WinSource


class Hand(models.Model):
    # No index of its own: hand_unique_number leads with it. Every index is paid for on each hand recorded.
    table = models.ForeignKey("clubs.Table", on_delete=models.CASCADE, related_name="hands",
                              db_index=False)
    number = models.PositiveIntegerField()
    prevailing_wind = models.CharField(max_length=1, choices=Wind.choices)
    # RESTRICT, not PROTECT: deleting a whole table takes its seats and hands together.
    dealer = models.ForeignKey("clubs.Seat", on_delete=models.RESTRICT, related_name="hands_dealt")
    winner = models.ForeignKey(
        "clubs.Seat", null=True, blank=True, on_delete=models.RESTRICT, related_name="hands_won"
    )
    discarder = models.ForeignKey(
        "clubs.Seat",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="hands_discarded",
    )
    draw = models.BooleanField(default=False, help_text="A wall game: no one went Mah Jong.")
    goulash = models.BooleanField(default=False)
    win_source = models.CharField(max_length=12, choices=WinSource.choices, blank=True)
    # Other facts entered for the hand that settlement needs (penalties, pot, kong replacement
    # win, ...), kept as entered.
    facts = models.JSONField(default=dict, blank=True)
    voided = models.BooleanField(default=False)
    # DERIVED cache, rebuilt with the table (clubs.recording): the hand as last computed,
    # play.HandRow.to_json() (seating, scores with their explanations, payments, nets, running
    # totals, the pot before and after, or why the engines refuse it). Pages read it instead
    # of replaying the night; never the record.
    computed = models.JSONField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # The id the scorer's phone (or an API client) gave this entry: the same entry sent again
    # (a lost answer, a queue sent twice) finds this hand instead of saving it twice.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number"),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="hand_number_from_1",
                violation_error_message="Hands are numbered from 1.",
            ),
            models.CheckConstraint(
                condition=Q(draw=False) | (Q(winner__isnull=True) & Q(discarder__isnull=True)),
                name="hand_draw_has_no_winner",
                violation_error_message=(
                    "A wall game (draw) has no winner and no discarder: clear them or untick draw."
                ),
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | ~Q(discarder=models.F("winner")),
                name="hand_discarder_not_winner",
                violation_error_message="The winner cannot have discarded the winning tile.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"

    def clean(self) -> None:
        errors = {
            name: "Pick a player at this hand's table."
            for name in ("dealer", "winner", "discarder")
            if getattr(self, f"{name}_id")
            and self.table_id
            and getattr(self, name).table_id != self.table_id
        }
        if errors:
            raise ValidationError(errors)


class HandEntry(models.Model):
    """Exactly what was entered for one seat: the contract's hand JSON, or {"score": N}."""

    # No index of its own: handentry_unique_seat leads with it. Every index is paid for on each hand recorded.
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="entries",
                             db_index=False)
    seat = models.ForeignKey("clubs.Seat", on_delete=models.RESTRICT, related_name="entries")
    # The wind this seat played the hand as (the key of the settle contract's "hands").
    seat_wind = models.CharField(max_length=1, choices=Wind.choices)
    kind = models.CharField(max_length=5, choices=EntryKind.choices)
    data = models.JSONField()

    class Meta:
        ordering = ["hand", "seat__position"]
        verbose_name_plural = "hand entries"
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="handentry_unique_seat"),
            models.UniqueConstraint(fields=["hand", "seat_wind"], name="handentry_unique_wind"),
        ]

    def __str__(self) -> str:
        return f"{self.hand}: {self.seat_wind} ({self.kind})"

    def clean(self) -> None:
        if self.seat_id and self.hand_id and self.seat.table_id != self.hand.table_id:
            raise ValidationError({"seat": "Pick a player at this hand's table."})


class HandResult(models.Model):
    """DERIVED cache, rebuildable at any time from Hand/HandEntry and the session's house rule.

    It exists only so league tables need not rescore every hand; never edit it by hand and
    never treat it as the record. ``club``, ``season`` and ``member`` repeat what the seat and
    session say, so standings are one indexed query.
    """

    # hand, club, session and member have no index of their own: an index below (or the
    # unique constraint) leads with each, and every index is paid for on each hand recorded.
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="results",
                             db_index=False)
    seat = models.ForeignKey("clubs.Seat", on_delete=models.CASCADE, related_name="results")
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    season = models.ForeignKey(
        "clubs.Season", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    session = models.ForeignKey("clubs.ClubSession", on_delete=models.CASCADE, related_name="+",
                                db_index=False)
    member = models.ForeignKey(
        "clubs.Member", null=True, blank=True, on_delete=models.CASCADE, related_name="results",
        db_index=False,
    )
    seat_wind = models.CharField(max_length=1, choices=Wind.choices)
    score = models.IntegerField()
    net = models.IntegerField()
    running_total = models.IntegerField()
    # What standings count, kept here so a season's table is one indexed scan of this table.
    won = models.BooleanField(default=False, help_text="This seat went Mah Jong.")
    gave = models.BooleanField(
        default=False, help_text="This seat gave the winning tile (a discard, or a robbed kong)."
    )
    limit = models.CharField(max_length=60, blank=True,
                             help_text="The limit that capped or set the score, if any.")
    computed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["hand", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="handresult_unique_seat"),
        ]
        indexes = [
            models.Index(fields=["club", "season", "member"], name="result_by_club_season"),
            models.Index(fields=["member", "session"], name="result_by_member_session"),
            models.Index(fields=["session", "seat"], name="result_by_session_seat"),
            # A player's best hand of a season (league.queries.best_hand): only the winners'
            # rows, a quarter of the table, so it is cheap to keep on each hand recorded.
            models.Index(fields=["club", "season", "member", "-score"], condition=Q(won=True),
                         name="result_best_hand"),
            # A player's limit hands of a season (history.stats): a few rows of thousands,
            # read without the season's other hands; no cost on a hand with no limit.
            models.Index(fields=["club", "season", "member"],
                         condition=Q(won=True) & ~Q(limit=""), name="result_limit_hand"),
        ]

    def __str__(self) -> str:
        return f"{self.hand}: {self.seat_wind} {self.net:+d}"
