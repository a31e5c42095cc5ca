"""How much a dispute can be compensated: never more than what its player lost, summed over every
compensation upheld for them there, and never past the house compensation account's budget. The
service checks both when a compensation is decided, approved and paid; ``manage.py reconcile``
checks them again on the books (``games.disputes.books``).

- What a player lost on a hand is what their seat's position fell by over the hand's transactions:
  the money their wallet paid at the table during it (La Viuda bought, LV-8; a top-up, FD-13), less
  what their payout account received in it (a cash-out), and the chips their seat gave up less the
  chips it took (from the pot, or bought), at the table's chip value. A hand's winner lost nothing,
  and a chip bought is not a chip lost.
- A table-level claim (a dispute on a payout) is measured the same way over every transaction of
  the table: what the player paid in, less what came back to them (their approved and pending
  payouts; a rejected payout gave them nothing).
- At a table that plays for a stake (no chip value: a tournament, Euchre, Guerra), chips and points
  are not money and any hand can decide the stake: every claim there is table-level.
- The compensations counted are the player's other upheld ones for the same hand (for a
  table-level claim: every one at the table), decided and waiting for approval or paid; declined,
  rejected and referral-only disputes count nothing. What the loss leaves after them is the bound
  (``limits``); above it a dispute can only be referred. The same sum, with the new compensation,
  decides whether a second approver is needed (``PAYOUT_TWO_PERSON_LIMIT``).
- ``DISPUTE_COMPENSATION_BUDGET`` (per currency, in its units) is how far the house's
  compensation account may go below zero; money posted into the account raises what it can still
  pay.

The loss is measured on the ledger, not on the table's settings, so that reconcile and the service
read the same facts: the postings recorded for the table.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet, Sum

from games.disputes.models import Dispute
from games.engine.words import T
from games.errors import ServiceError
from games.settlement import pending_payout_id
from ledger import keys, per_currency
from ledger import payouts as ledger_payouts
from ledger.models import Account, Posting
from ledger.selectors import balance_of
from ledger.services import account
from ledger.units import format_amount

# Buy-ins reserved at join and released at the start (games.settlement) are no money played: the
# game's own buy-in takes it from the wallet then.
NOT_PLAYED = ("buy_in_reserved", "buy_in_released")
# The states in which a dispute's compensation is upheld: decided (waiting for its second approval)
# or paid.
COUNTED = (Dispute.State.AWAITING_APPROVAL, Dispute.State.UPHELD)


class CompensationRefused(ServiceError):
    """A compensation the books cannot allow: over what the player lost (less what was already
    upheld for it), or past the house's compensation budget."""

    status_code = 422
    code = "compensation_over_bound"


def budget(currency: str) -> int:
    """How far, in minor units, the house compensation account of ``currency`` may go below zero."""
    return per_currency.amount("DISPUTE_COMPENSATION_BUDGET", currency)


def per_table(dispute: Dispute) -> bool:
    """Whether the dispute is measured over its whole table: a claim on a payout, or any claim at a
    table without a chip value."""
    return dispute.payout_id is not None or not dispute.table.chip_value


def group(dispute: Dispute) -> QuerySet[Dispute]:
    """The disputes whose compensations share the dispute's bound: at the same table, a table-level
    claim counts every one of its player's there; a hand claim counts their claims on the same hand
    and their table-level claims, so a loss paid back over the table is not paid again over one of
    its hands (the hand claim is bounded by what the table claims left)."""
    rows = Dispute.objects.filter(table_id=dispute.table_id, user_id=dispute.user_id)
    if per_table(dispute):
        return rows
    return rows.filter(Q(hand_no=dispute.hand_no) | Q(payout__isnull=False))


def shares_bound(dispute: Dispute, row: Dispute) -> bool:
    """Whether ``row`` is in ``group(dispute)``: the same test on rows already read."""
    if row.table_id != dispute.table_id or row.user_id != dispute.user_id:
        return False
    return per_table(dispute) or row.hand_no == dispute.hand_no or row.payout_id is not None


def compensated(dispute: Dispute) -> int:
    """What the dispute's other upheld compensations (``group``) already took of the loss."""
    others = group(dispute).exclude(pk=dispute.pk).filter(state__in=COUNTED)
    return int(others.aggregate(total=Sum("compensation"))["total"] or 0)


def lost(dispute: Dispute) -> int:
    """What the player lost on the disputed hand (or at the table), in minor units of its currency;
    negative for a player who won there."""
    table = dispute.table
    if not table.currency:
        return 0
    hand_no = None if per_table(dispute) else dispute.hand_no
    return -position_change(table, dispute.user_id, dispute.seat, hand_no=hand_no)


