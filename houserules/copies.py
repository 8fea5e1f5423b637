"""A club's own house rules: copies of another house rule with the club's overrides.

A copy is stored as a ``HouseRuleRecord`` (its base and its overrides, as the club wrote them)
and a frozen ``HouseRuleVersion`` per change (the whole house rule, ``HouseRule.to_dict()``).
A session points at a version, so editing a copy later never changes an old session's scores:
an edit that changes the rule makes a new version and leaves every earlier one as it was.
Each change is announced with ``houserules.signals.house_rule_changed`` inside its transaction
(the clubs app writes its audit entry from it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction

from houserules.models import HouseRuleRecord, HouseRuleVersion
from houserules.override_rules import override_errors
from houserules.signals import house_rule_changed
from houserules.sync import ensure_builtin_house_rules
from scoring.engine import RULE_FUNCTIONS, HouseRule, HouseRuleError, builtin_house_rules
from scoring.engine.rules.model import MINIMUM_MEASURES, apply_overrides
from scoring.engine.score import plan_for

# Beyond this a limit is a typing slip, not a club's choice.
MAX_LIMIT = 1_000_000_000
WINDS = ("E", "S", "W", "N")


def latest_version(record: HouseRuleRecord) -> HouseRuleVersion | None:
    return record.latest_version()


def house_rule_of(version: HouseRuleVersion) -> HouseRule:
    """The house rule a frozen version holds."""
    return HouseRule.from_dict(version.data)


def base_record(slug: str) -> HouseRuleRecord:
    """The record a copy is based on: a built-in (stored on first use) or another copy."""
    record = HouseRuleRecord.objects.filter(slug=slug).first()
    if record is None and slug in builtin_house_rules():
        ensure_builtin_house_rules()
        record = HouseRuleRecord.objects.filter(slug=slug).first()
    if record is None or record.latest_version() is None:
        raise HouseRuleError({"base": [f"No house rule {slug!r}; give the slug of a built-in "
                                       "house rule or of one of your club's."]})
    return record


def checked_overrides(base: HouseRuleRecord, overrides: Any) -> Any:
    """``overrides`` of a copy of ``base`` as the club's form would take them (a part of the
    limit written "1/2" however it was given), or ``HouseRuleError`` with every value the form
    refuses, at its path, in the form's words (``houserules.override_rules``), together with
    whatever else the house rule's own check finds (``derive_rule``)."""
    if not isinstance(overrides, dict):
        return overrides
    errors, cleaned = override_errors(overrides, house_rule_of(base.latest_version()))
    if errors:
        try:
            derive_rule(base, base.slug, cleaned)
        except HouseRuleError as more:
            for path, msgs in more.errors.items():
                known = errors.setdefault(path, [])
                known.extend(m for m in msgs if m not in known)
        raise HouseRuleError(errors)
    return cleaned


def derive_rule(base: HouseRuleRecord, slug: str, overrides: dict[str, Any],
                **top: Any) -> HouseRule:
    """``base``'s newest version with ``overrides`` applied, checked as the engine will use it:
    every field known and valid, every item's rule function and arguments known, the goulash
    rule one that exists. Raises ``HouseRuleError`` with the paths of everything wrong.
    (A club's new overrides are checked against what its form allows first:
    ``checked_overrides``.)"""
    if not isinstance(overrides, dict):
        raise HouseRuleError({"overrides": ["Give an object of changes, e.g. "
                                            '{"scoring": {"limit": 2000}}.']})
    parent = house_rule_of(base.latest_version())
    data = {**parent.to_dict(), "slug": slug, "based_on": parent.slug, "version": 1, **top}
    data = apply_overrides(data, overrides)
    errors = shape_errors(data)
    if errors:
        raise HouseRuleError(errors)
    rule = HouseRule.from_dict(data)
    rule.check(set(RULE_FUNCTIONS))
    plan_for(rule)  # binds each item's arguments to its rule function
    limit_hands = [item.code for item in rule.items if item.limit is not None]
    if rule.scoring.limit is None and limit_hands:
        # A special hand is worth a part of the limit: with none it would silently score as an
        # ordinary hand.
        raise HouseRuleError({"scoring.limit": [
            f"Special hands ({', '.join(limit_hands[:3])}{', ...' if len(limit_hands) > 3 else ''})"
            " score a part of the limit: set a limit, or drop those items."]})
    goulash = rule.goulash_rule
    if goulash and goulash != slug and not _exists(goulash):
        raise HouseRuleError({"goulash_rule": [f"No house rule {goulash!r} to score goulash "
                                               "hands; give an existing slug or null."]})
    return rule


