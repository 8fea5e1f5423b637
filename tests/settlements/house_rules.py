"""House rules with the payment and rotation values each rule document implies, as listed in
``settlements/engine/schemes.py``; the tests build them here so they do not depend on the
built-in house rules being finished."""

from fractions import Fraction

from scoring.engine.rules.model import HouseRule, PaymentParams, RotationParams, ScoringParams

HK_TABLE = ((0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 24), (6, 32), (7, 48), (8, 64), (9, 96),
            (10, 128))


def bmja(players: int = 4) -> HouseRule:
    payment = PaymentParams()
    if players == 2:
        payment = PaymentParams(east_multiplier=1, winner_pays_difference_if_lower=True)
    return HouseRule("bmja", "BMJA", "004", scoring=ScoringParams(players=players), payment=payment,
                     rotation=RotationParams())


def guide(players: int = 4) -> HouseRule:
    return HouseRule(
        "guide", "Guide", "002",
        scoring=ScoringParams(limit=2000, players=players),
        payment=PaymentParams(scheme="winner_table", east_multiplier=2, discarder_multiplier=2,
                              losers_settle_differences=False, starting_tally=2000),
        rotation=RotationParams(scheme="winner_deals", max_consecutive_dealer=None,
                                goulash_after_draw=False, games_per_wind=4),
    )


def balsall_common(players: int = 4) -> HouseRule:
    return HouseRule(
        "balsall-common", "Balsall Common", "003",
        scoring=ScoringParams(limit=None, players=players),
        payment=PaymentParams(scheme="discarder_pays", east_multiplier=1, discarder_multiplier=1,
                              losers_settle_differences=False, points_to_payment=HK_TABLE,
                              kong_chips_concealed=3, kong_chips_claimed=2, kong_chips_added=1,
                              goulash_pot_per_player=5, goulash_pays_pot_only=True),
        rotation=RotationParams(scheme="dealer_repeats", max_consecutive_dealer=None,
                                goulash_passes_dealer=True, goulash_after_draw=True),
    )


def west_wind_goulash(players: int = 4) -> HouseRule:
    return HouseRule(
        "west-wind-goulash", "West Wind Round", "000",
        scoring=ScoringParams(players=players),
        payment=PaymentParams(scheme="goulash_kitty", east_multiplier=2,
                              losers_settle_differences=False, kitty_per_player=500,
                              kitty_after_another_draw=1000, bouquet_payment=1000,
                              double_bouquet_payment=5000, clean_hand_pays_score=True,
                              false_mahjong_penalty_limit_fraction=Fraction(1, 2)),
        rotation=RotationParams(scheme="bmja", goulash_winds=("W",)),
    )


ALL = {"bmja": bmja, "guide": guide, "balsall-common": balsall_common,
       "west-wind-goulash": west_wind_goulash}
