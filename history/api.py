"""The history API: a club's rating table (as of a date) and a member's statistics and rating
lines over a season or dates. Clubs are looked up among those the user may see (members, or
anyone for a published club); a member who hides their rating has it left out for others."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import permissions as perms
from clubs.models import Member, Season
from history import rating_store
from history.models import RatingLine, RatingPrivacy, RatingSnapshot
from history.stats import Span, all_time, latest_season, member_stats


class RatingQuerySerializer(serializers.Serializer):
    as_of = serializers.DateField(required=False, help_text="Lines on or before this date.")


class RatingRowSerializer(serializers.Serializer):
    place = serializers.IntegerField(required=False, help_text="Absent while provisional.")
    member_id = serializers.IntegerField()
    name = serializers.CharField()
    grade = serializers.FloatField()
    nights = serializers.IntegerField()
    provisional = serializers.BooleanField()
    last = serializers.DateField(help_text="The member's last rated night.")


class RatingParamsSerializer(serializers.Serializer):
    provisional_nights = serializers.IntegerField()
    min_weight = serializers.FloatField()
    guest_grade = serializers.FloatField()


class RatingTableSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()
    as_of = serializers.DateField(allow_null=True)
    params = RatingParamsSerializer(allow_null=True)
    rows = RatingRowSerializer(many=True)


class LineSerializer(serializers.ModelSerializer):
    table_number = serializers.IntegerField(source="table.number")

    class Meta:
        model = RatingLine
        fields = ["date", "table_number", "seq", "players", "beaten", "actual", "others_mean",
                  "old", "par", "weight", "new", "provisional"]


class SpanSerializer(serializers.Serializer):
    season = serializers.IntegerField(
        required=False, help_text="A season of the club. With no season, no dates and no "
        "'all': the member's latest season (the season of their latest night).")
    all = serializers.BooleanField(
        required=False, default=False, help_text="Every season: the member's whole history "
        "(read hand by hand; 'all_time' has its totals from the stored standings always).")
    start = serializers.DateField(required=False)
    end = serializers.DateField(required=False)

    def validate(self, attrs):
        if attrs.get("start") and attrs.get("end") and attrs["end"] < attrs["start"]:
            raise serializers.ValidationError({"end": ["The end date is before the start date."]})
        if attrs.get("all") and attrs.get("season") is not None:
            # Asked for one season and for every season: which was meant is not known (the
            # answer took 'all' and said nothing).
            both = "One season and every season ('all=true') asked at once: drop 'season' " \
                "or 'all'."
            raise serializers.ValidationError({"season": [both], "all": [both]})
        return attrs


class ByWindSerializer(serializers.Serializer):
    hands = serializers.IntegerField()
    won = serializers.IntegerField()
    net = serializers.IntegerField()


class NotableSerializer(serializers.Serializer):
    date = serializers.DateField()
    table = serializers.IntegerField()
    hand = serializers.IntegerField()
    score = serializers.IntegerField()
    limit = serializers.CharField()
    name = serializers.CharField()


class PaidSerializer(serializers.Serializer):
    opponent = serializers.CharField()
    received = serializers.IntegerField()
    paid = serializers.IntegerField()
    net = serializers.IntegerField()


class MemberPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    nights = serializers.IntegerField()


class MemberNightsSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Nights played, recorded and imported.")
    imported = serializers.IntegerField(
        help_text="Of them, imported nights (entered as totals): counted in the nights, their "
                  "net and places, and in no hand statistic of this answer.")
    net = serializers.IntegerField(help_text="The net over every night played.")
    places = MemberPlaceSerializer(many=True, help_text="Nights at each place at the table (a tie "
                                                  "counts at the place shared).")


class ShownSpanSerializer(serializers.Serializer):
    season = serializers.IntegerField(allow_null=True, help_text="The season shown; null: "
                                      "every season (in the dates, when given).")
    latest = serializers.BooleanField(help_text="The season is the member's latest, chosen "
                                      "because none was asked for.")
    start = serializers.DateField(allow_null=True)
    end = serializers.DateField(allow_null=True)


class AllTimeSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Nights played in every season, imported "
                                      "ones too (as 'nights.played' over every season).")
    net = serializers.IntegerField(help_text="Their net (as 'nights.net' over every season).")
    hands = serializers.IntegerField(help_text="Hands recorded, and those imported sheets "
                                     "listed.")
    won = serializers.IntegerField(help_text="Mah Jongs (recorded hands).")


class MemberHistorySerializer(serializers.Serializer):
    member = serializers.IntegerField()
    name = serializers.CharField()
    span = ShownSpanSerializer(help_text="What the statistics below cover.")
    all_time = AllTimeSerializer(help_text="The member's whole history from the club's stored "
                                 "standings (one row, whatever the span).")
    nights = MemberNightsSerializer()
    hands = serializers.IntegerField(help_text="Recorded hands (imported nights have none).")
    won = serializers.IntegerField()
    won_from_wall = serializers.IntegerField()
    given = serializers.IntegerField()
    net = serializers.IntegerField(help_text="The net of the recorded hands ('nights' has the "
                                             "net of every night, imported ones too).")
    east = ByWindSerializer()
    goulash = ByWindSerializer()
    largest = NotableSerializer(allow_null=True)
    specials = serializers.DictField(child=serializers.IntegerField(),
                                     help_text="Limit and special hands made: name -> count.")
    limit_hands = NotableSerializer(many=True)
    paid = PaidSerializer(many=True)
    rating = LineSerializer(many=True, allow_null=True,
                            help_text="Every night's line; null when the club has no rating or "
                                      "the member hides theirs.")


def _viewer(request, club):
    if not request.user.is_authenticated:
        return None
    return Member.objects.filter(club=club, user=request.user).values_list("pk", flat=True).first()


@extend_schema(tags=["history"])
class RatingTableView(APIView):
    """The club's rating table as of a date (opt in: ``enabled`` false and no rows when the
    club has not turned it on)."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[RatingQuerySerializer], responses=RatingTableSerializer)
    def get(self, request, slug: str):
        club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
        query = RatingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        as_of = query.validated_data.get("as_of")
        settings = rating_store.ensure_fresh(club)
        enabled = bool(settings and settings.enabled)
        rows = rating_store.table_as_of(club, as_of, _viewer(request, club)) if enabled else []
        return Response(RatingTableSerializer({
            "enabled": enabled, "as_of": as_of, "rows": rows,
            "params": settings if enabled else None}).data)


