"""The draw: tonight's players into tables of the planned sizes, as evenly mixed over the season
as the solver finds, with every rule the host set held.

OR-Tools' CP-SAT solver does the search (see the README for why). The model: ``x[p, t]`` says
player ``p`` sits at table ``t``; each player sits once, each table holds its size; ``y[p, q]``
is forced to 1 when ``p`` and ``q`` share any table (only for pairs whose cost is above the
cheapest, see ``costs``); the objective adds each meeting pair's cost and each odd-table seat's.
The host's rules are constraints: apart (never the same table), together (the same table),
fixed (that table), newcomer (a table with at least one regular). It starts from the greedy
draw improved by swaps (``improve``) as a hint, runs one worker with the seed, and stops at a fixed amount of deterministic
work (or the wall-clock limit, whichever comes first), so a seed gives one answer.
"""

from __future__ import annotations

import random
import time

from ortools.sat.python import cp_model

from door.draw.checks import check_request
from door.draw.costs import Costs, costs_of, draw_cost
from door.draw.designs import design_tables
from door.draw.improve import best_start
from door.draw.model import Draw, DrawError, DrawnTable, DrawRequest
from door.draw.season import Season, summarise
from door.draw.winds import seat_order


def draw(req: DrawRequest, season: Season | None = None, base: int = 4) -> Draw:
    """Tonight's tables. ``season`` (from ``summarise(req.history)``) may be passed when the
    caller has it already. Raises ``DrawError`` when the rules cannot all hold."""
    check_request(req)
    season = season if season is not None else summarise(req.history, req.weights, base)
    costs = costs_of(req, season)
    rng = random.Random(req.seed)
    began = time.perf_counter()
    planned = design_tables(req, costs, base)
    if planned is not None and draw_cost(planned, costs, base) == 0:
        # Nothing is cheaper than a night where nobody meets more than their share, and the
        # schedule's night also leaves the rest of the schedule open (designs.py says why).
        return Draw(seated(req, planned, season, rng), req.seed, "resolvable design", 0)
    start = best_start(req, costs, rng, base)
    left = max(0.2, req.time_limit - (time.perf_counter() - began))
    tables, method = _solve(req, costs, start, base, left)
    if planned is not None and draw_cost(planned, costs, base) < draw_cost(tables, costs, base):
        tables, method = planned, "resolvable design"
    return Draw(seated(req, tables, season, rng), req.seed, method,
                draw_cost(tables, costs, base))


def seated(req: DrawRequest, tables, season: Season, rng: random.Random
           ) -> tuple[DrawnTable, ...]:
    newcomers = frozenset(p.key for p in req.players if p.newcomer)
    regulars = frozenset(p.key for p in req.players if p.regular and not p.newcomer)
    return tuple(DrawnTable(number, seat_order(members, season, rng, newcomers, regulars))
                 for number, members in enumerate(tables, 1))


def _solve(req: DrawRequest, costs: Costs, start, base: int, seconds: float
           ) -> tuple[list[list[str]], str]:
    keys = sorted(p.key for p in req.players)
    tables = range(len(req.sizes))
    model = cp_model.CpModel()
    x = {(p, t): model.new_bool_var(f"x_{i}_{t}") for i, p in enumerate(keys) for t in tables}
    for p in keys:
        model.add_exactly_one(x[p, t] for t in tables)
    for t in tables:
        model.add(sum(x[p, t] for p in keys) == req.sizes[t])
    _rules(model, x, req, keys, tables)
    terms = []
    y = {}
    for (a, b), cost in costs.pairs.items():
        y[a, b] = model.new_bool_var(f"y_{a}_{b}")
        for t in tables:
            model.add_bool_or([x[a, t].Not(), x[b, t].Not(), y[a, b]])
        terms.append(cost * y[a, b])
    odd_tables = [t for t in tables if req.sizes[t] != base]
    for p, cost in costs.odd.items():
        terms.extend(cost * x[p, t] for t in odd_tables)
    model.minimize(sum(terms))
    first = _break_symmetry(model, x, req, keys)
    if start is not None:
        start = _relabelled(start, first, req)
        where = {p: t for t, members in enumerate(start) for p in members}
        for (p, t), var in x.items():
            model.add_hint(var, where[p] == t)
        for (a, b), var in y.items():
            model.add_hint(var, where[a] == where[b])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = req.seed % (2**31)
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.max_deterministic_time = req.deterministic_work
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        raise DrawError(_infeasible(req))
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if start is None:
            raise DrawError("No seating that keeps every rule was found in the time: remove a "
                            "rule (apart, together, fixed or newcomer) and draw again.")
        return start, "greedy"
    found = [[p for p in keys if solver.boolean_value(x[p, t])] for t in tables]
    return found, "optimal" if status == cp_model.OPTIMAL else "best found in the time"


def _rules(model, x, req: DrawRequest, keys, tables) -> None:
    c = req.constraints
    for a, b in c.apart:
        for t in tables:
            model.add_at_most_one(x[a, t], x[b, t])
    for a, b in c.together:
        for t in tables:
            model.add(x[a, t] == x[b, t])
    for p, number in c.fixed:
        model.add(x[p, number - 1] == 1)
    regulars = [p.key for p in req.players if p.regular and not p.newcomer]
    for player in req.players:
        if player.newcomer:
            for t in tables:
                model.add(sum(x[r, t] for r in regulars) >= 1).only_enforce_if(x[player.key, t])


def _break_symmetry(model, x, req: DrawRequest, keys) -> dict:
    """Tables of the same size that no fixed seat names are interchangeable (swapping two of
    them whole keeps every rule): the first player free to move sits at the first of them or
    at another size, which cuts the search the solver spends on relabelling tables."""
    named = {number - 1 for _, number in req.constraints.fixed}
    free = [t for t in range(len(req.sizes)) if t not in named]
    by_size: dict[int, list[int]] = {}
    for t in free:
        by_size.setdefault(req.sizes[t], []).append(t)
    fixed_players = {p for p, _ in req.constraints.fixed}
    movable = [p for p in keys if p not in fixed_players]
    if not movable:
        return {}
    for same in by_size.values():
        for t in same[1:]:
            model.add(x[movable[0], t] == 0)
    return {"player": movable[0], "groups": list(by_size.values())}


def _relabelled(start, broken: dict, req: DrawRequest):
    """The greedy draw with its tables renumbered to satisfy the symmetry break, so the hint
    is a whole solution the solver can take as it is."""
    if not broken:
        return start
    start = [list(t) for t in start]
    for same in broken["groups"]:
        for t in same[1:]:
            if broken["player"] in start[t]:
                start[t], start[same[0]] = start[same[0]], start[t]
    return start


def _infeasible(req: DrawRequest) -> str:
    return (f"No seating with tables of {', '.join(map(str, req.sizes))} keeps every rule "
            "tonight (apart, together, fixed tables and newcomers with a regular): remove or "
            "change one and draw again.")
