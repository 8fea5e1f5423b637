"""A Kajongg database's manual games as an import plan (the same ``Plan`` a spreadsheet's dry
run gives, one table a game, one row per player per hand), with each hand's string put in the
contract's terms where the notation allows and scored by this project's engine.

Each game comes in as an imported table of hands: every player's net for each hand is what
Kajongg recorded it paid or received, so the night's totals are Kajongg's balances. A hand
string the project's notation can express is kept as the contract's hand (``ImportedHand``),
with whether this project scores it as Kajongg did; the rest keep Kajongg's points only.
Kajongg stores no discarder: the import counts the hands won on a discard, whose discarder is
unknown, and says so (under a house rule where the discarder pays more they could not be
settled again here).

Refused, with the game and the reason: a hand whose payments do not sum to zero, a balance
that is not the running sum of the payments, a game with fewer than two or more than five
players, a game without a date.
"""

from __future__ import annotations

from collections import defaultdict

from history.import_plan import NameFate, Plan, PlannedNight, PlannedTable, Player, _season_for
from history.kajongg.database import Game
from history.kajongg.notation import Untranslatable, translate
from history.names import match_names, normalise


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


def make_plan(games: list[Game], members: dict[int, str], rule, *, choices=None, seasons=(),
              taken_dates=frozenset(), accept_suggestions=False, unmatched="") -> tuple[Plan, dict]:
    choices = choices or {}
    names = sorted({p for g in games for p in g.players}, key=normalise)
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
    counts = defaultdict(int)
    for game in games:
        label = f"game {game.id}"
        reason = ""
        if game.date is None:
            reason = f"{label} has no start date"
        elif not 2 <= len(game.players) <= 5:
            reason = f"{label} has {len(game.players)} players"
        by_hand = defaultdict(list)
        for row in game.rows:
            by_hand[row.hand].append(row)
        running = defaultdict(int)
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
        night = nights.get(game.date) or PlannedNight(game.date, _season_for(game.date, seasons))
        nights[game.date] = night
        planned = PlannedTable(len(night.tables) + 1)
        night.tables[planned.number] = planned
        players = {}
        for position, name in enumerate(game.players):
            # Seated in Kajongg's order (p0 to p3); a game has no sheet lines.
            players[name] = planned.players[normalise(name)] = Player(
                name, who_of.get(name, ""), lines=[position])
        for hand in sorted(by_hand):
            counts["hands"] += 1
            winner = next((r for r in by_hand[hand] if r.won), None)
            for r in by_hand[hand]:
                player = players.get(r.player)
                if player is None:
                    continue
                player.net += r.payments
                player.hands += 1
                player.hand_nets.append((hand, r.payments))
                if r.won:
                    player.best_score = max(player.best_score, r.points)
                detail = {"number": hand, "wind": r.wind, "prevailing": r.prevailing,
                          "data": r.data[:200], "won": r.won, "points": r.points,
                          "net": r.payments, "contract": None, "why_not": "",
                          "scored_alike": False, "from_discard": False}
                try:
                    contract = translate(r.data, r.wind or "E", r.prevailing or "E", r.won)
                except (Untranslatable, IndexError, KeyError) as exc:
                    detail["why_not"] = str(exc)[:200] or "not in the contract's notation"
                    counts["seat_hands_agreed"] += 1
                else:
                    contract, alike = _scored(contract, rule, r.points)
                    detail.update(contract=contract, scored_alike=alike)
                    counts["seat_hands_tiles" if alike else "seat_hands_agreed"] += 1
                    if r.won and contract.get("win", {}).get("from") in ("discard", "robbed_kong"):
                        detail["from_discard"] = True
                        counts["discard_wins"] += 1
                player.detail.append(detail)
            if winner is None:
                counts["wall_games"] += 1
        counts["games"] += 1
        row_fates.append((game.id, "ok", f"{game.date:%-d %b %Y}: {', '.join(game.players)}, "
                                         f"{len(by_hand)} hands ({game.ruleset})"))
    plan = Plan(nights=sorted(nights.values(), key=lambda n: n.date), fates=row_fates,
                refusals=refusals, names=fates, per_hand=True)
    return plan, dict(counts)
