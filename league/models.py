"""The league's own tables: a season's league rules, the per-night summary standings read, and
published snapshots. Clubs never import these (apps depend one way)."""

from django.conf import settings
from django.db import models

from league.ranking import COMBINES, MEASURES, POINT_SCHEMES, PRESETS, LeagueRules


class SeasonLeague(models.Model):
    """A season's league rules (``league.ranking.LeagueRules`` as columns), copied from a preset
    and adjusted. A season without a row is ranked by the net-points preset."""

    season = models.OneToOneField("clubs.Season", on_delete=models.CASCADE,
                                  related_name="league")
    preset = models.CharField(max_length=30, blank=True,
                              help_text="The preset these rules were copied from.")
    measure = models.CharField(max_length=20, choices=list(MEASURES.items()), default="net")
    combine = models.CharField(max_length=10, choices=list(COMBINES.items()), default="sum")
    points = models.CharField(max_length=12, choices=[(k, k) for k in POINT_SCHEMES],
                              default="4-2-1-0")
    best_n = models.PositiveSmallIntegerField(null=True, blank=True)
    min_nights = models.PositiveSmallIntegerField(default=0)
    min_share = models.PositiveSmallIntegerField(default=0)
    tie_breaks = models.JSONField(default=list, blank=True)
    updated = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    def __str__(self) -> str:
        return f"League rules of {self.season}"

    def rules(self) -> LeagueRules:
        return LeagueRules(
            measure=self.measure, combine=self.combine, points=self.points, best_n=self.best_n,
            min_nights=self.min_nights, min_share=self.min_share,
            tie_breaks=tuple(self.tie_breaks),
        )

    def set_rules(self, rules: LeagueRules) -> None:
        for name, value in rules.to_dict().items():
            setattr(self, name, value)


def rules_of(season) -> LeagueRules:
    """The season's league rules; read with the season when it came with
    ``select_related("league")`` (no query of their own)."""
    if type(season).league.is_cached(season):
        row = getattr(season, "league", None)  # None: the join found no rules
    else:
        row = SeasonLeague.objects.filter(season=season).first()
    return row.rules() if row else PRESETS["net"][1]


