"""Garbage in a league or player-history address (a season that is text or past any id, a
filter that is not a date or a number) gets a 400 saying what is wrong, or a 404: never a 500.
Every query parameter the league's pages and API read, and the ids in their paths."""

from __future__ import annotations

import pytest

HUGE = "99999999999999999999"  # past a 64-bit id
GARBAGE = ("abc", HUGE, "-1", "0", "1e3", "", "%00", "１２", "2026-02-30")
QUERY = ("season", "start", "end", "as_of", "house_rule", "table", "format", "what", "all")

PAGES = ("/clubs/{club}/league/{season}/", "/clubs/{club}/league/all-time/",
         "/clubs/{club}/league/", "/clubs/{club}/league/{season}/players/{member}/",
         "/clubs/{club}/league/{season}/rules/",
         "/clubs/{club}/history/players/{member}/", "/clubs/{club}/history/rating/")
API = ("/api/v1/seasons/{season}/standings/", "/api/v1/seasons/{season}/hand-results/",
       "/api/v1/clubs/{club}/standings/", "/api/v1/seasons/{season}/league-rules/",
       "/api/v1/seasons/{season}/snapshots/", "/api/v1/clubs/{club}/members/{member}/history/",
       "/api/v1/clubs/{club}/rating/")
IDS = ("/clubs/{club}/league/{huge}/", "/clubs/{club}/league/{season}/players/{huge}/",
       "/clubs/{club}/league/{season}/snapshots/{huge}/",
       "/clubs/{club}/history/players/{huge}/",
       "/api/v1/seasons/{huge}/standings/", "/api/v1/seasons/{huge}/hand-results/",
       "/api/v1/seasons/{season}/snapshots/{huge}/",
       "/api/v1/clubs/{club}/members/{huge}/history/")


def _answers(client, urls, club, season, member):
    for template in urls:
        url = template.format(club=club.slug, season=season.pk, member=member.pk, huge=HUGE)
        for name in QUERY:
            for value in GARBAGE:
                answer = client.get(url, {name: value})
                yield f"{url}?{name}={value!r}", answer


@pytest.mark.parametrize("where", ["pages", "api"])
def test_garbage_in_the_query_is_a_400_or_ignored_never_a_500(
        where, client_as, admin_api, club, season, players):
    client = client_as("admin") if where == "pages" else admin_api
    urls = PAGES if where == "pages" else API
    bad = [f"{url}: {answer.status_code}"
           for url, answer in _answers(client, urls, club, season, players[0])
           if answer.status_code >= 500]
    assert not bad, "\n".join(bad)


def test_an_id_past_any_in_the_path_is_a_404(client_as, admin_api, club, season, players):
    for template in IDS:
        url = template.format(club=club.slug, season=season.pk, member=players[0].pk, huge=HUGE)
        client = admin_api if url.startswith("/api/") else client_as("admin")
        assert client.get(url).status_code == 404, url


def test_a_house_rule_id_past_any_is_refused_at_its_path(admin_api, club, season):
    """It reached the standings' SQL and failed there, a 500 (SQLite: "Python int too large to
    convert to SQLite INTEGER")."""
    for url in (f"/api/v1/seasons/{season.pk}/standings/", f"/api/v1/clubs/{club.slug}/standings/"):
        answer = admin_api.get(url, {"house_rule": HUGE})
        assert answer.status_code == 400
        assert answer.json() == {"house_rule": ["No house rule has this id."]}