def position_change(table: Any, user_id: int, seat: int, *, hand_no: int | None = None) -> int:
    """How the player's money at the table moved over the hand's transactions (every one of the
    table's without ``hand_no``): their wallet, their seat's payout account, and their seat's chips
    at the table's chip value. Reservations and compensations are left out: neither is play."""
    worth = {
        keys.wallet_key(user_id, table.currency): 1,
        keys.payout_key(pending_payout_id(table.pk, seat), table.currency): 1,
        keys.seat_key(table.pk, seat): table.chip_value,
    }
    compensation = Posting.objects.filter(
        transaction=OuterRef("transaction"), account__kind=keys.Kind.HOUSE_COMPENSATION
    )
    postings = (
        Posting.objects.filter(transaction__table_id=table.pk, account__key__in=list(worth))
        .exclude(transaction__kind__in=NOT_PLAYED)
        .exclude(Exists(compensation))
    )
    if hand_no is not None:
        postings = postings.filter(transaction__hand_no=hand_no)
    totals = postings.values_list("account__key").annotate(total=Sum("amount")).order_by()
    return sum(worth[key] * int(total) for key, total in totals)


def bound(dispute: Dispute) -> int:
    """The most the dispute can still be compensated, in minor units of its table's currency."""
    return max(lost(dispute) - compensated(dispute), 0)


def approvals_needed(dispute: Dispute, amount: int, currency: str) -> int:
    """Two when the compensations upheld for the hand (or table), this one with them, are above the
    two-person limit of the currency; else one (the deciding auditor's)."""
    return 2 if compensated(dispute) + amount > ledger_payouts.two_person_limit(currency) else 1


def lock_player(dispute: Dispute) -> None:
    """Serialise the compensation decisions on one player's disputes. Two of them at once (two
    claims on one table, or a decision and a second approval) would each read the sum of what is
    upheld before the other wrote, both fit in what the loss leaves, and together pay it twice;
    with the player's row locked first, the second reads the sum with the first's compensation in
    it. ``FOR NO KEY UPDATE``: rows that only refer to the player (a seat, a posting's account) are
    still written meanwhile."""
    user_model: Any = get_user_model()
    user_model.objects.select_for_update(no_key=True).filter(pk=dispute.user_id).values_list("pk").first()


def limits(dispute: Dispute) -> dict[str, Any] | None:
    """What the reviewing auditor may award: what is left of the player's loss after the
    compensations already upheld for it (``bound``), the loss and those compensations, what the
    house compensation budget has left and the two-person limit, in the table's currency; ``None``
    at a table without money."""
    currency = dispute.table.currency
    if not currency:
        return None
    loss, before = max(lost(dispute), 0), compensated(dispute)
    left = max(budget(currency) + balance_of(key=keys.house_compensation_key(currency)), 0)
    amounts = {
        "bound": max(loss - before, 0),
        "lost": loss,
        "compensated": before,
        "budget_left": left,
        "two_person_limit": ledger_payouts.two_person_limit(currency),
    }
    shown: dict[str, Any] = {"currency": currency}
    for name, minor in amounts.items():
        shown[name], shown[f"{name}_minor"] = format_amount(minor, currency), minor
    return shown


def check_bound(dispute: Dispute, amount: int, currency: str) -> None:
    """Refuse a compensation over what the player lost on the hand (or at the table), less the
    compensations already upheld for it. Call under ``lock_player``."""
    loss, before = lost(dispute), compensated(dispute)
    most = max(loss - before, 0)
    if amount <= most:
        return
    money = {
        "bound": format_amount(most, currency),
        "lost": format_amount(max(loss, 0), currency),
        "compensated": format_amount(before, currency),
        "amount": format_amount(amount, currency),
    }
    if loss <= 0:
        detail = T("The player lost nothing here, so nothing can be compensated; refer the dispute instead.")
    elif before:
        detail = T(
            "The player lost {lost} {currency} here and was already compensated {compensated} {currency} for it: "
            "at most {bound} {currency} is left, and {amount} {currency} is more. Refer the dispute instead.",
            currency=currency,
            **money,
        )
    else:
        detail = T(
            "A compensation can be at most what this cost the player, {bound} {currency}; "
            "{amount} {currency} is more. Refer the dispute instead.",
            bound=money["bound"],
            amount=money["amount"],
            currency=currency,
        )
    raise CompensationRefused(
        detail,
        bound=money["bound"],
        lost=money["lost"],
        compensated=money["compensated"],
        currency=currency,
        fields={"compensation": [T("At most {bound} {currency}.", bound=money["bound"], currency=currency)]},
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
