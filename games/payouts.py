"""A finished money table opens one payout per seat whose pending account holds money, and the
reconcile proofs that a finished table's money all went where its payouts say and that each payout
still names the seat's player and the approvals its amount needs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.db.models import Sum

from games import settlement
from games.engine.decider import Movement
from games.models import Seat, Table
from ledger import keys
from ledger import payouts as ledger_payouts
from ledger.models import Account, Payout, Posting
from ledger.reconcile import Problem


def pending_key(table: Table, seat: int) -> str:
    """The account the settlement moves seat ``seat``'s prize into."""
    return keys.payout_key(settlement.pending_payout_id(table.pk, seat), table.currency)


def open_for_finished_table(table: Table) -> list[Payout]:
    """Open the payouts of a table that has just finished, in the command's transaction."""
    if not table.currency:
        return []
    return _open(table, Seat.objects.filter(table=table))


def open_for_departures(table: Table, movements: Sequence[Sequence[Movement]]) -> list[Payout]:
    """Open the payout of each player a command cashed out while the table goes on (leaving a cash
    game between hands), in the command's transaction; a finished table opens its own."""
    if not table.currency or table.status == Table.Status.FINISHED:
        return []
    seats = {int(move.destination[1]) for moves in movements for move in moves if move.destination[0] == "payout"}
    return _open(table, Seat.objects.filter(table=table, number__in=seats)) if seats else []


def _open(table: Table, seats) -> list[Payout]:
    """A payout for each of ``seats`` whose pending account holds money (once: opening is idempotent)."""
    opened = []
    for seat in seats.select_related("user").order_by("number"):
        payout = ledger_payouts.open_payout(
            table_id=table.pk,
            seat=seat.number,
            user=seat.user,
            currency=table.currency,
            pending_key=pending_key(table, seat.number),
        )
        if payout is not None:
            opened.append(payout)
    return opened


def finished_tables() -> Iterator[Problem]:
    """The reconcile checker: every finished money table has a payout for each pending account that
    holds money, and its escrow holds nothing but what rejected payouts returned (zero otherwise)."""
    for table in Table.objects.filter(status=Table.Status.FINISHED).exclude(currency="").iterator():
        subject = f"table:{table.pk}"
        opened = set(Payout.objects.filter(table_id=table.pk).values_list("pending_key", flat=True))
        prefix = f"payout:{settlement.pending_payout_id(table.pk, '')}"
        holding = Account.objects.filter(key__startswith=prefix, balance__gt=0).values_list("key", "balance")
        for key, balance in holding:
            if key not in opened:
                yield Problem("payout_missing", subject, f"{key} holds {balance} but no payout was opened for it")
        escrow = Account.objects.filter(key=keys.escrow_key(table.pk, table.currency)).values_list("balance", flat=True)
        held = escrow.first() or 0
        returned = (
            Payout.objects.filter(table_id=table.pk, status=Payout.Status.REJECTED).aggregate(total=Sum("amount"))[
                "total"
            ]
            or 0
        )
        if held != returned:
            yield Problem(
                "escrow_not_empty",
                subject,
                f"the finished table's escrow holds {held}; rejected payouts returned {returned}",
            )


def payouts_match_seats() -> Iterator[Problem]:
    """The reconcile checker for a payout's terms, which are fixed when it opens and never change
    after: it belongs to the player of its seat (nobody for a bot's seat), it needs two approvers
    exactly when its amount is above ``PAYOUT_TWO_PERSON_LIMIT`` (in its currency), and an approved payout paid that
    player's wallet (the house's bot bankroll for a bot).

    The payout row is mutable (its status moves), so an insider's ``UPDATE`` of ``user_id`` or
    ``approvals_needed`` is caught here rather than refused. The seats themselves are proved
    against the immutable postings by ``games.reconcile`` (a seat's buy-in came from its player's
    wallet). Changing ``PAYOUT_TWO_PERSON_LIMIT`` while payouts are open shows them here too.
    """
    tables = Payout.objects.values("table_id")
    owners = {
        (str(table_id), number): user_id
        for table_id, number, user_id in Seat.objects.filter(table_id__in=tables).values_list(
            "table_id", "number", "user_id"
        )
    }
    paid_to: dict[int, list[str]] = {}
    credits = Posting.objects.filter(transaction__payout__status=Payout.Status.APPROVED, amount__gt=0)
    for payout_id, key in credits.values_list("transaction__payout", "account__key"):
        paid_to.setdefault(payout_id, []).append(key)
    for payout in Payout.objects.order_by("pk").iterator():
        yield from _payout_terms(payout, owners, paid_to.get(payout.pk, []))


def _payout_terms(payout: Payout, owners: dict[tuple[str, int], int | None], paid_to: list[str]) -> Iterator[Problem]:
    subject = f"payout:{payout.pk}"
    where = f"table {payout.table_id} seat {payout.seat}"
    seat = (str(payout.table_id), payout.seat)
    if seat not in owners:
        yield Problem("payout_seat_unknown", subject, f"{where} has no seat")
    elif owners[seat] != payout.user_id:
        yield Problem(
            "payout_user_mismatch",
            subject,
            f"{where} is held by {_who(owners[seat])}, the payout names {_who(payout.user_id)}",
        )
    limit = ledger_payouts.two_person_limit(payout.currency)
    needed = 2 if payout.amount > limit else 1
    if payout.approvals_needed != needed:
        yield Problem(
            "payout_approvals_mismatch",
            subject,
            f"{payout.amount} {payout.currency} needs {needed} approver(s) "
            f"(two-person limit {limit}), the payout says {payout.approvals_needed}",
        )
    if payout.status == Payout.Status.APPROVED and seat in owners:
        owner = owners[seat]
        wallet = keys.wallet_key(owner, payout.currency) if owner else keys.house_bots_key(payout.currency)
        if paid_to != [wallet]:
            yield Problem("payout_paid_elsewhere", subject, f"paid to {', '.join(paid_to) or 'nobody'}, not {wallet}")


def _who(user_id: int | None) -> str:
    return "a bot" if user_id is None else f"user {user_id}"
