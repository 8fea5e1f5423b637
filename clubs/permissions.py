"""Who may see and change what, per club: the one place pages and the API ask.

Roles nest: a club admin can do everything a scorer can, a scorer everything a member can.
Staff superusers act as admin of every club. A club that publishes its sessions lets anyone,
signed in or not, read them (never change them).

Objects of a club a user cannot see are treated as not existing (404), so nobody learns what
another club holds; a user who can see a club but lacks the role for a change gets 403.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from rest_framework import permissions

from clubs.models import Club, Member

ADMIN = "admin"
SCORER = "scorer"
MEMBER = "member"
_RANK = {MEMBER: 1, SCORER: 2, ADMIN: 3}


# Unordered: a user has one row a club, and Member's default ordering (by club name) joined
# clubs_club and sorted on every request for nothing. Its columns resolved once, each request
# filtering a copy (a third of the query's CPU, on every request of a signed-in user).
_ROLES = Member.objects.filter(active=True).order_by().values_list("club_id", "role")


def _roles(user) -> dict[int, str]:
    """club id -> role for a signed-in user, read once per request (cached on the user)."""
    cached = getattr(user, "_club_roles", None)
    if cached is None:
        cached = dict(_ROLES.filter(user_id=user.pk))
        user._club_roles = cached
    return cached


def forget_roles(user) -> None:
    """After a change to the user's memberships in this request (a club started, an
    invitation taken): the next question reads them again."""
    user.__dict__.pop("_club_roles", None)


def club_role(user, club: Club | int) -> str | None:
    """The user's role at the club (admin, scorer, member), or None for an outsider."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return ADMIN
    return _roles(user).get(club if isinstance(club, int) else club.pk)


def has_role(user, club: Club | int, role: str) -> bool:
    current = club_role(user, club)
    return current is not None and _RANK[current] >= _RANK[role]


def is_member(user, club: Club) -> bool:
    return club_role(user, club) is not None


def can_view_club(user, club: Club) -> bool:
    """Read the club's sessions, tables and results: its members, or anyone if published."""
    return club.published or is_member(user, club)


def can_record(user, club: Club) -> bool:
    """Open sessions and tables, record and correct hands: scorers and admins."""
    return has_role(user, club, SCORER)


def can_admin(user, club: Club) -> bool:
    """Members, seasons, house rules, deleting sessions, any correction: club admins."""
    return has_role(user, club, ADMIN)


def member_club_ids(user) -> list[int]:
    if not user.is_authenticated:
        return []
    return list(_roles(user))


def visible_clubs(user) -> QuerySet[Club]:
    """Clubs whose sessions the user may read: their own, and every published club."""
    if user.is_authenticated and user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(Q(published=True) | Q(pk__in=member_club_ids(user)))


# A user's active memberships' clubs, as a subquery (each use filters a copy by the user).
_MEMBER_OF = Member.objects.filter(active=True).values("club_id")


def seen_by(user, club: str = "club") -> Q:
    """The condition ``visible_clubs`` states, on rows of another model that name their club
    by the relation ``club``, for the row's own query: a published club, or one where the user
    is an active member (``IN`` a subquery of their memberships, not a roles query of its own
    first; an ``EXISTS`` on the outer row cost the ORM twice as long to build). Superusers see
    every club (no condition)."""
    if user.is_authenticated and user.is_superuser:
        return Q()
    seen = Q(**{f"{club}__published": True})
    if user.is_authenticated:
        seen |= Q(**{f"{club}__in": _MEMBER_OF.filter(user_id=user.pk)})
    return seen


def member_clubs(user) -> QuerySet[Club]:
    """Clubs the user belongs to (for what only members see: the member list, seasons)."""
    if user.is_authenticated and user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(pk__in=member_club_ids(user))


def clubs_with_role(user, role: str) -> QuerySet[Club]:
    if user.is_authenticated and user.is_superuser:
        return Club.objects.all()
    ids = [cid for cid, r in _roles(user).items() if _RANK[r] >= _RANK[role]] if (
        user.is_authenticated
    ) else []
    return Club.objects.filter(pk__in=ids)


# -- DRF ------------------------------------------------------------------------------------


class ClubObjectPermission(permissions.BasePermission):
    """Reading needs ``can_view_club``; changing needs the view's ``write_role`` (scorer by
    default) or, per action, ``action_roles[action]``.

    The view says which club an object belongs to with ``club_of(obj)``. Querysets are already
    scoped to visible clubs, so an object that reaches this check exists for the user: refusing
    it is a 403, not a 404.
    """

    message = "Your role at this club does not allow this change."

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        club = view.club_of(obj)
        if request.method in permissions.SAFE_METHODS and view.action not in getattr(
            view, "action_roles", {}
        ):
            return can_view_club(request.user, club)
        return has_role(request.user, club, required_role(view))


def required_role(view) -> str:
    return getattr(view, "action_roles", {}).get(view.action, getattr(view, "write_role", SCORER))


# -- house rules ----------------------------------------------------------------------------


class HouseRuleAccess:
    """Club roles as the houserules app asks for them (``houserules.access.HouseRuleAccess``,
    named by the setting ``HOUSE_RULE_ACCESS``): houserules sits below clubs and cannot import
    this module itself."""

    def visible_clubs(self, user) -> QuerySet[Club]:
        if user is None:
            return Club.objects.filter(published=True)
        return visible_clubs(user)

    def can_admin(self, user, club: Club) -> bool:
        return can_admin(user, club)