@extend_schema(tags=["history"])
class MemberHistoryView(APIView):
    """A member's statistics over a season or dates (from the stored hand results), and their
    rating's every line in it where the club rates and the member shows it. Asked for nothing,
    the member's latest season, beside their all-time totals from the stored standings: an
    answer that costs the same whatever the club's history. ``all=true``: every season."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[SpanSerializer], responses=MemberHistorySerializer)
    def get(self, request, slug: str, member_id: int):
        club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
        member = get_object_or_404(Member, pk=member_id, club=club)
        query = SpanSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        season = data.get("season")
        if season is not None and not Season.objects.filter(pk=season, club=club).exists():
            raise serializers.ValidationError({"season": ["No such season at this club."]})
        start, end = data.get("start"), data.get("end")
        if data["all"]:
            span = Span(None, start, end, every=True)
        elif season is not None or start or end:
            span = Span(season, start, end)
        else:
            span = latest_season(member)
        stats = member_stats(member, span)
        every = all_time(member)
        settings = rating_store.ensure_fresh(club)
        hidden = RatingPrivacy.objects.filter(member=member, hidden=True).exists()
        lines = None
        if settings and settings.enabled and (not hidden or _viewer(request, club) == member.pk):
            lines = span.results(RatingLine.objects.filter(member=member), "date", "season_id") \
                .select_related("table").order_by("date", "seq")
        return Response(MemberHistorySerializer({
            "member": member.pk, "name": member.display_name, "hands": stats.hands,
            "span": {"season": span.season, "latest": span.latest, "start": span.start,
                     "end": span.end},
            "all_time": {"played": every.played, "net": every.net, "hands": every.hands,
                         "won": every.won},
            "nights": {"played": stats.nights.played, "imported": stats.nights.imported,
                       "net": stats.nights.net,
                       "places": [{"place": p, "nights": n} for p, n in stats.nights.places]},
            "won": stats.won, "won_from_wall": stats.won_from_wall, "given": stats.given,
            "net": stats.net, "east": stats.east, "goulash": stats.goulash,
            "largest": stats.largest, "specials": dict(stats.specials),
            "limit_hands": stats.limit_hands,
            "paid": [{"opponent": n, "received": r, "paid": p, "net": net}
                     for n, r, p, net in stats.paid],
            "rating": lines}).data)


class RatingSnapshotSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    as_of = serializers.DateField()
    taken = serializers.DateTimeField()


class RatingSnapshotDetailSerializer(RatingSnapshotSerializer):
    params = RatingParamsSerializer()
    rows = RatingRowSerializer(many=True, help_text="Members who hide their rating now are left "
                                                    "out (except to themselves).")


class TakeRatingSnapshotSerializer(serializers.Serializer):
    as_of = serializers.DateField(required=False, help_text="Today when left out.")


def _snapshot_detail(snapshot, viewer):
    return RatingSnapshotDetailSerializer({
        "id": snapshot.pk, "as_of": snapshot.as_of, "taken": snapshot.taken,
        "params": snapshot.data["params"],
        "rows": rating_store.snapshot_rows(snapshot, viewer)}).data


@extend_schema(tags=["history"])
class RatingSnapshotsView(APIView):
    """The club's dated snapshots of the rating table (newest first); a club admin keeps a
    new one (frozen: later corrections leave it as it was)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RatingSnapshotSerializer(many=True))
    def get(self, request, slug: str):
        club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
        snapshots = RatingSnapshot.objects.filter(club=club).only("pk", "as_of", "taken")[:100]
        return Response(RatingSnapshotSerializer(
            [{"id": s.pk, "as_of": s.as_of, "taken": s.taken} for s in snapshots],
            many=True).data)

    @extend_schema(request=TakeRatingSnapshotSerializer, responses={201: RatingSnapshotDetailSerializer})
    def post(self, request, slug: str):
        club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
        if not perms.can_admin(request.user, club):
            raise PermissionDenied("Only a club admin keeps a snapshot of the rating.")
        body = TakeRatingSnapshotSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            snapshot = rating_store.take_snapshot(club, body.validated_data.get("as_of"),
                                                  request.user)
        except rating_store.SnapshotRefused as refused:
            raise serializers.ValidationError({refused.field: [str(refused)]}) from refused
        return Response(_snapshot_detail(snapshot, _viewer(request, club)),
                        status=status.HTTP_201_CREATED)


