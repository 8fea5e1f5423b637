"""The table draw: plain Python (no Django), dataclasses in and out, one answer per seed.

``draw(DrawRequest) -> Draw`` seats tonight's players; ``plan_sizes`` says how many tables of
which size; ``summarise`` reads the season so far; ``quality`` judges a draw against random
ones; ``swap`` exchanges two players' seats.
"""

from door.draw.model import (
    Constraints,
    Draw,
    DrawError,
    DrawnTable,
    DrawRequest,
    PastNight,
    Player,
    Weights,
    winds_for,
)
from door.draw.quality import Quality, quality, swap
from door.draw.season import Season, summarise
from door.draw.sizes import plan_sizes
from door.draw.solve import draw

__all__ = [
    "Constraints", "Draw", "DrawError", "DrawRequest", "DrawnTable", "PastNight", "Player",
    "Quality", "Season", "Weights", "draw", "plan_sizes", "quality", "summarise", "swap",
    "winds_for",
]
