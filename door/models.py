"""The door's own rows: a club's settings for the door, who checked in tonight (and paid), the
host's rules for the draw, and tonight's draw until it is accepted (then the tables it made)."""

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from clubs.models import Hand


class OddTables(models.TextChoices):
    FIVES = "5", "Tables of 5 first"
    THREES = "3", "Tables of 3 first"


class DoorSettings(models.Model):
    """A club's door: the table money asked of each player, and the tables of 3 or 5 it allows
    when the numbers do not divide (001's variations: the house rule each plays under)."""

    club = models.OneToOneField("clubs.Club", on_delete=models.CASCADE,
                                related_name="door_settings")
    table_money = models.DecimalField(
        max_digits=7, decimal_places=2, default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
        help_text="Asked of each player at the door; 0 for none.")
    currency = models.CharField(max_length=4, default="£", blank=True)
    three_player_rule = models.ForeignKey(
        "houserules.HouseRuleRecord", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", help_text="Tables of 3 play under this house rule; blank: the 3-player "
                                    "variation of the night's house rule (001).")
    five_player_rule = models.ForeignKey(
        "houserules.HouseRuleRecord", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", help_text="Tables of 5 play under this house rule; blank: the 5-player "
                                    "variation of the night's house rule (001).")
    odd_tables = models.CharField(max_length=1, choices=OddTables.choices,
                                  default=OddTables.FIVES)
    allow_threes = models.BooleanField(default=True)
    allow_fives = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"Door of {self.club}"


class CheckIn(models.Model):
    """Someone who came tonight: a member, or a guest by name. ``left`` is set when they go
    home early (they leave the draw; what they paid stays on the night's takings)."""

    session = models.ForeignKey("clubs.ClubSession", on_delete=models.CASCADE,
                                related_name="check_ins")
    member = models.ForeignKey("clubs.Member", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="check_ins")
    guest_name = models.CharField(max_length=80, blank=True)
    newcomer = models.BooleanField(default=False)
    arrived = models.DateTimeField(auto_now_add=True)
    left = models.DateTimeField(null=True, blank=True)
    # The club's table money asked of them: when they came, or as an admin set it later while
    # they had not paid yet (door.checkin.apply_table_money); once paid, what they paid.
    money_due = models.DecimalField(max_digits=7, decimal_places=2, default=Decimal("0"))
    paid = models.BooleanField(default=False)

    class Meta:
        ordering = ["session", "arrived", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["session", "member"], condition=Q(member__isnull=False),
                                    name="checkin_member_once",
                                    violation_error_message="Already checked in tonight."),
            models.UniqueConstraint(Lower("guest_name"), "session",
                                    condition=Q(member__isnull=True), name="checkin_guest_once",
                                    violation_error_message="A guest of that name is already "
                                                            "checked in: add an initial."),
            models.CheckConstraint(
                condition=(Q(member__isnull=False) & Q(guest_name=""))
                | (Q(member__isnull=True) & ~Q(guest_name="")),
                name="checkin_member_or_guest",
                violation_error_message="Choose a member or type a guest's name (not both)."),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.member.display_name if self.member_id else self.guest_name

    @property
    def key(self) -> str:
        """The player's key in the draw: the same on every night of the season."""
        return player_key(self.member_id, self.guest_name)


def player_key(member_id: int | None, guest_name: str) -> str:
    return f"m{member_id}" if member_id else f"g:{guest_name.strip().casefold()}"


class RuleKind(models.TextChoices):
    APART = "apart", "Keep apart"
    TOGETHER = "together", "Seat together"
    FIXED = "fixed", "Stays at table"


class DrawRule(models.Model):
    """A host's rule for tonight's draw: two people apart or together, or one at a table."""

    session = models.ForeignKey("clubs.ClubSession", on_delete=models.CASCADE,
                                related_name="draw_rules")
    kind = models.CharField(max_length=10, choices=RuleKind.choices)
    first = models.ForeignKey(CheckIn, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(CheckIn, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["session", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="fixed") & Q(second__isnull=True) & Q(table_number__gte=1))
                | (~Q(kind="fixed") & Q(second__isnull=False) & Q(table_number__isnull=True)),
                name="drawrule_shape",
                violation_error_message="Apart and together name two people; a fixed table "
                                        "names one person and a table."),
        ]

    def __str__(self) -> str:
        if self.kind == RuleKind.FIXED:
            return f"{self.first.name} stays at table {self.table_number}"
        verb = "apart from" if self.kind == RuleKind.APART else "with"
        return f"{self.first.name} {verb} {self.second.name}"


class TableDraw(models.Model):
    """Tonight's draw. ``revision`` moves on with every redraw or swap; accepting names the
    revision the host saw, so a double tap (or a second host) seats the tables once."""

    session = models.OneToOneField("clubs.ClubSession", on_delete=models.CASCADE,
                                   related_name="table_draw")
    revision = models.PositiveIntegerField(default=1)
    seed = models.BigIntegerField()
    # door.draw.Draw.to_json(): the tables as player keys in seat (wind) order.
    drawn = models.JSONField()
    # {player key: check-in id} of everyone drawn; {size: house-rule version id} per table size.
    players = models.JSONField()
    versions = models.JSONField()
    quality = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    accepted_revision = models.PositiveIntegerField(null=True, blank=True)
    accepted = models.DateTimeField(null=True, blank=True)
    # The clubs.Table ids the accepted draw made.
    tables = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"Draw for {self.session} (revision {self.revision})"

    @property
    def is_accepted(self) -> bool:
        return self.accepted_revision == self.revision

    def play_started(self) -> bool:
        """A hand is recorded at one of the tables this draw made: the draw is then fixed
        (no redraw, swap or re-seat), and the door page says how to seat a late arrival."""
        return bool(self.tables) and Hand.objects.filter(table_id__in=self.tables).exists()
