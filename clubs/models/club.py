"""A club, its members (with or without a login) and its seasons/leagues."""

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from clubs.models.choices import MemberRole

# The IANA zone names this machine knows (Python's zoneinfo, with the tzdata package).
TIME_ZONES = frozenset(zoneinfo.available_timezones())


def time_zone_validator(value: str) -> None:
    if value not in TIME_ZONES:
        raise ValidationError(
            f"{value!r} is not a time zone: give a name such as Europe/London or "
            "Australia/Sydney.")


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    # A published club shows its sessions, sheets and league tables read-only to anyone.
    published = models.BooleanField(default=False)
    default_house_rule = models.ForeignKey(
        "houserules.HouseRuleRecord",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="default_for_clubs",
        help_text="The house rule a new session starts with (its newest version).",
    )
    # Where the club plays: "tonight" and a new night's date are read in this zone.
    time_zone = models.CharField(
        max_length=64, default="Europe/London", validators=[time_zone_validator],
        help_text="Where the club plays, e.g. Europe/London: the date of a club night is read there.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    display_name = models.CharField(max_length=80)
    # Many players never log in: a scorer records their hands for them.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    role = models.CharField(max_length=10, choices=MemberRole.choices, default=MemberRole.MEMBER)
    active = models.BooleanField(default=True)
    joined = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["club", "display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "display_name"], name="member_unique_name_per_club"
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="member_unique_user_per_club",
            ),
        ]
        indexes = [models.Index(fields=["user", "club"], name="member_by_user")]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.club})"

    @property
    def can_score(self) -> bool:
        return self.active and self.role in (MemberRole.ADMIN, MemberRole.SCORER)


class Season(models.Model):
    """A season or league: the span of club nights a league table covers."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    start = models.DateField()
    end = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-start"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name_per_club"),
            models.CheckConstraint(
                condition=Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="season_ends_after_start",
                violation_error_message="A season ends on or after the day it starts.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"
