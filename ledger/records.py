"""The books as JSON records, for hand audits and payout review: transactions with their postings,
payouts with every decision, and the trail of postings on a payout's pending account."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from games.engine.words import T
from ledger.errors import InvalidRequest
from ledger.keys import Kind
from ledger.models import Account, FollowUp, Payout, PayoutDecision, Posting, Transaction
from ledger.reconcile import Problem, register_checker
from ledger.services import APPROVED, PENDING_DEPOSIT, REJECTED, deposit_settlement_key
from ledger.times import rfc3339
from ledger.units import format_amount

STATUSES = tuple(Payout.Status.values)


def transactions_json(queryset: QuerySet[Transaction]) -> list[dict[str, Any]]:
    """Each transaction of ``queryset`` in order with its postings (``amount`` a decimal string,
    ``amount_minor`` the integer of minor units)."""
    postings = Prefetch("postings", queryset=Posting.objects.select_related("account").order_by("pk"))
    return [
        {
            "id": txn.pk,
            "kind": txn.kind,
            "reference": txn.reference,
            "memo": txn.memo,
            "created_at": rfc3339(txn.created_at),
            "postings": [
                {
                    "account": p.account.key,
                    "unit": p.unit,
                    "amount": format_amount(p.amount, p.unit),
                    "amount_minor": p.amount,
                }
                for p in txn.postings.all()
            ],
        }
        for txn in queryset.prefetch_related(postings).order_by("pk")
    ]


def payouts(
    *, status: str | None = None, older_than: int | None = None, oldest_first: bool = False
) -> QuerySet[Payout]:
    """Payouts newest first (``oldest_first``: the longest waiting first), of one status and opened
    more than ``older_than`` seconds ago if given."""
    order = ("created_at", "pk") if oldest_first else ("-created_at", "-pk")
    rows = Payout.objects.select_related("user").prefetch_related("decisions__by").order_by(*order)
    if older_than is not None:
        rows = rows.filter(created_at__lte=timezone.now() - timedelta(seconds=older_than))
    if status:
        if status not in STATUSES:
            raise InvalidRequest(
                T("status must be one of {statuses}, not {status}.", statuses=list(STATUSES), status=repr(status)),
                field="status",
            )
        rows = rows.filter(status=status)
    return rows


# Pending payouts by how long they have waited: (name, from, to) in seconds; the last has no end.
AGES = (("under_1h", 0, 3600), ("1h_to_1d", 3600, 86400), ("1d_to_7d", 86400, 604800), ("over_7d", 604800, None))


def pending_payouts_by_age() -> dict[str, Any]:
    """Staff's report of the payouts waiting for a decision: how many, the oldest, how many have one
    approval of the two they need, and per age (``AGES``) how many and how much in each currency."""
    now = timezone.now()
    approvals = Count("decisions", filter=Q(decisions__decision=PayoutDecision.Decision.APPROVE))
    rows = list(
        Payout.objects.filter(status=Payout.Status.PENDING)
        .annotate(approvals=approvals)
        .values_list("created_at", "currency", "amount", "approvals_needed", "approvals")
    )
    oldest = min((row[0] for row in rows), default=None)
    ages = [((now - created).total_seconds(), currency, amount) for created, currency, amount, _, _ in rows]
    return {
        "pending": len(rows),
        "oldest_at": rfc3339(oldest),
        "oldest_age_seconds": round((now - oldest).total_seconds(), 3) if oldest else None,
        "awaiting_second_approval": sum(1 for *_, needed, given in rows if 0 < given < needed),
        "by_age": [
            _age_group(name, start, end, [(c, a) for age, c, a in ages if start <= age and (end is None or age < end)])
            for name, start, end in AGES
        ],
    }


def _age_group(name: str, start: int, end: int | None, money: list[tuple[str, int]]) -> dict[str, Any]:
    totals: dict[str, int] = defaultdict(int)
    for currency, amount in money:
        totals[currency] += amount
    return {
        "age": name,
        "from_seconds": start,
        "to_seconds": end,
        "payouts": len(money),
        "amounts": [
            {"currency": c, "amount": format_amount(m, c), "amount_minor": m} for c, m in sorted(totals.items())
        ],
    }


def table_payouts(table_id: Any) -> list[dict[str, Any]]:
    """A table's payouts by seat, with every decision (who, when, why) and the transaction that settled each."""
    decisions = Prefetch("decisions", queryset=PayoutDecision.objects.select_related("by").order_by("at", "pk"))
    rows = Payout.objects.filter(table_id=table_id).select_related("user").prefetch_related(decisions)
    return sorted((payout_record(payout) for payout in rows), key=lambda item: item["seat"])


def payout_record(payout: Payout) -> dict[str, Any]:
    """One payout as the audit and the review show it: amount, status, and every decision."""
    return {
        "id": payout.pk,
        "seat": payout.seat,
        "player": payout.user.get_username() if payout.user else None,
        "currency": payout.currency,
        "amount": format_amount(payout.amount, payout.currency),
        "amount_minor": payout.amount,
        "status": payout.status,
        "automatic": payout.automatic,
        "approvals_needed": payout.approvals_needed,
        "pending_account": payout.pending_key,
        "created_at": rfc3339(payout.created_at),
        "decided_at": rfc3339(payout.decided_at),
        "transaction_id": payout.transaction_id,
        "follow_up": _follow_up(payout),
        "decisions": [
            {
                "decision": d.decision,
                "by": d.by.get_username() if d.by else None,
                "automatic": d.by is None,
                "reason": automatic_reason(d.reason) if d.by is None else d.reason,
                "at": rfc3339(d.at),
            }
            for d in payout.decisions.all()
        ],
    }


