"""One scorer records a table at a time (``clubs.models.TableWriter``).

Opening the record page holds the table for the scorer (the user) who opened it (``HOLD`` from
their last visit or save); another scorer opening it sees who holds it and may take over. The
same scorer on another phone of their own, or on the same phone after its browser was cleared,
just goes on: the hold follows them to the phone they opened last. The phone is known by a
random id in a cookie (``DEVICE_COOKIE``), so this works without JavaScript; it names the phone
in use (and stands for the scorer when no one is logged in). Saves are never refused for it: a
phone that lost the table still sends the hands it queued, and a hand number taken meanwhile is
a conflict shown beside the hand saved.
"""

from __future__ import annotations

import re
import uuid

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Member, Table, TableWriter
from clubs.models.writers import HOLD

DEVICE_COOKIE = "scorer_device"
_DEVICE = re.compile(r"^[0-9a-f]{32}$")


def device_of(request) -> str | None:
    """This phone's id from its cookie, or None if it has none (or a malformed one)."""
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if _DEVICE.match(value) else None


def new_device() -> str:
    return uuid.uuid4().hex


def remember_device(response, request, device: str) -> None:
    """Keep the phone's id for a year (sent only to this site, unreadable by scripts)."""
    if device_of(request) != device:
        response.set_cookie(DEVICE_COOKIE, device, max_age=365 * 24 * 3600, httponly=True,
                            samesite="Lax", secure=request.is_secure())


def holder(table: Table) -> TableWriter | None:
    """Who holds the table now (None: nobody, or their hold has run out)."""
    current = TableWriter.objects.filter(table=table).first()
    return current if current and current.expires > timezone.now() else None


def _same_scorer(current: TableWriter, user, device: str | None) -> bool:
    """The hold is this scorer's: their user (on any phone of theirs), or this very phone."""
    if current.device == device:
        return True
    return bool(user is not None and user.is_authenticated and current.user_id == user.pk)


def hold(table: Table, request, device: str, take_over: bool = False) -> TableWriter | None:
    """Hold (or keep holding) the table for this scorer, on this phone. Returns another
    scorer's hold that stands in the way, or None once this scorer holds it. ``take_over``
    takes it regardless."""
    now = timezone.now()
    with transaction.atomic():
        # The table's row lock orders two phones opening the page at the same instant.
        Table.objects.select_for_update().filter(pk=table.pk).values_list("pk").get()
        current = TableWriter.objects.filter(table=table).first()
        mine = current is not None and _same_scorer(current, request.user, device)
        if current and not mine and current.expires > now and not take_over:
            return current
        same = mine and current.expires > now
        TableWriter.objects.update_or_create(table=table, defaults={
            "device": device,
            "user": request.user if request.user.is_authenticated else None,
            "holder_name": _name_of(request.user, table),
            "device_label": device_label(request.headers.get("User-Agent", "")),
            "since": current.since if same else now,
            "expires": now + HOLD,
        })
    return None


def renew(table: Table, device: str | None, user=None) -> None:
    """A save from the holding scorer (any phone of theirs) keeps their hold for another
    ``HOLD``."""
    mine = Q(device=device) if device else Q(pk__in=[])
    if user is not None and user.is_authenticated:
        mine |= Q(user=user)
    TableWriter.objects.filter(mine, table=table).update(expires=timezone.now() + HOLD)


def _name_of(user, table: Table) -> str:
    member = Member.objects.filter(club_id=table.session.club_id, user_id=user.pk).first()
    return (member.display_name if member else user.get_username())[:80]


def device_label(user_agent: str) -> str:
    """A few words that let players tell phones apart ("Android phone", "iPhone")."""
    for token, label in (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android phone"),
                         ("Windows", "Windows computer"), ("Macintosh", "Mac"),
                         ("Linux", "Linux computer")):
        if token in user_agent:
            return label
    return "phone"
