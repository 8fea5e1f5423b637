"""``manage.py settle`` mirrors POST /api/v1/settle: a table of payments and nets, and for bad
input exit 2 with sentences naming the field."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from .test_worked_examples import contract_settle_answer

pytestmark = pytest.mark.django_db

BODY = {"rules": "bmja", "prevailing_wind": "E",
        "hands": {"E": {"score": 12}, "S": {"score": 864}, "W": {"score": 36}, "N": {"score": 0}},
        "winner": "S", "discarder": "W"}


def run(tmp_path, body, *args):
    path = tmp_path / "hand.json"
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    out = io.StringIO()
    call_command("settle", str(path), *args, stdout=out)
    return out.getvalue()


def test_prints_payments_and_nets(tmp_path):
    out = run(tmp_path, BODY)
    assert "E     S         1728  Mah Jong; East pays double" in out
    assert "Net: E -1752, S +3456, W -780, N -924" in out


def test_json_answer_is_the_apis(tmp_path):
    assert json.loads(run(tmp_path, BODY, "--json")) == contract_settle_answer()


def test_reads_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(BODY)))
    out = io.StringIO()
    call_command("settle", "-", stdout=out)
    assert "Net: E -1752" in out.getvalue()


@pytest.mark.parametrize("body, words", [
    (BODY | {"discarder": "S"}, "discarder: The winner cannot have discarded"),
    (BODY | {"rules": "nope"}, "rules: Unknown house rule"),
    ("{not json", "not valid JSON"),
])
def test_bad_input_exits_2_with_a_sentence(tmp_path, body, words):
    with pytest.raises(CommandError) as exc:
        run(tmp_path, body)
    assert exc.value.returncode == 2
    assert words in str(exc.value)


def test_missing_file_exits_2(tmp_path):
    with pytest.raises(CommandError) as exc:
        call_command("settle", str(tmp_path / "none.json"))
    assert exc.value.returncode == 2 and "Cannot read" in str(exc.value)
