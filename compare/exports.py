"""A finished comparison as tabular sheets for the exports registry (CSV, XLSX, JSON).

Tables are named as the night's pages and sheets name them: the night's date and the table's
number that night ("Table 1"), never the database id. A rule that does not fit a table gives
its players no total, place or change there: those cells are empty (null in JSON), and the
tables a rule does not fit are listed with the reason.
"""

from __future__ import annotations

from exports import Sheet


def _item_text(items: list[dict], slugs: list[str]) -> str:
    parts = []
    for item in items:
        values = []
        for slug in slugs:
            v = item["values"].get(slug)
            values.append(f"{slug}: " + ("absent" if v is None else
                                         f"{v['points']}p {v['doubles']}d x{v['count']}"))
        parts.append(f"{item['name']} ({'; '.join(values)})")
    return " | ".join(parts)


def table_number(entry: dict):
    """The table's number in its night; reports stored before numbers were kept have only the
    database id, which is not shown as if it were a number."""
    return entry.get("table_number")


DATES = frozenset({"date"})  # written as dates in a workbook


def comparison_sheets(comparison) -> list[Sheet]:
    report = comparison.report
    slugs = report["rules"]
    names = {p["player"]: p["name"] for p in report["players"]}
    players = Sheet(
        "Players",
        ["player", "tables"] + [f"{s} {what}" for s in slugs
                                for what in ("total", "place", "change of place")],
        ([p["name"], p["tables"]] + [v for i in range(len(slugs)) for v in
                                     (p["totals"][i], p["places"][i], p["place_change"][i])]
         for p in report["players"]),
    )
    changes = Sheet(
        "Hands that change most",
        ["date", "table", "hand", "winner", "change"] + [f"winner's score {s}" for s in slugs]
        + ["items that changed"],
        ([c["date"], table_number(c), c["number"],
          names.get(c["winner"], "") if c["winner"] else "", c["spread"]]
         + [c["winner_score"][c["rules"].index(s)] if s in c["rules"] else None for s in slugs]
         + [_item_text(c["items"], c["rules"])]
         for c in report["changes"]),
        date_columns=DATES,
    )
    invalid = Sheet("Not valid under a rule", ["date", "table", "hand", "rule", "reason"],
                    ([b["date"], table_number(b), b["number"], b["rule"], b["reason"]]
                     for b in report["invalid"]), date_columns=DATES)
    unfit = Sheet("Tables a rule does not fit", ["date", "table", "rule", "reason"],
                  ([r["date"], table_number(r), r["rule"], r["reason"]]
                   for r in report["refused"]), date_columns=DATES)
    counts = report["counts"]
    summary = Sheet("How the replay read the records", ["what", "count"], [
        ["tables", counts["tables"]], ["hands replayed", counts["hands"]],
        ["hands rescored from tiles under each rule", counts["rescored"]],
        ["hands that kept the score the table agreed", counts["kept"]],
        ["voided hands (count for nothing)", counts["voided"]],
        *[[f"hands not valid under {s} (settled there as wall games)",
           report["invalid_count"][s]] for s in slugs],
        *[[f"tables {s} does not fit (not replayed under it)",
           sum(1 for r in report["refused"] if r["rule"] == s)] for s in slugs],
    ])
    return [players, changes, invalid, unfit, summary]
