"""Score sheets of a club night in the clubs' own paper formats: 004's per-player sheet and 002's
running-tally sheet, as print pages, PDF, CSV and XLSX, filled in or blank.

Everything is read from what recording stored (``Hand.computed``: each hand's payments, nets and
running totals); nothing here calls an engine or replays a hand.
"""
