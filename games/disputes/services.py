"""The writes of disputes: filing, taking, deciding, approving a compensation and paying it, and
the hold on a disputed table's pending payouts. Every move of a dispute's row comes with the
``DisputeStep`` that records it, in one transaction; money moves only through ``ledger.services``.

Rules chosen here:

- Only a person who sat at the table files, on a hand that is over (``finished_hand``), within
  ``DISPUTE_WINDOW_DAYS`` of the hand's end (its seed revealed, else its last event); on a payout,
  within the window from when the payout opened. One unsettled dispute (open, under review or
  awaiting approval) per player and hand; once it is settled, another may be filed.
- Members of the ``auditors`` group and staff take and decide; anyone who played at the table
  (sat there, or moved money at it) may not, nor may they read its review.
- An upheld dispute names a compensation, a referral, or both. A compensation is bounded by what
  the player lost on the hand (or at the table), less what was upheld for it already
  (``games.disputes.bounds``). The deciding auditor's decision is the compensation's first
  approval: while the compensations upheld for the hand (or table), this one with them, are at or
  below ``PAYOUT_TWO_PERSON_LIMIT`` it is paid at once; above it a second person, a member of staff
  who is neither the filer, nor the decider, nor anyone who played at the table, approves and it is
  paid then.
- The second member of staff may instead decline the compensation, with a reason: the dispute
  goes back to its auditor (``under_review``) to be decided again; every step stays.
- While a dispute on a table is open (``open`` or ``under_review``) none of the table's pending
  payouts can be approved (``payout_held``; rejecting stays possible, as it pays nobody). The
  decision releases them, and says which.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games import notify, selectors
from games.audit.hand import AUDITORS, finished_hand
from games.disputes import bounds
from games.disputes.models import Dispute, DisputeStep
from games.engine.words import N, T
from games.errors import Conflict, Forbidden, InvalidRequest, NotFound, ServiceError
from games.models import Seat, Table
from ledger import keys
from ledger.models import Payout, Posting
from ledger.services import post
from ledger.times import rfc3339
from ledger.units import format_amount, parse_amount

COMPENSATION = "dispute_compensation"
REFERRALS = ("void_table", "other")
Kind = DisputeStep.Kind
State = Dispute.State


def now() -> datetime:
    """The time the service reads (the tests move it to make the window pass)."""
    return timezone.now()


def window() -> timedelta:
    return timedelta(days=int(getattr(settings, "DISPUTE_WINDOW_DAYS", 30)))


def is_auditor(user: Any) -> bool:
    """Staff and members of the ``auditors`` group."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.groups.filter(name=AUDITORS).exists())


def played_at(user: Any, table_id: Any) -> bool:
    """Whether ``user`` sat at the table or moved money at it (a buy-in, a payout)."""
    return (
        Seat.objects.filter(table_id=table_id, user=user).exists()
        or Posting.objects.filter(transaction__table_id=table_id, account__user=user).exists()
    )


# --- filing -------------------------------------------------------------------------------------


def file(*, user: Any, table_id: Any, hand_no: int, category: str, words: str, payout_id: int | None = None) -> Dispute:
    """File ``user``'s dispute on hand ``hand_no`` (or on payout ``payout_id``) of the table."""
    words = (words or "").strip()
    if category not in Dispute.Category.values:
        raise InvalidRequest(T("Choose a category: cards, rules, timer or money."), field="category")
    if not words:
        raise InvalidRequest(T("Say in a few words what was wrong."), field="words")
    table = selectors.get_table(table_id)
    seat = Seat.objects.filter(table=table, user=user).order_by("number").first()
    if seat is None:
        raise Forbidden(T("You did not play at this table, so you cannot dispute its hands."), code="not_your_hand")
    payout = None
    if payout_id is not None:
        payout = Payout.objects.filter(pk=payout_id, table_id=table.pk, user=user).first()
        if payout is None:
            raise NotFound(T("You have no payout {payout} at this table.", payout=payout_id), code="no_such_payout")
    ended = _hand_ended(table, hand_no)
    start = payout.created_at if payout is not None else ended
    _refuse_window_closed(start + window())
    with transaction.atomic():
        existing = _open_dispute(table, hand_no, user)
        if existing is not None:
            raise _already_open(existing)
        try:
            # Two filings racing for one hand: the partial unique index lets one in.
            with transaction.atomic():
                dispute = Dispute.objects.create(
                    table=table,
                    hand_no=hand_no,
                    payout=payout,
                    user=user,
                    seat=seat.number,
                    category=category,
                    words=words[:2000],
                    filed_at=now(),
                )
        except IntegrityError:
            raise _already_open(_open_dispute(table, hand_no, user)) from None
        _step(dispute, Kind.FILED, by=user, reason=dispute.words, category=category, payout=payout_id)
        held = _pending_payouts(table.pk)
        if held:
            _step(dispute, Kind.PAYOUTS_HELD, payouts=held)
        notify.dispute_changed(dispute)
        return dispute


