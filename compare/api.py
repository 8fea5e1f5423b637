"""The comparison API: house rules side by side, one hand under several rules (score and
settle), and comparisons of recorded play (``/api/v1/comparisons/``)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from compare import runs
from compare.exports import comparison_sheets
from compare.hand_compare import compare_score, compare_settle
from compare.models import Comparison
from compare.rule_choice import chosen_rules
from compare.rule_diff import compare_rules
from compare.scope import ScopeError, resolve_scope
from compare.visibility import (
    NOT_A_MEMBER,
    check_rules_for_club,
    may_start,
    readable_comparisons,
)
from exports import EXPORTERS, UnknownFormat, download
from scoring.api import EXAMPLE_HAND
from settlements.api import EXAMPLE_BODY

TRUE = ("1", "true", "yes", "on")


class RuleRowSerializer(serializers.Serializer):
    section = serializers.CharField()
    key = serializers.CharField(help_text="scoring.limit, payment.scheme, ... or an item's code.")
    label = serializers.CharField(help_text="The parameter or item in a club's words.")
    values = serializers.ListField(child=serializers.CharField(),
                                   help_text="Each rule's value in words, in the order asked.")
    differs = serializers.BooleanField()


class RuleNameSerializer(serializers.Serializer):
    """Renders a ``HouseRule``'s name."""

    slug = serializers.CharField()
    name = serializers.CharField()
    version = serializers.IntegerField()


class RuleComparisonSerializer(serializers.Serializer):
    rules = RuleNameSerializer(many=True)
    rows = RuleRowSerializer(many=True)


class RuleComparisonView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="compare_house_rules", tags=["compare"],
        summary="Two or more house rules side by side",
        description="Every parameter and item that differs between the house rules named "
                    "(all of them with `everything=1`), in a club's words. Built-in rules, "
                    "published clubs' copies and your own clubs' copies only.",
        parameters=[
            OpenApiParameter("rules", str, required=True,
                             description="Slugs separated by commas, e.g. bmja,guide"),
            OpenApiParameter("everything", bool, description="Also the rows that agree."),
        ],
        responses={200: RuleComparisonSerializer, 400: OpenApiResponse(
            description='{"rules": {"1": ["Unknown house rule ..."]}}')},
    )
    def get(self, request):
        rules = chosen_rules(request.query_params.get("rules", ""), request.user, minimum=2)
        everything = request.query_params.get("everything", "").lower() in TRUE
        return Response(RuleComparisonSerializer(
            {"rules": rules, "rows": compare_rules(rules, everything)}).data)


class CompareHandRequestSerializer(serializers.Serializer):
    rules = serializers.ListField(child=serializers.CharField(), min_length=1,
                                  help_text="The house rules' slugs, e.g. [\"bmja\", \"guide\"].")


class RuleAnswerSerializer(serializers.Serializer):
    valid = serializers.BooleanField(help_text="False: the rule's 400 reason is in errors.")
    result = serializers.DictField(required=False, help_text="What /score (or /settle) answers.")
    errors = serializers.DictField(required=False, help_text="What /score (or /settle) "
                                   "answers with 400 under this rule, e.g. not a valid Mah Jong.")


class CompareHandAnswerSerializer(serializers.Serializer):
    rules = serializers.ListField(child=serializers.CharField())
    answers = serializers.DictField(child=RuleAnswerSerializer(),
                                    help_text="Rule slug -> its answer.")


class ItemDifferenceSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    values = serializers.DictField(
        child=serializers.DictField(allow_null=True),
        help_text="Rule slug -> {points, doubles, count}, or null where the item is absent.")


class CompareScoreAnswerSerializer(CompareHandAnswerSerializer):
    differences = ItemDifferenceSerializer(
        many=True, help_text="The items whose points, doubles or count differ.")


class SettleDifferencesSerializer(serializers.Serializer):
    scores = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField(allow_null=True)),
        help_text="Seat wind -> rule slug -> score, for the seats whose score differs.")
    net = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField(allow_null=True)),
        help_text="Seat wind -> rule slug -> net, for the seats whose net differs.")


