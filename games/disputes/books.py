"""What ``manage.py reconcile`` proves of disputes, from the books rather than from what the service
remembers deciding, so that a sum written around the service shows:

- every transaction that pays a wallet out of a house compensation account is the payment of an
  upheld dispute and moved exactly its amount from the house to its player;
- the compensations of one player on one hand (on one table, for a table-level claim) add up to no
  more than what the player lost there, counting each dispute's money by what its transactions
  paid as well as by what its row says, taken in the order they were decided (a dispute row or a
  payment added behind the service is counted in its sum);
- each compensation had the approvals that sum needed, and an upheld one was paid;
- no house compensation account is past its budget.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from django.db.models import Q

from games.disputes import bounds
from games.disputes.models import Dispute
from games.disputes.services import COMPENSATION, current_approvers
from ledger import keys
from ledger import payouts as ledger_payouts
from ledger.models import Account, Posting, Transaction
from ledger.reconcile import Problem

_DISPUTE = re.compile(r"dispute:([0-9]{1,18})")


def compensation_payments() -> dict[int, dict[str, int]]:
    """Every transaction that pays a wallet out of a house compensation account, or is of the
    compensation kind: by transaction, the amount each account moved."""
    out = Posting.objects.filter(account__kind=keys.Kind.HOUSE_COMPENSATION, amount__lt=0).values("transaction_id")
    into = Posting.objects.filter(account__kind=keys.Kind.WALLET, amount__gt=0).values("transaction_id")
    chosen = Transaction.objects.filter(Q(kind=COMPENSATION) | (Q(pk__in=out) & Q(pk__in=into)))
    moved: dict[int, dict[str, int]] = defaultdict(dict)
    rows = Posting.objects.filter(transaction__in=chosen).values_list("transaction_id", "account__key", "amount")
    for txn, key, amount in rows.order_by("transaction_id", "pk"):
        moved[txn][key] = moved[txn].get(key, 0) + amount
    return dict(moved)


def _paid_by_dispute(payments: dict[int, dict[str, int]]) -> dict[int, int]:
    """What each dispute's payments put into wallets: its own transaction, and any other naming it
    (``dispute:{id}``) in its reference."""
    linked = dict(Dispute.objects.exclude(transaction=None).values_list("transaction_id", "pk"))
    references = dict(Transaction.objects.filter(pk__in=list(payments)).values_list("pk", "reference"))
    paid: dict[int, int] = defaultdict(int)
    for txn, moved in payments.items():
        named = _DISPUTE.fullmatch(references.get(txn) or "")
        owner = linked.get(txn) or (int(named.group(1)) if named else None)
        if owner is not None:
            paid[owner] += sum(amount for key, amount in moved.items() if key.startswith("wallet:") and amount > 0)
    return dict(paid)


def _decided(dispute: Dispute) -> tuple[datetime, int]:
    return (dispute.decided_at or dispute.filed_at, dispute.pk)


def _earlier_in_group(dispute: Dispute, rows: list[Dispute]) -> list[Dispute]:
    """The rows of the dispute's bound (``bounds.group``), decided no later than it, itself last."""
    mine = [row for row in rows if bounds.shares_bound(dispute, row) and _decided(row) <= _decided(dispute)]
    return sorted(mine, key=_decided)


def compensations_bounded() -> Iterable[Problem]:
    """The reconcile checker of the sums: in the order the compensations were decided, none takes
    its player's compensations on the hand (or table) past what they lost there; and no house
    compensation account is past its budget."""
    paid = _paid_by_dispute(compensation_payments())
    rows = list(
        Dispute.objects.filter(Q(compensation__gt=0) | Q(pk__in=list(paid))).select_related("table").order_by("pk")
    )
    amount = {row.pk: max(paid.get(row.pk, 0), row.compensation if row.state in bounds.COUNTED else 0) for row in rows}
    rows = [row for row in rows if amount[row.pk] > 0]
    for dispute in rows:
        earlier = _earlier_in_group(dispute, rows)
        total = sum(amount[row.pk] for row in earlier)
        loss = bounds.lost(dispute)
        if total > max(loss, 0):
            where = "table" if bounds.per_table(dispute) else f"hand {dispute.hand_no}"
            yield Problem(
                "compensation_over_bound",
                f"dispute:{dispute.pk}",
                f"{where} of {dispute.table_id}: user {dispute.user_id} compensated {total} by disputes "
                f"{[row.pk for row in earlier]}, lost {max(loss, 0)}",
            )
    for row in Account.objects.filter(kind=keys.Kind.HOUSE_COMPENSATION).order_by("pk"):
        floor = -bounds.budget(row.unit)
        if row.balance < floor:
            yield Problem(
                "compensation_budget_exceeded", f"account:{row.key}", f"paid out {-row.balance}, the budget is {-floor}"
            )


def compensations_match() -> Iterable[Problem]:
    """The reconcile checker of each payment: every one out of the compensation account into a
    wallet belongs to an upheld dispute and moved exactly its amount from the house's compensation
    account to the filer's wallet; each compensation had the approvals its hand's (or table's) sum
    needed when it was decided; an upheld dispute with a compensation has its transaction."""
    by_transaction = {row.transaction_id: row for row in Dispute.objects.exclude(transaction=None)}
    for txn, moved in sorted(compensation_payments().items()):
        subject = f"transaction:{txn}"
        dispute = by_transaction.get(txn)
        if dispute is None or dispute.state != Dispute.State.UPHELD:
            yield Problem("compensation_without_dispute", subject, "no upheld dispute names this compensation")
            continue
        wanted = {
            keys.house_compensation_key(dispute.currency): -dispute.compensation,
            keys.wallet_key(dispute.user_id, dispute.currency): dispute.compensation,
        }
        if moved != wanted:
            yield Problem(
                "compensation_mismatch", subject, f"moved {sorted(moved.items())}, dispute {dispute.pk} says {wanted}"
            )
    upheld = list(Dispute.objects.filter(compensation__gt=0, state__in=bounds.COUNTED).select_related("table"))
    yield from _approvals(upheld)


def _approvals(upheld: list[Dispute]) -> Iterable[Problem]:
    for dispute in sorted(upheld, key=_decided):
        subject = f"dispute:{dispute.pk}"
        total = sum(row.compensation for row in _earlier_in_group(dispute, upheld))
        needed = 2 if total > ledger_payouts.two_person_limit(dispute.currency) else 1
        # Fewer is the fault; more can be right (a compensation counted in the sum was declined since).
        if dispute.approvals_needed < needed:
            yield Problem(
                "compensation_approvals_mismatch",
                subject,
                f"{total} upheld for the hand or table needs {needed}, says {dispute.approvals_needed}",
            )
        approvers = len(current_approvers(dispute))
        enough = max(needed, dispute.approvals_needed)
        if dispute.state == Dispute.State.UPHELD and (dispute.transaction_id is None or approvers < enough):
            yield Problem(
                "compensation_unpaid_or_under_approved",
                subject,
                f"upheld with transaction {dispute.transaction_id} and {approvers} of {enough} approvals",
            )
