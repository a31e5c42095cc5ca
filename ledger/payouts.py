"""Payout review: money a finished table owes a seat waits in a pending account until it is decided.

The money leaves the pending account exactly once (TigerBeetle's pending transfer, posted or
voided): ``approve`` posts it to the winner's wallet, ``reject`` returns it to the table's escrow
and marks the table for follow-up. A bot's winnings and, if ``PAYOUT_AUTO_APPROVE_BELOW`` is set,
small amounts are decided by rule when the payout opens, and recorded as automatic. Every
decision is a ``PayoutDecision`` row (who, when, why) that is never changed.

Rules of review: only staff decide; a staff member who played at the table cannot; a payout above
``PAYOUT_TWO_PERSON_LIMIT`` (set per currency) needs two different approvers; a decided payout cannot
be decided again.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Sum
from django.dispatch import Signal
from django.utils import timezone

from games.engine.words import T
from ledger import keys, per_currency
from ledger.errors import Forbidden, InvalidRequest, NotFound, PayoutDecided, SecondApproverNeeded
from ledger.models import Account, FollowUp, Payout, PayoutDecision, Posting
from ledger.reconcile import Problem, register_checker
from ledger.services import post
from ledger.times import rfc3339
from ledger.units import format_amount

# Sent in the deciding transaction with ``payout=``, once the payout is approved or rejected (by
# staff or by rule); the live streams tell its person (games.notify, connected in games.apps).
payout_decided = Signal()

if TYPE_CHECKING:
    # The project's AUTH_USER_MODEL is Django's own User; django-stubs types the foreign keys with it.
    from django.contrib.auth.models import User

PAID = "payout_paid"
RETURNED = "payout_returned"
KINDS = (PAID, RETURNED)


# Checks that may hold a pending payout back from approval (a dispute open on its table, registered
# by games.disputes): each raises a ``ServiceError`` to refuse. The ledger knows no games.
PayoutHold = Callable[[Payout], None]
_holds: list[PayoutHold] = []


def register_hold(hold: PayoutHold) -> PayoutHold:
    """Refuse approving a payout whenever ``hold(payout)`` raises (once per function)."""
    if hold not in _holds:
        _holds.append(hold)
    return hold


def two_person_limit(currency: str) -> int:
    """Payouts (and a hand's or table's compensations, summed) above this many minor units of
    ``currency`` need two approvers: ``PAYOUT_TWO_PERSON_LIMIT``, set per currency."""
    return per_currency.amount("PAYOUT_TWO_PERSON_LIMIT", currency)


def auto_approve_below(currency: str) -> int:
    """Payouts below this many minor units of ``currency`` are approved automatically (0: never)."""
    return per_currency.amount("PAYOUT_AUTO_APPROVE_BELOW", currency)


def _money(payout: Payout) -> str:
    return f"{format_amount(payout.amount, payout.currency)} {payout.currency}"


# --- opening ------------------------------------------------------------------------------------


def open_payout(*, table_id: uuid.UUID, seat: int, user: User | None, currency: str, pending_key: str) -> Payout | None:
    """The payout of what ``pending_key`` holds for ``seat`` (``None`` if it holds nothing).

    Idempotent: a second call returns the payout already opened. Runs in the caller's transaction
    (the command that finished the table), so a table is never finished without its payouts.
    """
    existing = Payout.objects.filter(pending_key=pending_key).first()
    if existing is not None:
        return existing
    amount = Account.objects.filter(key=pending_key).values_list("balance", flat=True).first() or 0
    if amount <= 0:
        return None
    payout = Payout.objects.create(
        table_id=table_id,
        seat=seat,
        user=user,
        currency=currency,
        amount=amount,
        pending_key=pending_key,
        approvals_needed=2 if amount > two_person_limit(currency) else 1,
    )
    if user is None:
        # Stored in English, as every decision's reason; ledger.records says it in the reader's language.
        _decide_by_rule(
            payout, T("A bot's winnings go back to the house's bot bankroll."), keys.house_bots_key(currency)
        )
    elif amount < auto_approve_below(currency):
        limit = format_amount(auto_approve_below(currency), currency)
        _decide_by_rule(
            payout,
            T("Approved automatically: below {limit} {currency}.", limit=limit, currency=currency),
            keys.wallet_key(user.pk, currency),
        )
    return payout


def _decide_by_rule(payout: Payout, reason: str, destination: str) -> None:
    reason = str(reason)
    PayoutDecision.objects.create(payout=payout, by=None, decision=PayoutDecision.Decision.APPROVE, reason=reason)
    payout.automatic = True
    _move(payout, destination, PAID, Payout.Status.APPROVED, by=None, memo=reason)


def _move(payout: Payout, destination: str, kind: str, status: str, *, by: User | None, memo: str) -> None:
    """Empty the pending account into ``destination`` once and record the payout's new status."""
    txn = post(
        key=f"payout:{payout.pk}:{kind}",
        postings=[
            (payout.pending_key, payout.currency, -payout.amount),
            (destination, payout.currency, payout.amount),
        ],
        kind=kind,
        memo=memo,
        reference=f"payout:{payout.pk}",
        table_id=payout.table_id,
        created_by=by,
    )
    payout.status = status
    payout.transaction = txn
    payout.decided_at = timezone.now()
    payout.save(update_fields=["status", "transaction", "decided_at", "automatic"])
    payout_decided.send(sender=Payout, payout=payout)


# --- deciding -----------------------------------------------------------------------------------


