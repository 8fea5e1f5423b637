"""``manage.py settle [FILE|-] [--rules SLUG] [--json]``: settle one finished hand given as the
body of ``POST /api/v1/settle`` and print every payment and each seat's net."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from rest_framework.exceptions import ValidationError

from houserules.resolve import EVERY_RULE
from scoring.management.json_input import input_error, read_json, sentences
from settlements.api import settle_request


class Command(BaseCommand):
    help = ("Settle one finished hand given as JSON (shared/contract/README.md, "
            "'POST /api/v1/settle') from FILE or standard input; print the payments and nets.")

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="-",
                            help="A JSON file holding the request body; '-' or nothing reads stdin.")
        parser.add_argument("--rules", help="House rule slug, instead of the body's 'rules'.")
        parser.add_argument("--json", action="store_true",
                            help="Print the API's JSON answer instead of a table.")

    def handle(self, *args, **options):
        data = read_json(options["file"], "the settle body", options["rules"])
        try:
            answer = settle_request(data, EVERY_RULE)
        except ValidationError as error:
            raise input_error(*sentences(error.detail)) from None
        if options["json"]:
            self.stdout.write(json.dumps(answer, indent=2))
            return
        self.stdout.write(self._table(answer))

    def _table(self, answer: dict) -> str:
        lines = ["Scores: " + ", ".join(f"{s} {v}" for s, v in answer["scores"].items()), ""]
        width = max([len(p["why"]) for p in answer["payments"]] + [len("Why")]) + 2
        lines.append(f"{'From':<6}{'To':<6}{'Amount':>8}  {'Why':<{width}}")
        lines.append("-" * (22 + width))
        for p in answer["payments"]:
            lines.append(f"{p['from']:<6}{p['to']:<6}{p['amount']:>8}  {p['why']}")
        if not answer["payments"]:
            lines.append("(no payments)")
        lines += ["", "Net: " + ", ".join(f"{s} {v:+d}" for s, v in answer["net"].items()),
                  f"Pot after the hand: {answer['pot']}"]
        return "\n".join(lines)
