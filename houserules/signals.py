"""Signals the houserules app sends, so the apps above it can react without houserules
importing them (apps depend one way).

``house_rule_changed(sender=HouseRuleRecord, record=<HouseRuleRecord>, user=<User or None>,
action="create"|"update", before=<overrides or None>, after=<overrides>, note=<str>)`` is sent
inside the transaction that stored a club's copy or its new version: a receiver's writes (the
clubs app's audit entry) commit or roll back with it. ``record.club_id`` names the club.
"""

from django.dispatch import Signal

house_rule_changed = Signal()
