"""A recorded table replayed under several house rules, and many tables' answers merged into one
report. Plain Python (no Django): ``play.replay`` does the playing; this module only reads its
rows. What the replay does with what was recorded:

- a hand entered as the score the table agreed keeps that score under every rule (there are no
  tiles to rescore); a hand entered tile by tile is scored again under each rule;
- a hand that is not a valid Mah Jong under a rule is settled there as a wall game
  (``refused="wall_game"``), and listed with the reason;
- the seating and winds are those actually played; pots, kitties, chips and tallies follow each
  rule along the replay;
- a rule that does not fit the table (a three-player rule on a four-player table) is refused
  with a sentence, and that table counts for nothing under it: its players have no total, no
  place and no change of place under that rule (``None``), never a 0 that reads like a result.

Tables are named by their number in the night ("Table 1") and the night's date, as the night's
pages and sheets name them (``table_number``); the database id stays in ``table``.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from play import RecordedHand, SeatInfo, SessionRules, replay

TOP_HANDS = 10  # the hands that change most, kept per table and in the report
MAX_INVALID = 500  # hands listed as not valid in a report (all are counted)


@dataclass(frozen=True)
class TableToCompare:
    table_id: int
    session_id: int
    date: str  # ISO date of the night
    number: int  # the table's number that night
    seats: tuple[SeatInfo, ...]
    hands: list[RecordedHand]


def player_key(seat: SeatInfo) -> str:
    """Members are one player across tables; a guest is known by name only."""
    return f"m{seat.member_id}" if seat.member_id is not None else f"g:{seat.name}"


def table_name(number: int | None, date: str) -> str:
    """A table as the night's pages name it: "Table 1 on 2026-11-14"."""
    return f"Table {number if number is not None else '?'} on {date}"


def misfit(rule, seats: tuple[SeatInfo, ...], number: int | None = None) -> str | None:
    """Why ``rule`` cannot replay a table of these seats, or None."""
    if rule.scoring.players != len(seats):
        which = f"Table {number}" if number is not None else "this table"
        return (f"{rule.name} is for {rule.scoring.players} players and {which} had "
                f"{len(seats)}: its hands are not replayed under it, and its players have no "
                "total or place under it.")
    return None


def reason(error: dict) -> str:
    """A refused hand's DRF-shaped error as one sentence."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)
        else:
            found.append(str(value))

    walk(error)
    return " ".join(dict.fromkeys(found)) or "Not a valid hand under this rule."


def _lines(result) -> dict[str, tuple[str, int, int, int]]:
    if result is None:
        return {}
    return {x.code: (x.name, x.points, x.doubles, x.count) for x in result.lines}


def changed_items(rows, winner: int | None, slugs: list[str]) -> list[dict]:
    """The winner's items whose worth differs between the rules (absent counts as differing)."""
    if winner is None:
        return []
    per_rule = [_lines(row.results.get(winner)) for row in rows]
    codes = list(dict.fromkeys(code for lines in per_rule for code in lines))
    out = []
    for code in codes:
        values = [lines.get(code) for lines in per_rule]
        if len({v[1:] if v else None for v in values}) > 1:
            name = next(v[0] for v in values if v)
            out.append({"code": code, "name": name, "values": {
                slug: None if v is None else {"points": v[1], "doubles": v[2], "count": v[3]}
                for slug, v in zip(slugs, values, strict=True)}})
    return out