def shape_errors(data: dict[str, Any]) -> dict[str, list[str]]:
    """What a club's overrides can get wrong that the house rule's own check assumes away:
    lists of pairs that are not pairs, text that is not text, numbers that are not numbers.
    Paths are those of the overrides (``scoring.go_out_minimum``, ``items.mahjong.points``)."""
    errors: dict[str, list[str]] = {}

    def err(path: str, message: str) -> None:
        errors.setdefault(path, []).append(message)

    scoring, payment = data.get("scoring", {}), data.get("payment", {})
    for name in ("go_out_minimum", "goulash_go_out_minimum"):
        value = scoring.get(name)
        if value is None and name == "goulash_go_out_minimum":
            continue
        if not _rows(value, lambda m: m in MINIMUM_MEASURES, _is_count):
            err(f"scoring.{name}", "Give a list of [measure, threshold] pairs, the measure "
                "points, doubles or score: e.g. [[\"points\", 3]] or [[\"doubles\", 4], "
                "[\"score\", 500]]; [] for no minimum.")
    limit = scoring.get("limit")
    if _is_count(limit) and limit > MAX_LIMIT:
        err("scoring.limit", f"The limit must be at most {MAX_LIMIT:,}.")
    if not _rows(payment.get("points_to_payment"), _is_count, _is_count):
        err("payment.points_to_payment", "Give a list of [points, payment] rows of whole "
            "numbers, e.g. [[3, 8], [4, 16], [5, 24]]; [] to pay the score itself.")
    winds = data.get("rotation", {}).get("goulash_winds")
    if not isinstance(winds, list | tuple) or any(w not in WINDS for w in winds):
        err("rotation.goulash_winds", "Give a list of winds of the round, e.g. [\"W\"]; [] "
            "for none.")
    for name in ("name", "description", "source"):
        if not isinstance(data.get(name), str):
            err(name, "Give text.")
    if data.get("goulash_rule") is not None and not isinstance(data["goulash_rule"], str):
        err("goulash_rule", "Give the slug of a house rule, or null.")
    for i, item in enumerate(data.get("items", [])):
        if not isinstance(item, dict):
            continue  # the house rule's own check names it
        code = item.get("code")
        where = f"items.{code}" if isinstance(code, str) else f"items[{i}]"
        for name in ("code", "wording", "rule", "who", "source"):
            if name in item and not isinstance(item[name], str):
                err(f"{where}.{name}", "Give text.")
        for name in ("points", "doubles", "fishing_doubles"):
            if name in item and not _is_count(item[name]):
                err(f"{where}.{name}", "Give a whole number, 0 or more.")
        replaces = item.get("replaces", [])
        if not isinstance(replaces, list | tuple) or not all(isinstance(c, str) for c in replaces):
            err(f"{where}.replaces", "Give a list of item codes.")
    return errors


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _rows(value: Any, first, second) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(row, list | tuple) and len(row) == 2 and first(row[0]) and second(row[1])
        for row in value
    )


def _exists(slug: str) -> bool:
    return slug in builtin_house_rules() or HouseRuleRecord.objects.filter(slug=slug).exists()


def _freeze(record: HouseRuleRecord, rule: HouseRule) -> HouseRuleVersion:
    """A new version of ``record`` holding ``rule``, unless its newest version already does."""
    latest = record.latest_version()
    number = latest.number + 1 if latest else 1
    data = replace(rule, version=number).to_dict()
    if latest is not None and {**latest.data, "version": 0} == {**data, "version": 0}:
        return latest
    return HouseRuleVersion.objects.create(record=record, number=number, data=data)


def _announce(record: HouseRuleRecord, user, action: str, before, after, note: str) -> None:
    # Sent, not sent robustly: a receiver that fails rolls the change back with it.
    house_rule_changed.send(
        sender=HouseRuleRecord, record=record,
        user=user if user is not None and user.is_authenticated else None,
        action=action, before=before, after=after, note=note,
    )


@transaction.atomic
def create_copy(club, base_slug: str, new_slug: str, name: str,
                overrides: dict[str, Any] | None = None, user=None,
                description: str | None = None) -> HouseRuleRecord:
    """Save ``club``'s copy of ``base_slug`` as ``new_slug`` with ``overrides``, and its
    version 1. Raises ``HouseRuleError`` (field paths to messages) if it cannot be used."""
    overrides = {} if overrides is None else overrides
    if HouseRuleRecord.objects.filter(slug=new_slug).exists() or new_slug in builtin_house_rules():
        raise HouseRuleError({"slug": [f"A house rule called {new_slug!r} exists already; "
                                       "choose another slug."]})
    base = base_record(base_slug)
    overrides = checked_overrides(base, overrides)
    top: dict[str, Any] = {"name": name}
    if description is not None:
        top["description"] = description
    rule = derive_rule(base, new_slug, overrides, **top)
    try:
        with transaction.atomic():
            record = HouseRuleRecord.objects.create(
                slug=new_slug, name=rule.name, description=rule.description, club=club,
                based_on=base, overrides=overrides,
            )
    except IntegrityError:
        raise HouseRuleError({"slug": [f"A house rule called {new_slug!r} exists already; "
                                       "choose another slug."]}) from None
    version = _freeze(record, rule)
    _announce(record, user, "create", None, overrides,
              f"Copied {base.slug} as {new_slug} (version {version.number}).")
    return record


@transaction.atomic
def update_copy(record: HouseRuleRecord, overrides: dict[str, Any] | None = None, user=None,
                *, name: str | None = None, description: str | None = None) -> HouseRuleVersion:
    """Replace the copy's overrides (and name or description, when given) and freeze the
    result: a new version when the house rule changed, else the newest one as it is."""
    if record.is_builtin:
        raise HouseRuleError({"slug": ["A built-in house rule cannot be edited; make a copy "
                                       "of it for your club."]})
    record = HouseRuleRecord.objects.select_for_update().get(pk=record.pk)
    before = record.overrides
    # Overrides kept as they are (a new name only) are not checked again: a copy saved before a
    # range was added stays usable.
    overrides = (record.overrides if overrides is None
                 else checked_overrides(record.based_on, overrides))
    top: dict[str, Any] = {"name": name or record.name,
                           "description": record.description if description is None
                           else description}
    rule = derive_rule(record.based_on, record.slug, overrides, **top)
    record.overrides = overrides
    record.name = rule.name
    record.description = rule.description
    record.save(update_fields=["overrides", "name", "description", "updated"])
    version = _freeze(record, rule)
    _announce(record, user, "update", before, overrides,
              f"{record.slug} now at version {version.number}.")
    return version


__all__ = ["base_record", "checked_overrides", "create_copy", "derive_rule", "house_rule_of", "latest_version",
           "shape_errors", "update_copy"]