class NightResult(models.Model):
    """DERIVED summary, rebuilt from ``clubs.HandResult`` whenever a table is recomputed
    (``league.summary``): one row per seat (a player at one table one night) with what
    standings sum, so a season or all-time table reads nights, not hands. Never the record."""

    seat = models.OneToOneField("clubs.Seat", on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("clubs.Table", on_delete=models.CASCADE, related_name="+",
                              db_index=False)
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    season = models.ForeignKey("clubs.Season", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+", db_index=False)
    session = models.ForeignKey("clubs.ClubSession", on_delete=models.CASCADE, related_name="+",
                                db_index=False)
    member = models.ForeignKey("clubs.Member", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+", db_index=False)
    guest_name = models.CharField(max_length=80, blank=True)
    date = models.DateField()
    house_rule = models.ForeignKey("houserules.HouseRuleRecord", on_delete=models.CASCADE,
                                   related_name="+", db_index=False)
    table_number = models.PositiveSmallIntegerField()
    # False once the table has no counted hand (every hand voided): the row stays, unread.
    counted = models.BooleanField(default=True)
    hands = models.PositiveIntegerField()
    net = models.IntegerField()
    mahjongs = models.PositiveIntegerField()
    given = models.PositiveIntegerField()
    limits = models.PositiveIntegerField()
    best_score = models.IntegerField(default=0)
    # The player history's figures of the night's recorded hands (history.stats), summed into
    # the stored standings so a season's statistics are one row whatever its length.
    won_from_wall = models.PositiveIntegerField(default=0)
    east_hands = models.PositiveIntegerField(default=0)
    east_won = models.PositiveIntegerField(default=0)
    east_net = models.IntegerField(default=0)
    goulash_hands = models.PositiveIntegerField(default=0)
    goulash_won = models.PositiveIntegerField(default=0)
    goulash_net = models.IntegerField(default=0)
    # An imported table's row (history.night_rows): its imported hands and net are in
    # ``hands`` and ``net``, and here too, so the recorded hands' figures are the difference.
    imported = models.BooleanField(default=False)
    imported_hands = models.PositiveIntegerField(default=0)
    imported_net = models.IntegerField(default=0)
    # What the seat received from and paid to each other seat of the table over the night's
    # hands (their stored payments, the pot left out): {"<seat id>": [received, paid]}, so a
    # season's who-paid-whom reads the player's nights, not every hand's payments.
    paid = models.JSONField(default=dict, blank=True)
    place = models.PositiveSmallIntegerField()
    tied = models.PositiveSmallIntegerField()
    points_zero = models.FloatField(help_text="Table points under 4/2/1/0, ties sharing.")
    points_half = models.FloatField(help_text="Table points under 4/2/1/0.5, ties sharing.")

    class Meta:
        ordering = ["date", "table_number", "place"]
        indexes = [
            models.Index(fields=["season", "date"], name="night_by_season_date"),
            models.Index(fields=["club", "date"], name="night_by_club_date"),
            models.Index(fields=["member", "date"], name="night_by_member_date"),
            models.Index(fields=["session"], name="night_by_session"),
            # A member's nights of one season (history.stats: a player's latest season, read
            # by default), not among their every night.
            models.Index(fields=["member", "season", "date"], name="night_by_member_season"),
            # The club's guests' nights (clubs.members.merge.guest_names): a guest's rows only,
            # so the guests list reads them and not the club's every night.
            models.Index(fields=["club", "guest_name"], condition=models.Q(member__isnull=True),
                         name="night_guest_by_club"),
        ]

    def __str__(self) -> str:
        return f"{self.date} table {self.table_number}: {self.net:+d}"


class Snapshot(models.Model):
    """Published standings, frozen: what ``league.ranking.Standings.to_json()`` gave when
    published (rows, rules, the calculation written out). Later corrections leave it alone."""

    season = models.ForeignKey("clubs.Season", on_delete=models.CASCADE,
                               related_name="league_snapshots")
    as_of = models.DateField(help_text="Nights up to and including this date counted.")
    published = models.DateTimeField(auto_now_add=True)
    published_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=200, blank=True)
    data = models.JSONField()

    class Meta:
        ordering = ["season", "-published", "-id"]

    def __str__(self) -> str:
        return f"{self.season} as of {self.as_of}"


class StandingScope(models.Model):
    """DERIVED: a season's (or, with no season, a club's all-time) count of nights with a
    counted table, beside its ``Standing`` rows (``league.standings_store``). Never the record:
    ``manage.py refresh_league`` rebuilds it from ``NightResult``."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey("clubs.Season", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    nights = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season"], condition=models.Q(season__isnull=False),
                                    name="standing_scope_season"),
            models.UniqueConstraint(fields=["club"], condition=models.Q(season__isnull=True),
                                    name="standing_scope_all_time"),
        ]

    def __str__(self) -> str:
        return f"{self.season or 'all time'}: {self.nights} nights"


class Standing(models.Model):
    """DERIVED: one player's ``NightResult`` rows of a season (or a club's all time) summed, as
    standings read them, kept in step in the transaction that changes the rows
    (``league.standings_store``), so reading a season's standings reads its players' rows and
    not their nights. Rebuilt by ``manage.py refresh_league``; never the record."""

    scope = models.ForeignKey(StandingScope, on_delete=models.CASCADE, related_name="rows")
    member = models.ForeignKey("clubs.Member", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    guest_name = models.CharField(max_length=80, blank=True)
    nights = models.PositiveIntegerField(default=0)
    tables = models.PositiveIntegerField(default=0, help_text="Table-nights (counted rows).")
    hands = models.IntegerField(default=0)
    net = models.IntegerField(default=0)
    mahjongs = models.IntegerField(default=0)
    given = models.IntegerField(default=0)
    points_zero = models.FloatField(default=0)
    points_half = models.FloatField(default=0)
    place_sum = models.IntegerField(default=0)
    # The player history's figures (history.stats), summed from NightResult's like the rest.
    won_from_wall = models.IntegerField(default=0)
    east_hands = models.IntegerField(default=0)
    east_won = models.IntegerField(default=0)
    east_net = models.IntegerField(default=0)
    goulash_hands = models.IntegerField(default=0)
    goulash_won = models.IntegerField(default=0)
    goulash_net = models.IntegerField(default=0)
    imported_hands = models.IntegerField(default=0)
    imported_net = models.IntegerField(default=0)
    imported_tables = models.IntegerField(default=0, help_text="Of ``tables``, imported.")
    # Table-nights finished at each place (a table seats five at most).
    place_1 = models.IntegerField(default=0)
    place_2 = models.IntegerField(default=0)
    place_3 = models.IntegerField(default=0)
    place_4 = models.IntegerField(default=0)
    place_5 = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "member"],
                                    condition=models.Q(member__isnull=False),
                                    name="standing_member"),
            models.UniqueConstraint(fields=["scope", "guest_name"],
                                    condition=models.Q(member__isnull=True),
                                    name="standing_guest"),
        ]

    def __str__(self) -> str:
        return f"{self.member_id or self.guest_name}: {self.net:+d} over {self.nights} nights"