def compare_table(table: TableToCompare, rules: list[SessionRules]) -> dict:
    """One table under every rule: a JSON-ready part of a report (a few KB whatever the
    table's length; nothing else is kept)."""
    slugs = [r.rule.slug for r in rules]
    keys = {s.id: player_key(s) for s in table.seats}
    refused = {r.rule.slug: why for r in rules
               if (why := misfit(r.rule, table.seats, table.number))}
    states = {r.rule.slug: replay(table.seats, table.hands, r, table.table_id, refused="wall_game")
              for r in rules if r.rule.slug not in refused}
    start = {r.rule.slug: r.rule.payment.starting_tally for r in rules}
    # None, not 0, under a rule that does not fit: the table was not played under it.
    players = {keys[s.id]: {"name": s.name, "totals": [
        (states[slug].totals[s.id] - start[slug]) if slug in states else None for slug in slugs]}
        for s in table.seats}
    counted = [h for h in table.hands if not h.voided]
    rescored = sum(1 for h in counted if any(e["kind"] == "full" for e in h.entries.values()))
    invalid: list[dict] = []
    changes: list[tuple] = []
    live = [slug for slug in slugs if slug in states]
    for index, hand in enumerate(table.hands):
        if hand.voided:
            continue
        rows = [states[slug].hands[index] for slug in live]
        for slug, row in zip(live, rows, strict=True):
            if row.error is not None:
                invalid.append({"hand": hand.id, "number": hand.number, "table": table.table_id,
                                "table_number": table.number, "date": table.date, "rule": slug,
                                "reason": reason(row.error)})
        if len(rows) < 2:
            continue
        spread = sum(max(r.net.get(s, 0) for r in rows) - min(r.net.get(s, 0) for r in rows)
                     for s in keys)
        if spread:
            entry = (spread, -hand.id, index, rows)
            if len(changes) < TOP_HANDS:
                heapq.heappush(changes, entry)
            elif entry > changes[0]:
                heapq.heapreplace(changes, entry)
    top = []
    for spread, _, index, rows in sorted(changes, reverse=True):
        hand = table.hands[index]
        top.append({
            "hand": hand.id, "number": hand.number, "table": table.table_id,
            "table_number": table.number, "session": table.session_id, "date": table.date,
            "spread": spread,
            "winner": keys.get(hand.winner) if hand.winner else None,
            "net": {keys[s]: [r.net.get(s, 0) for r in rows] for s in keys},
            "winner_score": [r.scores.get(hand.winner) if hand.winner else None for r in rows],
            "rules": live,
            "items": changed_items(rows, hand.winner, live),
            "settled_as_wall": [slug for slug, r in zip(live, rows, strict=True) if r.error],
        })
    return {
        "table": table.table_id, "table_number": table.number, "session": table.session_id,
        "date": table.date, "rules": slugs, "players": players,
        "seat_totals": {slug: {str(k): v for k, v in st.totals.items()}
                        for slug, st in states.items()},
        "hands": len(counted), "voided": len(table.hands) - len(counted),
        "rescored": rescored, "kept": len(counted) - rescored,
        "refused": refused, "invalid": invalid, "changes": top,
    }


def places(totals: dict[str, int | None]) -> dict[str, int | None]:
    """1 for the highest total; equal totals share a place (1, 2, 2, 4). A player with no total
    under the rule (``None``: no table of theirs fits it) has no place."""
    ordered = sorted((t for t in totals.values() if t is not None), reverse=True)
    return {key: None if total is None else ordered.index(total) + 1
            for key, total in totals.items()}


def _add(total: int | None, more: int | None) -> int | None:
    """Totals over tables; a table the rule does not fit (None) adds nothing."""
    if more is None:
        return total
    return more if total is None else total + more


def merge_parts(parts: Iterable[dict], slugs: list[str]) -> dict:
    """Many tables' parts as one report. Reads the parts one at a time and keeps only the
    players' running totals and the few hands the report lists.

    Each player has, per rule, a total (None if no table of theirs fits the rule), a place among
    the players who have a total, the change of place from the first rule (None unless both
    places exist), and ``counted``: how many of their tables the rule fits."""
    players: dict[str, dict] = {}
    counts = {"tables": 0, "hands": 0, "voided": 0, "rescored": 0, "kept": 0}
    invalid: list[dict] = []
    invalid_count = {slug: 0 for slug in slugs}
    refused: list[dict] = []
    changes: list[tuple] = []
    for part in parts:
        counts["tables"] += 1
        for name in ("hands", "voided", "rescored", "kept"):
            counts[name] += part[name]
        unfit = part["refused"]
        for key, p in part["players"].items():
            mine = players.setdefault(key, {"name": p["name"], "totals": [None] * len(slugs),
                                            "counted": [0] * len(slugs), "tables": 0})
            mine["tables"] += 1
            for i, slug in enumerate(slugs):
                if slug in unfit:  # parts stored before unfit rules gave None held a 0 here
                    continue
                mine["totals"][i] = _add(mine["totals"][i], p["totals"][i])
                mine["counted"][i] += 1
        for slug, why in unfit.items():
            refused.append({"table": part["table"], "table_number": part.get("table_number"),
                            "date": part["date"], "rule": slug, "reason": why})
        for bad in part["invalid"]:
            invalid_count[bad["rule"]] += 1
            if len(invalid) < MAX_INVALID:
                invalid.append(bad)
        for change in part["changes"]:
            entry = (change["spread"], -change["hand"], change)
            if len(changes) < TOP_HANDS:
                heapq.heappush(changes, entry)
            elif entry[:2] > changes[0][:2]:
                heapq.heapreplace(changes, entry)
    standings = []
    place_by_rule = [places({k: p["totals"][i] for k, p in players.items()})
                     for i in range(len(slugs))]
    for key, p in players.items():
        placed = [pl[key] for pl in place_by_rule]
        standings.append({"player": key, "name": p["name"], "tables": p["tables"],
                          "counted": p["counted"], "totals": p["totals"], "places": placed,
                          "place_change": [None if placed[0] is None or x is None
                                           else placed[0] - x for x in placed]})
    standings.sort(key=lambda r: (r["places"][0] is None, r["places"][0] or 0, r["name"]))
    return {
        "rules": slugs, "counts": counts, "players": standings,
        "changes": [c for *_, c in sorted(changes, key=lambda e: e[:2], reverse=True)],
        "invalid": invalid, "invalid_count": invalid_count, "refused": refused,
    }
