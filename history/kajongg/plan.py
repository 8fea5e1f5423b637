"""A Kajongg database's manual games as an import plan (the same ``Plan`` a spreadsheet's dry
run gives): one table a game, and each of its hands as the hand the recording service would
have stored had it been entered at the table (``PlannedTable.hands``: the entry in
``play.check_entry``'s shape, keyed by the winds Kajongg recorded).

Each player's hand string that the project's notation can express, and that this project
scores at the points Kajongg gave under the game's house rule, is entered as tiles; the rest
are agreed scores (``{"score": N}``, Kajongg's points). Kajongg stores no discarder, so a hand
won on another player's tile comes in with ``"discarder": "unknown"`` (``play.UNKNOWN``):
under BMJA's payments, which are Kajongg's, everyone pays the winner whoever discarded; under
a house rule where the discarder pays more, such a hand is entered as agreed scores. Every
hand is scored and settled by ``play`` here, in the dry run, and must pay what Kajongg
recorded (tiles, then agreed scores, are tried), so the imported night's totals are Kajongg's
balances. ``ImportedHand`` keeps Kajongg's own record of each player's hand beside it.

Refused, with the game and the reason: a hand whose payments do not sum to zero, a balance
that is not the running sum of the payments, a game with fewer than two or more than five
players, a game without a date, a hand whose winds are not one each or that has two winners,
and a hand the house rule cannot pay as Kajongg did (a penalty, a discarder paying for all, a
house rule with other payments).
"""

from __future__ import annotations

from collections import defaultdict

from history.import_plan import NameFate, Plan, PlannedNight, PlannedTable, Player, _season_for
from history.kajongg.database import Game, ScoreRow
from history.kajongg.notation import Untranslatable, translate, win_source_of
from history.names import match_names, normalise, too_long
from play import GIVEN, UNKNOWN, HandInputError, Seating, SessionRules, check_entry, compute_hand

# Payment schemes under which the discarder pays more than the others: a hand won on a
# discard whose discarder is unknown is entered as agreed scores there.
DISCARDER_PAYS_MORE = ("winner_table", "discarder_pays")
WINDS = ("E", "S", "W", "N")


def _scored(contract: dict, rule, points: int) -> tuple[dict, bool]:
    """The contract hand as this project scores it alike (trying the fishing reading Kajongg
    may have taken), and whether it does."""
    from scoring.engine import HandError, parse_hand, score_hand

    for fishing in (False, True):
        candidate = {**contract, "fishing": fishing}
        try:
            if score_hand(parse_hand(candidate), rule).score == points:
                return candidate, True
        except (HandError, ValueError):
            continue
    return contract, False


def _entry(rows: list[ScoreRow], seats: dict[str, dict], winner: ScoreRow | None,
           win_from: str | None) -> dict:
    return {"winner": winner.wind if winner else None,
            "discarder": UNKNOWN if win_from in GIVEN else None,
            "draw": winner is None, "win_from": win_from, "goulash": False,
            "seats": {r.wind: seats[r.wind] for r in rows}}


def _settled(entry: dict, rows: list[ScoreRow], positions: dict[str, int], rule) -> str:
    """"" when ``play`` pays the entry as Kajongg recorded, else why not."""
    seating = Seating({positions[r.player]: r.wind for r in rows}, rows[0].prevailing or "E")
    try:
        net = compute_hand(SessionRules(rule), seating, check_entry(entry, seating), 0).settlement.net
    except HandInputError as exc:
        return f"refused here ({exc.errors})"[:200]
    if all(net.get(r.wind, 0) == r.payments for r in rows):
        return ""
    return ("pays " + ", ".join(f"{r.player} {net.get(r.wind, 0):+d}" for r in rows)
            + " where Kajongg recorded " + ", ".join(f"{r.payments:+d}" for r in rows))


def _hand_problem(rows: list[ScoreRow], players: int) -> str:
    winds = [r.wind for r in rows]
    if len(rows) != players or len(set(winds)) != len(winds) or set(winds) != set(WINDS[:players]):
        return f"its winds are {'/'.join(w or '?' for w in winds)}, not one each"
    if len({r.prevailing for r in rows}) != 1:
        return "its players give different winds of the round"
    if sum(1 for r in rows if r.won) > 1:
        return "it has two winners"
    return ""


