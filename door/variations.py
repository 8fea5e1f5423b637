"""Which house rule a table of 3 or 5 plays under on a night of fours (001 "The game for 3 / 5
players"): the one the club's door settings name, else the night's own rule's variation for
that many players (the club's copy first, then the built-in one, e.g. "BMJA, 5 players"). A
size with neither is not drawn."""

from __future__ import annotations

from django.db.models import Q

from clubs.models import ClubSession
from door.models import DoorSettings
from houserules.models import HouseRuleRecord, HouseRuleVersion


def players_in(version: HouseRuleVersion) -> int:
    return int((version.data.get("scoring") or {}).get("players") or 4)


def settings_of(club) -> DoorSettings:
    """The club's door settings (defaults until an admin saves them; nothing is written)."""
    try:
        return club.door_settings
    except DoorSettings.DoesNotExist:
        return DoorSettings(club=club)


def versions_for(session: ClubSession, settings: DoorSettings | None = None
                 ) -> dict[int, HouseRuleVersion]:
    """{table size: the version it plays under} for tonight: the night's own size always, and
    3 and 5 where the club allows them and a rule for that many players exists."""
    settings = settings or settings_of(session.club)
    night = session.house_rule_version
    sizes = {players_in(night): night}
    for size, allowed, chosen in ((3, settings.allow_threes, settings.three_player_rule),
                                  (5, settings.allow_fives, settings.five_player_rule)):
        if size in sizes or not allowed:
            continue
        version = _chosen(chosen, size) or _variation(session, size)
        if version is not None:
            sizes[size] = version
    return sizes


def _chosen(record: HouseRuleRecord | None, size: int) -> HouseRuleVersion | None:
    version = record.latest_version() if record is not None else None
    return version if version is not None and players_in(version) == size else None


def _variation(session: ClubSession, size: int) -> HouseRuleVersion | None:
    candidates = (HouseRuleRecord.objects
                  .filter(Q(club__isnull=True) | Q(club_id=session.club_id),
                          based_on_id=session.house_rule_version.record_id)
                  .order_by("club_id", "slug"))
    # The club's own copy before a built-in one (NULLs sort first on SQLite, last on PostgreSQL).
    ranked = sorted(candidates, key=lambda r: (r.club_id is None, r.slug))
    for record in ranked:
        version = record.latest_version()
        if version is not None and players_in(version) == size:
            return version
    return None


def size_choices(club) -> list[tuple[int, list[HouseRuleRecord]]]:
    """For the settings form: the club's and built-in rules for 3 and for 5 players."""
    records = HouseRuleRecord.objects.filter(Q(club__isnull=True) | Q(club=club))
    by_size: dict[int, list[HouseRuleRecord]] = {3: [], 5: []}
    for record in records.order_by("name"):
        version = record.latest_version()
        if version is not None and players_in(version) in by_size:
            by_size[players_in(version)].append(record)
    return sorted(by_size.items())
