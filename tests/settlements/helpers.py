from settlements.engine import HandAtTable, settle_hand

SEATS = ("E", "S", "W", "N")


def settle(rule, scores=None, seats=SEATS, **fields):
    scores = {seat: 0 for seat in seats} | (scores or {})
    return settle_hand(HandAtTable(seats=seats, scores=scores, **fields), rule)


def paid(result, kind=None):
    """{(payer, payee): amount} of the payments, optionally of one kind only."""
    out = {}
    for p in result.payments:
        if kind is None or p.kind == kind:
            out[(p.payer, p.payee)] = out.get((p.payer, p.payee), 0) + p.amount
    return out
