"""How much a dispute can be compensated: never more than the hand cost its player, and never past
the house compensation account's budget. The service checks both when a compensation is decided,
approved and paid; ``manage.py reconcile`` checks them again on the books.

- A hand's cost to its player is what they put into it: the chips their seat put in the pot during
  the hand, at the table's chip value, and any money their wallet paid at the table during it (La
  Viuda bought, LV-8).
- A table-level claim (a dispute on a payout) is bounded by everything the player paid into the
  table: their buy-in or stake, and anything bought during play.
- At a table that plays for a stake (no chip value: a tournament, Euchre, Guerra), chips and points
  are not money, and any hand can decide the stake: every claim there is bounded by the stake paid.
- Above its bound a dispute can only be referred (the decision's other remedy).
- ``DISPUTE_COMPENSATION_BUDGET`` (per currency, in its units) is how far the house's compensation
  account may go below zero; money posted into the account raises what it can still pay.

The bound is measured on the ledger, not on the table's settings, so that reconcile and the service
read the same facts: the postings recorded for the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, Sum

from games.disputes.models import Dispute
from games.engine.words import T
from games.errors import ServiceError
from ledger import keys, per_currency
from ledger.models import Account, Posting
from ledger.reconcile import Problem
from ledger.selectors import balance_of
from ledger.services import account
from ledger.units import format_amount

# The reservation made at join is released back to the wallet before the game takes its buy-in
# (games.settlement): it is no money paid into the table.
RESERVATION = "buy_in_reserved"


class CompensationRefused(ServiceError):
    """A compensation the books cannot allow: over what the hand cost the player, or past the
    house's compensation budget."""

    status_code = 422
    code = "compensation_over_bound"


def budget(currency: str) -> int:
    """How far, in minor units, the house compensation account of ``currency`` may go below zero."""
    return per_currency.amount("DISPUTE_COMPENSATION_BUDGET", currency)


def bound(dispute: Dispute) -> int:
    """The most the dispute can be compensated, in minor units of its table's currency."""
    table = dispute.table
    if not table.currency:
        return 0
    if dispute.payout_id is not None or not table.chip_value:
        return paid_in(dispute)
    return chips_put_in(dispute) * table.chip_value + money_put_in(dispute)


def paid_in(dispute: Dispute) -> int:
    """Everything the player's wallet paid into the dispute's table (buy-in, stake, purchases)."""
    return _wallet_out(dispute, Posting.objects.exclude(transaction__kind=RESERVATION))


def money_put_in(dispute: Dispute) -> int:
    """What the player's wallet paid at the table during the disputed hand."""
    return _wallet_out(dispute, Posting.objects.filter(transaction__hand_no=dispute.hand_no))


def _wallet_out(dispute: Dispute, postings: Any) -> int:
    table = dispute.table
    paid = postings.filter(
        transaction__table_id=table.pk, account__key=keys.wallet_key(dispute.user_id, table.currency), amount__lt=0
    ).aggregate(total=Sum("amount"))["total"]
    return -(paid or 0)


def chips_put_in(dispute: Dispute) -> int:
    """The chips the player's seat put in the pot during the disputed hand: its chips taken in the
    hand's transactions that fill the pot (not those that cash chips out at the end)."""
    table = dispute.table
    fills_pot = Posting.objects.filter(
        transaction=OuterRef("transaction"), account__key=keys.pot_key(table.pk), amount__gt=0
    )
    taken = (
        Posting.objects.filter(
            transaction__table_id=table.pk,
            transaction__hand_no=dispute.hand_no,
            account__key=keys.seat_key(table.pk, dispute.seat),
            amount__lt=0,
        )
        .filter(Exists(fills_pot))
        .aggregate(total=Sum("amount"))["total"]
    )
    return -(taken or 0)


def limits(dispute: Dispute) -> dict[str, Any] | None:
    """What the reviewing auditor may award: the dispute's bound and what the house compensation
    budget has left, in the table's currency; ``None`` at a table without money."""
    currency = dispute.table.currency
    if not currency:
        return None
    most = bound(dispute)
    left = max(budget(currency) + balance_of(key=keys.house_compensation_key(currency)), 0)
    return {
        "currency": currency,
        "bound": format_amount(most, currency),
        "bound_minor": most,
        "budget_left": format_amount(left, currency),
        "budget_left_minor": left,
    }


def check_bound(dispute: Dispute, amount: int, currency: str) -> None:
    """Refuse a compensation over what the hand (or the table) cost the disputing player."""
    most = bound(dispute)
    if amount <= most:
        return
    raise CompensationRefused(
        T(
            "A compensation can be at most what this cost the player, {bound} {currency}; "
            "{amount} {currency} is more. Refer the dispute instead.",
            bound=format_amount(most, currency),
            amount=format_amount(amount, currency),
            currency=currency,
        ),
        bound=format_amount(most, currency),
        currency=currency,
        fields={
            "compensation": [T("At most {bound} {currency}.", bound=format_amount(most, currency), currency=currency)]
        },
    )


def check_budget(amount: int, currency: str, *, lock: bool = False) -> None:
    """Refuse a compensation the house compensation account cannot pay within its budget. With
    ``lock``, the account's row is locked first, so two payments at once cannot both fit in what
    is left for one (the ledger's post takes the same lock again, in the same transaction)."""
    key = keys.house_compensation_key(currency)
    if lock:
        row = account(key=key)  # made if new: the first payment locks a row too
        balance = Account.objects.select_for_update().values_list("balance", flat=True).get(pk=row.pk)
    else:
        balance = balance_of(key=key)
    left = budget(currency) + balance
    if amount <= left:
        return
    raise CompensationRefused(
        T(
            "The house compensation budget has {left} {currency} left; this compensation of {amount} {currency} "
            "does not fit. Ask an operator to fund the compensation account.",
            left=format_amount(max(left, 0), currency),
            amount=format_amount(amount, currency),
            currency=currency,
        ),
        code="compensation_budget_exceeded",
        budget=format_amount(budget(currency), currency),
        left=format_amount(max(left, 0), currency),
        currency=currency,
    )


def compensations_bounded() -> Iterable[Problem]:
    """The reconcile checker: no dispute is compensated over its bound (by its decision or by the
    money its transaction moved), and no house compensation account is past its budget."""
    disputes = Dispute.objects.exclude(compensation=0, transaction__isnull=True).select_related("table")
    for dispute in disputes.order_by("pk"):
        paid = 0
        if dispute.transaction_id is not None:
            paid = (
                Posting.objects.filter(transaction_id=dispute.transaction_id, amount__gt=0).aggregate(
                    total=Sum("amount")
                )["total"]
                or 0
            )
        most = bound(dispute)
        if max(paid, dispute.compensation) > most:
            yield Problem(
                "compensation_over_bound",
                f"dispute:{dispute.pk}",
                f"compensated {max(paid, dispute.compensation)}, at most {most} (what it cost the player)",
            )
    for row in Account.objects.filter(kind=keys.Kind.HOUSE_COMPENSATION).order_by("pk"):
        floor = -budget(row.unit)
        if row.balance < floor:
            yield Problem(
                "compensation_budget_exceeded", f"account:{row.key}", f"paid out {-row.balance}, the budget is {-floor}"
            )
