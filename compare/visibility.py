"""Which house rules a user may name in a comparison: the same as everywhere else, decided in
one place (``houserules.resolve``): the built-in rules, the user's own clubs' copies and
published clubs' copies. A rule they may not see is answered exactly as one that does not
exist, so an outsider cannot even learn that another club's private rule is there."""

from __future__ import annotations

from django.db.models import Q
from rest_framework import serializers

from clubs.permissions import is_member, member_clubs
from houserules.resolve import known_slugs, resolve_visible_house_rule
from scoring.engine import HouseRule


def visible_slugs(user) -> list[str]:
    return known_slugs(user)


def visible_house_rule(slug: str, user) -> HouseRule:
    return resolve_visible_house_rule(slug, user)


# -- comparisons of recorded play ---------------------------------------------------------------

NOT_A_MEMBER = ("Only {club}'s members start comparisons of its play; you may read the "
                "comparisons it shows.")


def may_start(user, club) -> bool:
    """Starting a comparison of a club's play (or restarting one) is for its members: on a
    published club the public reads, it does not queue work in the club's name."""
    return is_member(user, club)


def readable_comparisons(user):
    """The comparisons a user may read: every one of their own clubs, and of a published club
    only those its members chose to show (``shared``)."""
    from compare.models import Comparison

    if user.is_authenticated and user.is_superuser:
        return Comparison.objects.all()
    return Comparison.objects.filter(
        Q(club__in=member_clubs(user)) | Q(club__published=True, shared=True))


def check_rules_for_club(rules: list[HouseRule], club) -> None:
    """A comparison of a club's play is read by whoever reads the club, so it may name only
    rules all of them may see: built in, the club's own, or a published club's. A member's
    other, private club's rule is refused by position, with a sentence."""
    from houserules.models import HouseRuleRecord

    private = dict(HouseRuleRecord.objects.filter(slug__in=[r.slug for r in rules])
                   .exclude(club__isnull=True).exclude(club=club)
                   .exclude(club__published=True).values_list("slug", "club__name"))
    errors = {
        str(i): [f"{r.slug!r} is another club's private house rule; a comparison of "
                 f"{club.name}'s play is read by everyone who reads {club.name}, so it may "
                 f"name only built-in rules, {club.name}'s own and published clubs' rules."]
        for i, r in enumerate(rules) if r.slug in private}
    if errors:
        raise serializers.ValidationError({"rules": errors})
