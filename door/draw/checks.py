"""A draw request checked before any search: every problem a host can mend, in words."""

from __future__ import annotations

from door.draw.model import DrawError, DrawRequest


def check_request(req: DrawRequest) -> None:
    """Raises ``DrawError`` naming the first thing that makes the draw impossible."""
    keys = [p.key for p in req.players]
    names = {p.key: p.name for p in req.players}
    if len(set(keys)) != len(keys):
        raise DrawError("Someone is checked in twice: remove the second entry.")
    if sum(req.sizes) != len(keys):
        raise DrawError(f"The tables seat {sum(req.sizes)} but {len(keys)} are checked in.")
    c = req.constraints
    for a, b in (*c.apart, *c.together):
        for key in (a, b):
            if key not in names:
                raise DrawError("A rule names someone who is not checked in tonight: remove the "
                                "rule or check them in.")
        if a == b:
            raise DrawError(f"A rule pairs {names[a]} with themselves: pick two people.")
    groups = together_groups(keys, c.together)
    for a, b in c.apart:
        if groups[a] is groups[b]:
            raise DrawError(f"{names[a]} and {names[b]} are to be kept apart and together at "
                            "once: remove one of the two rules.")
    biggest = max(req.sizes)
    for group in {id(g): g for g in groups.values()}.values():
        if len(group) > biggest:
            raise DrawError(f"{len(group)} people are to sit together "
                            f"({', '.join(names[k] for k in sorted(group))}), more than the "
                            f"largest table tonight ({biggest}): remove a 'together' rule.")
    fixed: dict[str, int] = {}
    for key, number in c.fixed:
        if key not in names:
            raise DrawError("A fixed table is given for someone not checked in tonight: remove "
                            "it or check them in.")
        if not 1 <= number <= len(req.sizes):
            raise DrawError(f"{names[key]} is fixed to table {number}, but tonight has "
                            f"{len(req.sizes)} tables: pick 1 to {len(req.sizes)}.")
        if fixed.get(key, number) != number:
            raise DrawError(f"{names[key]} is fixed to two tables: keep one.")
        fixed[key] = number
    per_table: dict[int, set[str]] = {}
    for key, number in fixed.items():
        per_table.setdefault(number, set()).update(groups[key])
    for number, people in per_table.items():
        if len(people) > req.sizes[number - 1]:
            raise DrawError(f"Table {number} seats {req.sizes[number - 1]}, but "
                            f"{len(people)} are fixed to it (with those who sit with them): "
                            "move one to another table.")
    for key in fixed:
        for other in groups[key]:
            if fixed.get(other, fixed[key]) != fixed[key]:
                raise DrawError(f"{names[key]} and {names[other]} sit together but are fixed "
                                "to different tables: change one.")
    newcomers = [p for p in req.players if p.newcomer]
    regulars = [p for p in req.players if p.regular and not p.newcomer]
    if newcomers and not regulars:
        raise DrawError("Every newcomer sits with a regular, but no regular is checked in: "
                        "untick 'newcomer' for someone who knows the game.")


def together_groups(keys: list[str], together) -> dict[str, set[str]]:
    """Each player's group of people who must share a table (one shared set per group)."""
    groups: dict[str, set[str]] = {k: {k} for k in keys}
    for a, b in together:
        if a in groups and b in groups and groups[a] is not groups[b]:
            merged = groups[a] | groups[b]
            for k in merged:
                groups[k] = merged
    return groups