def _locked(payout_id: int) -> Payout:
    # The row lock serialises every decision on this payout: of two staff approving at once, the
    # second sees the first one's decision (and the money already moved), so it pays once.
    payout = Payout.objects.select_for_update().filter(pk=payout_id).first()
    if payout is None:
        raise NotFound(T("There is no payout {payout}.", payout=payout_id))
    return payout


def _check_reviewer(payout: Payout, by: User) -> None:
    if not getattr(by, "is_staff", False):
        raise Forbidden(T("Only staff can decide payouts."))
    # Everyone who sat at a money table paid in from their wallet, so the books know who played.
    if Posting.objects.filter(transaction__table_id=payout.table_id, account__user=by).exists():
        raise Forbidden(T("You played at this table, so you cannot decide its payouts; ask another staff member."))


def _check_pending(payout: Payout) -> None:
    if payout.status == Payout.Status.PENDING:
        return
    last = payout.decisions.order_by("-at", "-pk").first()
    who: str = (last.by.get_username() if last.by else T("automatically")) if last else T("earlier")
    when: str = rfc3339(payout.decided_at) or T("earlier")
    if payout.status == Payout.Status.REJECTED:
        raise PayoutDecided(
            T(
                "Payout {payout} was rejected ({who}, {when}); a rejected payout cannot be approved or rejected again. "
                "Its money is back in the table's escrow, for follow-up.",
                payout=payout.pk,
                who=who,
                when=when,
            ),
            payout_id=payout.pk,
            payout_status=payout.status,
        )
    raise PayoutDecided(
        T(
            "Payout {payout} was already approved ({who}, {when}) and paid; it cannot be decided again.",
            payout=payout.pk,
            who=who,
            when=when,
        ),
        payout_id=payout.pk,
        payout_status=payout.status,
    )


def approve(*, payout_id: int, by: User, reason: str = "") -> Payout:
    """Record ``by``'s approval; once the payout has the approvals it needs, post pending -> wallet."""
    with transaction.atomic():
        payout = _locked(payout_id)
        _check_reviewer(payout, by)
        _check_pending(payout)
        for hold in _holds:
            hold(payout)
        if payout.decisions.filter(by=by, decision=PayoutDecision.Decision.APPROVE).exists():
            raise SecondApproverNeeded(
                T(
                    "You already approved payout {payout}; above {limit} {currency} "
                    "a second, different staff member must approve it.",
                    payout=payout.pk,
                    limit=format_amount(two_person_limit(payout.currency), payout.currency),
                    currency=payout.currency,
                ),
                payout_id=payout.pk,
            )
        PayoutDecision.objects.create(
            payout=payout, by=by, decision=PayoutDecision.Decision.APPROVE, reason=reason.strip()[:500]
        )
        approvals = payout.decisions.filter(decision=PayoutDecision.Decision.APPROVE, by__isnull=False).count()
        if approvals >= payout.approvals_needed:
            # Only a player's payout waits for a decision: a bot's (no user) is decided when it opens.
            assert payout.user_id is not None
            destination = keys.wallet_key(payout.user_id, payout.currency)
            _move(payout, destination, PAID, Payout.Status.APPROVED, by=by, memo=f"Payout of {_money(payout)} approved")
        return payout


def reject(*, payout_id: int, by: User, reason: str) -> Payout:
    """Refuse the payout: its money goes back to the table's escrow and the table is marked for follow-up."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidRequest(T("Say why the payout is rejected (a reason is required)."), field="reason")
    with transaction.atomic():
        payout = _locked(payout_id)
        _check_reviewer(payout, by)
        _check_pending(payout)
        PayoutDecision.objects.create(
            payout=payout, by=by, decision=PayoutDecision.Decision.REJECT, reason=reason[:500]
        )
        _move(
            payout,
            keys.escrow_key(payout.table_id, payout.currency),
            RETURNED,
            Payout.Status.REJECTED,
            by=by,
            memo=f"Payout of {_money(payout)} rejected: {reason}"[:500],
        )
        FollowUp.objects.create(table_id=payout.table_id, payout=payout, reason=reason[:500], created_by=by)
        return payout


# --- proving ------------------------------------------------------------------------------------


@register_checker
def payouts_backed() -> Iterable[Problem]:
    """A pending payout's account holds exactly its amount; a decided one's account is empty and
    its one transaction moved exactly its amount out of it."""
    balances = dict(Account.objects.filter(key__in=Payout.objects.values("pending_key")).values_list("key", "balance"))
    for payout in Payout.objects.order_by("pk").iterator():
        held = balances.get(payout.pending_key, 0)
        subject = f"payout:{payout.pk}"
        if payout.status == Payout.Status.PENDING:
            if held != payout.amount:
                yield Problem(
                    "payout_unbacked", subject, f"{payout.pending_key} holds {held}, the payout is {payout.amount}"
                )
            continue
        if held != 0:
            yield Problem("payout_not_emptied", subject, f"decided, but {payout.pending_key} still holds {held}")
        if payout.transaction_id is None:
            yield Problem("payout_without_transaction", subject, f"{payout.status} but no money moved")
            continue
        out = (
            Posting.objects.filter(transaction_id=payout.transaction_id, account__key=payout.pending_key).aggregate(
                total=Sum("amount")
            )["total"]
            or 0
        )
        if out != -payout.amount:
            yield Problem(
                "payout_amount_mismatch", subject, f"its transaction moved {-out}, the payout is {payout.amount}"
            )
        approvals = payout.decisions.filter(decision=PayoutDecision.Decision.APPROVE).values("by").distinct().count()
        if payout.status == Payout.Status.APPROVED and not payout.automatic and approvals < payout.approvals_needed:
            yield Problem(
                "payout_under_approved", subject, f"{approvals} approver(s), {payout.approvals_needed} needed"
            )
