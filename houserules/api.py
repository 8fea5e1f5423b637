"""``/api/v1/house-rules/``: list and read house rules, and a club's own copies with overrides.

Anyone may read the built-in house rules and the copies of published clubs; a club's members
also read its unpublished copies. A club admin creates a copy (``POST`` with ``club``,
``base``, ``slug``, ``name`` and ``overrides``) and edits it (``PATCH``): each change freezes a
new version, and sessions keep the version they were played under. Club roles come from the
``HOUSE_RULE_ACCESS`` policy (``houserules.access``).
"""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from houserules.access import house_rule_access
from houserules.copies import create_copy, update_copy
from houserules.models import HouseRuleRecord, HouseRuleVersion
from houserules.override_rules import RANGES_HELP
from houserules.resolve import is_visible_house_rule, visible_house_rules
from houserules.sync import ensure_builtin_house_rules
from houserules.text_limits import DESCRIPTION_MAX, NAME_MAX, too_long
from scoring.engine import HouseRuleError, builtin_house_rules

# Errors about the request itself; every other path is inside the overrides.
_TOP_LEVEL_ERRORS = ("slug", "base", "club", "name", "description")


def validation_error(error: HouseRuleError) -> serializers.ValidationError:
    """A house rule's errors in DRF's shape: ``{"overrides": {"scoring.limit": [...]}}``."""
    top = {key: msgs for key, msgs in error.errors.items() if key in _TOP_LEVEL_ERRORS}
    inner = {key: msgs for key, msgs in error.errors.items() if key not in _TOP_LEVEL_ERRORS}
    if inner:
        top["overrides"] = inner
    return serializers.ValidationError(top)


# -- serializers -------------------------------------------------------------------------------

class HouseRuleVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = HouseRuleVersion
        fields = ["number", "created"]


class HouseRuleVersionDataSerializer(serializers.ModelSerializer):
    rule = serializers.JSONField(source="data", help_text="The whole house rule as frozen.")

    class Meta:
        model = HouseRuleVersion
        fields = ["number", "created", "rule"]


class HouseRuleSerializer(serializers.ModelSerializer):
    """A house rule with its newest version's full parameter and item tables."""

    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True,
                                        help_text="The club's slug; null for a built-in rule.")
    based_on = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True,
                                            help_text="The rule copied; null for a built-in.")
    builtin = serializers.BooleanField(source="is_builtin", read_only=True)
    version = serializers.SerializerMethodField(help_text="The newest version's number.")
    rule = serializers.SerializerMethodField(
        help_text="The newest version: scoring, payment and rotation parameters and items.")
    versions = HouseRuleVersionSerializer(many=True, read_only=True)

    class Meta:
        model = HouseRuleRecord
        fields = ["slug", "name", "description", "club", "based_on", "builtin", "overrides",
                  "version", "rule", "versions"]

    def _latest(self, record: HouseRuleRecord) -> HouseRuleVersion | None:
        versions = list(record.versions.all())  # prefetched, newest first
        return versions[0] if versions else None

    def get_version(self, record: HouseRuleRecord) -> int | None:
        latest = self._latest(record)
        return latest.number if latest else None

    def get_rule(self, record: HouseRuleRecord) -> dict | None:
        latest = self._latest(record)
        return latest.data if latest else None


class HouseRuleCopySerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The slug of the club the copy belongs to.")
    base = serializers.SlugField(help_text="The house rule copied: a built-in or a club's.")
    slug = serializers.SlugField(max_length=80, help_text="The new house rule's slug.")
    name = serializers.CharField(max_length=NAME_MAX,
                                 error_messages={"max_length": too_long(NAME_MAX)})
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=DESCRIPTION_MAX,
        error_messages={"max_length": too_long(DESCRIPTION_MAX)})
    overrides = serializers.JSONField(
        default=dict,
        help_text='Changes to the base, e.g. {"scoring": {"limit": 2000}, "items": '
                  '{"one_suit_only": {"doubles": 6}}}; null for an item drops it; add_items '
                  "adds whole items. " + RANGES_HELP)


class HouseRuleUpdateSerializer(serializers.Serializer):
    overrides = serializers.JSONField(
        required=False, help_text="The copy's overrides, replacing the ones it had. "
        + RANGES_HELP)
    name = serializers.CharField(max_length=NAME_MAX, required=False,
                                 error_messages={"max_length": too_long(NAME_MAX)})
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=DESCRIPTION_MAX,
        error_messages={"max_length": too_long(DESCRIPTION_MAX)})


# -- permissions -------------------------------------------------------------------------------

class HouseRulePermission(permissions.BasePermission):
    """Reading is open (the queryset hides what a user may not see); changing a copy needs the
    admin role at its club; built-in house rules are never changed."""

    message = "Only an admin of the club can change its house rules."

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        if obj.is_builtin:
            raise PermissionDenied("A built-in house rule cannot be changed; copy it for your "
                                   "club with POST /api/v1/house-rules/.")
        return house_rule_access().can_admin(request.user, obj.club)


# -- the viewset -------------------------------------------------------------------------------

