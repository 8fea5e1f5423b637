"""What a club's document carries besides its nights: each season's league rules and published
standings (``league``), and the finished comparisons of its play (``compare``) with their
reports. Both hold database ids (a standings row's ``member_id``; a report's players ``m<id>``,
hands, tables and nights), so the document writes them as its own keys and an import turns them
back into the new database's ids: the club moved keeps its ranking, its published tables and
its reports, word for word."""

from __future__ import annotations

import re
from typing import Any

from compare.models import Comparison
from league.models import SeasonLeague, Snapshot

PLAYER = re.compile(r"m(\d+)")
# A report's fields that hold a hand's, table's or night's id.
PLACES = ("hand", "table", "session")


class Ids:
    """Database ids -> document keys (an export) or keys -> ids (an import): ``member`` (the
    number after ``m``: a member's id, or the number of its ``m3`` key), ``season``,
    ``session``, ``table``, ``hand``."""

    def __init__(self, member: dict, season: dict, session: dict, table: dict, hand: dict):
        self.member, self.season = member, season
        self.places = {"session": session, "table": table, "hand": hand}

    def player(self, key: str) -> str:
        found = PLAYER.fullmatch(key)
        if found is None:
            return key  # a guest ("g:name") is the same everywhere
        mapped = self.member.get(int(found.group(1)))
        return key if mapped is None else f"m{mapped}"

    def report(self, value: Any) -> Any:
        """A report (or any part of one) with every id mapped."""
        if isinstance(value, list):
            return [self.report(v) for v in value]
        if not isinstance(value, dict):
            return value
        out = {}
        for key, item in value.items():
            if key in PLACES and isinstance(item, int | str) and not isinstance(item, bool):
                item = self.places[key].get(item, item)
            elif key in ("player", "winner") and isinstance(item, str):
                item = self.player(item)
            else:
                item = self.report(item)
            out[self.player(key) if isinstance(key, str) else key] = item
        return out

    def scope(self, scope: dict) -> dict:
        out = dict(scope)
        if "season" in out:
            out["season"] = self.season.get(out["season"], out["season"])
        for key in ("session", "table"):
            if key in out:
                out[key] = self.places[key].get(out[key], out[key])
        return out

    def standings(self, data: dict) -> dict:
        """A snapshot's rows with ``member_id`` mapped: an id becomes a key (``m3``) on the
        way out, a key an id on the way in."""
        def member(value):
            if isinstance(value, int):
                return f"m{self.member[value]}" if value in self.member else value
            found = PLAYER.fullmatch(str(value))
            return self.member.get(int(found.group(1)), value) if found else value

        rows = [{**row, "member_id": member(row["member_id"])}
                if row.get("member_id") is not None else row for row in data.get("rows", [])]
        return {**data, "rows": rows}


def _stamp(value) -> str | None:
    return value.isoformat() if value is not None else None


def export_league(season, ids: Ids) -> dict:
    """A season's league rules (null: the net-points preset) and published standings."""
    league = SeasonLeague.objects.filter(season=season).select_related("updated_by").first()
    snapshots = Snapshot.objects.filter(season=season).select_related("published_by").order_by(
        "published", "pk")
    return {
        "rules": None if league is None else {
            "preset": league.preset, **league.rules().to_dict(),
            "updated": _stamp(league.updated),
            "updated_by": league.updated_by.username if league.updated_by else None},
        "snapshots": [{"as_of": _stamp(s.as_of), "published": _stamp(s.published),
                       "published_by": s.published_by.username if s.published_by else None,
                       "note": s.note, "data": ids.standings(s.data)} for s in snapshots],
    }


def export_comparisons(club, ids: Ids) -> list[dict]:
    """The club's finished comparisons (a running one is started again after the move)."""
    return [{
        "title": c.title, "scope": ids.scope(c.scope), "rules": c.rules,
        "rule_data": c.rule_data, "shared": c.shared,
        "tables_total": c.tables_total, "hands_total": c.hands_total,
        "created_by": c.created_by.username if c.created_by else None,
        "created": _stamp(c.created), "finished": _stamp(c.finished),
        "report": ids.report(c.report),
    } for c in Comparison.objects.filter(club=club, status=Comparison.DONE)
        .select_related("created_by").order_by("created", "pk")]


def import_league(given: dict | None, season, ids: Ids, user_named) -> None:
    """A season's league rules and published standings, as the document has them."""
    from django.utils.dateparse import parse_date, parse_datetime

    from league.ranking import LeagueRules

    if not given:
        return
    rules = given.get("rules")
    if rules:
        league = SeasonLeague(season=season, preset=rules.get("preset", ""),
                              updated_by=user_named(rules.get("updated_by")))
        league.set_rules(LeagueRules(**{k: rules[k] for k in (
            "measure", "combine", "points", "best_n", "min_nights", "min_share")},
            tie_breaks=tuple(rules.get("tie_breaks") or ())))
        league.save()
        if rules.get("updated"):
            SeasonLeague.objects.filter(pk=league.pk).update(
                updated=parse_datetime(rules["updated"]))
    for snapshot in given.get("snapshots", []):
        made = Snapshot.objects.create(
            season=season, as_of=parse_date(snapshot["as_of"]), note=snapshot["note"],
            published_by=user_named(snapshot.get("published_by")),
            data=ids.standings(snapshot["data"]))
        if snapshot.get("published"):
            Snapshot.objects.filter(pk=made.pk).update(
                published=parse_datetime(snapshot["published"]))


def import_comparisons(given: list[dict], club, ids: Ids, user_named) -> int:
    """The club's finished comparisons, their reports' ids mapped to this database's."""
    from django.utils.dateparse import parse_datetime

    for c in given:
        made = Comparison.objects.create(
            club=club, created_by=user_named(c.get("created_by")), title=c["title"],
            scope=ids.scope(c["scope"]), rules=c["rules"], rule_data=c["rule_data"],
            shared=c.get("shared", False), status=Comparison.DONE,
            tables_total=c["tables_total"], hands_total=c["hands_total"],
            finished=parse_datetime(c["finished"]) if c.get("finished") else None,
            report=ids.report(c["report"]))
        if c.get("created"):
            Comparison.objects.filter(pk=made.pk).update(created=parse_datetime(c["created"]))
    return len(given)
