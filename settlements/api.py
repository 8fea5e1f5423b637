"""``POST /api/v1/settle``: settle one finished hand under a house rule, no club or login."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.api import CalculatorView
from settlements.engine import settle_hand
from settlements.serializers import SettleAnswerSerializer, SettleRequestSerializer

EXAMPLE_BODY = {
    "rules": "bmja",
    "prevailing_wind": "E",
    "hands": {"E": {"score": 12}, "S": {"score": 864}, "W": {"score": 36}, "N": {"score": 0}},
    "winner": "S",
    "discarder": "W",
    "draw": False,
    "goulash": False,
    "pot": 0,
}


def settle_request(data, viewer=None) -> dict:
    """The answer body for a settle request; raises DRF's ValidationError for bad input.
    ``viewer``: whose house rules may be named (None: a visitor's, built-in and published)."""
    request = SettleRequestSerializer(data=data, context={"viewer": viewer})
    request.is_valid(raise_exception=True)
    settlement = settle_hand(request.validated_data["table"], request.validated_data["rule"])
    return SettleAnswerSerializer(settlement).data


class SettleView(CalculatorView):
    @extend_schema(
        operation_id="settle_hand",
        summary="Settle one finished hand",
        description=(
            "Every payment (from, to, amount, why) and each seat's net for one finished hand "
            "under a house rule: the Mah Jong payments of its scheme (bmja: all pay the winner, "
            "East double, the others settle their differences; guide: its payment table; "
            "balsall-common: self-drawn all pay, on a discard only the discarder; "
            "west-wind-goulash: the kitty), kong chips, goulash pots and kitties, bouquets, "
            "clean-hand counts and penalties. Hands are full hands (scored here) or "
            "{\"score\": N}. `net` sums to zero with the pot's change. Invalid input gets 400 "
            "with field paths to messages, a hand's own problems under `hands.<seat>`."
        ),
        request=SettleRequestSerializer,
        responses={
            200: SettleAnswerSerializer,
            400: OpenApiResponse(description="Field paths to lists of messages, e.g. "
                                 "{\"hands\": {\"E\": {\"concealed\": [\"A fifth b6: ...\"]}}}"),
        },
        examples=[OpenApiExample("The contract's example (004)", value=EXAMPLE_BODY,
                                 request_only=True)],
        tags=["calculator"],
    )
    def post(self, request):
        return Response(settle_request(request.data, request.user), status=status.HTTP_200_OK)