@extend_schema(tags=["house rules"])
class HouseRuleViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin,
                       mixins.CreateModelMixin, mixins.UpdateModelMixin,
                       viewsets.GenericViewSet):
    serializer_class = HouseRuleSerializer
    permission_classes = [HouseRulePermission]
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[HouseRuleRecord]:
        """Built-in house rules, copies of published clubs, and the user's clubs' copies."""
        _store_builtins_once()
        newest_first = HouseRuleVersion.objects.order_by("-number")
        visible = visible_house_rules(self.request.user)
        if self.action == "list":
            visible = visible.filter(self._list_filter())
        return (visible
                .select_related("club", "based_on")
                .prefetch_related(Prefetch("versions", queryset=newest_first))
                .order_by("club_id", "slug"))

    def _list_filter(self) -> Q:
        """``?club=<slug>``: that club's copies; ``?builtin=true``: the built-in ones only."""
        params = self.request.query_params
        wanted = Q()
        if params.get("club"):
            # PostgreSQL refuses a NUL character in a query: no club has one in its slug.
            wanted &= Q(club__slug=params["club"]) if "\x00" not in params["club"] else Q(pk=None)
        if params.get("builtin") in ("true", "1"):
            wanted &= Q(club__isnull=True)
        elif params.get("builtin") in ("false", "0"):
            wanted &= Q(club__isnull=False)
        return wanted

    @extend_schema(parameters=[
        OpenApiParameter("club", str, description="Only this club's copies (its slug)."),
        OpenApiParameter("builtin", bool, description="true: built-in only; false: copies only."),
    ])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(
        request=HouseRuleCopySerializer,
        responses={201: HouseRuleSerializer},
        examples=[OpenApiExample("Our guide with a 3,000 limit", request_only=True, value={
            "club": "jade", "base": "guide", "slug": "jade-guide", "name": "Jade guide",
            "overrides": {"scoring": {"limit": 3000}}})],
        description="Copy a house rule for a club (its admins only), with overrides. Invalid "
                    "overrides get 400 with their paths, e.g. {\"overrides\": {\"scoring.limit\":"
                    " [\"The limit must be a positive number of points, or null for none.\"]}}.",
    )
    def create(self, request, *args, **kwargs):
        given = HouseRuleCopySerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        access = house_rule_access()
        club = access.visible_clubs(request.user).filter(slug=data["club"]).first()
        if club is None:
            raise serializers.ValidationError({"club": [f"No club {data['club']!r} that you "
                                                        "belong to."]})
        if not access.can_admin(request.user, club):
            raise PermissionDenied("Only an admin of the club can add house rules to it.")
        try:
            check_named_rules_visible(data["base"], data["overrides"], request.user)
            record = create_copy(club, data["base"], data["slug"], data["name"],
                                 data["overrides"], request.user,
                                 description=data.get("description") or None)
        except HouseRuleError as error:
            raise validation_error(error) from None
        return Response(self._read(record), status=status.HTTP_201_CREATED)

    @extend_schema(request=HouseRuleUpdateSerializer, responses={200: HouseRuleSerializer},
                   description="Change a club's copy (its admins only): the overrides given "
                               "replace the old ones and a new version is frozen if the house "
                               "rule changed. Sessions keep the version they were played under.")
    def partial_update(self, request, *args, **kwargs):
        record = self.get_object()
        given = HouseRuleUpdateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        try:
            check_named_rules_visible(None, data.get("overrides"), request.user)
            update_copy(record, data.get("overrides"), request.user, name=data.get("name"),
                        description=data.get("description"))
        except HouseRuleError as error:
            raise validation_error(error) from None
        return Response(self._read(record))

    @extend_schema(responses={200: HouseRuleVersionDataSerializer})
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>[0-9]+)")
    def version(self, request, slug=None, number=None):
        """One frozen version of the house rule, whole, as a session played it."""
        record = self.get_object()
        version = get_object_or_404(record.versions, number=int(number))
        return Response(HouseRuleVersionDataSerializer(version).data)

    def _read(self, record: HouseRuleRecord) -> dict:
        return HouseRuleSerializer(self.get_queryset().get(pk=record.pk),
                                   context=self.get_serializer_context()).data


def check_named_rules_visible(base: str | None, overrides, user) -> None:
    """A copy may name (as its base or its goulash rule) only house rules the user may see;
    any other slug is refused in the words used for a slug nobody has, so a club admin cannot
    tell another club's private house rule from no house rule at all."""
    if base is not None and not is_visible_house_rule(base, user):
        raise HouseRuleError({"base": [f"No house rule {base!r}; give the slug of a built-in "
                                       "house rule or of one of your club's."]})
    goulash = overrides.get("goulash_rule") if isinstance(overrides, dict) else None
    if isinstance(goulash, str) and not is_visible_house_rule(goulash, user):
        raise HouseRuleError({"goulash_rule": [f"No house rule {goulash!r} to score goulash "
                                               "hands; give an existing slug or null."]})


def _store_builtins_once() -> None:
    """The built-in house rules are listed from the database like any other: store them the
    first time (and after an engine change) so the list never misses one."""
    builtin = builtin_house_rules()
    stored = HouseRuleRecord.objects.filter(club__isnull=True, slug__in=builtin).count()
    if stored < len(builtin):
        ensure_builtin_house_rules(builtin)


__all__ = ["HouseRulePermission", "HouseRuleSerializer", "HouseRuleViewSet"]
