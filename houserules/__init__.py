"""House rules as a club keeps them: the stored records and their frozen versions, the built-in
ones kept in step with the scoring engine, a club's copies with overrides, the resolver that
turns a slug or a version into a ``HouseRule`` (one cache of parsed versions), the house-rule
API and its admin.

Layer: above the engines and ``play``, below ``clubs``. Nothing here imports ``clubs``: a club
is named by string in foreign keys, club roles come in through ``HOUSE_RULE_ACCESS``
(``houserules.access``) and changes go out as ``houserules.signals.house_rule_changed``.
"""
