"""``manage.py score``: a hand as JSON in, a readable table (or the API's JSON) out; bad input
exits 2 with one sentence per problem and no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import REPO, load_example

HAND_1 = load_example("bmja-scoring-practice.json")["hands"][0]
# 004 Sheet 19 hand 1 as a player enters it.
SHEET_19_HAND_1 = {
    "rules": "bmja", "seat_wind": "S", "prevailing_wind": "E", "mahjong": True,
    "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
              {"kind": "kong", "tile": "b9"}],
    "concealed": ["b6", "b6", "b6", "we", "we"], "bonus": HAND_1["bonus"],
    "win": {"tile": "we", "from": HAND_1["win_from"]},
}


def run(data, *args) -> str:
    out = StringIO()
    call_command("score", str(data), *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def hand_file(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(SHEET_19_HAND_1))
    return path


def test_sheet_19_hand_1_is_printed_as_a_table(hand_file):
    text = run(hand_file)
    assert "Going Mah Jong" in text and "Pung/kong of dragons" in text
    assert "Total" in text and "Score: 54 x 2^4 = 864" in text
    assert "Arrangement: " in text and "pung b6 (concealed)" in text
    total = next(line for line in text.splitlines() if line.startswith("Total"))
    assert total.split()[-2:] == ["54", "4"]


def test_json_output_is_the_apis_answer(hand_file):
    body = json.loads(run(hand_file, "--json"))
    assert (body["points"], body["doubles"], body["score"]) == (54, 4, 864)
    assert body["rules"] == "bmja"


def test_rules_option_overrides_the_hands_rules(hand_file):
    body = json.loads(run(hand_file, "--json", "--rules", "bmja"))
    assert body["rules"] == "bmja"


def test_an_invalid_hand_exits_2_with_a_sentence_per_problem(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**SHEET_19_HAND_1, "seat_wind": "X",
                                "melds": [{"kind": "pung", "tile": "q1"}]}))
    with pytest.raises(CommandError) as caught:
        run(path)
    assert caught.value.returncode == 2
    lines = str(caught.value).splitlines()
    assert any(line.startswith("seat_wind: ") for line in lines)
    assert any(line.startswith("melds.0.tile: ") for line in lines)


def test_bad_json_exits_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(CommandError) as caught:
        run(path)
    assert caught.value.returncode == 2 and "not valid JSON" in str(caught.value)


def test_a_missing_file_exits_2(tmp_path):
    with pytest.raises(CommandError) as caught:
        run(tmp_path / "nowhere.json")
    assert caught.value.returncode == 2 and "Cannot read" in str(caught.value)


@pytest.mark.django_db
def test_an_unknown_house_rule_exits_2_naming_the_known_ones(hand_file):
    with pytest.raises(CommandError) as caught:
        run(hand_file, "--rules", "nope")
    assert caught.value.returncode == 2
    assert str(caught.value).startswith("rules: Unknown house rule 'nope'; choose one of: bmja")


def test_reads_stdin_and_bad_input_has_no_traceback():
    manage = [sys.executable, str(REPO / "manage.py"), "score", "-"]
    ok = subprocess.run(manage, input=json.dumps(SHEET_19_HAND_1), capture_output=True,
                        text=True, cwd=REPO, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "Score: 54 x 2^4 = 864" in ok.stdout
    bad = subprocess.run(manage, input="[]", capture_output=True, text=True, cwd=REPO,
                         timeout=120)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and bad.stderr.strip()
