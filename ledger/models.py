"""Double-entry books: accounts, and immutable transactions whose postings sum to zero per unit.

Writes go through ``ledger.services`` only. A transaction or posting is never changed or deleted:
the models refuse it, and so does the database (triggers installed by migration 0002).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from ledger.errors import ImmutableRecord
from ledger.keys import Kind
from ledger.units import format_amount


class Account(models.Model):
    """A named balance in one unit. ``balance`` is a cache of the sum of the account's postings,
    maintained by ``services.post`` under a row lock and proved by ``reconcile``."""

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.CHOICES)
    unit = models.CharField(max_length=8)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_accounts"
    )
    # A plain UUID, not a foreign key: the ledger knows nothing about games.
    table_id = models.UUIDField(null=True, blank=True, db_index=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    allow_negative = models.BooleanField(default=False)
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(allow_negative=True), name="ledger_account_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.key


class _Immutable(models.Model):
    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableRecord(f"{type(self).__name__} {self.pk} is immutable; post a reversal instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ImmutableRecord(f"{type(self).__name__} {self.pk} is immutable; post a reversal instead.")


class Transaction(_Immutable):
    """One balanced movement. ``idempotency_key`` makes posting it again a no-op that returns it."""

    idempotency_key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=32)
    memo = models.CharField(max_length=500, blank=True)
    reference = models.CharField(max_length=200, blank=True, db_index=True)
    table_id = models.UUIDField(null=True, blank=True, db_index=True)
    hand_no = models.PositiveIntegerField(null=True, blank=True)
    # One-to-one: the database itself allows a transaction to be reversed only once.
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.kind} {self.idempotency_key}"


class Posting(_Immutable):
    """A signed amount on one account; the postings of a transaction sum to zero per unit."""

    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="postings")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="postings")
    unit = models.CharField(max_length=8)
    amount = models.BigIntegerField()

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="ledger_posting_amount_not_zero")]

    def __str__(self) -> str:
        return f"{self.account_id} {self.amount:+d} {self.unit}"


class PendingDeposit(Transaction):
    """The transactions that open a deposit above ``DEPOSIT_TWO_PERSON_LIMIT`` (kind
    ``deposit_pending``), as the admin lists the deposits waiting for a second member of staff."""

    class Meta:
        proxy = True
        verbose_name = "large deposit"


class Payout(models.Model):
    """Money a finished table owes a seat, held in a pending account until staff decide it.

    ``pending_key`` names the account that holds the money (``payout:<table>.<seat>:<CUR>``). The
    money leaves it exactly once: to the wallet (approved) or back to the table's escrow (rejected).
    ``approvals_needed`` is 2 above ``PAYOUT_TWO_PERSON_LIMIT``; ``automatic`` marks a payout
    decided by a rule (a bot's winnings, an amount below ``PAYOUT_AUTO_APPROVE_BELOW``).
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"

    table_id = models.UUIDField(db_index=True)
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="payouts"
    )
    currency = models.CharField(max_length=3)
    amount = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    pending_key = models.CharField(max_length=200, unique=True)
    approvals_needed = models.PositiveSmallIntegerField(default=1)
    automatic = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    # The transaction that moved the money out of the pending account (to a wallet or the escrow).
    transaction = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="payout"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_id", "seat", "currency"], name="payout_one_per_seat"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payout_amount_positive"),
        ]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        money = f"{format_amount(self.amount, self.currency)} {self.currency}"
        return f"payout {self.pk} seat {self.seat} of {self.table_id}: {money} {self.status}"


class PayoutDecision(_Immutable):
    """One staff member's (or a rule's, ``by`` empty) decision on a payout: who, when and why."""

    class Decision(models.TextChoices):
        APPROVE = "approve"
        REJECT = "reject"

    payout = models.ForeignKey(Payout, on_delete=models.PROTECT, related_name="decisions")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="payout_decisions"
    )
    decision = models.CharField(max_length=10, choices=Decision.choices)
    reason = models.CharField(max_length=500, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # One approval per person per payout: the two-person rule counts different people.
            models.UniqueConstraint(
                fields=["payout", "by", "decision"], condition=Q(by__isnull=False), name="payout_decision_once_each"
            ),
        ]
        ordering = ["at", "pk"]


class FollowUp(models.Model):
    """A table whose money needs a person's attention (a rejected payout put its money back in escrow)."""

    table_id = models.UUIDField(db_index=True)
    payout = models.OneToOneField(Payout, null=True, blank=True, on_delete=models.PROTECT, related_name="follow_up")
    reason = models.CharField(max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
