"""A person's own money, as their wallet page reads it: each line of their wallets in words (what
moved, why, the balance after it, the table it was for) and their payouts (the table and game,
where each stands, and the decision's reason once decided). Never another person's rows: every
read starts from the person's own accounts or payouts."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, Sum

from games.engine import registry
from games.engine.words import Amount, T, Text
from games.models import Table
from ledger import keys
from ledger import payouts as ledger_payouts
from ledger.models import Payout, PayoutDecision, Posting
from ledger.records import automatic_reason
from ledger.times import rfc3339
from ledger.units import format_amount

# The words of a game's movements out of a wallet (the ``memo`` of the game's ``Movement``, stored
# in English with the transaction): what the person paid for.
MOVEMENT_WORDS = {
    "buy-in": T("Buy-in at a table"),
    "top-up": T("Chips bought during play"),
    "stake": T("Stake for a game"),
    "chips bought": T("Chips bought at a table"),
    "La Viuda bought": T("The widow bought (La Viuda)"),
}


def lines(user: Any) -> QuerySet[Posting]:
    """Every posting on ``user``'s wallets, newest first."""
    return (
        Posting.objects.filter(account__user=user, account__kind=keys.Kind.WALLET)
        .select_related("transaction", "transaction__payout")
        .order_by("-pk")
    )


def lines_json(postings: list[Posting]) -> list[dict[str, Any]]:
    """A page of ``lines`` as the person reads it, each with the wallet's balance just after it."""
    games = _games({str(p.transaction.table_id) for p in postings if p.transaction.table_id})
    after = _balances_after(postings)
    return [_line(p, after[p.pk], games) for p in postings]


def _balances_after(postings: list[Posting]) -> dict[int, int]:
    """Each posting's wallet balance just after it: the sum of the wallet's postings up to the
    page's newest one (one query per wallet on the page, exact whatever the cursor), then walked
    back down the page."""
    newest: dict[int, int] = {}
    for posting in postings:
        newest[posting.account_id] = max(newest.get(posting.account_id, 0), posting.pk)
    running = {
        account: Posting.objects.filter(account_id=account, pk__lte=pk).aggregate(total=Sum("amount"))["total"] or 0
        for account, pk in newest.items()
    }
    after = {}
    for posting in sorted(postings, key=lambda p: p.pk, reverse=True):
        after[posting.pk] = running[posting.account_id]
        running[posting.account_id] -= posting.amount
    return after


def _line(posting: Posting, balance_after: int, games: dict[str, str]) -> dict[str, Any]:
    txn = posting.transaction
    table_id = str(txn.table_id) if txn.table_id else None
    payout = getattr(txn, "payout", None)
    game = games.get(table_id) if table_id else None
    return {
        "id": posting.pk,
        "transaction_id": txn.pk,
        "kind": txn.kind,
        "description": describe(txn.kind, txn.memo, posting.amount, reverses=txn.reverses_id),
        "currency": posting.unit,
        "amount": format_amount(posting.amount, posting.unit),
        "amount_minor": posting.amount,
        "balance_after": format_amount(balance_after, posting.unit),
        "balance_after_minor": balance_after,
        "table_id": table_id,
        "game": game,
        "game_name": _game_name(game),
        "hand_no": txn.hand_no,
        "payout_id": payout.pk if payout is not None else None,
        "created_at": rfc3339(txn.created_at),
    }


def describe(kind: str, memo: str, amount: int, *, reverses: int | None = None) -> Text:
    """A wallet line in words, from its transaction's kind (and, for a game's own movements, the
    words its game stored with them)."""
    if kind == "deposit":
        return T("Deposit")
    if kind == "withdrawal":
        return T("Withdrawal")
    if kind == "reversal":
        return T("Correction of transaction {transaction}", transaction=reverses)
    if kind == "buy_in_reserved":
        return T("Buy-in set aside for a table until it starts")
    if kind == "buy_in_released":
        return T("Buy-in set aside returned (the table started or you left it)")
    if kind == ledger_payouts.PAID:
        return T("Winnings paid out after review")
    if kind == "dispute_compensation":
        return T("Compensation for a disputed hand")
    for part in memo.split("; "):
        if part in MOVEMENT_WORDS:
            return MOVEMENT_WORDS[part]
    return T("Paid at a table") if amount < 0 else T("Received from a table")


def payouts(user: Any) -> QuerySet[Payout]:
    """``user``'s payouts, newest first."""
    return Payout.objects.filter(user=user).prefetch_related("decisions").order_by("-created_at", "-pk")


def payouts_json(rows: list[Payout]) -> list[dict[str, Any]]:
    """A page of ``payouts`` as their person reads it: no staff names, the decision's reason."""
    games = _games({str(p.table_id) for p in rows})
    return [_payout(p, games) for p in rows]


def _payout(payout: Payout, games: dict[str, str]) -> dict[str, Any]:
    decisions = list(payout.decisions.all())
    approvals = sum(1 for d in decisions if d.decision == PayoutDecision.Decision.APPROVE)
    game = games.get(str(payout.table_id))
    return {
        "id": payout.pk,
        "table_id": str(payout.table_id),
        "game": game,
        "game_name": _game_name(game),
        "seat": payout.seat,
        "currency": payout.currency,
        "amount": format_amount(payout.amount, payout.currency),
        "amount_minor": payout.amount,
        "status": payout.status,
        "status_text": status_text(payout),
        "reason": _reason(payout, decisions),
        "automatic": payout.automatic,
        "approvals": approvals,
        "approvals_needed": payout.approvals_needed,
        "created_at": rfc3339(payout.created_at),
        "decided_at": rfc3339(payout.decided_at),
        "transaction_id": payout.transaction_id,
    }


def status_text(payout: Payout) -> Text:
    """Where the payout stands, in a sentence for its person (the amount in the reader's digits)."""
    money = Amount(format_amount(payout.amount, payout.currency), payout.currency)
    if payout.status == Payout.Status.APPROVED:
        return T("Approved: {amount} was paid into your wallet.", amount=money)
    if payout.status == Payout.Status.REJECTED:
        return T("Rejected: {amount} was not paid; the table's money is held for follow-up.", amount=money)
    return T("Waiting for staff review: {amount} is paid into your wallet once approved.", amount=money)


def _reason(payout: Payout, decisions: list[PayoutDecision]) -> str | None:
    """The deciding decision's reason once the payout is decided (a rule's in the reader's words);
    ``None`` while it waits or when staff gave none."""
    if payout.status == Payout.Status.PENDING:
        return None
    wanted = (
        PayoutDecision.Decision.REJECT if payout.status == Payout.Status.REJECTED else PayoutDecision.Decision.APPROVE
    )
    deciding = [d for d in decisions if d.decision == wanted]
    if not deciding:
        return None
    last = deciding[-1]
    reason = automatic_reason(last.reason) if last.by_id is None else last.reason
    return reason or None


def _games(table_ids: set[str]) -> dict[str, str]:
    """Each table's game slug, by table id, in one query."""
    rows = Table.objects.filter(pk__in=list(table_ids)).values_list("pk", "game")
    return {str(pk): game for pk, game in rows}


def _game_name(slug: str | None) -> Text | None:
    if slug is None:
        return None
    try:
        return registry.get(slug).name  # type: ignore[return-value]
    except KeyError:
        return None