def _hand_ended(table: Table, hand_no: int) -> datetime:
    """When hand ``hand_no`` ended; refuses a hand never dealt or still in progress."""
    try:
        hand = finished_hand(table, hand_no)
    except ServiceError as error:
        if error.code == "hand_in_progress":
            raise Conflict(
                T("Hand {hand} is still in progress; you can dispute it once it is over.", hand=hand_no),
                code="hand_in_progress",
            ) from None
        raise NotFound(T("This table has no hand {hand}.", hand=hand_no), code="no_such_hand") from None
    return hand.seed.revealed_at or hand.rows[-1].created_at


def _refuse_window_closed(closes: datetime) -> None:
    """Refuse a filing once the window that closes at ``closes`` has passed."""
    if now() > closes:
        raise Conflict(
            N(
                "Disputes on this hand closed on {closed}, {count} day after it ended.",
                "Disputes on this hand closed on {closed}, {count} days after it ended.",
                window().days,
                closed=rfc3339(closes),
            ),
            code="dispute_window_closed",
            closed_at=rfc3339(closes),
        )


def _open_dispute(table: Table, hand_no: int, user: Any) -> Dispute | None:
    return Dispute.objects.filter(table=table, hand_no=hand_no, user=user, state__in=Dispute.UNSETTLED_STATES).first()


def _already_open(existing: Dispute | None) -> Conflict:
    return Conflict(
        T("You already have an open dispute on this hand; it will be decided before you can file another."),
        code="dispute_already_open",
        dispute_id=existing.pk if existing else None,
    )


