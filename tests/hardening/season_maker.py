"""A randomly generated (seeded, so repeatable) season for the export/import round trip:
a club with logins and guests, a private house rule, several nights of two tables each, quick
and full hands, wall games and goulashes, penalties, a correction and a void. Recorded through
``clubs.recording`` exactly as the API records them."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model

from clubs.demo import contract_hand, load_examples
from clubs.house_rule_copies import create_copy
from clubs.house_rules import ensure_builtin_house_rules
from clubs.models import Club, ClubSession, Member, Season, Seat, Table
from clubs.recording import HandConflict, HandInputError, correct_hand, record_hand, void_hand

SLUG = "generated"


def make_season(seed: int = 13, nights: int = 3, hands: int = 10) -> Club:
    rng = random.Random(seed)
    versions = ensure_builtin_house_rules()
    scorer = get_user_model().objects.create_user("gen-scorer", password="gen-pass-2468")
    club = Club.objects.create(slug=SLUG, name="Generated Club")
    members = [Member.objects.create(club=club, display_name=f"Player {i}",
                                     user=scorer if i == 0 else None,
                                     role="scorer" if i == 0 else "member")
               for i in range(7)]
    copy = create_copy(club, "bmja", "generated-bmja", "Generated BMJA",
                       {"scoring": {"limit": 1500}}, scorer)
    season = Season.objects.create(club=club, name="2027", start=dt.date(2027, 1, 1),
                                   end=dt.date(2027, 12, 31))
    examples = load_examples()
    for night in range(nights):
        version = copy.latest_version() if night % 2 else versions["bmja"]
        session = ClubSession(club=club, season=season, date=dt.date(2027, 1, 7 + 7 * night),
                              house_rule_version=version, notes=f"Night {night + 1}")
        session.freeze_goulash_rule()
        session.save()
        players = rng.sample(members, 7)
        for number in (1, 2):
            table = Table.objects.create(session=session, number=number)
            seated = players[:4] if number == 1 else players[4:]
            for position, wind in enumerate("ESWN"):
                if position < len(seated):
                    Seat.objects.create(table=table, position=position, member=seated[position],
                                        starting_wind=wind)
                else:
                    Seat.objects.create(table=table, position=position,
                                        guest_name=f"Guest {night}", starting_wind=wind)
            _play(table, rng, hands, scorer, examples)
    return club


def _play(table: Table, rng: random.Random, hands: int, scorer, examples) -> None:
    recorded = []
    for _ in range(hands):
        entry = _entry(rng, examples)
        try:
            recorded.append(record_hand(table, entry, scorer))
        except (HandInputError, HandConflict):
            continue  # a random entry the rules refuse: the next one
    if len(recorded) > 3:
        correct_hand(recorded[1], {"seats": {"S": {"score": rng.randrange(0, 60, 2)}}}
                     if recorded[1].winner_id else {}, scorer, note="typo")
        void_hand(recorded[2], scorer, "recorded twice")


def _entry(rng: random.Random, examples) -> dict:
    if rng.random() < 0.15:
        return {"draw": True, "winner": None, "seats": {w: {"score": 0} for w in "ESWN"}}
    winner = rng.choice("ESWN")
    others = [w for w in "ESWN" if w != winner]
    seats = {w: {"score": rng.randrange(0, 120, 2)} for w in others}
    seats[winner] = {"score": rng.randrange(20, 600, 2)}
    entry = {"winner": winner, "seats": seats}
    if rng.random() < 0.6:
        entry |= {"discarder": rng.choice(others), "win_from": "discard"}
    else:
        entry |= {"discarder": None, "win_from": "wall"}
    if rng.random() < 0.15:
        entry["facts"] = {"penalties": [{"kind": "false_naming", "offender": rng.choice(others),
                                         "claimant": winner}]}
    if rng.random() < 0.1:
        full = contract_hand(examples[0])
        entry["seats"][winner] = {k: v for k, v in full.items()
                                  if k not in ("seat_wind", "prevailing_wind", "mahjong")}
    return entry


def add_league_and_comparison(slug: str = SLUG) -> None:
    """The season ranked by table points 4/2/1/0.5 over its best 2 nights (not the net-points
    default a lost league falls back to), its standings published twice (one withdrawn and
    audited on the way), and a finished comparison of its play under two rules."""
    from compare import runs
    from compare.management.commands.compare_rules import Operator
    from compare.rule_choice import chosen_rules
    from compare.scope import resolve_scope
    from league.models import SeasonLeague, Snapshot
    from league.queries import Filters, standings
    from league.ranking import LeagueRules

    season = Season.objects.get(club__slug=slug)
    scorer = get_user_model().objects.get(username="gen-scorer")
    league = SeasonLeague(season=season, preset="table-points-half", updated_by=scorer)
    rules = LeagueRules(measure="table_points", points="4-2-1-0.5", combine="best", best_n=2,
                        tie_breaks=("net", "mahjongs"))
    league.set_rules(rules)
    league.save()
    for as_of, note in ((dt.date(2027, 1, 14), "After two nights"),
                        (dt.date(2027, 1, 21), "After three")):
        Snapshot.objects.create(
            season=season, as_of=as_of, note=note, published_by=scorer,
            data=standings(rules, season=season, filters=Filters(as_of=as_of)).to_json())
    operator = Operator()
    for spec in ({"season": season.pk}, {"table": Table.objects.filter(
            session__season=season).order_by("pk").last().pk}):
        runs.start(resolve_scope(spec, operator), chosen_rules(["bmja", "guide"], operator),
                   operator, background=False, shared=True)


def standings_by_name(slug: str = SLUG) -> list:
    """Each season's standings under its league rules, players by name (ids differ between
    databases): what the club's league page shows."""
    from league.models import rules_of
    from league.queries import standings

    out = []
    for season in Season.objects.filter(club__slug=slug).order_by("start"):
        data = standings(rules_of(season), season=season).to_json()
        for row in data["rows"]:
            row.pop("member_id")
        out.append({"season": season.name, **data})
    return out
