"""Issue #12: the engine's results on 93,984 fixed cases are those stored in the golden master
(``tests/scoring/golden_master.py`` says which cases and how to store them anew). A change that
moves a result fails here with the cases it moved; if the move is meant, store the results
again (``--write``) and say in the commit how many cases moved and why.
"""

from __future__ import annotations

from tests.scoring.golden_master import differences, load

SHOWN = 40


def test_every_result_is_the_golden_masters():
    golden = load()
    count, found = differences(golden, limit=SHOWN)
    assert not found, (
        f"{'At least ' if len(found) >= SHOWN else ''}{len(found)} of {len(golden['cases']):,} "
        "cases differ from the golden master (was ... now ...; [digest of the whole result]):\n"
        + "\n".join(found)
        + "\nIf meant: .venv/bin/python -m tests.scoring.golden_master --write, and say why.")
    assert count == len(golden["cases"]) == 93_984