def _pending_payouts(table_id: Any) -> list[int]:
    return list(
        Payout.objects.filter(table_id=table_id, status=Payout.Status.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _step(dispute: Dispute, kind: str, *, by: Any = None, reason: str = "", **data: Any) -> DisputeStep:
    """Append the dispute's next step (the dispute's row is locked, or new, so ``n`` is free)."""
    last = dispute.steps.aggregate(last=Max("n"))["last"] or 0
    return DisputeStep.objects.create(
        dispute=dispute, n=last + 1, kind=kind, by=by, at=now(), reason=reason[:2000], data=data
    )


# --- reviewing ----------------------------------------------------------------------------------


def _locked(dispute_id: int) -> Dispute:
    # The row lock serialises every move of one dispute: of two auditors taking it at once, or two
    # staff approving its compensation, the second sees what the first did.
    dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(T("There is no dispute {dispute}.", dispute=dispute_id), code="not_found")
    return dispute


def check_reviewer(dispute: Dispute, by: Any) -> None:
    """Refuse anyone but an auditor or staff member who did not play at the dispute's table."""
    if not is_auditor(by):
        raise Forbidden(T("Only auditors and staff review disputes."), code="not_auditor")
    if by.pk == dispute.user_id or played_at(by, dispute.table_id):
        raise Forbidden(
            T("You played at this table, so you cannot review its disputes; another auditor will."),
            code="played_at_table",
        )


def take(*, dispute_id: int, by: Any) -> Dispute:
    """``by`` takes the open dispute for review (again by the same auditor: no change)."""
    with transaction.atomic():
        dispute = _locked(dispute_id)
        check_reviewer(dispute, by)
        _take(dispute, by)
        return dispute


def _take(dispute: Dispute, by: Any) -> None:
    if dispute.state == State.UNDER_REVIEW and dispute.taken_by_id == by.pk:
        return
    if dispute.state == State.UNDER_REVIEW:
        raise Conflict(
            T("Another auditor has taken this dispute."), code="dispute_taken", taken_by=dispute.taken_by.get_username()
        )
    if dispute.state != State.OPEN:
        raise Conflict(T("This dispute has been decided."), code="dispute_decided", state=dispute.state)
    dispute.state = State.UNDER_REVIEW
    dispute.taken_by = by
    dispute.save(update_fields=["state", "taken_by"])
    _step(dispute, Kind.TAKEN, by=by)
    notify.dispute_changed(dispute)


def decide(
    *,
    dispute_id: int,
    by: Any,
    outcome: str,
    reasons: str,
    compensation: str | None = None,
    referral: str | None = None,
    referral_note: str = "",
) -> Dispute:
    """Uphold or reject the dispute, with reasons the player reads. An upheld dispute names its
    remedy: a ``compensation`` (a decimal string in the table's currency), a ``referral``, or both."""
    reasons = (reasons or "").strip()
    _check_decision(outcome, reasons, compensation, referral)
    with transaction.atomic():
        dispute = _locked(dispute_id)
        check_reviewer(dispute, by)
        if dispute.state not in Dispute.OPEN_STATES:
            raise Conflict(T("This dispute has been decided."), code="dispute_decided", state=dispute.state)
        _take(dispute, by)
        amount, currency = _compensation(dispute, compensation)
        if amount:
            # Over what the player lost, less what was upheld for it already, only a referral
            # remains; past the budget, nothing the house can pay. Checked now, so a decision never
            # waits on a payment that must fail; under the player's lock, so a decision on another
            # of their disputes at once cannot count the same loss (bounds.lock_player).
            bounds.lock_player(dispute)
            bounds.check_bound(dispute, amount, currency)
            bounds.check_budget(amount, currency)
        dispute.outcome = outcome
        dispute.decided_at = now()
        _step(
            dispute,
            Kind.DECIDED,
            by=by,
            reason=reasons,
            outcome=outcome,
            compensation=format_amount(amount, currency) if amount else None,
            compensation_minor=amount,
            currency=currency or None,
            referral=referral,
        )
        if referral:
            # Recorded for the people who act on it; voiding a table is not built (docs/api.md).
            _step(dispute, Kind.REFERRED, by=by, reason=referral_note.strip(), referral=referral)
        _settle(dispute, by, outcome, amount, currency)
        dispute.save(update_fields=["state", "outcome", "decided_at", "compensation", "currency", "approvals_needed"])
        if dispute.approvals_needed == 1:
            _pay(dispute, by)
        _release(dispute)
        notify.dispute_changed(dispute)
        return dispute


def _check_decision(outcome: str, reasons: str, compensation: str | None, referral: str | None) -> None:
    """Refuse a decision without an outcome or reasons, or whose remedy does not fit its outcome."""
    if outcome not in Dispute.Outcome.values:
        raise InvalidRequest(T("The outcome is upheld or rejected."), field="outcome")
    if not reasons:
        raise InvalidRequest(T("Give the reasons the player will read."), field="reasons")
    if referral is not None and referral not in REFERRALS:
        raise InvalidRequest(T("A referral is void_table or other."), field="referral")
    if outcome == Dispute.Outcome.REJECTED and (compensation or referral):
        raise InvalidRequest(
            T("A rejected dispute has no remedy."), field="compensation" if compensation else "referral"
        )
    if outcome == Dispute.Outcome.UPHELD and not compensation and not referral:
        raise InvalidRequest(
            T("An upheld dispute states its remedy: a compensation, a referral or both."), field="compensation"
        )


def _settle(dispute: Dispute, by: Any, outcome: str, amount: int, currency: str) -> None:
    """The decided dispute's next state: rejected, upheld, or awaiting its compensation's approvals
    (the decider's being the first), two of them when the hand's (or table's) upheld compensations
    with this one are above the two-person limit."""
    if outcome == Dispute.Outcome.REJECTED:
        dispute.state = State.REJECTED
    elif amount:
        dispute.compensation, dispute.currency = amount, currency
        dispute.approvals_needed = bounds.approvals_needed(dispute, amount, currency)
        _step(dispute, Kind.COMPENSATION_APPROVED, by=by, approval=1)
        dispute.state = State.AWAITING_APPROVAL
    else:
        dispute.state = State.UPHELD


def _compensation(dispute: Dispute, text: str | None) -> tuple[int, str]:
    if not text:
        return 0, ""
    currency = dispute.table.currency
    if not currency:
        raise InvalidRequest(
            T("This table played for no money, so a compensation cannot be paid; refer the dispute instead."),
            field="compensation",
        )
    amount = parse_amount(text, currency)
    if amount <= 0:
        raise InvalidRequest(T("A compensation is more than zero."), field="compensation")
    return amount, currency


def approve_compensation(*, dispute_id: int, by: Any, reason: str = "") -> Dispute:
    """A second member of staff approves an upheld dispute's compensation above the two-person
    limit; with the approvals it needs, it is paid."""
    with transaction.atomic():
        dispute = _locked(dispute_id)
        _check_approver(dispute, by)
        approvers = current_approvers(dispute)
        if dispute.state != State.AWAITING_APPROVAL:
            raise Conflict(
                T("This dispute's compensation does not wait for an approval."),
                code="dispute_not_awaiting_approval",
                state=dispute.state,
            )
        if by.pk in approvers:
            raise Conflict(
                T("You already approved this compensation; a second, different member of staff must approve it."),
                code="second_approver_needed",
            )
        # The second approver sees the same limits as the decision: the books may have moved since.
        bounds.lock_player(dispute)
        bounds.check_bound(dispute, dispute.compensation, dispute.currency)
        bounds.check_budget(dispute.compensation, dispute.currency)
        _step(dispute, Kind.COMPENSATION_APPROVED, by=by, reason=reason.strip(), approval=len(approvers) + 1)
        if len(approvers) + 1 >= dispute.approvals_needed:
            _pay(dispute, by)
            notify.dispute_changed(dispute)
        return dispute


def decline_compensation(*, dispute_id: int, by: Any, reason: str) -> Dispute:
    """The second member of staff refuses the compensation: the dispute goes back to the auditor
    who decided it, to be decided again (the decision and this refusal stay in its steps)."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidRequest(T("Say why the compensation is declined."), field="reason")
    with transaction.atomic():
        dispute = _locked(dispute_id)
        _check_approver(dispute, by)
        if dispute.state != State.AWAITING_APPROVAL:
            raise Conflict(
                T("This dispute's compensation does not wait for an approval."),
                code="dispute_not_awaiting_approval",
                state=dispute.state,
            )
        if by.pk in current_approvers(dispute):
            raise Conflict(
                T("You approved this compensation; a second, different member of staff decides on it."),
                code="second_approver_needed",
            )
        _step(
            dispute,
            Kind.COMPENSATION_DECLINED,
            by=by,
            reason=reason,
            compensation=format_amount(dispute.compensation, dispute.currency),
            currency=dispute.currency,
        )
        dispute.state = State.UNDER_REVIEW
        dispute.outcome, dispute.decided_at = "", None
        dispute.compensation, dispute.currency, dispute.approvals_needed = 0, "", 0
        dispute.save(update_fields=["state", "outcome", "decided_at", "compensation", "currency", "approvals_needed"])
        held = _pending_payouts(dispute.table_id)
        if held:  # open again: the table's pending payouts wait for the new decision
            _step(dispute, Kind.PAYOUTS_HELD, payouts=held)
        notify.dispute_changed(dispute)
        return dispute


def current_approvers(dispute: Dispute) -> set[int]:
    """Who approved the compensation of the dispute's latest decision (a declined one's approvals
    do not count for the next)."""
    decided = dispute.steps.filter(kind=Kind.DECIDED).aggregate(last=Max("n"))["last"] or 0
    approvals = dispute.steps.filter(kind=Kind.COMPENSATION_APPROVED, n__gt=decided, by__isnull=False)
    return set(approvals.values_list("by_id", flat=True))


def _check_approver(dispute: Dispute, by: Any) -> None:
    if not getattr(by, "is_staff", False):
        raise Forbidden(T("Only staff approve a compensation."), code="not_staff")
    if by.pk == dispute.user_id or played_at(by, dispute.table_id):
        raise Forbidden(T("You played at this table, so you cannot approve its compensation."), code="played_at_table")


def _pay(dispute: Dispute, by: Any) -> None:
    """Pay the compensation once: house compensation account -> the player's wallet."""
    currency, amount = dispute.currency, dispute.compensation
    # Under the compensation account's lock: two payments at once cannot both spend the last of it.
    bounds.check_budget(amount, currency, lock=True)
    txn = post(
        key=f"dispute:{dispute.pk}:compensation",
        postings=[
            (keys.house_compensation_key(currency), currency, -amount),
            (keys.wallet_key(dispute.user_id, currency), currency, amount),
        ],
        kind=COMPENSATION,
        memo=f"Compensation of {format_amount(amount, currency)} {currency} for dispute {dispute.pk}",
        reference=f"dispute:{dispute.pk}",
        table_id=dispute.table_id,
        created_by=by,
    )
    dispute.transaction = txn
    dispute.state = State.UPHELD
    dispute.save(update_fields=["transaction", "state"])
    _step(
        dispute,
        Kind.COMPENSATION_PAID,
        by=by,
        transaction=txn.pk,
        amount=format_amount(amount, currency),
        amount_minor=amount,
        currency=currency,
    )


def _release(dispute: Dispute) -> None:
    """Once no dispute on the table is open, its held payouts may be approved again: say which."""
    if Dispute.objects.filter(table_id=dispute.table_id, state__in=Dispute.OPEN_STATES).exists():
        return
    if not dispute.steps.filter(kind=Kind.PAYOUTS_HELD).exists():
        return
    _step(dispute, Kind.PAYOUTS_RELEASED, payouts=_pending_payouts(dispute.table_id))


# --- the payout hold and the books --------------------------------------------------------------


def refuse_held_payout(payout: Payout) -> None:
    """The ledger's payout hold: refuse approving a payout of a table with an open dispute."""
    held_by = (
        Dispute.objects.filter(table_id=payout.table_id, state__in=Dispute.OPEN_STATES)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if held_by is not None:
        raise Conflict(
            T(
                "Payout {payout} is held while dispute {dispute} on its table is open; "
                "approve it once the dispute is decided.",
                payout=payout.pk,
                dispute=held_by,
            ),
            code="payout_held",
            dispute_id=held_by,
        )
