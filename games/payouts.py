"""A finished money table opens one payout per seat whose pending account holds money, and the
reconcile proof that a finished table's money all went where its payouts say."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Sum

from games import settlement
from games.models import Seat, Table
from ledger import keys
from ledger import payouts as ledger_payouts
from ledger.models import Account, Payout
from ledger.reconcile import Problem


def pending_key(table: Table, seat: int) -> str:
    """The account the settlement moves seat ``seat``'s prize into."""
    return keys.payout_key(settlement.pending_payout_id(table.pk, seat), table.currency)


def open_for_finished_table(table: Table) -> list[Payout]:
    """Open the payouts of a table that has just finished, in the command's transaction."""
    if not table.currency:
        return []
    opened = []
    for seat in Seat.objects.filter(table=table).select_related("user").order_by("number"):
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
