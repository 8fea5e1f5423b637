"""``POST /api/v1/score``: score one hand under a house rule, no club or login needed."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.authentication import TokenAuthentication
from scoring.engine import Hand, HandError, HouseRule, HouseRuleError, ScoreResult, score_hand
from scoring.serializers import HandSerializer, ScoreResultSerializer

EXAMPLE_HAND = {
    "rules": "bmja",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "mahjong": True,
    "melds": [
        {"kind": "pung", "tile": "b1", "concealed": False},
        {"kind": "pung", "tile": "dr", "concealed": False},
        {"kind": "kong", "tile": "b9", "concealed": False},
    ],
    "concealed": ["b6", "b6", "b6", "we", "we"],
    "bonus": ["f2"],
    "win": {"tile": "we", "from": "discard"},
    "goulash": False,
    "fishing": False,
}


class CalculatorView(APIView):
    """The contract's calculators (score, settle): stateless and open, no login needed and no
    session, so no CSRF. A token identifies a member, who may then name their clubs' private
    house rules; anyone else names built-in and published ones (``houserules.resolve``)."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [AllowAny]
    throttle_scope = "calculator"


def scored(data, viewer=None) -> tuple[Hand, HouseRule, ScoreResult]:
    """A score request's hand, house rule and result; DRF's ValidationError for bad input.
    ``viewer``: whose house rules may be named (None: a visitor's, built-in and published).
    The API answers with the result as JSON, ``manage.py score`` prints it as a table."""
    request = HandSerializer(data=data, context={"viewer": viewer})
    request.is_valid(raise_exception=True)
    hand, rule = request.validated_data["hand"], request.validated_data["rule"]
    try:
        return hand, rule, score_hand(hand, rule)
    except HandError as error:
        raise serializers.ValidationError(error.as_drf()) from None
    except HouseRuleError as error:
        raise serializers.ValidationError({"rules": [
            f"The house rule {rule.slug!r} cannot be used: {error}."]}) from None


def score_request(data, viewer=None) -> dict:
    """The answer body for a score request; raises DRF's ValidationError for bad input."""
    _, rule, result = scored(data, viewer)
    return ScoreResultSerializer(result, context={"rules": rule.slug}).data


class ScoreView(CalculatorView):
    @extend_schema(
        operation_id="score_hand",
        summary="Score one hand",
        description=(
            "Points, doubles and score of one player's hand under a house rule (`rules`, "
            "default `bmja`), with every item that contributed in the house rule's words and "
            "the arrangement used. `score` is before any payment rule. Invalid input gets 400 "
            "with field paths to messages that say how to mend it."
        ),
        request=HandSerializer,
        responses={
            200: ScoreResultSerializer,
            400: OpenApiResponse(description="Field paths to lists of messages, e.g. "
                                 "{\"melds\": [{\"tile\": [\"'x9' is not a tile: ...\"]}]}"),
        },
        examples=[OpenApiExample("004 Sheet 19, hand 1", value=EXAMPLE_HAND,
                                 request_only=True)],
        tags=["calculator"],
    )
    def post(self, request):
        return Response(score_request(request.data, request.user), status=status.HTTP_200_OK)
