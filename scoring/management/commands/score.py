"""``manage.py score [FILE|-] [--rules SLUG] [--json]``: score one hand given as the contract's
JSON and print how the score was made, item by item."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from rest_framework.exceptions import ValidationError

from houserules.resolve import EVERY_RULE
from scoring.api import scored
from scoring.management.json_input import input_error, read_json, sentences
from scoring.serializers import ScoreResultSerializer


def _set_words(meld) -> str:
    if meld.kind == "group":
        return "group " + " ".join(meld.tiles)
    how = "concealed" if meld.concealed else "exposed"
    return f"{meld.kind} {meld.tile} ({how})"


class Command(BaseCommand):
    help = ("Score a hand given as JSON (shared/contract/README.md, 'A hand') from FILE or "
            "standard input, and print each item, the totals and the arrangement.")

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="-",
                            help="A JSON file holding one hand; '-' or nothing reads stdin.")
        parser.add_argument("--rules", help="House rule slug, instead of the hand's 'rules'.")
        parser.add_argument("--json", action="store_true",
                            help="Print the API's JSON answer instead of a table.")

    def handle(self, *args, **options):
        data = read_json(options["file"], "one hand", options["rules"])
        try:
            hand, rule, result = scored(data, EVERY_RULE)
        except ValidationError as error:
            raise input_error(*sentences(error.detail)) from None
        if options["json"]:
            body = ScoreResultSerializer(result, context={"rules": rule.slug}).data
            self.stdout.write(json.dumps(body, indent=2))
            return
        self.stdout.write(self._table(hand, rule, result))

    def _table(self, hand, rule, result) -> str:
        who = "Mah Jong" if hand.mahjong else "losing hand"
        lines = [f"{rule.name} ({rule.slug}): seat {hand.seat_wind}, round "
                 f"{hand.prevailing_wind}, {who}{', goulash' if hand.goulash else ''}", ""]
        width = max([len(ln.name) for ln in result.lines] + [len("Item")]) + 2
        lines.append(f"{'Item':<{width}}{'Points':>8}{'Doubles':>9}")
        lines.append("-" * (width + 17))
        for ln in result.lines:
            times = f" x{ln.count}" if ln.count > 1 else ""
            name = f"{ln.name}{times}"
            lines.append(f"{name:<{width}}{ln.points or '':>8}{ln.doubles or '':>9}")
        lines.append("-" * (width + 17))
        lines.append(f"{'Total':<{width}}{result.points:>8}{result.doubles:>9}")
        lines.append("")
        if result.limit:
            lines.append(f"Score: {result.score}; {result.limit}")
        else:
            lines.append(f"Score: {result.points} x 2^{result.doubles} = {result.score}")
        if not result.meets_minimum:
            lines.append(result.minimum_reason)
        lines.append("Arrangement: " + (", ".join(_set_words(m) for m in result.arrangement)
                                        or "no sets"))
        if result.loose:
            lines.append("Loose tiles: " + " ".join(result.loose))
        return "\n".join(lines)
