"""The history app's tables: imports of past seasons (the batch, and the totals it brought in,
which are the record of an imported night), and the opt-in rating (settings, each night's line
of the calculation, dated snapshots). League and clubs never import these."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportBatch(models.Model):
    """One import of a spreadsheet or a Kajongg database: what was read, how it was mapped and
    matched, and (once applied) what it made, so it can be undone as a whole.

    A draft keeps the rows read from the file in the database (no state in process memory
    between the page's steps)."""

    class Kind(models.TextChoices):
        SPREADSHEET = "spreadsheet", "Spreadsheet"
        KAJONGG = "kajongg", "Kajongg database"

    class Status(models.TextChoices):
        DRAFT = "draft", "Dry run (nothing written)"
        APPLIED = "applied", "Imported"
        UNDONE = "undone", "Undone"

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="imports")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DRAFT)
    filename = models.CharField(max_length=200, blank=True)
    # SHA-256 of the file: the same file is not imported twice while an import of it stands.
    digest = models.CharField(max_length=64, blank=True)
    rows = models.JSONField(default=list, blank=True,
                            help_text="The rows read from the file (a draft's input).")
    mapping = models.JSONField(default=dict, blank=True)
    choices = models.JSONField(default=dict, blank=True,
                               help_text="Name in the file -> member id, 'new' or 'guest'.")
    report = models.JSONField(default=dict, blank=True,
                              help_text="What the import did (counts, refusals, notes).")
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    applied = models.DateTimeField(null=True, blank=True)
    undone = models.DateTimeField(null=True, blank=True)
    # What the import made, so undo removes exactly that (members only if they sit nowhere else).
    sessions = models.ManyToManyField("clubs.ClubSession", blank=True, related_name="+")
    members_made = models.ManyToManyField("clubs.Member", blank=True, related_name="+")
    seasons_made = models.ManyToManyField("clubs.Season", blank=True, related_name="+")

    class Meta:
        ordering = ["club", "-created"]

    def __str__(self) -> str:
        return f"{self.club} import {self.pk} ({self.get_status_display()})"


class ImportedTable(models.Model):
    """A table of an imported night entered as totals, not hands. Comparisons find no hands
    to replay at it; standings read its ``NightResult`` rows, derived from ``ImportedTotal``."""

    table = models.OneToOneField("clubs.Table", on_delete=models.CASCADE, related_name="+")
    batch = models.ForeignKey(ImportBatch, on_delete=models.CASCADE, related_name="tables")

    def __str__(self) -> str:
        return f"{self.table} (imported)"


