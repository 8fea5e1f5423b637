"""Enumerations shared by the club models (stored as short codes, shown in the club's words)."""

from django.db import models


class Wind(models.TextChoices):
    EAST = "E", "East"
    SOUTH = "S", "South"
    WEST = "W", "West"
    NORTH = "N", "North"


class MemberRole(models.TextChoices):
    ADMIN = "admin", "Club admin"
    SCORER = "scorer", "Scorer"
    MEMBER = "member", "Member"


class SessionStatus(models.TextChoices):
    OPEN = "open", "Open (hands being recorded)"
    CLOSED = "closed", "Closed"


class EntryKind(models.TextChoices):
    FULL = "full", "Full hand (tiles)"
    QUICK = "quick", "Quick entry (score only)"


class WinSource(models.TextChoices):
    WALL = "wall", "From the wall"
    DISCARD = "discard", "On a discard"
    KONG_BOX = "kong_box", "Replacement tile (kong box)"
    ROBBED_KONG = "robbed_kong", "Robbing a kong"


class AuditAction(models.TextChoices):
    CREATE = "create", "Created"
    UPDATE = "update", "Changed"
    DELETE = "delete", "Deleted"
    VOID = "void", "Voided"
    RESTORE = "restore", "Restored"
    CLOSE = "close", "Closed"
    REOPEN = "reopen", "Reopened"