class CompareSettleAnswerSerializer(CompareHandAnswerSerializer):
    differences = SettleDifferencesSerializer()


class CompareHandView(APIView):
    """Open like the calculators; logged-in users may also name their own clubs' rules."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="compare_hand", tags=["calculator", "compare"],
        summary="Score one hand under several house rules",
        description="The body of `POST /api/v1/score` with `rules` a list. For each rule, what "
                    "/score answers, or its 400 reason (e.g. not a valid Mah Jong under that "
                    "rule); and the items that differ between them. A hand that cannot be read "
                    "at all is a 400 for the whole request.",
        request=CompareHandRequestSerializer,
        responses={200: CompareScoreAnswerSerializer, 400: OpenApiResponse(
            description="The hand's own problems, or {\"rules\": {\"0\": [...]}}")},
        examples=[OpenApiExample("004 Sheet 19 hand 1 under four rules", request_only=True,
                                 value={**EXAMPLE_HAND, "rules": [
                                     "bmja", "guide", "balsall-common", "west-wind-goulash"]})],
    )
    def post(self, request):
        return Response(CompareScoreAnswerSerializer(compare_score(request.data, request.user)).data)


class CompareSettleView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="compare_settle", tags=["calculator", "compare"],
        summary="Settle one finished hand under several house rules",
        description="The body of `POST /api/v1/settle` with `rules` a list: each rule's "
                    "payments and nets (or its 400 reason), and the seats whose score or net "
                    "differ.",
        request=CompareHandRequestSerializer,
        responses={200: CompareSettleAnswerSerializer},
        examples=[OpenApiExample("The contract's example under two rules", request_only=True,
                                 value={**EXAMPLE_BODY, "rules": ["bmja", "guide"]})],
    )
    def post(self, request):
        return Response(CompareSettleAnswerSerializer(compare_settle(request.data, request.user)).data)


# -- comparisons of recorded play ----------------------------------------------------------------

class ComparisonCreateSerializer(serializers.Serializer):
    rules = serializers.ListField(child=serializers.CharField(), min_length=1,
                                  help_text="House rules to replay under, first one the yardstick "
                                            "for changes of place.")
    table = serializers.IntegerField(required=False)
    session = serializers.IntegerField(required=False)
    season = serializers.IntegerField(required=False)
    club = serializers.SlugField(required=False, help_text="With from and to: a club's dates.")
    vars()["from"] = serializers.DateField(required=False)
    to = serializers.DateField(required=False)
    background = serializers.BooleanField(
        required=False, allow_null=True, default=None,
        help_text="Run on the background workers (default: when above a couple of seconds). "
                  "false is refused above COMPARE_INLINE_LIMIT hand-replays (hands x rules): "
                  "such a comparison runs only in the background.")
    shared = serializers.BooleanField(
        required=False, default=False,
        help_text="Show it on the club's public pages (a published club), not only to its "
                  "members.")


class ComparisonSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    tables_done = serializers.SerializerMethodField()
    stale = serializers.SerializerMethodField(
        help_text="Running with no table stored for two minutes: POST resume.")

    class Meta:
        model = Comparison
        fields = ["id", "title", "club", "scope", "rules", "status", "problem", "shared",
                  "tables_total", "tables_done", "hands_total", "created", "finished", "stale",
                  "report"]

    def get_tables_done(self, obj) -> int:
        return runs.progress(obj)[0]

    def get_stale(self, obj) -> bool:
        return runs.is_stale(obj)


class ComparisonPermission(permissions.BasePermission):
    message = "Log in to start a comparison."

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or request.user.is_authenticated


class ShareUsedUpSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What is running and when to try again.")


@extend_schema(tags=["compare"])
class ComparisonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin,
                        mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Recorded play replayed under several house rules. The club's members read all its
    comparisons and start them; the public of a published club reads those its members chose
    to show (``shared``). Each person and each club has a share of the workers
    (``COMPARE_USER_LIMIT``, ``COMPARE_CLUB_LIMIT`` running or queued at once; past it a
    429). Large ones run on the background workers: poll until ``status`` is ``done`` (or
    ``failed``, with ``problem``)."""

    serializer_class = ComparisonSerializer
    permission_classes = [ComparisonPermission]

    def get_queryset(self):
        found = readable_comparisons(self.request.user)
        if self.action == "list":
            found = found.defer("report", "rule_data")
        return found.select_related("club")

    def get_serializer_class(self):
        return ComparisonCreateSerializer if self.action == "create" else ComparisonSerializer

    @extend_schema(request=ComparisonCreateSerializer,
                   responses={201: ComparisonSerializer, 400: OpenApiResponse(
                       description="Field paths to messages, e.g. {\"season\": [\"No such season"
                                   ", or not one you may see.\"]}"),
                       403: OpenApiResponse(description="Not a member of the club whose play "
                                                        "it compares."),
                       429: OpenApiResponse(ShareUsedUpSerializer, description=(
                           "You or the club already have as many comparisons running or "
                           "queued as allowed; the sentence says so."))})
    def create(self, request):
        form = ComparisonCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        rules = chosen_rules(data["rules"], request.user)
        spec = {k: data[k] for k in ("table", "session", "season", "club", "from", "to")
                if data.get(k) is not None}
        try:
            scope = resolve_scope(spec, request.user)
        except ScopeError as error:
            raise serializers.ValidationError(error.errors) from None
        if not may_start(request.user, scope.club):
            raise PermissionDenied(NOT_A_MEMBER.format(club=scope.club.name))
        check_rules_for_club(rules, scope.club)
        try:
            comparison = runs.start(scope, rules, request.user, data["background"],
                                    shared=data["shared"])
        except runs.TooLargeToWait as error:
            raise serializers.ValidationError({"background": [str(error)]}) from None
        except runs.ShareUsedUp as error:
            return Response({"detail": str(error)}, status=status.HTTP_429_TOO_MANY_REQUESTS,
                            headers={"Retry-After": "60"})
        return Response(ComparisonSerializer(comparison).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[OpenApiParameter("as", str, enum=["csv", "xlsx", "json"], required=True)],
        responses={
            (200, "text/csv"): OpenApiTypes.BINARY,
            (200, EXPORTERS["xlsx"].content_type): OpenApiTypes.BINARY,
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description='{"Players": [...], "Hands that change '
                'most": [...], "Not valid under a rule": [...], "How the replay read the '
                'records": [...]}: each sheet\'s rows as objects by column.'),
            400: OpenApiResponse(description='{"as": ["\'ods\' is not a download format; '
                                             'use one of csv, json, xlsx."]}'),
            404: OpenApiResponse(description="No such comparison among those you may see."),
            409: OpenApiResponse(description="Not finished yet.")})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """The finished report as CSV, XLSX or JSON."""
        comparison = self.get_object()
        if comparison.report is None:
            return Response({"detail": "The comparison is still running; export it when done."},
                            status=status.HTTP_409_CONFLICT)
        try:
            return download(comparison_sheets(comparison), request.query_params.get("as", ""),
                            f"comparison {comparison.title}")
        except UnknownFormat as error:
            raise serializers.ValidationError({"as": [str(error)]}) from None

    @extend_schema(request=None, responses={
        202: ComparisonSerializer,
        403: OpenApiResponse(description="Not a member of the comparison's club.")})
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        """Queue workers for the tables not yet stored (the sweep does this by itself within
        a minute of a worker dying). Idempotent: what is already queued or being replayed is
        not queued again, and a table is stored once."""
        comparison = self.get_object()
        if not request.user.is_authenticated:
            raise Http404
        if not may_start(request.user, comparison.club):
            raise PermissionDenied(NOT_A_MEMBER.format(club=comparison.club.name))
        runs.enqueue(comparison)
        comparison.refresh_from_db()
        return Response(ComparisonSerializer(comparison).data, status=status.HTTP_202_ACCEPTED)
