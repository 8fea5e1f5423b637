"""One hand under several house rules: for each rule, what ``POST /api/v1/score`` (or
``/settle``) answers for it, or the 400 reason it gives; and what differs between them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from compare.rule_choice import chosen_rules
from scoring.engine import HandError, HouseRuleError, score_hand
from scoring.serializers import HandSerializer, ScoreResultSerializer
from settlements.api import settle_request


def _body_without_rules(data: Any) -> dict:
    if not isinstance(data, dict):
        raise serializers.ValidationError({"non_field_errors": [
            "Send a JSON object: the body of /api/v1/score (or /settle) with \"rules\" a list."]})
    return {k: v for k, v in data.items() if k != "rules"}


def compare_score(data: Any, user) -> dict:
    """The body of /score with ``rules`` a list: each rule's answer, and the differing items.
    The hand itself is read once (its own errors are a 400 for the whole request: they are the
    same under every rule); each rule then scores it as /score does."""
    body = _body_without_rules(data)
    rules = chosen_rules(data.get("rules"), user)
    request = HandSerializer(data={**body, "rules": rules[0].slug})
    request.is_valid(raise_exception=True)
    hand = request.validated_data["hand"]
    answers: dict[str, dict] = {}
    for rule in rules:
        try:
            result = score_hand(hand, rule)
        except HandError as error:
            answers[rule.slug] = {"valid": False, "errors": error.as_drf()}
            continue
        except HouseRuleError as error:
            answers[rule.slug] = {"valid": False, "errors": {"rules": [
                f"The house rule {rule.slug!r} cannot be used: {error}."]}}
            continue
        answers[rule.slug] = {"valid": True,
                              "result": ScoreResultSerializer(result, context={"rules": rule.slug}).data}
    return {"rules": [r.slug for r in rules], "answers": answers,
            "differences": item_differences(answers)}


def item_differences(answers: dict[str, dict]) -> list[dict]:
    """Every item whose count, points or doubles is not the same under every rule (absent
    under a rule counts as different), in the order first met."""
    slugs = list(answers)
    lines: dict[str, dict[str, dict | None]] = {}
    names: dict[str, str] = {}
    for slug in slugs:
        result = answers[slug].get("result")
        for line in (result or {}).get("items", []):
            names.setdefault(line["code"], line["name"])
            lines.setdefault(line["code"], {})[slug] = {
                "points": line["points"], "doubles": line["doubles"], "count": line["count"]}
    out = []
    for code, per_rule in lines.items():
        values = {slug: per_rule.get(slug) for slug in slugs}
        if len({repr(v) for v in values.values()}) > 1:
            out.append({"code": code, "name": names[code], "values": values})
    return out


def compare_settle(data: Any, user) -> dict:
    """The body of /settle with ``rules`` a list: each rule's payments and nets (or its 400
    reason), and the seats whose score or net differ."""
    body = _body_without_rules(data)
    rules = chosen_rules(data.get("rules"), user)
    answers: dict[str, dict] = {}
    for rule in rules:
        try:
            answers[rule.slug] = {"valid": True,
                                  "result": settle_request({**body, "rules": rule.slug})}
        except serializers.ValidationError as error:
            answers[rule.slug] = {"valid": False, "errors": error.detail}
    return {"rules": [r.slug for r in rules], "answers": answers,
            "differences": settle_differences(answers)}


def settle_differences(answers: dict[str, dict]) -> dict:
    valid = {slug: a["result"] for slug, a in answers.items() if a["valid"]}
    out: dict[str, dict] = {"scores": {}, "net": {}}
    seats = sorted({seat for r in valid.values() for seat in r["net"]}, key="ESWN".index)
    for part in ("scores", "net"):
        for seat in seats:
            values = {slug: answers[slug]["result"][part].get(seat) if answers[slug]["valid"]
                      else None for slug in answers}
            if len(set(values.values())) > 1:
                out[part][seat] = values
    return out
