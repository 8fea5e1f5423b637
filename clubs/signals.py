"""Signals the clubs app sends, so the feature apps built on it (league standings, ...) can keep
their own summaries without clubs importing them (apps depend one way).

``table_recomputed(sender=Table, table=<Table>, from_number=<int>, appended=<hand id>|None)``
is sent inside the
transaction that stored a table's derived results (a hand recorded, corrected, voided or
restored, seats swapped, a table recomputed), after they are written: a receiver's writes
commit or roll back with them. ``from_number`` is the first hand whose results may have
changed. ``appended`` is the id of the hand when the write only added that hand at the end of
the table (recording): a receiver may then add its figures instead of summing the night again.
"""

from django.dispatch import Signal

table_recomputed = Signal()
