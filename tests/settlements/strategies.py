"""Random hands at the table and random sessions for the property tests.

Hypothesis draws one seed per example and a plain ``random.Random`` builds the hand from it:
drawing each field through Hypothesis costs milliseconds per hand, and the issue asks for ten
thousand hands per house rule in a test run of seconds. Every hand built is a possible one.
"""

from random import Random

from hypothesis import strategies as st

from settlements.engine import HandAtTable, Penalty, SessionHand
from settlements.engine.table import FLOWERS, KONG_HOWS, SEASONS

SEATS = {2: ("E", "W"), 3: ("E", "S", "W"), 4: ("E", "S", "W", "N")}
SOURCES = ("wall", "discard", "kong_box", "robbed_kong")
seeds = st.integers(min_value=0, max_value=2**64)


def some(rng: Random, seats, chance=0.5):
    return [s for s in seats if rng.random() < chance]


def random_score(rng: Random) -> int:
    # Mostly table-sized scores, sometimes zero or a limit-sized one.
    return rng.choice((0, rng.randint(0, 200), rng.randint(0, 1200), rng.randint(0, 20000)))


def random_outcome(rng: Random, seats):
    """winner, discarder, draw flag and win source: always a possible combination."""
    if rng.random() < 0.25:
        return None, None, True, None
    winner = rng.choice(seats)
    source = rng.choice(SOURCES)
    discarder = None
    if source in ("discard", "robbed_kong"):
        discarder = rng.choice([s for s in seats if s != winner])
    return winner, discarder, False, source


def random_penalties(rng: Random, seats, winner, discarder, limit) -> tuple[Penalty, ...]:
    chosen = []
    losers = [s for s in seats if s != winner]
    if rng.random() < 0.2:
        # A house rule without a limit (003) needs the false-call fine given.
        amount = rng.randint(0, 1000) if limit is None or rng.random() < 0.5 else None
        chosen.append(Penalty("false_mahjong", rng.choice(losers), amount=amount))
    if rng.random() < 0.2:
        offender, claimant = rng.sample(seats, 2)
        chosen.append(Penalty("false_naming", offender, claimant=claimant))
    if winner is not None and rng.random() < 0.2:
        if discarder is not None and rng.random() < 0.5:
            chosen.append(Penalty("false_naming_mahjong", discarder))
        else:
            chosen.append(Penalty(rng.choice(("cannon", "not_calling")), rng.choice(losers)))
    return tuple(chosen)


def random_extras(rng: Random, seats):
    kongs = {s: tuple(rng.choice(KONG_HOWS) for _ in range(rng.randint(0, 4)))
             for s in some(rng, seats, 0.3)}
    bonus = {s: tuple(rng.sample(FLOWERS + SEASONS, rng.randint(0, 8))) for s in some(rng, seats)}
    return kongs, bonus


def random_table(rng: Random, rule, players=None) -> HandAtTable:
    seats = SEATS[players or min(rule.scoring.players, 4)]
    winner, discarder, drawn, source = random_outcome(rng, seats)
    kongs, bonus = random_extras(rng, seats)
    has_pot = bool(rule.payment.goulash_pot_per_player or rule.payment.kitty_per_player)
    return HandAtTable(
        seats=seats,
        scores={s: random_score(rng) for s in seats},
        winner=winner,
        discarder=discarder,
        draw=drawn,
        goulash=rng.random() < 0.5,
        dealer=rng.choice(seats),
        pot=rng.choice((0, rng.randint(0, 4000))) if has_pot else 0,
        kongs=kongs,
        bonus=bonus,
        win_source=source,
        kong_replacement_win=source == "kong_box" and rng.random() < 0.5,
        penalties=random_penalties(rng, seats, winner, discarder, rule.scoring.limit),
        clean_hands=frozenset(s for s in some(rng, seats) if s != winner),
        after_draw=rng.random() < 0.5,
    )


def random_session_hand(rng: Random, rule) -> SessionHand:
    seats = SEATS[min(rule.scoring.players, 4)]
    winner, discarder, drawn, source = random_outcome(rng, seats)
    kongs, bonus = random_extras(rng, seats)
    return SessionHand(
        scores={s: random_score(rng) for s in seats},
        winner=winner,
        discarder=discarder,
        draw=drawn,
        win_source=source,
        kongs=kongs,
        bonus=bonus,
        penalties=random_penalties(rng, seats, winner, discarder, rule.scoring.limit),
    )


def hands_at_table(rule, players=None, per_example=1):
    """Lists of ``per_example`` random hands, one seed per Hypothesis example."""

    def build(seed):
        rng = Random(seed)
        return [random_table(rng, rule, players) for _ in range(per_example)]

    return seeds.map(build)


def sessions(rule, max_hands=30):
    def build(seed):
        rng = Random(seed)
        return [random_session_hand(rng, rule) for _ in range(rng.randint(0, max_hands))]

    return seeds.map(build)
