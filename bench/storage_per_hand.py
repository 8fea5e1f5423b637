"""Bytes a recorded hand costs on PostgreSQL, tables and their indexes, from hands recorded
through the one write path (``clubs.recording.record_hand``).

    .venv/bin/python bench/storage_per_hand.py [--hands 2000] [--tiles 1.0]

Makes a fresh database (``mahjong_storage`` on 127.0.0.1, dropped first), migrates it, and
records ``--hands`` hands at two tables a night, 24 hands a table, from
``bench/distinct_hands.py``: each winner's hand as tiles, or (``--tiles`` the share of hands
entered so) as an agreed score. Then VACUUM ANALYZE and, per table, ``pg_total_relation_size``
(rows, TOAST and indexes) divided by the hands; the stored ``Hand.computed`` JSON alone by
``pg_column_size``. Prints bytes per hand and what 100 million hands would take. No timing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TABLES = ["clubs_hand", "clubs_handentry", "clubs_handresult", "league_nightresult",
          "clubs_table", "clubs_seat", "clubs_clubsession", "clubs_auditentry"]
PER_TABLE = 24
# One log record a hand recorded is the operator's; here it would bury the figures.
os.environ.setdefault("APP_LOG_LEVEL", "WARNING")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="mahjong_storage")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--tiles", type=float, default=1.0,
                        help="share of winning hands entered as tiles (the rest: a score)")
    args = parser.parse_args()
    host = ["-h", "127.0.0.1", "-U", "postgres"]
    subprocess.run(["dropdb", *host, "--if-exists", args.db], check=True)
    subprocess.run(["createdb", *host, args.db], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from bench.distinct_hands import distinct_entries
    from clubs.models import Club, ClubSession, Member, Season, Seat, Table
    from clubs.recording import record_hand
    from houserules.sync import ensure_builtin_house_rules

    call_command("migrate", verbosity=0)
    version = ensure_builtin_house_rules()["bmja"]
    user = get_user_model().objects.create_user("scorer")
    club = Club.objects.create(name="Storage Club", slug="storage")
    members = [Member.objects.create(club=club, display_name=f"Player {i:02d}") for i in range(16)]
    season = Season.objects.create(club=club, name="2030", start=dt.date(2030, 1, 1))
    r = random.Random(5)
    entries = distinct_entries(args.hands, seed=11)
    tables = (args.hands + PER_TABLE - 1) // PER_TABLE
    for t in range(tables):
        if t % 2 == 0:
            session = ClubSession.objects.create(
                club=club, season=season, date=dt.date(2030, 1, 1) + dt.timedelta(days=t // 2),
                house_rule_version=version)
        table = Table.objects.create(session=session, number=t % 2 + 1)
        for position, (member, wind) in enumerate(zip(r.sample(members, 4), "ESWN",
                                                      strict=True)):
            Seat.objects.create(table=table, member=member, position=position,
                                starting_wind=wind)
        for entry in entries[t * PER_TABLE:(t + 1) * PER_TABLE]:
            if entry.get("winner") and r.random() >= args.tiles:
                entry = {**entry, "seats": {**entry["seats"], entry["winner"]: {
                    "score": r.randrange(20, 400, 2)}}}
            record_hand(table, entry, user)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("SELECT count(*), sum(pg_column_size(computed)) FROM clubs_hand")
        hands, computed = cursor.fetchone()
        sizes = {}
        for name in TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s)", [name])
            sizes[name] = cursor.fetchone()[0]
    total = sum(sizes.values())
    print(f"{hands} hands, {tables} tables, winners' hands as tiles: {args.tiles:.0%}")
    for name, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print(f"  {name:22} {size / hands:8.0f} bytes a hand")
    print(f"  {'all':22} {total / hands:8.0f} bytes a hand "
          f"(of which Hand.computed {computed / hands:.0f})")
    print(f"100 million hands: {total / hands * 1e8 / 1e9:.0f} GB")


if __name__ == "__main__":
    main()