def make_plan(games: list[Game], members: dict[int, str], rules: dict, *, choices=None,
              seasons=(), taken_dates=frozenset(), accept_suggestions=False,
              unmatched="") -> tuple[Plan, dict]:
    """``rules``: game id -> (house rule version id, ``HouseRule``) the game is filed under."""
    choices = choices or {}
    # A name too long to keep refuses its games (below), so it is not offered to choose for.
    names = sorted({p for g in games for p in g.players if not too_long(p)}, key=normalise)
    matches = match_names(names, members)
    fates, who_of = [], {}
    for name in names:
        match, choice = matches[name], choices.get(name, "")
        if choice.startswith("member:") and int(choice[7:]) not in members:
            choice = ""
        if not choice:
            if match.exact:
                choice = f"member:{match.exact}"
            elif match.suggestion and accept_suggestions:
                choice = f"member:{match.suggestion}"
            elif not match.suggestion and unmatched in ("new", "guest"):
                choice = unmatched
        who_of[name] = choice
        fates.append(NameFate(name, match, choice,
                              sum(1 for g in games for r in g.rows if r.player == name)))
    nights: dict = {}
    refusals, row_fates = [], []
    counts: dict[str, int] = defaultdict(int)
    for game in games:
        label = f"game {game.id}"
        reason = ""
        if game.date is None:
            reason = f"{label} has no start date"
        elif not 2 <= len(game.players) <= 5:
            reason = f"{label} has {len(game.players)} players"
        elif any(too_long(p) for p in game.players):
            reason = next(too_long(p, f" in {label}") for p in game.players if too_long(p))
        by_hand = defaultdict(list)
        for row in game.rows:
            by_hand[row.hand].append(row)
        running: dict[str, int] = defaultdict(int)
        for hand in sorted(by_hand):
            total = sum(r.payments for r in by_hand[hand])
            if total and not reason:
                reason = f"hand {hand} of {label} pays {total:+d} in all, not 0"
            for r in by_hand[hand]:
                running[r.player] += r.payments
                if running[r.player] != r.balance and not reason:
                    reason = (f"{r.player}'s balance after hand {hand} of {label} is {r.balance}, "
                              f"not the {running[r.player]} its payments add up to")
        if reason:
            refusals.append((label, reason))
            row_fates.append((game.id, "refused", reason))
            counts["games_refused"] += 1
            continue
        if game.date in taken_dates:
            refusals.append((label, f"the club already has a night on {game.date:%-d %b %Y}"))
            row_fates.append((game.id, "refused", refusals[-1][1]))
            counts["games_refused"] += 1
            continue
        version_id, rule = rules[game.id]
        positions = {name: position for position, name in enumerate(game.players)}
        details: dict[str, list] = defaultdict(list)
        hands: list[dict] = []
        tally: dict[str, int] = defaultdict(int)
        for hand in sorted(by_hand):
            rows = sorted(by_hand[hand], key=lambda r: WINDS.index(r.wind) if r.wind in WINDS else 9)
            if any(r.penalty for r in rows):
                reason = (f"hand {hand} of {label} holds a penalty Kajongg recorded; penalties "
                          "are not imported (enter that night by hand, or leave the game out)")
                break
            problem = _hand_problem(rows, len(game.players))
            if problem or any(r.player not in positions for r in rows):
                reason = f"hand {hand} of {label}: {problem or 'a player not in the game'}"
                break
            winner = next((r for r in rows if r.won), None)
            quick, tiles = {}, {}
            for r in rows:
                quick[r.wind] = {"score": r.points}
                detail = {"number": hand, "wind": r.wind, "prevailing": r.prevailing,
                          "data": r.data[:200], "won": r.won, "points": r.points,
                          "net": r.payments, "contract": None, "why_not": "",
                          "scored_alike": False, "from_discard": False}
                try:
                    contract = translate(r.data, r.wind or "E", r.prevailing or "E", r.won)
                except (Untranslatable, IndexError, KeyError) as exc:
                    detail["why_not"] = str(exc)[:200] or "not in the contract's notation"
                else:
                    contract, alike = _scored(contract, rule, r.points)
                    detail.update(contract=contract, scored_alike=alike)
                    if alike:
                        tiles[r.wind] = contract
                details[r.player].append(detail)
            win_from = None
            if winner is not None:
                win_from = (tiles[winner.wind]["win"]["from"] if winner.wind in tiles
                            else win_source_of(winner.data))
            unknown = win_from in GIVEN
            tried = []
            if not (unknown and rule.payment.scheme in DISCARDER_PAYS_MORE):
                tried.append({**quick, **tiles})
            tried.append(quick)
            why = ""
            for seats in tried:
                entry = _entry(rows, seats, winner, win_from)
                why = _settled(entry, rows, positions, rule)
                if not why:
                    break
            if why:
                reason = f"hand {hand} of {label}: {rule.name} {why}"
                break
            kept = sum(1 for r in rows if "score" not in entry["seats"][r.wind])
            tally["seat_hands_tiles"] += kept
            tally["seat_hands_agreed"] += len(rows) - kept
            tally["discarder_unknown"] += unknown
            tally["wall_games"] += winner is None
            for r in rows:
                for d in details[r.player][-1:]:
                    d["from_discard"] = unknown and r.won
                    d["scored_alike"] = "score" not in entry["seats"][r.wind]
            hands.append({"number": hand, "prevailing": rows[0].prevailing or "E",
                          "positions": {r.wind: positions[r.player] for r in rows},
                          "entry": entry})
        if reason:
            refusals.append((label, reason))
            row_fates.append((game.id, "refused", reason))
            counts["games_refused"] += 1
            continue
        for key, value in tally.items():
            counts[key] += value
        counts["hands"] += len(hands)
        night = nights.get(game.date) or PlannedNight(game.date, _season_for(game.date, seasons))
        nights[game.date] = night
        planned = PlannedTable(len(night.tables) + 1, hands=hands, house_rule=version_id,
                               note=f"game {game.id}, ruleset {game.ruleset!r}")
        night.tables[planned.number] = planned
        for position, name in enumerate(game.players):
            # Seated in Kajongg's order (p0 to p3); a game has no sheet lines.
            player = planned.players[normalise(name)] = Player(
                name, who_of.get(name, ""), lines=[position])
            player.detail = details[name]
            for d in details[name]:
                player.net += d["net"]
                player.hands += 1
                player.hand_nets.append((d["number"], d["net"]))
                if d["won"]:
                    player.best_score = max(player.best_score, d["points"])
        counts["games"] += 1
        row_fates.append((game.id, "ok", f"{game.date:%-d %b %Y}: {', '.join(game.players)}, "
                                         f"{len(by_hand)} hands ({game.ruleset})"))
    plan = Plan(nights=sorted(nights.values(), key=lambda n: n.date), fates=row_fates,
                refusals=refusals, names=fates, per_hand=True)
    return plan, dict(counts)
