"""Signals the clubs app sends, so the feature apps built on it (league standings, ...) can keep
their own summaries without clubs importing them (apps depend one way).

``table_recomputed(sender=Table, table=<Table>, from_number=<int>)`` is sent inside the
transaction that stored a table's derived results (a hand recorded, corrected, voided or
restored, seats swapped, a table recomputed), after they are written: a receiver's writes
commit or roll back with them. ``from_number`` is the first hand whose results may have
changed.
"""

from django.dispatch import Signal

table_recomputed = Signal()