@extend_schema(tags=["history"])
class RatingSnapshotView(APIView):
    """One dated snapshot of the rating table, as it was kept."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RatingSnapshotDetailSerializer)
    def get(self, request, slug: str, snapshot_id: int):
        club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
        snapshot = get_object_or_404(RatingSnapshot, pk=snapshot_id, club=club)
        return Response(_snapshot_detail(snapshot, _viewer(request, club)))


class RatingPrivacySerializer(serializers.Serializer):
    hidden = serializers.BooleanField(help_text="True: the member's rating is shown to nobody "
                                                "else (it still counts for the others' par).")


@extend_schema(tags=["history"])
class RatingPrivacyView(APIView):
    """Whether a member hides their own rating; only the member themselves may change it."""

    permission_classes = [AllowAny]

    def _member(self, request, slug, member_id):
        club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
        return club, get_object_or_404(Member, pk=member_id, club=club)

    @extend_schema(responses=RatingPrivacySerializer)
    def get(self, request, slug: str, member_id: int):
        _club, member = self._member(request, slug, member_id)
        hidden = RatingPrivacy.objects.filter(member=member, hidden=True).exists()
        return Response(RatingPrivacySerializer({"hidden": hidden}).data)

    @extend_schema(request=RatingPrivacySerializer, responses=RatingPrivacySerializer)
    def put(self, request, slug: str, member_id: int):
        club, member = self._member(request, slug, member_id)
        if _viewer(request, club) != member.pk:
            raise PermissionDenied("Only the member themselves can hide or show their rating.")
        body = RatingPrivacySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hidden = body.validated_data["hidden"]
        RatingPrivacy.objects.update_or_create(member=member, defaults={"hidden": hidden})
        return Response(RatingPrivacySerializer({"hidden": hidden}).data)
