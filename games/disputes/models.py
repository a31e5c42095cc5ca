"""A dispute and its append-only steps.

The ``Dispute`` row holds what the player filed (never changed) and where the dispute stands
(``state``, ``outcome``, ``taken_by``, ``decided_at``: moved only by ``games.disputes.services``,
each move together with the step that records it). ``DisputeStep`` rows are never changed or
deleted: the model refuses, and so do database triggers (migration 0002)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Table
from ledger.errors import ImmutableRecord
from ledger.models import Payout, Transaction


class Dispute(models.Model):
    class Category(models.TextChoices):
        CARDS = "cards", "cards or shuffle"
        RULES = "rules", "rules applied"
        TIMER = "timer", "timer or disconnection"
        MONEY = "money", "money"

    class State(models.TextChoices):
        OPEN = "open"  # filed, waiting for an auditor
        UNDER_REVIEW = "under_review"  # an auditor took it
        AWAITING_APPROVAL = "awaiting_approval"  # upheld; its compensation waits for a second person
        UPHELD = "upheld"  # decided for the player; any compensation paid
        REJECTED = "rejected"

    class Outcome(models.TextChoices):
        UPHELD = "upheld"
        REJECTED = "rejected"

    # Open: its table's pending payouts are held. Unsettled: the player cannot file another on the hand.
    OPEN_STATES = (State.OPEN, State.UNDER_REVIEW)
    UNSETTLED_STATES = (State.OPEN, State.UNDER_REVIEW, State.AWAITING_APPROVAL)

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="disputes")
    hand_no = models.PositiveIntegerField()
    payout = models.ForeignKey(Payout, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes")
    seat = models.PositiveIntegerField()
    category = models.CharField(max_length=16, choices=Category.choices)
    words = models.TextField(max_length=2000)
    filed_at = models.DateTimeField(default=timezone.now)

    state = models.CharField(max_length=20, choices=State.choices, default=State.OPEN)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes_taken"
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    # An upheld dispute's compensation, in the table's currency (minor units; 0: none).
    compensation = models.BigIntegerField(default=0)
    currency = models.CharField(max_length=3, blank=True, default="")
    approvals_needed = models.PositiveSmallIntegerField(default=0)
    transaction = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="dispute"
    )

    class Meta:
        constraints = [
            # One unsettled dispute per player and hand; a race of two filings meets this.
            models.UniqueConstraint(
                fields=["table", "hand_no", "user"],
                condition=Q(state__in=["open", "under_review", "awaiting_approval"]),
                name="dispute_one_open_per_player_and_hand",
            ),
        ]
        ordering = ["filed_at", "pk"]

    def __str__(self) -> str:
        return f"dispute {self.pk} on hand {self.hand_no} of {self.table_id}: {self.state}"


class DisputeStep(models.Model):
    """One step of a dispute: what happened, who did it (``None``: the service), when and why."""

    class Kind(models.TextChoices):
        FILED = "filed"
        PAYOUTS_HELD = "payouts_held"
        TAKEN = "taken"
        DECIDED = "decided"
        REFERRED = "referred"
        COMPENSATION_APPROVED = "compensation_approved"
        COMPENSATION_DECLINED = "compensation_declined"
        COMPENSATION_PAID = "compensation_paid"
        PAYOUTS_RELEASED = "payouts_released"

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="steps")
    n = models.PositiveIntegerField()  # 1, 2, 3 … per dispute
    kind = models.CharField(max_length=24, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="dispute_steps"
    )
    at = models.DateTimeField(default=timezone.now)
    reason = models.TextField(max_length=2000, blank=True, default="")
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["dispute", "n"], name="dispute_step_unique_n")]
        ordering = ["dispute", "n"]

    def __str__(self) -> str:
        return f"{self.dispute_id}.{self.n} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableRecord(f"DisputeStep {self.pk} is immutable; record a new step instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ImmutableRecord(f"DisputeStep {self.pk} is immutable; record a new step instead.")
