"""Every way to read a hand's tiles as sets: the arrangement search.

A Mah Jong hand is read as four sets and a pair (the standard shape) or as a special shape
whose tiles fit (seven pairs, thirteen orphans, knitting, triple knitting, snake, gates of
heaven); a losing hand as its best partial readings. The orchestrator scores each reading and
keeps the best, so this package only finds them; it never judges their worth.

The search runs on 34-entry count arrays, one module per search:

- ``search.py``: the entry point (``arrangements``) and the
  memoised general search;
- ``standard.py``: four sets and a pair without wild tiles, suit by suit from per-suit tables;
- ``wild.py``: the same with wild tiles (a goulash);
- ``special.py``: the special shapes;
- ``fishing.py``: the tiles that complete a fishing hand, and the readings they give;
- ``partial.py``: a losing hand's partial readings;
- ``common.py``: the parts they share (tile indices, shared sets, the tiles of a reading).
"""

from .common import arrangement_tiles, set_tiles_of
from .fishing import completions, without_chows
from .search import arrangements

__all__ = ["arrangement_tiles", "arrangements", "completions", "set_tiles_of",
           "without_chows"]
