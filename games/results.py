"""What each seat of a finished table won or lost over the whole game, for the table's view: chips
(its chip account's wins and losses, leaving out chips bought from or cashed with the bank) and
money (what the person's wallet paid into the table, and the payout the table opened for the seat),
read from the books rather than worked out from the table's terms."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from games.engine import registry
from games.models import Seat, Table
from ledger import keys
from ledger.models import Payout, Posting
from ledger.units import CHIP, format_amount


def table_result(table: Table, seats: Sequence[Seat]) -> list[dict[str, Any]] | None:
    """Per taken seat, the game's result; ``None`` until the table has finished."""
    if table.status != Table.Status.FINISHED:
        return None
    chips = _chips_won(table) if registry.get(table.game).money_of(table.config) == "chips" else None
    currency = table.currency or None
    paid = _paid_in(table, seats) if currency else {}
    payouts = {p.seat: p for p in Payout.objects.filter(table_id=table.pk).order_by("seat")} if currency else {}
    return [_line(seat, chips, currency, paid, payouts.get(seat.number)) for seat in seats]


def _line(
    seat: Seat, chips: dict[int, int] | None, currency: str | None, paid: dict[int, int], payout: Payout | None
) -> dict[str, Any]:
    won = payout.amount if payout is not None else 0
    # A bot plays from the house's bankroll, one account for every bot: the books cannot say what
    # one bot paid, so a bot's payment and balance are not given.
    given = currency is not None and seat.user_id is not None
    spent = paid.get(seat.number, 0) if given else None
    return {
        "seat": seat.number,
        "player": seat.user.get_username() if seat.user else None,
        "bot": seat.user_id is None,
        "chips": chips.get(seat.number, 0) if chips is not None else None,
        "currency": currency,
        **_money("paid", spent, currency),
        **_money("won", won if currency else None, currency),
        **_money("net", won - spent if spent is not None else None, currency),
        "payout": {"id": payout.pk, "status": payout.status} if payout is not None else None,
    }


def _money(name: str, minor: int | None, currency: str | None) -> dict[str, Any]:
    if minor is None or currency is None:
        return {name: None, f"{name}_minor": None}
    return {name: format_amount(minor, currency), f"{name}_minor": minor}


def _chips_won(table: Table) -> dict[int, int]:
    """Each seat's chips won (positive) or lost over the game: its chip account's postings, less
    those of transactions with the table's bank (buying chips, cashing them out)."""
    bank = keys.bank_key(table.pk)
    by_txn: dict[int, list[tuple[str, int]]] = defaultdict(list)
    rows = Posting.objects.filter(transaction__table_id=table.pk, unit=CHIP)
    for txn_id, key, amount in rows.values_list("transaction_id", "account__key", "amount"):
        by_txn[txn_id].append((key, amount))
    won: dict[int, int] = defaultdict(int)
    for lines in by_txn.values():
        if any(key == bank for key, _ in lines):
            continue
        for key, amount in lines:
            account = keys.parse_key(key)
            if account.kind == keys.Kind.SEAT and account.seat is not None:
                won[account.seat] += amount
    return won


def _paid_in(table: Table, seats: Sequence[Seat]) -> dict[int, int]:
    """What each person's wallet paid into the table through its events (buy-ins, stakes, chips
    bought, the widow's price), in minor units. A reservation at join is given back at the start
    (or on leaving), so it is not a payment; the prize comes back through the payout."""
    people = {keys.wallet_key(seat.user_id, table.currency): seat.number for seat in seats if seat.user_id}
    rows = Posting.objects.filter(
        transaction__table_id=table.pk,
        transaction__reference__startswith=f"event:{table.pk}:",
        account__key__in=list(people),
    )
    paid: dict[int, int] = defaultdict(int)
    for key, amount in rows.values_list("account__key", "amount"):
        paid[people[key]] -= amount
    return paid


def payouts_mark(table: Table) -> str:
    """What changes a finished money table's ``result`` without a new version: its payouts'
    decisions, as a short digest for the view's ``ETag`` (empty for any other table)."""
    if table.status != Table.Status.FINISHED or not table.currency:
        return ""
    rows = Payout.objects.filter(table_id=table.pk).order_by("pk").values_list("pk", "status")
    return hashlib.sha256(",".join(f"{pk}:{status}" for pk, status in rows).encode()).hexdigest()[:8]
