"""403 and 404 pages that say what to do: who may do this and whom to ask; how to get back to
the club. Named in config/urls.py as Django's handler403 and handler404.

A club the visitor may not see reads exactly as a club that does not exist (the rule every
club page keeps), so these pages name a club and its admins only to those who can see it.
"""

from __future__ import annotations

import re

from django.http import JsonResponse
from django.shortcuts import render

from clubs.models import Club, Member, MemberRole
from clubs.permissions import can_view_club, club_role, is_member

CLUB_PATH = re.compile(r"^/clubs/([-a-zA-Z0-9_]+)/")
# What a path under a club names, for the sentence ("This night ...").
KINDS = (("/hands/", "hand"), ("/tables/", "table"), ("/sessions/", "club night"),
         ("/members/", "member"), ("/league/", "season"), ("/invitations/", "invitation"))
ROLE_WORDS = {MemberRole.ADMIN: "a club admin", MemberRole.SCORER: "a scorer",
              MemberRole.MEMBER: "a member"}
MAX_NAMED = 4


def _club_of(request) -> Club | None:
    match = request.resolver_match
    slug = (match.kwargs.get("slug") if match else None) or (
        m[1] if (m := CLUB_PATH.match(request.path)) else None)
    if not slug:
        return None
    club = Club.objects.filter(slug=slug).first()
    return club if club is not None and can_view_club(request.user, club) else None


def club_admins(club: Club, besides=None) -> list[str]:
    admins = Member.objects.filter(club=club, role=MemberRole.ADMIN, active=True)
    if besides is not None and besides.is_authenticated:
        admins = admins.exclude(user=besides)
    return list(admins.order_by("display_name").values_list("display_name", flat=True)
                [:MAX_NAMED])


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def permission_denied(request, exception=None):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": str(exception or "") or
                             "Your login may not do this."}, status=403)
    club = _club_of(request)
    sentence = str(exception or "").strip() or "Your login may not do this."
    context = {"sentence": sentence, "club": club}
    if club is not None and is_member(request.user, club):
        role = club_role(request.user, club)
        context["your_role"] = ROLE_WORDS.get(role, role)
        context["ask"] = _names(club_admins(club, besides=request.user))
    return render(request, "403.html", context, status=403)


def page_not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "No such address in the API: the list of addresses is "
                                       "at /api/v1/docs/."}, status=404)
    club = _club_of(request)
    kind = next((word for part, word in KINDS if part in request.path), "page")
    context = {"club": club, "kind": kind,
               "under_club": bool(CLUB_PATH.match(request.path))}
    return render(request, "404.html", context, status=404)
