"""manage.py sheet: the same sheets from the command line, and a sentence for what it cannot do."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command
from pypdf import PdfReader

from tests.sheets.nights import generated_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, house_rule_versions, users):
    return generated_session(club, house_rule_versions, "guide", users["scorer"], hands=6)


def test_writes_the_pdf_and_the_csv(night, tmp_path):
    out = tmp_path / "night.pdf"
    call_command("sheet", str(night.pk), "-o", str(out))
    text = PdfReader(out).pages[0].extract_text()
    assert "Winning" in text and "Player: Alice 1" in text  # the guide's tally sheet
    out = tmp_path / "table.csv"
    call_command("sheet", str(night.pk), "--table", "1", "--format", "csv", "-o", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 6 * 4 and {r["Table"] for r in rows} == {"1"}


def test_refuses_what_does_not_exist_with_a_sentence(night, tmp_path):
    with pytest.raises(CommandError, match="There is no session 999"):
        call_command("sheet", "999", "-o", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match=f"Session {night.pk} has no table 7: its tables are 1"):
        call_command("sheet", str(night.pk), "--table", "7", "-o", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("sheet", str(night.pk), "-o", str(tmp_path / "missing" / "x.pdf"))
