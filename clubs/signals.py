"""Signals the clubs app sends, so the feature apps built on it (league standings, ...) can keep
their own summaries without clubs importing them (apps depend one way).

``table_recomputed(sender=Table, table=<Table>, from_number=<int>, appended=<hand id>|None)``
is sent inside the
transaction that stored a table's derived results (a hand recorded, corrected, voided or
restored, seats swapped, a table recomputed), after they are written: a receiver's writes
commit or roll back with them. ``from_number`` is the first hand whose results may have
changed. ``appended`` is the id of the hand when the write only added that hand at the end of
the table (recording): a receiver may then add its figures instead of summing the night again;
``hand`` is then that ``Hand`` as saved (its ``computed`` row with the payments), read from
nowhere else.
"""

from django.dispatch import Signal

table_recomputed = Signal()

# ``players_moved(sender=Member, club=<Club>, seat_ids=[...], session_ids=[...],
# from_member=<Member>|None, from_guest=<str>, to_member=<Member>|None, to_guest=<str>,
# everything=<bool>)`` is sent
# inside the transaction that gave these seats (a guest's, or a member's) to another player:
# a guest made a member, two members merged, or either undone (``clubs.members.merge``). The
# seats and their hand results already say who sat there; a receiver moves its own rows about
# that player on those nights (league's night summary, door's check-ins), or with ``everything``
# (a merge: ``from_member`` is deleted next) all its rows of ``from_member``. A receiver may raise
# ``clubs.members.merge.MoveRefused`` to refuse the whole move with a sentence.
players_moved = Signal()

# ``table_reseated(sender=Table, table=<Table>, before=[(member_id|None, guest), ...],
# after=[...])`` is sent inside the transaction of a re-seat (``clubs.mending.reseat_table``, and
# its undo): who sat at the table's seats, in seat order, before and after the correction. The
# seats and hand results already name the new players; a receiver keeps its own rows of that
# night in step (door's check-ins: the person the door checked in for a seat is the one who
# sat there).
table_reseated = Signal()