class ImportedTotal(models.Model):
    """THE RECORD of one player's night at an imported table, as the sheet gave it: the net,
    and each hand's net where the sheet had them. ``league.NightResult`` is derived from it."""

    seat = models.OneToOneField("clubs.Seat", on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("clubs.Table", on_delete=models.CASCADE, related_name="+")
    net = models.IntegerField()
    hands = models.PositiveIntegerField(default=0, help_text="Hands the sheet listed (0: totals).")
    hand_nets = models.JSONField(default=list, blank=True)
    best_score = models.IntegerField(default=0)
    lines = models.JSONField(default=list, blank=True, help_text="The sheet's line numbers.")

    def __str__(self) -> str:
        return f"{self.seat}: {self.net:+d} (imported)"


class RatingSettings(models.Model):
    """A club's rating, opt in. Every disputable choice is a named parameter here."""

    club = models.OneToOneField("clubs.Club", on_delete=models.CASCADE,
                                related_name="rating_settings")
    enabled = models.BooleanField(default=False)
    provisional_nights = models.PositiveSmallIntegerField(
        default=6, help_text="A grade is provisional until the member has played this many nights.")
    min_weight = models.FloatField(
        default=0.1, help_text="The weight of a night once 1/nights falls below it: the grade then "
        "moves by this share of each night's result against par, so recent nights weigh more.")
    guest_grade = models.FloatField(
        default=50.0, help_text="The grade a guest counts as for the others' par (guests are not rated).")
    # Set (to the earliest date whose results changed) by the receiver of clubs'
    # table_recomputed; the next read recomputes the lines from that date on.
    stale_from = models.DateField(null=True, blank=True)
    # What the open nights' results were when their lines were last rebuilt
    # (``rating_store.live_mark``: the first open night's date, its rows and hands so far): a
    # read finding them the same rebuilds nothing. Blank: rebuild on the next read.
    live_seen = models.CharField(max_length=64, blank=True, default="", editable=False)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Rating of {self.club}"


class RatingPrivacy(models.Model):
    """A member who hides their own rating: it is still calculated (the others' par needs it)
    but shown to nobody else."""

    member = models.OneToOneField("clubs.Member", on_delete=models.CASCADE, related_name="+")
    hidden = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"{self.member}: rating {'hidden' if self.hidden else 'shown'}"


class RatingLine(models.Model):
    """DERIVED: one member's night at one table, the calculation written out (rebuilt from
    ``league.NightResult`` by ``history.rating_store``; never the record)."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    member = models.ForeignKey("clubs.Member", on_delete=models.CASCADE, related_name="+",
                               db_index=False)
    table = models.ForeignKey("clubs.Table", on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    season = models.ForeignKey("clubs.Season", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+", db_index=False)
    seq = models.PositiveIntegerField(help_text="The member's nights counted, this one included.")
    players = models.PositiveSmallIntegerField()
    beaten = models.FloatField(help_text="Opponents beaten, ties counting half.")
    actual = models.FloatField()
    others_mean = models.FloatField()
    old = models.FloatField()
    par = models.FloatField()
    weight = models.FloatField()
    new = models.FloatField()
    provisional = models.BooleanField()

    class Meta:
        ordering = ["club", "date", "table_id", "member_id"]
        constraints = [
            models.UniqueConstraint(fields=["member", "table"], name="ratingline_unique_night"),
        ]
        indexes = [
            models.Index(fields=["club", "date"], name="ratingline_by_club_date"),
            models.Index(fields=["member", "date"], name="ratingline_by_member_date"),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.date}: {self.old:.1f} -> {self.new:.1f}"


class RatingSnapshot(models.Model):
    """A dated snapshot of the rating table, frozen when taken."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    as_of = models.DateField()
    taken = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    data = models.JSONField()

    class Meta:
        ordering = ["club", "-as_of", "-id"]

    def __str__(self) -> str:
        return f"Rating of {self.club} as of {self.as_of}"


class ImportedHand(models.Model):
    """One player's hand of a game imported from Kajongg, as Kajongg stored it (kept beside the
    hand the import recorded from it, ``clubs.Hand``): its hand string, its points and what it paid or received, and,
    where the project's notation can express the string, the hand in the contract's terms and
    whether this project's scoring gives Kajongg's points for it."""

    table = models.ForeignKey("clubs.Table", on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey("clubs.Seat", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField()
    wind = models.CharField(max_length=1)
    prevailing = models.CharField(max_length=1)
    data = models.CharField(max_length=200, help_text="Kajongg's hand string.")
    contract = models.JSONField(null=True, blank=True)
    why_not = models.CharField(max_length=200, blank=True,
                               help_text="Why the string is not in the contract's terms.")
    won = models.BooleanField(default=False)
    points = models.IntegerField()
    net = models.IntegerField()
    scored_alike = models.BooleanField(default=False)
    from_discard = models.BooleanField(default=False,
                                       help_text="Won on a discard (Kajongg keeps no discarder).")

    class Meta:
        ordering = ["table", "number", "seat"]
        constraints = [models.UniqueConstraint(fields=["seat", "number"],
                                               name="importedhand_unique_seat_hand")]

    def __str__(self) -> str:
        return f"{self.seat} hand {self.number}: {self.net:+d} (Kajongg)"
