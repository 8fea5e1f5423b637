"""Season choices name the season, not the club again (found starting a night as the secretary:
the box offered "Jade Dragon Club: Autumn league 2026" on the club's own page, and so did the
player history's season box)."""

from __future__ import annotations

import datetime as dt
import re

from clubs.models import Member, Season


def options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return [text.strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", select)]


def test_season_boxes_name_the_season(client_as, club, users):
    Season.objects.create(club=club, name="Autumn league 2026", start=dt.date(2026, 9, 1))
    admin = client_as("admin")
    assert options(admin.get(f"/clubs/{club.slug}/").content.decode(), "season") == [
        "No season", "Autumn league 2026"]
    alice = Member.objects.create(club=club, display_name="Alice")
    page = admin.get(f"/clubs/{club.slug}/history/players/{alice.pk}/").content.decode()
    assert options(page, "season")[-1] == "Autumn league 2026"
