"""A club night: the session, its tables and who sat where."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, Q, Sum

from clubs.models.choices import SessionStatus, Wind
from houserules.models import HouseRuleVersion


class ClubSession(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="sessions")
    season = models.ForeignKey(
        "clubs.Season", null=True, blank=True, on_delete=models.PROTECT, related_name="sessions"
    )
    date = models.DateField()
    # The exact version played under: later edits to the house rule leave this night alone.
    house_rule_version = models.ForeignKey(
        "houserules.HouseRuleVersion", on_delete=models.RESTRICT, related_name="sessions"
    )
    # The rule that scores goulash hands, when it is not the session's own house rule.
    goulash_rule_version = models.ForeignKey(
        "houserules.HouseRuleVersion",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="goulash_sessions",
    )
    notes = models.TextField(blank=True)
    status = models.CharField(
        max_length=10, choices=SessionStatus.choices, default=SessionStatus.OPEN
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-date", "-id"]
        indexes = [
            models.Index(fields=["club", "date"], name="session_by_club_date"),
            models.Index(fields=["season", "date"], name="session_by_season_date"),
            # The club's open nights (a few, whatever its history): the guests list reads their
            # seats, which have no league rows before a table's first hand.
            models.Index(fields=["club"], condition=Q(status="open"), name="session_open_by_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%Y-%m-%d}"

    def clean(self) -> None:
        # Relations a database constraint cannot check: everything belongs to this club.
        errors = {}
        if self.season_id and self.club_id and self.season.club_id != self.club_id:
            errors["season"] = "This season belongs to another club: pick one of this club's."
        elif self.season_id:
            from clubs.league_guards import night_outside_season

            if problem := night_outside_season(self.season, self.date):
                errors["date"] = problem
        for name in ("house_rule_version", "goulash_rule_version"):
            version = getattr(self, name) if getattr(self, f"{name}_id") else None
            owner = version.record.club_id if version else None
            if owner is not None and owner != self.club_id:
                errors[name] = "This is another club's house rule: pick a built-in or your own."
        if errors:
            raise ValidationError(errors)
        if self._state.adding:
            self.freeze_goulash_rule()

    def player_totals(self) -> list[dict]:
        """Each player's hands and net total over every table of the night (voided hands left
        out), highest first. A member is one player wherever they sat; a guest is known by name.
        The page and the API both show this, so they can never disagree."""
        from clubs.models.hands import HandResult

        rows = (
            HandResult.objects.filter(session=self, hand__voided=False)
            .values("member_id", "seat__member__display_name", "seat__guest_name",
                    "seat__table__number")
            .annotate(total=Sum("net"), hands=Count("id"))
        )
        players: dict[tuple, dict] = {}
        for row in rows:
            name = row["seat__member__display_name"] or row["seat__guest_name"]
            key = (row["member_id"], None if row["member_id"] else name)
            player = players.setdefault(
                key, {"name": name, "member": row["member_id"], "tables": [], "hands": 0,
                      "total": 0},
            )
            player["tables"] = sorted({*player["tables"], row["seat__table__number"]})
            player["hands"] += row["hands"]
            player["total"] += row["total"]
        return sorted(players.values(), key=lambda p: (-p["total"], p["name"]))

    def freeze_goulash_rule(self) -> None:
        """Unless a goulash rule was chosen, freeze the newest version of the one the house
        rule names (``HouseRule.goulash_rule``) with the session, as the house rule itself is
        frozen: ``clubs.table_state.rules_of`` reads only ``goulash_rule_version``.

        Every way of starting a session (page, API, admin, demo) calls this on create only: an
        existing night keeps the rules its hands were scored under. Raises ValidationError on
        ``goulash_rule_version`` when the club has no rule by that name.
        """
        if self.goulash_rule_version_id or not self.house_rule_version_id:
            return
        named = self.house_rule_version.data.get("goulash_rule")
        if not named:
            return
        version = (
            HouseRuleVersion.objects.filter(
                Q(record__club__isnull=True) | Q(record__club_id=self.club_id),
                record__slug=named,
            )
            .order_by("-number")
            .first()
        )
        if version is None:
            raise ValidationError({
                "goulash_rule_version": f"{self.house_rule_version.record.name} scores goulash "
                f"hands by '{named}', which this club does not have: choose a goulash rule."
            })
        self.goulash_rule_version = version

    @property
    def is_open(self) -> bool:
        return self.status == SessionStatus.OPEN


class Table(models.Model):
    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # DERIVED cache kept by clubs.recording: the table after its last hand (running totals,
    # pot, who deals next), so recording a hand reads one locked row instead of replaying the
    # night. Rebuilt by clubs.recording.recompute_table; never the record.
    state = models.JSONField(null=True, blank=True, editable=False)
    # The 001 variation this table plays under when its number of players differs from the
    # session's house rule (a table of five on a night of fours, seated by the door's draw);
    # blank: the session's own. Frozen like the session's.
    house_rule_version = models.ForeignKey(
        "houserules.HouseRuleVersion",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="tables",
    )

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.session} table {self.number}"


class Seat(models.Model):
    """A player at a table: a member, or a guest known only by name.

    ``position`` is the order round the table (0-4: two to five players); ``starting_wind`` is
    the wind drawn at the start.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    member = models.ForeignKey(
        "clubs.Member", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    guest_name = models.CharField(max_length=80, blank=True)
    position = models.PositiveSmallIntegerField()
    # Blank for a fifth player who sits out the first hand.
    starting_wind = models.CharField(max_length=1, choices=Wind.choices, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["table", "starting_wind"],
                condition=~Q(starting_wind=""),
                name="seat_unique_starting_wind",
            ),
            models.CheckConstraint(
                condition=Q(position__lte=4),
                name="seat_position_0_to_4",
                violation_error_message="A table seats at most five: positions 0 to 4.",
            ),
            # Exactly one of a member or a guest's name says who sat here.
            models.CheckConstraint(
                condition=(Q(member__isnull=False) & Q(guest_name=""))
                | (Q(member__isnull=True) & ~Q(guest_name="")),
                name="seat_member_or_guest",
                violation_error_message="Choose a member or type a guest's name (not both).",
            ),
        ]
        indexes = [models.Index(fields=["member"], name="seat_by_member")]

    def __str__(self) -> str:
        wind = f" ({self.starting_wind})" if self.starting_wind else ""
        return f"{self.name}{wind}"

    @property
    def name(self) -> str:
        return self.member.display_name if self.member_id else self.guest_name

    def clean(self) -> None:
        if self.member_id and self.table_id and self.member.club_id != self.table.session.club_id:
            raise ValidationError(
                {"member": "This member belongs to another club: seat them as a guest instead."}
            )
