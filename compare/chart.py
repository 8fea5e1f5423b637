"""Each player's total under each rule, as one small bar chart per rule (plain Python: a report
in, what the template draws out).

One chart per rule, each on its own scale and in its own unit: a rule paid in chips (a
points-to-payment table, Hong Kong style) moves totals of tens where another's move thousands,
so on one shared axis the chips' bars vanish. Every chart lists the players in the same order
(the first rule's places), so a player's row is found at the same height in each.

The bars are drawn as HTML beside the figures (a table per rule), so the names and figures are
the page's own type on any screen, a screen reader reads them as a table, and they print. A
player with no total under a rule (no table of theirs fits it) gets no bar and says why.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bar:
    name: str
    total: int | None
    place: int | None
    change: int | None
    counted: int  # tables of this player's the rule fits
    tables: int
    left: float  # where the bar starts, as a percentage of the track
    width: float  # its length, as a percentage of the track

    @property
    def partial(self) -> bool:
        """Some, not all, of the player's tables fit the rule: the total covers those only."""
        return self.total is not None and self.counted < self.tables


@dataclass(frozen=True)
class Panel:
    slug: str
    name: str
    unit: str  # "points" or "chips"
    zero: float  # the zero line, as a percentage of the track
    bars: tuple[Bar, ...]

    @property
    def fits_nothing(self) -> bool:
        """The rule fits none of the tables compared: a sentence, not a table of dashes."""
        return all(bar.total is None for bar in self.bars)


def unit_of(rule: dict | None) -> str:
    """A rule with a points-to-payment table pays chips; otherwise the score is the payment."""
    if rule and rule.get("payment", {}).get("points_to_payment"):
        return "chips"
    return "points"


def panels(report: dict, rule_data: list[dict] | None = None) -> list[Panel]:
    """One panel per rule of ``report``; ``rule_data`` (the comparison's frozen rules, in the
    same order) gives each rule's name and unit."""
    data = {d["rule"]["slug"]: d["rule"] for d in rule_data or () if d.get("rule")}
    players = report["players"]
    out = []
    for i, slug in enumerate(report["rules"]):
        totals = [p["totals"][i] for p in players if p["totals"][i] is not None]
        low = min([0, *totals])
        high = max([0, *totals])
        span = (high - low) or 1
        zero = 100 * -low / span
        bars = []
        for p in players:
            total = p["totals"][i]
            counted = p.get("counted", [p["tables"]] * len(report["rules"]))[i]
            if total is None:
                left = width = 0.0
            else:
                width = 100 * abs(total) / span
                left = zero if total >= 0 else zero - width
            bars.append(Bar(p["name"], total, p["places"][i], p["place_change"][i], counted,
                            p["tables"], round(left, 2), round(width, 2)))
        rule = data.get(slug)
        out.append(Panel(slug, rule["name"] if rule else slug, unit_of(rule), round(zero, 2),
                         tuple(bars)))
    return out