# The reasons of the decisions made by rule (ledger.payouts), stored in English as they were made.
BOT_WINNINGS = "A bot's winnings go back to the house's bot bankroll."
_BELOW = re.compile(r"^Approved automatically: below (?P<limit>\S+) (?P<currency>[A-Z]{3})\.$")


def automatic_reason(reason: str) -> str:
    """A decision by rule's stored reason as words the reader's language can say; a person's own
    reason stays as they wrote it."""
    if reason == BOT_WINNINGS:
        return T("A bot's winnings go back to the house's bot bankroll.")
    below = _BELOW.match(reason)
    if below:
        return T("Approved automatically: below {limit} {currency}.", **below.groupdict())
    return reason


def _follow_up(payout: Payout) -> dict[str, Any] | None:
    follow_up = FollowUp.objects.filter(payout=payout).first()
    if follow_up is None:
        return None
    return {
        "reason": follow_up.reason,
        "at": rfc3339(follow_up.created_at),
        "resolved": follow_up.resolved_at is not None,
    }


def ledger_trail(payout: Payout) -> list[dict[str, Any]]:
    """Every posting on the payout's pending account: the prize coming in, and the decision taking it out."""
    rows = (
        Posting.objects.filter(account__key=payout.pending_key)
        .select_related("transaction")
        .order_by("transaction__created_at", "pk")
    )
    return [
        {
            "transaction_id": p.transaction_id,
            "kind": p.transaction.kind,
            "reference": p.transaction.reference,
            "amount": format_amount(p.amount, p.unit),
            "amount_minor": p.amount,
            "at": rfc3339(p.transaction.created_at),
        }
        for p in rows
    ]


# --- large deposits -----------------------------------------------------------------------------

DEPOSIT_STATES = ("pending", APPROVED, REJECTED)


def deposit_records(*, state: str | None = None) -> list[dict[str, Any]]:
    """Deposits above the two-person limit, oldest first (of one state if given): who recorded each,
    for whom, how much, and who decided it, when and (a rejection) why. A deposit's decision is the
    one transaction that empties its pending account (``services.deposit_settlement_key``)."""
    if state is not None and state not in DEPOSIT_STATES:
        raise InvalidRequest(
            T("state must be one of {states}, not {state}.", states=list(DEPOSIT_STATES), state=repr(state)),
            field="state",
        )
    opened = Transaction.objects.filter(kind=PENDING_DEPOSIT).select_related("created_by").order_by("created_at", "pk")
    records = deposits_as_records(opened)
    return [r for r in records if state is None or r["state"] == state]


def deposits_as_records(opened: Iterable[Transaction]) -> list[dict[str, Any]]:
    """Each opening transaction of a large deposit (kind ``deposit_pending``) as the deposit's record,
    in a fixed number of queries."""
    incoming = Prefetch("postings", queryset=Posting.objects.filter(amount__gt=0).select_related("account"))
    rows = list(opened)
    prefetch_related_objects(rows, incoming)
    lines = [txn.postings.all()[0] for txn in rows]
    wanted = [deposit_settlement_key(line.account.key, d) for line in lines for d in (APPROVED, REJECTED)]
    settled = {
        txn.idempotency_key: txn
        for txn in Transaction.objects.filter(idempotency_key__in=wanted).select_related("created_by")
    }
    receivers = {_receiver(line) for line in lines}
    users = dict(get_user_model().objects.filter(pk__in=receivers).values_list("pk", "username"))
    return [_deposit_record(line, settled, users) for line in lines]


def _receiver(line: Posting) -> int:
    """The user a pending deposit is for, as its account key names them."""
    return int(line.account.key.split(":")[2])


def _deposit_record(line: Posting, settled: dict[str, Transaction], users: dict[int, str]) -> dict[str, Any]:
    opened = line.transaction
    state, decided = next(
        (
            (d, settled[k])
            for d in (APPROVED, REJECTED)
            if (k := deposit_settlement_key(line.account.key, d)) in settled
        ),
        ("pending", None),
    )
    return {
        "id": opened.reference.split(":", 1)[1],
        "user": users.get(_receiver(line)),
        "currency": line.unit,
        "amount": format_amount(line.amount, line.unit),
        "amount_minor": line.amount,
        "state": state,
        "recorded_by": opened.created_by.get_username() if opened.created_by else None,
        "recorded_at": rfc3339(opened.created_at),
        "transaction_id": opened.pk,
        "decided_by": decided.created_by.get_username() if decided and decided.created_by else None,
        "decided_at": rfc3339(decided.created_at) if decided else None,
        "decision_transaction_id": decided.pk if decided else None,
        "reason": decided.memo if decided and state == REJECTED else None,
    }


@register_checker
def deposits_decided_once() -> Iterable[Problem]:
    """A large deposit's pending account holds its money until one decision, approved or rejected
    and never both, empties it; nothing else may."""
    accounts = list(Account.objects.filter(kind=Kind.PENDING_DEPOSIT).order_by("pk"))
    wanted = [deposit_settlement_key(acc.key, d) for acc in accounts for d in (APPROVED, REJECTED)]
    settled = set(Transaction.objects.filter(idempotency_key__in=wanted).values_list("idempotency_key", flat=True))
    for acc in accounts:
        decisions = [d for d in (APPROVED, REJECTED) if deposit_settlement_key(acc.key, d) in settled]
        subject = f"deposit:{acc.key.split(':')[1]}"
        if len(decisions) > 1:
            yield Problem("deposit_decided_twice", subject, "both approved and rejected")
        elif decisions and acc.balance:
            yield Problem("deposit_not_emptied", subject, f"{decisions[0]}, but {acc.key} still holds {acc.balance}")
        elif not decisions and not acc.balance:
            yield Problem("deposit_emptied_undecided", subject, f"{acc.key} is empty, but no decision emptied it")
