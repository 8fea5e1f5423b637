"""The club's records: what was entered at the table, never what can be derived from it."""

from clubs.models.audit import AuditEntry
from clubs.models.choices import (
    AuditAction,
    EntryKind,
    MemberRole,
    SessionStatus,
    Wind,
    WinSource,
)
from clubs.models.club import Club, Member, Season
from clubs.models.hands import Hand, HandEntry, HandResult
from clubs.models.sessions import ClubSession, Seat, Table
from clubs.models.writers import TableWriter

# The house-rule models live in houserules (below clubs); named here too so that code written
# against clubs.models keeps working.
from houserules.models import HouseRuleRecord, HouseRuleVersion  # noqa: E402  isort: skip

__all__ = [
    "AuditAction",
    "AuditEntry",
    "Club",
    "ClubSession",
    "EntryKind",
    "Hand",
    "HandEntry",
    "HandResult",
    "HouseRuleRecord",
    "HouseRuleVersion",
    "Member",
    "MemberRole",
    "Season",
    "Seat",
    "SessionStatus",
    "Table",
    "TableWriter",
    "WinSource",
    "Wind",
]
